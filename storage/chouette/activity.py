"""When the players of a chouette session last acted, and the clock's reminders: what the clock
asks before it reminds, warns or drops a player."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from storage.acted import SeenActions
from storage.chouette.sql import hold
from storage.direct import DirectConnection
from storage.schema import chouette_events, chouette_reminders, chouettes
from storage.threaded import ThreadedEngine


class ChouetteActivity:
    """The players' last actions (read from the log, or seen by this process) and the marks
    of the reminders sent."""

    def __init__(self, engine: ThreadedEngine, acted: SeenActions) -> None:
        self.engine = engine
        self._acted = acted

    async def last_action_at(self, chouette_id: int, user_id: int) -> datetime | None:
        """When the user last acted in the session: their newest event in its log, whichever
        game it was in. Before their first, when the game being played started (its opening
        roll, the first event of that game): sitting down is no event of the log, and a
        member may sit through whole games without having to act. None when no game has
        started yet."""
        own = sa.select(sa.func.max(chouette_events.c.created_at)).where(
            chouette_events.c.chouette_id == chouette_id,
            chouette_events.c.player_id == user_id,
        )
        started = (
            sa.select(sa.func.min(chouette_events.c.created_at))
            .join(chouettes, chouettes.c.id == chouette_events.c.chouette_id)
            .where(
                chouette_events.c.chouette_id == chouette_id,
                chouette_events.c.game_number == chouettes.c.game_number,
            )
        )
        found = await self.engine.read_many((own, None), (started, None))
        last: datetime | None = found[0].scalar()  # max() keeps the column's type: aware UTC
        if last is not None:
            self._acted.saw(chouette_id, user_id, last)
            return last
        begun: datetime | None = found[1].scalar()
        return begun

    async def acted_since(self, chouette_id: int, user_id: int, since: datetime) -> bool:
        """Whether :meth:`last_action_at` is later than ``since``; a "yes" this process has
        seen already (an event of the user later than ``since``) is answered without a read."""
        if self._acted.after(chouette_id, user_id, since):
            return True
        last = await self.last_action_at(chouette_id, user_id)
        return last is not None and last > since

    async def reminded(self, chouette_id: int) -> tuple[int, int] | None:
        """The version and stage of the last reminder the clock sent, if any (a cheap read
        before :meth:`claim_reminder` writes)."""
        row = (
            await self.engine.read(
                sa.select(chouette_reminders.c.version, chouette_reminders.c.stage).where(
                    chouette_reminders.c.chouette_id == chouette_id
                )
            )
        ).first()
        return None if row is None else (int(row[0]), int(row[1]))

    async def claim_reminder(self, chouette_id: int, version: int, stage: int) -> bool:
        """Mark that the reminder of ``stage`` went out for the session at ``version``: True
        for the one caller that marks it, False when it was marked already (by another
        process's clock, say) or the session has moved on. The first statement holds the
        session's row (:func:`hold`) before the marker is read, so of two clocks the second
        reads the first's."""

        def write(connection: DirectConnection) -> bool:
            if hold(connection, chouette_id, version) is None:
                return False
            marker = connection.execute(
                sa.select(chouette_reminders.c.version, chouette_reminders.c.stage).where(
                    chouette_reminders.c.chouette_id == chouette_id
                )
            ).first()
            if marker is not None and marker[0] == version and marker[1] >= stage:
                return False
            values = {"chouette_id": chouette_id, "version": version, "stage": stage}
            if marker is None:
                connection.execute(sa.insert(chouette_reminders), values)
            else:
                connection.execute(
                    sa.update(chouette_reminders)
                    .where(chouette_reminders.c.chouette_id == chouette_id)
                    .values(version=version, stage=stage)
                )
            return True

        return await self.engine.write(write)
