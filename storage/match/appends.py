"""Appending to a match's event log: the planned steps, version-checked, with what they set off
(:mod:`storage.event_log`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import RowMapping

from gammon.actions import action_to_dict
from gammon.flow import Phase, Step
from storage.acted import SeenActions
from storage.direct import DirectConnection
from storage.errors import ConflictError
from storage.event_log import Then
from storage.match.clock_columns import append_values
from storage.match.listings import MatchListings
from storage.match.loads import MatchLoads
from storage.match.memory import Facts, MatchStates
from storage.match.sql import (
    ACTIVE,
    APPEND,
    FINISHED,
    LOG,
    info_from_row,
    now_utc,
    snapshot_of,
)
from storage.records import Appended, LoadedMatch


class MatchAppends:
    """Steps written to the log of a match still at the version they were planned from."""

    def __init__(
        self,
        loads: MatchLoads,
        listings: MatchListings,
        states: MatchStates,
        acted: SeenActions,
    ) -> None:
        self.engine = loads.engine
        self._loads = loads
        self._listings = listings
        self._states = states
        self._acted = acted
        self._listeners: list[Callable[[int, int], None]] = []

    def listen(self, listener: Callable[[int, int], None]) -> None:
        """Call ``listener(match_id, version)`` after each append this process commits (the
        board pages' streams look at once instead of at their next round)."""
        self._listeners.append(listener)

    async def append(
        self,
        match_id: int,
        expected_version: int,
        steps: Sequence[Step],
        *,
        actor_id: int | None = None,
        now: datetime | None = None,
        event_id: str | None = None,
        then: Then,
    ) -> Appended:
        """Write ``steps`` (planned by the caller from the state at ``expected_version``: an
        action and what played by itself after it) in one transaction, if the match is still
        at that version, and in the same transaction what ``then`` writes (the handlers of
        what the steps set off, a match's end: :mod:`bot.core.events`). ``actor_id`` is the
        user whose action the first step is, if any; ``event_id`` the platform's id of the
        message or press it came from. With no steps nothing is written.

        Raises :class:`ConflictError` when another writer got there first, and
        :class:`AlreadyAppliedError` when ``event_id``'s action is in the log already
        (nothing written either way).
        """
        if not steps:
            return Appended(await self._at_version(match_id, expected_version), ())
        state = steps[-1].after
        recorded = [new for step in steps for new in step.recorded]
        moment = now or now_utc()
        new_version = expected_version + len(recorded)
        finished = state.phase is Phase.FINISHED
        players, limit = await self._fixed_facts(match_id)
        turn = state.turn
        values: dict[str, Any] = {
            "b_match": match_id,
            "b_expected": expected_version,
            "version": new_version,
            # A finished match is read rarely (exports, checks): its log alone is kept.
            "snapshot": None if finished else snapshot_of(state),
            "snapshot_version": None if finished else new_version,
            "status": FINISHED if finished else ACTIVE,
            "turn_user_id": None if turn is None or finished else players[turn],
            "updated_at": moment,
            "deadline": moment + timedelta(seconds=limit) if limit and not finished else None,
            "finished_at": moment if finished else None,
        }

        def claim(connection: DirectConnection) -> RowMapping | None:
            clock = append_values(
                connection, match_id, expected_version, steps[0].before, state, moment
            )
            row = connection.execute(APPEND, values | clock).first()
            return None if row is None else row._mapping

        try:
            row = await LOG.append(
                self.engine,
                match_id,
                expected_version,
                claim,
                [action_to_dict(new) for new in recorded],
                actor_id=actor_id,
                event_id=event_id,
                moment=moment,
                then=then,
            )
        except ConflictError:
            self._states.forget(match_id)
            raise
        self._states.remember(match_id, new_version, state)
        if actor_id is not None:
            self._acted.saw(match_id, actor_id, moment)
        for listener in self._listeners:
            listener(match_id, new_version)
        return Appended(LoadedMatch(info_from_row(row), state), tuple(recorded), tuple(steps))

    async def applied(self, match_id: int, event_id: str) -> bool:
        """Whether the action of the platform event ``event_id`` is in the match's log."""
        return await LOG.applied(self.engine, match_id, event_id)

    async def _at_version(self, match_id: int, expected_version: int) -> LoadedMatch:
        loaded = await self._loads.load_match(match_id)
        if loaded.info.version != expected_version:
            raise ConflictError(f"match {match_id} is no longer at version {expected_version}")
        return loaded

    async def _fixed_facts(self, match_id: int) -> Facts:
        """The players and move time limit: set at creation, never changed, so cached."""
        facts = self._states.facts(match_id)
        if facts is None:
            info = await self._listings.match_info(match_id)
            self._states.know(info)
            facts = (info.player_ids, info.move_time_limit)
        return facts
