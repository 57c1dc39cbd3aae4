"""Reading a chouette session: its row, and its running game rebuilt from the event log (from
the game kept in memory, when there is one, with only the events since)."""

from __future__ import annotations

import sqlalchemy as sa

from gammon.chouette import apply, chouette_action_from_dict, new_game
from storage.chouette.memory import CachedGame, RunningGames
from storage.chouette.records import ChouetteInfo, ChouetteStatus, LoadedChouette
from storage.chouette.sql import (
    INFO_COLUMNS,
    events_since,
    finished_games,
    game_record,
    info_from_row,
    open_in,
    scoreboard_of,
)
from storage.errors import NotFoundError
from storage.schema import chouettes
from storage.threaded import ThreadedEngine


class ChouetteReads:
    """A session by its id or its chat, as a row (:meth:`info`) or loaded (:meth:`load`)."""

    def __init__(self, engine: ThreadedEngine, games: RunningGames) -> None:
        self.engine = engine
        self._games = games

    async def info(self, chouette_id: int) -> ChouetteInfo:
        """The session's row without its game (cheap: nothing is replayed)."""
        row = (
            await self.engine.read(sa.select(*INFO_COLUMNS).where(chouettes.c.id == chouette_id))
        ).first()
        if row is None:
            raise NotFoundError(f"no chouette {chouette_id}")
        return info_from_row(row._mapping)

    async def load(self, chouette_id: int) -> LoadedChouette:
        """The session, its running game rebuilt from the log (``None`` between games and
        once ended) and the scoreboard summed over its finished games, all as of the
        version read first: what a write may add meanwhile is left out."""
        info = await self.info(chouette_id)
        base = self._games.base(info)
        playing = info.status is ChouetteStatus.PLAYING
        queries = [finished_games(info)]
        if playing:
            queries.append(events_since(info, base.version if base is not None else 0))
        found = await self.engine.read_many(*((query, None) for query in queries))
        games = tuple(game_record(chouette_id, row._mapping) for row in found[0])
        game = None
        if playing:
            game = base.game if base is not None else new_game(info.table, info.rules)
            for (action,) in found[1]:
                game = apply(game, chouette_action_from_dict(action))
            self._games.remember(info.id, CachedGame(info.version, info.game_number, game))
        else:
            self._games.forget(info.id)
        return LoadedChouette(info, game, scoreboard_of(games), games)

    async def active_id_for_chat(self, chat_id: int) -> int | None:
        """The id of the chat's session that has not ended, if any (one primary-key read)."""
        found = (await self.engine.read(open_in(chat_id))).scalar()
        return None if found is None else int(found)

    async def active_for_chat(self, chat_id: int) -> LoadedChouette | None:
        """The chat's session that has not ended, loaded, or None."""
        chouette_id = await self.active_id_for_chat(chat_id)
        return None if chouette_id is None else await self.load(chouette_id)
