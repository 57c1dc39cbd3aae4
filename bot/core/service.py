"""The command layer: requests in, messages out, the database as the only truth.

:class:`Core` is a thin dispatcher: the composition root (:func:`bot.core.bootstrap.assemble`)
builds the repositories, the services and the other consumers' ports; the core finds who asks
and where, and hands the request to the :class:`Dispatcher`, which routes commands, buttons and
typed plays through the registry. Whether the asker administers
the chat is asked of the front-end's :class:`AdminPort`, and only when a command needs it.
Every change of a match goes through the match driver (:mod:`bot.core.match.driver`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any

from bot.core import registry
from bot.core.bootstrap import Options, Ports, assemble
from bot.core.computer.computer import Computer
from bot.core.computer.hint_limits import HintLimits
from bot.core.context import Context, OwnMatch
from bot.core.delivery import Delivery
from bot.core.dispatch import Dispatcher
from bot.core.match.links import ChallengeLinks
from bot.core.model import MAX_TEXT, Actor, ChatRef, Message, Request, Role
from bot.core.organisers import named_organiser
from bot.core.people import MAX_ACCOUNT_ID, clean_name
from bot.core.permissions import AdminPort, AdminPorts, AdminQuestion, RolePort
from bot.core.runtime.inbox import UpdateInbox
from bot.core.text.i18n import normalize_locale, resolve_locale, room_locale
from bot.core.text.player_text import without_bidi_controls
from bot.core.threads import ThreadPort
from gammon.fair_dice import new_server_seed
from storage import ChallengeLimits, Database, MatchRepository

logger = logging.getLogger(__name__)


class Core:
    """The bot, free of any chat platform: the chat front-ends' port
    (:class:`~bot.core.ports.ChatFrontEnd`), and through :attr:`ports` the other consumers'."""

    def __init__(
        self,
        database: Database,
        *,
        render_images: bool = True,
        clock: Callable[[], datetime] | None = None,
        server_seeds: Callable[[], bytes] = new_server_seed,
        challenge_limits: ChallengeLimits | None = None,
        computer: Computer | None = None,
        hint_limits: HintLimits | None = None,
        web_base_url: str | None = None,
        page_link_hours: float = 24.0,
    ) -> None:
        options = Options(
            render_images,
            clock,
            server_seeds,
            challenge_limits,
            computer,
            hint_limits,
            web_base_url,
            page_link_hours,
        )
        self._pending = 0  # requests being answered or waiting for their turn
        built = self._parts = assemble(database, options, self.idle)
        self.ports: Ports = built.ports  # for the host to hand out, one to each consumer
        self._dispatcher = Dispatcher(built.ports.services)
        self._admins = AdminPorts()  # each front-end's answer: who administers a chat
        stores = built.ports.repositories
        self._invitations = ChallengeLinks(stores.challenges, stores.chats, self.handle)

    @property
    def delivery(self) -> Delivery:
        """The chat adapters' port for posting: slots, users, reachability."""
        return self._parts.delivery

    @property
    def inbox(self) -> UpdateInbox:
        """A webhook's updates, each handled once."""
        return self._parts.inbox

    @property
    def clock(self) -> Callable[[], datetime]:
        """Now, for every service (tests replace it to jump ahead)."""
        return self._parts.time.now

    @clock.setter
    def clock(self, now: Callable[[], datetime]) -> None:
        self._parts.time.now = now

    # --- what the adapters call ----------------------------------------------------------

    async def handle(self, request: Request) -> list[Message]:
        """Answer one request. Nothing unexpected escapes: it is logged and apologised for.

        At most a few requests compute at once; the others wait their turn. The work is CPU
        bound (one interpreter lock), so more in flight would not finish sooner, but every
        continuation that becomes ready at the same moment runs before the event loop looks
        at anything else: bounding them bounds how long the adapters' network work waits."""
        self._pending += 1
        try:
            async with self._parts.admission.place():
                return await self._handle(request)
        finally:
            self._pending -= 1

    def idle(self) -> bool:
        """No request is being answered or waiting for its turn right now."""
        return self._pending == 0

    async def register_bot(self, platform: str, user_id: str, name: str) -> None:
        """The account the bot runs as on ``platform`` (an adapter calls it when it starts):
        the player in matches against the bot, and whom ``/challenge @bot`` means."""
        await self.ports.bots.register(platform, user_id, clean_name(name, user_id))

    def register_admins(
        self, platform: str, port: AdminPort, roles: RolePort | None = None
    ) -> None:
        """How ``platform``'s front-end answers whether someone administers a group chat, and
        on a platform with member roles whether someone holds one (an adapter calls it when it
        starts); asked only when a command needs it."""
        self._admins.register(platform, port, roles)

    def register_threads(self, platform: str, port: ThreadPort) -> None:
        """How ``platform``'s front-end opens a thread in a group chat (an adapter that has
        threads calls it when it starts): a tournament's pairings play in threads of their
        own."""
        self._parts.threads.register(platform, port)

    async def suggest_moves(
        self, actor: Actor, chat: ChatRef, typed: str = "", limit: int = 25
    ) -> list[str]:
        """The caller's legal plays that match what they typed so far (autocomplete)."""
        return await self._parts.suggestions.suggest(actor, chat, typed, limit)

    async def accept_challenge_link(
        self, actor: Actor, private_chat: ChatRef, challenge_id: int, event_id: str
    ) -> list[Message]:
        """Accept a challenge through an invitation link opened in a private chat."""
        return await self._invitations.accept(actor, private_chat, challenge_id, event_id)

    # --- dispatch ------------------------------------------------------------------------

    async def _handle(self, request: Request) -> list[Message]:
        request = _storable(request)
        context = await self._context(request)
        return context.outgoing(await self._answer(context, request))

    async def _answer(self, context: Context, request: Request) -> list[Message]:
        try:
            return await self._dispatcher.answer(context, request)
        except Exception:
            logger.exception(
                "request failed: %s in chat %s", request.command or "press", request.chat
            )
            return context.refuse(context._("Sorry, something went wrong. Please try again."))

    async def _context(self, request: Request) -> Context:
        actor = request.actor
        # Both rows in one trip to the database thread (each as its own upsert would give),
        # and for a command on the caller's match in a group chat that match with them.
        on_match = not request.chat.private and _on_own_match(request)
        stores = self.ports.repositories
        user, chat, also = await stores.users.speaker_in_chat(
            stores.chats,
            (
                actor.platform,
                actor.user_id,
                clean_name(actor.name, actor.user_id),
                normalize_locale(actor.locale),
            ),
            (
                request.chat.platform,
                request.chat.chat_id,
                # a private chat speaks its user's language (also to the clock, later)
                normalize_locale(actor.locale if request.chat.private else request.chat.locale),
            ),
            _own_match_queries(stores.matches) if on_match else None,
        )
        locale = resolve_locale(user, chat, actor.locale)
        own = OwnMatch()
        if also is not None:
            own = OwnMatch(True, await stores.matches.active_match_read(also))
        return Context(
            request,
            user,
            chat,
            locale,
            locale if request.chat.private else room_locale(chat),
            own_match=own,
            admin=AdminQuestion(partial(self._admins.is_admin, request.actor, request.chat)),
            organiser=AdminQuestion(partial(named_organiser, self._admins, request, user.id, chat)),
        )


def _text(value: str, limit: int) -> str:
    """Text that can be stored: lone surrogates (from undecodable bytes) become "?", and at
    most ``limit`` characters are kept."""
    return value[:limit].encode("utf-8", "replace").decode("utf-8")


def _written(value: str) -> str:
    """What a player wrote, as it is read: storable, without bidirectional controls."""
    return without_bidi_controls(_text(value, MAX_TEXT * 4))


def _actor(actor: Actor, id_limit: int = MAX_ACCOUNT_ID) -> Actor:
    return replace(actor, user_id=_text(actor.user_id, id_limit), name=_text(actor.name, 1024))


def _storable(request: Request) -> Request:
    """The request with every text fit for the database, however the adapter decoded it; what
    the player wrote is read without bidirectional controls (see :mod:`bot.core.text.player_text`),
    so it is stored, looked up and repeated as it is shown."""
    return replace(
        request,
        actor=_actor(request.actor),
        chat=replace(request.chat, chat_id=_text(request.chat.chat_id, MAX_ACCOUNT_ID)),
        command=None if request.command is None else _text(request.command, 64),
        argument=_written(request.argument),
        text=None if request.text is None else _written(request.text),
        token=None if request.token is None else _text(request.token, 128),
        event_id=_text(request.event_id, 128),
        # A mentioned id too long to be one is kept too long, so the challenge can refuse it.
        mentions=tuple(_actor(mention, 2 * MAX_ACCOUNT_ID) for mention in request.mentions[:10]),
        roles=tuple(
            Role(_text(role.role_id, MAX_ACCOUNT_ID), clean_name(role.name, role.role_id))
            for role in request.roles[:1]
        ),
    )


def _on_own_match(request: Request) -> bool:
    """Whether the request acts on or shows the caller's match (a typed play, /move, /roll…)."""
    if request.token is not None:
        return False
    if request.command is None:
        return request.text is not None
    return request.command.lower() in registry.ON_OWN_MATCH


def _own_match_queries(
    matches: MatchRepository,
) -> Callable[[int, int], list[tuple[Any, dict[str, Any]]]]:
    """The reads of a user's active match in a chat, given the user's and the chat's ids."""
    return lambda user_id, chat_id: matches.active_match_queries(chat_id, user_id)
