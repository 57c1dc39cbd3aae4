"""Which match a command means, and in which chat it is acted on: the caller's match in this
chat, or in a private chat the caller's match that waits for them (or the one they named)."""

from __future__ import annotations

import re
from dataclasses import replace

from bot.core.context import Context
from bot.core.model import ChatRef, Message, Private
from bot.core.people import PlayerNames
from bot.core.refusal import Refusal
from bot.core.text.i18n import room_locale
from storage import ChatRepository, MatchInfo, MatchRepository, NotFoundError


class MatchFinder:
    def __init__(self, matches: MatchRepository, chats: ChatRepository, names: PlayerNames) -> None:
        self._matches = matches
        self._chats = chats
        self._names = names

    async def addressed(self, context: Context, wanted: int | None = None) -> tuple[Context, int]:
        """The match a command without a button means, with the context to act in it: the
        caller's match in this chat or, in a private chat, their match that waits for them
        (``wanted``: the one they named), acted on as if in that match's chat. Raises
        :class:`~bot.core.refusal.Refusal` when there is none."""
        _ = context._
        if not context.request.chat.private:
            # Found and read in one trip (with who is speaking, when the core read it then);
            # the driver acting on it takes the read from here.
            read, found = context.own_match.take()
            if not read:
                found = await self._matches.active_match_with_players(
                    context.chat.id, context.user.id
                )
            if found is None:
                raise Refusal(_("You have no match in this chat. Start one with /challenge."))
            loaded, players = found
            context.found_matches[loaded.info.id] = loaded
            self._names.know(context, players.values())
            return context, loaded.info.id
        mine = await self._matches.active_matches_of(context.user.id)
        if wanted is not None:
            mine = [info for info in mine if info.id == wanted]
            if not mine:
                raise Refusal(
                    _("You have no active match {id}. /matches lists yours.").format(id=wanted)
                )
        waiting = _waiting_for(context, mine)
        if not mine:
            raise Refusal(_("You have no active match. Start one with /challenge in a group chat."))
        if len(waiting) > 1:
            numbers = ", ".join(f"#{info.id}" for info in waiting)
            raise Refusal(
                _(
                    "Several of your matches wait for you ({numbers}). Put the match number "
                    "first, e.g. {example}, or play in the match's chat."
                ).format(numbers=numbers, example=example(typed(context), f"#{waiting[0].id}"))
            )
        if not waiting and len(mine) > 1:
            numbers = ", ".join(f"#{info.id}" for info in mine)
            raise Refusal(
                _(
                    "None of your matches waits for you now ({numbers}). To act in one, put "
                    "its number first, e.g. /board #{example}."
                ).format(numbers=numbers, example=mine[0].id)
            )
        chosen = waiting[0] if waiting else mine[0]
        return await self.in_chat_of(context, chosen), chosen.id

    async def waiting(self, context: Context) -> tuple[list[MatchInfo], list[MatchInfo]]:
        """The caller's active matches, in any chat, and those of them that wait for them."""
        mine = await self._matches.active_matches_of(context.user.id)
        return mine, _waiting_for(context, mine)

    async def visible(self, context: Context, match_id: int) -> MatchInfo | None:
        """The match if the caller may see it here: it was played in this chat, or they
        played it (one chat never sees another chat's match otherwise)."""
        try:
            info = await self._matches.match_info(match_id)
        except NotFoundError:
            return None
        if info.chat_id == context.chat.id or info.player_index(context.user.id) is not None:
            return info
        return None

    async def in_match_chat(self, context: Context, match_id: int) -> Context:
        """A button pressed in a private chat acts in its match's chat, for that match's
        players (anyone else is refused by the usual checks)."""
        try:
            info = await self._matches.match_info(match_id)
        except NotFoundError:
            return context
        if info.player_index(context.user.id) is None:
            return context
        return await self.in_chat_of(context, info)

    async def in_chat_of(self, context: Context, info: MatchInfo) -> Context:
        """The context of the request as if it had been made in the match's own chat."""
        return await self.in_chat(context, info.chat_id)

    async def in_chat(self, context: Context, chat_id: int) -> Context:
        """The context of the request as if it had been made in the group chat ``chat_id``
        (where a match or a chouette is played)."""
        if chat_id == context.chat.id:
            return context
        chat = await self._chats.get_chat(chat_id)
        where = ChatRef(chat.platform, chat.platform_chat_id, private=False, locale=chat.locale)
        return replace(
            context,
            request=replace(context.request, chat=where),
            chat=chat,
            chat_locale=room_locale(chat),
        )


# The commands that take a game's number in a private chat after their name: /roll #12,
# /double #c3. A move takes it before the play: #12 13/10* 6/5.
_NUMBERED_COMMANDS = frozenset(
    {"roll", "double", "take", "drop", "beaver", "resign", "board", "hint"}
)


def typed(context: Context) -> str:
    """The command the request typed, as dispatched ("move" for a plain move)."""
    return (context.request.command or "move").lower()


def example(verb: str, number: str) -> str:
    """The command ``verb`` typed with a game's number (``#12``, ``#c3``), for a refusal that
    asks for one: ``/double #c3`` for ``/double``, a move (``#12 13/10* 6/5``) for a move and
    for a command that takes no number."""
    return f"/{verb} {number}" if verb in _NUMBERED_COMMANDS else f"{number} 13/10* 6/5"


# In a private chat, a game named before the rest of a command: "#12 13/10* 6/5" is a move
# for match 12, "/roll #c3" a roll at chouette 3.
_NUMBERED = re.compile(r"^#(c?)([0-9]{1,9})(?:\s+(.*))?$", re.DOTALL | re.IGNORECASE)


def game_named(context: Context, argument: str) -> tuple[int | None, int | None, str]:
    """The match (``#12``) or chouette (``#c3``) a command typed in a private chat names
    before its argument, and the rest of the argument; elsewhere nothing is named."""
    named = _NUMBERED.match(argument.strip()) if context.request.chat.private else None
    if named is None:
        return None, None, argument
    number, rest = int(named.group(2)), (named.group(3) or "").strip()
    return (None, number, rest) if named.group(1) else (number, None, rest)


def _waiting_for(context: Context, infos: list[MatchInfo]) -> list[MatchInfo]:
    return [info for info in infos if info.turn_user_id == context.user.id]


def answer_in_private(
    context: Context, private: ChatRef, match_id: int, answer: list[Message]
) -> list[Message]:
    """Refusals go back to the private chat the command came from; everything else is
    posted in the match's chat, and the private chat gets a receipt."""
    receipt = context._("Done in match {id}: the board is in the match's chat.")
    return delivered_in_private(context, private, answer, receipt.format(id=match_id))


def delivered_in_private(
    context: Context, private: ChatRef, answer: list[Message], receipt: str
) -> list[Message]:
    """``answer``, made in a group chat for a command typed in the ``private`` chat: what
    only the caller reads goes back there; the rest is posted in the group, and then the
    private chat gets ``receipt``."""
    actor = context.request.actor.user_id
    mine = [replace(message, chat=private) for message in answer if message.private_to == actor]
    public = [message for message in answer if message.private_to != actor]
    if public:
        mine.append(Message(private, receipt, kind=Private(actor)))
    return public + mine
