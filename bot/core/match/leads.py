"""What a board's first line says when it takes the place of the board before it: what that
one said, read back from the match's log (see :mod:`bot.core.match.narration`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.core.match import narration
from bot.core.text.i18n import Speech
from gammon.actions import OpeningRoll, Roll
from gammon.flow import MatchState, Step
from storage import LoadedMatch, Logged, MatchInfo, MatchRepository

_RECENT: Final = 64  # actions read back first: more than any player's stretch of writes


class BoardLeads:
    def __init__(self, matches: MatchRepository) -> None:
        self._matches = matches

    async def before(
        self,
        _: Speech,
        loaded: LoadedMatch,
        steps: Sequence[Step],
        by_player: bool,
        names: Sequence[str],
        bots: Sequence[bool],
    ) -> list[str]:
        """What the board after ``steps`` says before them: when the player who made them is
        the one it waits for again, its board takes the place of theirs, so it says again
        what theirs said (see :mod:`bot.core.match.narration`); else nothing."""
        if not steps or loaded.info.status != "active":
            return []
        first = steps[0].recorded[0]
        maker = getattr(first, "player", None) if by_player else None
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        if maker != actor:
            return []
        version = loaded.info.version - sum(len(step.recorded) for step in steps)
        return await self.told(_, loaded.info, steps[0].before, version, names, bots)

    async def told(
        self,
        _: Speech,
        info: MatchInfo,
        state: MatchState,
        version: int,
        names: Sequence[str],
        bots: Sequence[bool],
    ) -> list[str]:
        """What a board for the player to act in ``state`` (the match at ``version``) says:
        the writes since the last one that player did not make, read from the log."""
        actor = state.turn if state.turn is not None else state.player_on_roll
        events = await self._matches.recent_events(info.id, version, _RECENT)

        def start_of(events: Sequence[Logged]) -> int | None:
            makers = [
                None if event.actor_id is None else info.player_index(event.actor_id)
                for event in events
            ]
            return narration.told_from(makers, actor)

        start = start_of(events)
        if events and events[0].seq > 0 and not start:  # the stretch may begin further back
            events = await self._matches.recent_events(info.id, version)
            start = start_of(events)
        start = start or 0
        before = events[start - 1].action if start else None
        window = events[start:]
        return narration.log_sentences(
            _,
            state,
            [event.action for event in window],
            [event.actor_id is None for event in window],
            before.dice if isinstance(before, Roll | OpeningRoll) else None,
            names,
            bots,
        )
