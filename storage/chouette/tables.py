"""A chouette session's life: opened in a chat (one at a time), its client seed fixed before
the first roll, ended for good."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from gammon.chouette import ChouetteRules
from storage.chouette.memory import RunningGames
from storage.chouette.reads import ChouetteReads
from storage.chouette.records import ChouetteInfo, ChouetteStatus
from storage.chouette.sql import (
    NOT_ENDED,
    claim,
    info_from_row,
    now_utc,
    open_in,
    opened_by,
    update_row,
)
from storage.dice import SecretSeed
from storage.direct import DirectConnection
from storage.errors import ChouetteExistsError, ConflictError
from storage.event_log import Then
from storage.schema import chouettes, open_chouettes
from storage.transaction import Transaction

OPEN, ENDED = ChouetteStatus.OPEN, ChouetteStatus.ENDED


class ChouetteTables:
    """Opens, seeds and ends sessions."""

    def __init__(self, reads: ChouetteReads, games: RunningGames) -> None:
        self.engine = reads.engine
        self._reads = reads
        self._games = games

    async def open_table(
        self,
        chat_id: int,
        host_id: int,
        rules: ChouetteRules,
        server_seed: SecretSeed,
        now: datetime | None = None,
        event_id: str | None = None,
        *,
        move_time_limit: int | None = None,
    ) -> ChouetteInfo:
        """A new session in the chat with the host seated, waiting for players. The seed's
        commitment is stored (and may be shown at once); the seed stays secret until the end.

        The same ``event_id`` again (the /chouette handled a second time) gives the session
        it opened, whatever it has become. A chat with a session that has not ended gets
        :class:`ChouetteExistsError` naming it, and nothing is written."""
        moment = now or now_utc()
        values = {
            "chat_id": chat_id,
            "host_id": host_id,
            "status": OPEN.value,
            "rules": rules.to_dict(),
            "seats": [host_id],
            "version": 0,
            "game_number": 1,
            "dice_nonce": 0,
            "game_nonce": 0,
            "dice_commitment": server_seed.commitment,
            "server_seed": server_seed.stored,
            "client_seed": None,
            "move_time_limit": move_time_limit,
            "deadline": None,
            "created_at": moment,
            "updated_at": moment,
            "ended_at": None,
            "event_id": event_id,
        }

        def write(connection: DirectConnection) -> int:
            if event_id is not None:
                earlier = connection.execute(opened_by(chat_id, event_id)).scalar()
                if earlier is not None:
                    return int(earlier)
            running = connection.execute(open_in(chat_id)).scalar()
            if running is not None:
                raise ChouetteExistsError(f"chat {chat_id} has chouette {running}", running)
            inserted = connection.execute(sa.insert(chouettes), values).inserted_primary_key
            assert inserted is not None
            chouette_id = int(inserted[0])
            connection.execute(
                sa.insert(open_chouettes), {"chat_id": chat_id, "chouette_id": chouette_id}
            )
            return chouette_id

        try:
            opened = await self.engine.write(write)
        except sa.exc.IntegrityError:  # opened a moment ago by another process?
            meanwhile = await self._opened_meanwhile(chat_id, event_id)
            if meanwhile is None:
                raise
            opened = meanwhile
        return await self._reads.info(opened)

    async def _opened_meanwhile(self, chat_id: int, event_id: str | None) -> int | None:
        """After an insert was refused: the session this same message opened in another
        process, or :class:`ChouetteExistsError` for the one another message opened; None
        when neither explains it (a chat or user that does not exist)."""
        if event_id is not None:
            earlier = (await self.engine.read(opened_by(chat_id, event_id))).scalar()
            if earlier is not None:
                return int(earlier)
        running = (await self.engine.read(open_in(chat_id))).scalar()
        if running is None:
            return None
        raise ChouetteExistsError(f"chat {chat_id} has chouette {running}", running) from None

    async def set_client_seed(
        self, chouette_id: int, version: int, client_seed: str, *, now: datetime | None = None
    ) -> ChouetteInfo:
        """Fix the session's client seed, once, before the first roll: made of what the
        players chose or the platform generated after the commitment was published (as for
        matches), so the server seed was drawn without knowing it. A second call gets
        :class:`ConflictError`; :meth:`ChouetteDice.dice_for` refuses until it is set."""

        def write(connection: DirectConnection) -> RowMapping:
            row = claim(connection, chouette_id, version, (OPEN,), {"updated_at": now or now_utc()})
            if row["client_seed"] is not None:
                raise ConflictError(f"chouette {chouette_id} has its client seed already")
            return update_row(connection, chouette_id, {"client_seed": client_seed})

        return info_from_row(await self.engine.write(write))

    async def end(
        self, chouette_id: int, version: int, *, now: datetime | None = None, then: Then
    ) -> ChouetteInfo:
        """End the session for good, between games or during one (a game not finished is
        left unscored: its events stay in the log), and in the same transaction write what
        ``then`` writes for it (the command layer's handlers of the end free the chat for a
        new session: :mod:`bot.core.events`). From now on the server seed may be revealed.
        Of two ends at once the second gets :class:`ChouetteEndedError`, as does every
        write that comes after the end."""
        moment = now or now_utc()

        def write(connection: DirectConnection) -> RowMapping:
            values = {
                "status": ENDED.value,
                "updated_at": moment,
                "ended_at": moment,
                "deadline": None,
                "game_over_at": None,
            }
            row = claim(connection, chouette_id, version, NOT_ENDED, values)
            if then is not None:
                then(Transaction(connection, moment))
            return row

        ended = info_from_row(await self.engine.write(write))
        self._games.forget(chouette_id)
        return ended
