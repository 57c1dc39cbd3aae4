"""The running games of recently loaded chouette sessions, kept in memory with the version they
were replayed to: a later load reads and applies only the events written since (the log is
append-only), and every write still checks the version in the database."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from gammon.chouette import ChouetteGame
from storage.chouette.records import ChouetteInfo, ChouetteStatus

CACHE_SIZE: Final = 512  # sessions kept, and the measure of the other per-session caches


@dataclass(frozen=True)
class CachedGame:
    """A game in memory: the game ``game_number`` with every event before ``version``."""

    version: int
    game_number: int
    game: ChouetteGame


class RunningGames:
    """The newest running game seen of each of the last :data:`CACHE_SIZE` sessions."""

    def __init__(self) -> None:
        self._games: OrderedDict[int, CachedGame] = OrderedDict()

    def base(self, info: ChouetteInfo) -> CachedGame | None:
        """The running game kept in memory, if it is this version's game at this version or
        an earlier one (the events since are then all that needs reading)."""
        cached = self._games.get(info.id)
        if (
            info.status is not ChouetteStatus.PLAYING
            or cached is None
            or cached.game_number != info.game_number
            or cached.version > info.version
        ):
            return None
        return cached

    def remember(self, chouette_id: int, cached: CachedGame) -> None:
        known = self._games.get(chouette_id)
        if (
            known is not None
            and known.game_number == cached.game_number
            and known.version > cached.version
        ):
            return  # a load that read the row before a write: the newer game stays
        self._games[chouette_id] = cached
        self._games.move_to_end(chouette_id)
        if len(self._games) > CACHE_SIZE:
            self._games.popitem(last=False)

    def forget(self, chouette_id: int) -> None:
        """No game runs any more (between games, or the session ended)."""
        self._games.pop(chouette_id, None)
