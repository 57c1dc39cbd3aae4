"""A board page's action as a request of that player through the core: the same rules, the
same event ids (a repeated submit is applied once), the same refusals as a pressed button.

The action becomes the button it stands for (a token naming the match and the version the
page showed: a page that is out of date is told so), or for a play the ``play`` verb with the
notation the plays tree gave. What the core answers for everyone goes to the match's chat as
its board always does (the chat's adapter delivers it); what it answers the asker alone (a
refusal) is shown on the page instead. The open pages learn of the change when the core
commits it (:meth:`bot.web.live.LiveBoards` listens to this process's appends), before the
chat's delivery: the opponent's page does not wait for the chat platform's answer.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.info.board_reads import Seat
from bot.core.model import Message, Private, Request
from bot.core.ports import ChatRequests
from bot.core.tokens import Token, Verb, format_token

Deliver = Callable[[Sequence[Message]], Awaitable[None]]

_EVENT_ID = re.compile(r"[A-Za-z0-9_-]{16,40}")
_PLAY = re.compile(r"[0-9a-z/*() ]{1,60}")
_VERBS = {
    "roll": Verb.ROLL,
    "double": Verb.DOUBLE,
    "take": Verb.TAKE,
    "drop": Verb.DROP,
    "beaver": Verb.BEAVER,
    "play": Verb.PLAY,
    "accept_resignation": Verb.ACCEPT_RESIGNATION,
    "reject_resignation": Verb.REJECT_RESIGNATION,
}
_RESIGN = {1: Verb.RESIGN_SINGLE, 2: Verb.RESIGN_GAMMON, 3: Verb.RESIGN_BACKGAMMON}


class BadActionError(ValueError):
    """The body names no action the page can send (a broken or forged request)."""


@dataclass(frozen=True)
class PageAction:
    """What a page asked: the verb, the notation of a play, the version it showed, its id."""

    verb: Verb
    version: int
    event_id: str
    play: str = ""

    @classmethod
    def read(cls, body: Any) -> PageAction:
        """The action in a page's JSON body, or :class:`BadActionError`."""
        if not isinstance(body, dict):
            raise BadActionError("not an object")
        name, version, event_id = body.get("action"), body.get("version"), body.get("id")
        if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 2**31:
            raise BadActionError("version")
        if not isinstance(event_id, str) or not _EVENT_ID.fullmatch(event_id):
            raise BadActionError("id")
        if name == "resign":
            level = body.get("level")
            if level not in _RESIGN or isinstance(level, bool):
                raise BadActionError("level")
            return cls(_RESIGN[level], version, event_id)
        verb = _VERBS.get(name) if isinstance(name, str) else None
        if verb is None:
            raise BadActionError("action")
        play = body.get("play", "")
        if verb is Verb.PLAY and (not isinstance(play, str) or not _PLAY.fullmatch(play)):
            raise BadActionError("play")
        return cls(verb, version, event_id, play if verb is Verb.PLAY else "")


@dataclass(frozen=True)
class ActOutcome:
    """What the page is told: whether the core acted, and its words to the asker."""

    acted: bool
    notes: tuple[str, ...]


class PlayActions:
    """Turns page actions into the core's requests (see the module's docstring)."""

    def __init__(
        self,
        requests: ChatRequests,
        deliver: Deliver,
        applied: Callable[[int, str], Awaitable[bool]],
    ) -> None:
        self._requests = requests
        self.deliver = deliver
        self._applied = applied

    async def act(self, match_number: int, seat: Seat, action: PageAction) -> ActOutcome:
        event_id = f"page:{action.event_id}"
        if await self._applied(match_number, event_id):
            # A page sending its action again (its answer was lost): it was applied, and the
            # chat has its board already; the page gets the state from its stream.
            return ActOutcome(acted=True, notes=())
        token = Token(action.verb, "m", match_number, action.version)
        request = Request(
            actor=seat.actor,
            chat=seat.chat,
            token=format_token(token),
            argument=action.play,
            event_id=event_id,
        )
        answer = await self._requests.handle(request)
        mine = [message for message in answer if _is_for(message, seat)]
        others = [message for message in answer if not _is_for(message, seat)]
        if others:
            await self.deliver(others)
        # Only the asker's words and nothing for the chat: the core refused.
        return ActOutcome(acted=bool(others), notes=tuple(m.text for m in mine))


def _is_for(message: Message, seat: Seat) -> bool:
    return isinstance(message.kind, Private) and message.kind.user_id == seat.actor.user_id
