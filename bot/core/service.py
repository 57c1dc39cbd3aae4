"""The command layer: requests in, messages out, the database as the only truth.

Every change of a match goes through :class:`storage.MatchRepository` (version-checked) under
a per-match lock; after it the match is *driven*: automatic rolls, forced plays, dances and
opening rolls are played, then the player who must act gets a board with the right buttons.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.core import registry
from bot.core.base import _MAX_TEXT, MAX_ACCOUNT_ID, clean_name
from bot.core.challenges import ChallengeCommands
from bot.core.context import Context
from bot.core.i18n import normalize_locale, resolve_locale
from bot.core.information import InfoCommands
from bot.core.links import LinkCommands
from bot.core.model import Actor, Message, Request
from bot.core.suggestions import SuggestionCommands
from bot.core.tokens import BadTokenError, parse_token

logger = logging.getLogger(__name__)

Handler = Callable[[Context, str], Awaitable[list[Message]]]


def _unknown(context: Context) -> str:
    return context._("I do not know that command. /help lists them all.")


class Core(ChallengeCommands, InfoCommands, SuggestionCommands, LinkCommands):
    """The bot, free of any chat platform."""

    # --- entry point ---------------------------------------------------------------------

    async def handle(self, request: Request) -> list[Message]:
        """Answer one request. Nothing unexpected escapes: it is logged and apologised for.

        At most a few requests compute at once; the others wait their turn. The work is CPU
        bound (one interpreter lock), so more in flight would not finish sooner, but every
        continuation that becomes ready at the same moment runs before the event loop looks
        at anything else: bounding them bounds how long the adapters' network work waits."""
        self._pending += 1
        try:
            async with self._admission:
                return await self._handle(request)
        finally:
            self._pending -= 1

    def idle(self) -> bool:
        """No request is being answered or waiting for its turn right now."""
        return self._pending == 0

    async def _handle(self, request: Request) -> list[Message]:
        request = _storable(request)
        context = await self._context(request)
        return [
            message if message.locale else replace(message, locale=context.locale)
            for message in await self._answer(context, request)
        ]

    async def _answer(self, context: Context, request: Request) -> list[Message]:
        try:
            if request.token is not None:
                return await self._press(context, request.token)
            if request.command is not None:
                return await self._command(context, request.command.lower(), request.argument)
            if request.text is not None:
                return await self._typed_move(context, request.text)
            return []
        except Exception:
            logger.exception(
                "request failed: %s in chat %s", request.command or "press", request.chat
            )
            return context.refuse(context._("Sorry, something went wrong. Please try again."))

    async def _context(self, request: Request) -> Context:
        actor = request.actor
        user = await self.users.upsert_user(
            actor.platform,
            actor.user_id,
            clean_name(actor.name, actor.user_id),
            normalize_locale(actor.locale),
        )
        chat = await self.chats.upsert_chat(
            request.chat.platform, request.chat.chat_id, normalize_locale(request.chat.locale)
        )
        locale = resolve_locale(user, chat, actor.locale)
        return Context(request, user, chat, locale)

    async def _command(self, context: Context, name: str, argument: str) -> list[Message]:
        argument = argument[:_MAX_TEXT]
        declared = registry.find(name)
        if declared is None:
            return context.refuse(_unknown(context))
        handler: Handler = getattr(self, declared.handler)
        return await handler(context, argument)

    async def _press(self, context: Context, raw: str) -> list[Message]:
        _ = context._
        try:
            token = parse_token(raw)
        except BadTokenError:
            return context.refuse(_("That button is out of date."))
        if token.kind == "c":
            if token.verb not in ("accept", "decline", "cancel"):
                return context.refuse(_("That button is out of date."))
            return await self._answer_challenge(context, token.verb, token.target)
        if token.kind == "u":
            return await self._toggle(context, token)
        if token.verb in ("confirm", "change"):
            return await self._confirm(context, token)
        if token.verb == "keep":
            return context.refuse(_("Good luck!"))
        if token.verb == "claim":
            return await self._act(context, self._claim, token.target, token.version)
        make = self._makers().get(token.verb)
        if make is None:
            return context.refuse(_("That button is out of date."))
        return await self._act(context, make, token.target, token.version)


def _text(value: str, limit: int) -> str:
    """Text that can be stored: lone surrogates (from undecodable bytes) become "?", and at
    most ``limit`` characters are kept."""
    return value[:limit].encode("utf-8", "replace").decode("utf-8")


def _actor(actor: Actor, id_limit: int = MAX_ACCOUNT_ID) -> Actor:
    return replace(actor, user_id=_text(actor.user_id, id_limit), name=_text(actor.name, 1024))


def _storable(request: Request) -> Request:
    """The request with every text fit for the database, however the adapter decoded it."""
    return replace(
        request,
        actor=_actor(request.actor),
        chat=replace(request.chat, chat_id=_text(request.chat.chat_id, MAX_ACCOUNT_ID)),
        command=None if request.command is None else _text(request.command, 64),
        argument=_text(request.argument, _MAX_TEXT * 4),
        text=None if request.text is None else _text(request.text, _MAX_TEXT * 4),
        token=None if request.token is None else _text(request.token, 128),
        event_id=_text(request.event_id, 128),
        # A mentioned id too long to be one is kept too long, so the challenge can refuse it.
        mentions=tuple(_actor(mention, 2 * MAX_ACCOUNT_ID) for mention in request.mentions[:10]),
    )
