"""The states of recently used matches kept in memory, keyed by version, and the facts of a
match that never change (its players and move time limit)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from gammon.flow import MatchState
from storage.records import MatchInfo

CACHE_SIZE: Final = 2048  # matches kept, and the measure of the other per-match caches

# A match's players and its move time limit: set at creation, never changed.
Facts = tuple[tuple[int, int], int | None]


@dataclass(frozen=True)
class _Cached:
    """A match state in memory and the version it belongs to."""

    version: int
    state: MatchState


class MatchStates:
    """A cached state is only ever used for the exact version it belongs to; every write still
    checks that version in the database."""

    def __init__(self) -> None:
        self._states: OrderedDict[int, _Cached] = OrderedDict()
        self._facts: dict[int, Facts] = {}

    def remember(self, match_id: int, version: int, state: MatchState) -> None:
        """Keep ``state`` as the match's state at ``version``, unless a newer version's state
        is kept already (a load that read the row just before a write committed)."""
        known = self._states.get(match_id)
        if known is not None and known.version > version:
            return
        self._states[match_id] = _Cached(version, state)
        self._states.move_to_end(match_id)
        if len(self._states) > CACHE_SIZE:
            self._states.popitem(last=False)

    def recall(self, match_id: int, version: int) -> MatchState | None:
        """The state kept of the match at exactly ``version``, if any."""
        cached = self._states.get(match_id)
        if cached is None or cached.version != version:
            return None
        self._states.move_to_end(match_id)
        return cached.state

    def known_version(self, match_id: int) -> int | None:
        """The version of the state kept of the match, if any."""
        cached = self._states.get(match_id)
        return None if cached is None else cached.version

    def forget(self, match_id: int) -> None:
        """Keep no state of the match (another writer moved it on: the next load reads)."""
        self._states.pop(match_id, None)

    def facts(self, match_id: int) -> Facts | None:
        return self._facts.get(match_id)

    def know(self, info: MatchInfo) -> None:
        """Keep the facts of the match ``info`` describes."""
        if len(self._facts) > CACHE_SIZE and info.id not in self._facts:
            self._facts.clear()
        self._facts[info.id] = (info.player_ids, info.move_time_limit)
