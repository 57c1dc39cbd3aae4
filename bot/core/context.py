"""What every part of the command layer shares about one request: who asks, where, in which
language; and two small helpers on what a step did and who wants private notices."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.i18n import Speech, speech
from bot.core.model import Message, Request
from gammon import parse_play
from gammon.actions import Action, Move
from gammon.flow import MatchState
from rendering import LastPlay
from storage import ChatRecord, UserRecord


@dataclass(frozen=True)
class Context:
    request: Request
    user: UserRecord
    chat: ChatRecord
    locale: str
    known_users: dict[int, UserRecord] = field(default_factory=dict)  # read once per request

    @property
    def _(self) -> Speech:
        return speech(self.locale)

    def refuse(self, text: str) -> list[Message]:
        return [Message(self.request.chat, text, private_to=self.request.actor.user_id)]


def wants_private_notice(*users: UserRecord) -> tuple[str, ...]:
    """The platform ids of those users who want a private notification and can get one (the
    bot itself never does)."""
    return tuple(
        user.platform_user_id
        for user in users
        if user.prefs.notify and not user.unreachable and not user.is_bot
    )


def last_play(before: MatchState, recorded: tuple[Action, ...]) -> LastPlay | None:
    """The highlight for a play just recorded (the mover's own numbering)."""
    for action in recorded:
        if isinstance(action, Move) and before.dice is not None:
            play = action.value or parse_play(action.play, before.position, before.dice)
            return LastPlay.from_play(play, action.player)
    return None
