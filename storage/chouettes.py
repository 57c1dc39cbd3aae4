"""Chouette sessions in a group chat: seats, the event log of their games, the scoreboard and
the session's fair dice, with the guarantees matches have.

As for matches, storage only persists: the command layer applies the rules
(:mod:`gammon.chouette`) to the game it loaded and hands over the actions they recorded.
Every write is one short transaction whose first statement is the conditional update
``UPDATE chouettes ... WHERE id = ? AND version = ? AND status IN (...)``: it checks and bumps
the version and takes the row's lock (PostgreSQL) or the write lock (SQLite) before anything
else is read, so a stale writer gets :class:`ConflictError` and writes nothing, on either
database and from any number of processes. A write that adds to a game without changing the
session (a seat request, a reminder's mark) begins by writing the row onto itself instead
(:func:`storage.chouette_sql.hold`): the same lock, the version unchanged. An append carries
the platform's event id; the same update handled twice gets :class:`AlreadyAppliedError`.

Everything lives in the database: after a restart :meth:`ChouetteRepository.load` replays the
current game from its events and sums the scoreboard from the finished games.

**Dice.** One server seed for the whole session, drawn by the caller, its SHA-256 published
when the session opens and the seed itself secret until it has ended. The client seed is
fixed once, after the commitment was published and before the first roll
(:meth:`ChouetteRepository.set_client_seed`). Every dice event of the session, the seating
rolls and every game's rolls, takes the next nonce of one counter (``dice_nonce``), so the
one commitment covers every roll: ``dice_for(id, info.dice_nonce)`` is always the next roll.
The seating dice are kept with the session and each finished game's order with the game, so
that :meth:`ChouetteRepository.dice_record` lists every dice event in nonce order, with who
rolled it, for the transcript (:mod:`storage.chouette_dice`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from gammon.chouette import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ChouetteAction,
    ChouetteError,
    ChouetteGame,
    ChouetteRules,
    apply,
    chouette_action_from_dict,
    chouette_action_to_dict,
    join,
    new_game,
    new_table,
)
from gammon.fair_dice import FairDice
from gammon.flow import Roller
from storage.acted import SeenActions
from storage.chouette_dice import ChouetteRoll, dice_queries, recorded_rolls, seating_value
from storage.chouette_records import (
    ChouetteInfo,
    ChouetteStatus,
    LoadedChouette,
    player_key,
)
from storage.chouette_sql import (
    INFO_COLUMNS,
    JOIN,
    LEAVE,
    apply_seat_requests,
    change_request,
    check_same_players,
    claim,
    deadline_after,
    dice_events,
    events_since,
    finished_games,
    game_record,
    hold,
    info_from_row,
    now_utc,
    open_in,
    opened_by,
    read_requests,
    refuse,
    requests_of,
    scoreboard_of,
    seated_after,
    seated_condition,
    update_row,
)
from storage.database import Database
from storage.dice import SecretSeed
from storage.errors import ConflictError, NotFoundError, SeedStillSecretError
from storage.event_log import EventLog, Then
from storage.schema import (
    chouette_events,
    chouette_games,
    chouette_reminders,
    chouettes,
    open_chouettes,
)
from storage.transaction import Transaction

OPEN, PLAYING, ENDED = ChouetteStatus.OPEN, ChouetteStatus.PLAYING, ChouetteStatus.ENDED
_NOT_ENDED: Final = (OPEN, PLAYING)
_CACHE_SIZE: Final = 512
_LOG: Final = EventLog(chouette_events, owner="chouette_id", actor="player_id")


class ChouetteExistsError(ConflictError):
    """The chat has a chouette that has not ended (``chouette_id``, when known): a chat has
    one at a time, which the database enforces whatever races."""

    def __init__(self, message: str, chouette_id: int | None = None) -> None:
        super().__init__(message)
        self.chouette_id = chouette_id


@dataclass(frozen=True)
class _Cached:
    """A game in memory: the game ``game_number`` with every event before ``version``."""

    version: int
    game_number: int
    game: ChouetteGame


class ChouetteRepository:
    """Chouette sessions: seats, games, the event log, the scoreboard and the dice.

    Keeps the current game of recently loaded sessions in memory, with the version it was
    replayed to: a later load reads and applies only the events written since (the log is
    append-only), and every write still checks the version in the database."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._games: OrderedDict[int, _Cached] = OrderedDict()
        self._dice: dict[int, FairDice] = {}
        self._acted = SeenActions(2 * _CACHE_SIZE)  # see :meth:`acted_since`

    # --- opening and seating ------------------------------------------------------------------

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

        def write(connection: Connection) -> int:
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
        return await self.info(opened)

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
        :class:`ConflictError`; :meth:`dice_for` refuses until it is set."""

        def write(connection: Connection) -> RowMapping:
            row = claim(connection, chouette_id, version, (OPEN,), {"updated_at": now or now_utc()})
            if row["client_seed"] is not None:
                raise ConflictError(f"chouette {chouette_id} has its client seed already")
            return update_row(connection, chouette_id, {"client_seed": client_seed})

        return info_from_row(await self.engine.write(write))

    async def join(
        self, chouette_id: int, user_id: int, version: int, *, now: datetime | None = None
    ) -> ChouetteInfo:
        """The user sits down at the end of the line, between games only (status ``open``).
        The rules refuse a player seated already or a full table (:class:`ChouetteError`,
        ``already_seated`` / ``table_full``); a stale version gets :class:`ConflictError`."""

        def write(connection: Connection) -> RowMapping:
            row = claim(connection, chouette_id, version, (OPEN,), {"updated_at": now or now_utc()})
            seated = join(info_from_row(row).table, player_key(user_id))
            return update_row(connection, chouette_id, {"seats": [int(p) for p in seated.order]})

        return info_from_row(await self.engine.write(write))

    async def leave(
        self, chouette_id: int, user_id: int, version: int, *, now: datetime | None = None
    ) -> ChouetteInfo:
        """The user gets up, between games only; everyone behind moves up one place. Any
        number may leave (between games there may be fewer than a game needs): the command
        layer starts no game with too few, and the host or an administrator ends the session."""

        def write(connection: Connection) -> RowMapping:
            row = claim(connection, chouette_id, version, (OPEN,), {"updated_at": now or now_utc()})
            seats = [int(user) for user in row["seats"]]
            if user_id not in seats:
                raise ChouetteError("not_seated", f"user {user_id} does not sit at this chouette")
            kept = [user for user in seats if user != user_id]
            return update_row(connection, chouette_id, {"seats": kept})

        return info_from_row(await self.engine.write(write))

    # --- games --------------------------------------------------------------------------------

    async def start_game(
        self,
        chouette_id: int,
        version: int,
        order: Sequence[int],
        *,
        seating_dice: int = 0,
        seating_rolls: Sequence[tuple[int, tuple[int, int]]] = (),
        now: datetime | None = None,
    ) -> ChouetteInfo:
        """Start game ``game_number`` with the players seated now in ``order`` (box, captain,
        then the line): for the first game the order the seating dice gave, later the order
        :meth:`finish_game` left with newcomers at the end. ``seating_dice`` is how many dice
        events the caller used to seat the players (``dice_for`` from ``dice_nonce`` on):
        they are spent, and the game's rolls take the nonces after them. ``seating_rolls``
        are those events as (user id, dice), in nonce order, kept for the dice check (given,
        they are the ``seating_dice``).

        The rules refuse fewer than three or more than eight players (:class:`ChouetteError`);
        an order of other players than those seated, or no client seed yet, is a caller's
        bug (``ValueError``)."""
        players = list(order)
        if seating_rolls:
            if seating_dice not in (0, len(seating_rolls)):
                raise ValueError(f"{len(seating_rolls)} seating rolls, not {seating_dice}")
            seating_dice = len(seating_rolls)
        if seating_dice < 0:
            raise ValueError(f"seating_dice counts dice events: {seating_dice}")
        new_table([player_key(user) for user in players])  # 3 to 8 players, none twice
        moment = now or now_utc()

        def write(connection: Connection) -> RowMapping:
            row = claim(connection, chouette_id, version, (OPEN,), {"updated_at": moment})
            if row["client_seed"] is None:
                raise ValueError(f"chouette {chouette_id}: set the client seed before rolling")
            check_same_players(players, row["seats"], "the order")
            first = row["dice_nonce"] + seating_dice
            values = {"seats": players, "dice_nonce": first, **_game_started(row, first, moment)}
            if seating_rolls:
                values["seating_rolls"] = seating_value(seating_rolls)
            return update_row(connection, chouette_id, values)

        return info_from_row(await self.engine.write(write))

    async def append(
        self,
        chouette_id: int,
        version: int,
        actions: Sequence[ChouetteAction],
        player_id: int | None,
        event_id: str | None = None,
        *,
        now: datetime | None = None,
        then: Then,
    ) -> int:
        """Write ``actions`` (recorded by the rules from the game at ``version``: the
        player's action and what followed by itself) to the running game, in one
        transaction, if the session is still at ``version``; returns the new version (one
        more per action). ``player_id`` is the user whose command it was, ``event_id`` the
        platform's id of it. The dice counter moves on by the rolls among the actions.
        ``then`` writes, in the same transaction, what the actions set off (a game the
        rules say is over is marked so, ``game_over_at``, until :meth:`finish_game` writes
        its points, so that a game whose settlement a stopped process left undone is found:
        :meth:`unsettled_chouettes`; see :mod:`bot.core.events`).

        Raises :class:`AlreadyAppliedError` when ``event_id``'s action is in the log already
        and :class:`ConflictError` when another writer got there first (or no game runs);
        nothing is written either way. With no actions nothing is written."""
        if not actions:
            if (await self.info(chouette_id)).version != version:
                raise ConflictError(f"chouette {chouette_id} is no longer at version {version}")
            return version
        moment = now or now_utc()
        new_version = version + len(actions)
        values = {
            "version": new_version,
            "dice_nonce": chouettes.c.dice_nonce + dice_events(actions),
            "updated_at": moment,
        }

        def claim_and_time(connection: Connection) -> RowMapping:
            row = claim(connection, chouette_id, version, (PLAYING,), values)
            if row["move_time_limit"]:
                deadline = deadline_after(row["move_time_limit"], moment)
                row = update_row(connection, chouette_id, {"deadline": deadline})
            return row

        await _LOG.append(
            self.engine,
            chouette_id,
            version,
            claim_and_time,
            [chouette_action_to_dict(action) for action in actions],
            actor_id=player_id,
            event_id=event_id,
            moment=moment,
            columns=lambda row: {"game_number": row["game_number"]},
            then=then,
        )
        if player_id is not None:
            self._acted.saw(chouette_id, player_id, moment)
        return new_version

    async def finish_game(
        self,
        chouette_id: int,
        version: int,
        points: Mapping[int, int],
        next_order: Sequence[int],
        *,
        start_next: bool = False,
        now: datetime | None = None,
    ) -> ChouetteInfo:
        """Close the running game in one transaction: its points (user id to points won or
        lost, from :func:`gammon.chouette.settle`) go to the scoreboard, the seats take
        ``next_order`` (:func:`gammon.chouette.next_table`) with the requests made during the
        game (:meth:`request`) applied and cleared, and the session waits for the
        next game (status ``open``, ``game_number`` one more). Storage does not replay the
        game: the caller settled it. Points that do not add up to zero are refused
        (:class:`ChouetteError` ``not_zero_sum``); points or an order for other players than
        those at the table are a caller's bug (``ValueError``).

        ``start_next``: the next game starts in the same transaction when three or more are
        seated then (status ``playing``, as :meth:`start_game` starts it: its rolls take the
        session's next nonces, its deadline runs from now), so that no other start can come
        between the settlement and the game that follows it. Its opening roll is the
        caller's next write (:meth:`unrolled_chouettes` finds it, had the caller stopped)."""
        if sum(points.values()) != 0:
            raise ChouetteError("not_zero_sum", f"a game's points add up to zero: {points}")
        moment = now or now_utc()
        order = list(next_order)
        scored = {player_key(user): int(won) for user, won in points.items()}

        def write(connection: Connection) -> RowMapping:
            row = claim(connection, chouette_id, version, (PLAYING,), {"updated_at": moment})
            check_same_players(list(points), row["seats"], "the points' players")
            check_same_players(order, row["seats"], "the next order")
            connection.execute(
                sa.insert(chouette_games),
                {
                    "chouette_id": chouette_id,
                    "game_number": row["game_number"],
                    "points": scored,
                    "first_nonce": row["game_nonce"],
                    "ended_at": moment,
                    "seats": [int(user) for user in row["seats"]],
                },
            )
            seats = apply_seat_requests(connection, chouette_id, order)
            values = {
                "status": OPEN.value,
                "seats": seats,
                "game_number": row["game_number"] + 1,
                "deadline": None,
                "game_over_at": None,
            }
            if start_next and len(seats) >= MIN_PLAYERS:
                values |= _game_started(row, row["dice_nonce"], moment)
            return update_row(connection, chouette_id, values)

        return info_from_row(await self.engine.write(write))

    async def request(
        self, chouette_id: int, user_id: int, kind: str, *, now: datetime | None = None
    ) -> bool:
        """Remember that the user joins (``"join"``) or leaves (``"leave"``) when the game
        being played ends (:meth:`finish_game` seats them). One short transaction that first
        holds the session's row while its game is being played (:func:`hold`: no new version,
        so a play at the same moment still goes through), so requests made at once by any
        number of processes are written one after the other and all survive, each counted
        against those before it: a request of the other kind is deleted (they changed their
        mind), else this one is inserted unless it is there already. False when the same
        request was there already.

        A join (or a leave taken back) that would seat more than eight when the game ends is
        refused in the same transaction (:class:`ChouetteError` ``table_full``), so nobody is
        promised a seat that is not there; :class:`ConflictError` once no game is being
        played (it ended meanwhile: the player joins or leaves at once), and
        :class:`ChouetteEndedError` once the session has ended. Nothing is written either
        way."""
        if kind not in (JOIN, LEAVE):
            raise ValueError(f"a request joins or leaves: {kind!r}")
        other = LEAVE if kind == JOIN else JOIN
        row = {
            "chouette_id": chouette_id,
            "user_id": user_id,
            "kind": kind,
            "created_at": now or now_utc(),
        }

        def write(connection: Connection) -> bool:
            held = hold(connection, chouette_id)
            if held is None:
                refuse(connection, chouette_id, None, (PLAYING,))
            changed = change_request(connection, row, other)
            if kind == JOIN and changed:
                requests = read_requests(connection, chouette_id)
                if seated_after([int(user) for user in held["seats"]], requests) > MAX_PLAYERS:
                    raise ChouetteError("table_full", f"chouette {chouette_id} seats no more")
            return changed

        return await self.engine.write(write)

    async def requests(self, chouette_id: int) -> list[tuple[int, str]]:
        """The requests waiting for the game to end: (user id, ``"join"`` or ``"leave"``), in
        the order they were made."""
        rows = await self.engine.read(requests_of(chouette_id))
        return [(int(user_id), str(kind)) for user_id, kind in rows]

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

        def write(connection: Connection) -> RowMapping:
            values = {
                "status": ENDED.value,
                "updated_at": moment,
                "ended_at": moment,
                "deadline": None,
                "game_over_at": None,
            }
            row = claim(connection, chouette_id, version, _NOT_ENDED, values)
            if then is not None:
                then(Transaction(connection, moment))
            return row

        ended = info_from_row(await self.engine.write(write))
        self._games.pop(chouette_id, None)
        return ended

    # --- reading ------------------------------------------------------------------------------

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
        base = self._base(info)
        queries = [finished_games(info)]
        if info.status is PLAYING:
            queries.append(events_since(info, base.version if base is not None else 0))
        found = await self.engine.read_many(*((query, None) for query in queries))
        games = tuple(game_record(chouette_id, row._mapping) for row in found[0])
        game = None
        if info.status is PLAYING:
            game = base.game if base is not None else new_game(info.table, info.rules)
            for (action,) in found[1]:
                game = apply(game, chouette_action_from_dict(action))
            self._remember(info.id, _Cached(info.version, info.game_number, game))
        else:
            self._games.pop(info.id, None)
        return LoadedChouette(info, game, scoreboard_of(games), games)

    def _base(self, info: ChouetteInfo) -> _Cached | None:
        """The running game kept in memory, if it is this version's game at this version or
        an earlier one (the events since are then all that needs reading)."""
        cached = self._games.get(info.id)
        if (
            info.status is not PLAYING
            or cached is None
            or cached.game_number != info.game_number
            or cached.version > info.version
        ):
            return None
        return cached

    def _remember(self, chouette_id: int, cached: _Cached) -> None:
        known = self._games.get(chouette_id)
        if (
            known is not None
            and known.game_number == cached.game_number
            and known.version > cached.version
        ):
            return  # a load that read the row before a write: the newer game stays
        self._games[chouette_id] = cached
        self._games.move_to_end(chouette_id)
        if len(self._games) > _CACHE_SIZE:
            self._games.popitem(last=False)

    async def active_id_for_chat(self, chat_id: int) -> int | None:
        """The id of the chat's session that has not ended, if any (one primary-key read)."""
        found = (await self.engine.read(open_in(chat_id))).scalar()
        return None if found is None else int(found)

    async def active_for_chat(self, chat_id: int) -> LoadedChouette | None:
        """The chat's session that has not ended, loaded, or None."""
        chouette_id = await self.active_id_for_chat(chat_id)
        return None if chouette_id is None else await self.load(chouette_id)

    async def seated_in(self, user_id: int) -> list[ChouetteInfo]:
        """Every session that has not ended where the user sits (at the table or, between
        games, for the next one), in any chat, oldest first."""
        dialect = self.engine.sync_engine.dialect.name
        rows = await self.engine.read(
            sa.select(*INFO_COLUMNS)
            .where(
                chouettes.c.status.in_([status.value for status in _NOT_ENDED]),
                seated_condition(dialect, user_id),
            )
            .order_by(chouettes.c.id)
        )
        return [info_from_row(row._mapping) for row in rows]

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

    async def applied(self, chouette_id: int, event_id: str) -> bool:
        """Whether the action of the platform event ``event_id`` is in the session's log."""
        return await _LOG.applied(self.engine, chouette_id, event_id)

    async def timed_chouettes(self) -> list[ChouetteInfo]:
        """Sessions with a game running against a move time limit (for the clock)."""
        rows = await self.engine.read(
            sa.select(*INFO_COLUMNS)
            .where(chouettes.c.status == PLAYING.value, chouettes.c.deadline.is_not(None))
            .order_by(chouettes.c.id)
        )
        return [info_from_row(row._mapping) for row in rows]

    async def unsettled_chouettes(self, before: datetime) -> list[ChouetteInfo]:
        """Sessions whose running game was over before ``before`` with its points not yet
        written: the process that wrote its last action stopped before settling it (for the
        clock, which settles it; ``before`` leaves a process that is settling it now alone)."""
        rows = await self.engine.read(
            sa.select(*INFO_COLUMNS)
            .where(chouettes.c.status == PLAYING.value, chouettes.c.game_over_at <= before)
            .order_by(chouettes.c.id)
        )
        return [info_from_row(row._mapping) for row in rows]

    async def unrolled_chouettes(self, before: datetime) -> list[ChouetteInfo]:
        """Sessions whose running game started before ``before`` and has no roll yet, not even
        its opening roll: the process that started it stopped before writing the roll (for
        the clock, which makes it; ``before`` leaves a process that is writing it now alone).
        A game's first dice event is its opening roll, so the dice counter is still at the
        game's first nonce; the session's row is written with every action."""
        rows = await self.engine.read(
            sa.select(*INFO_COLUMNS)
            .where(
                chouettes.c.status == PLAYING.value,
                chouettes.c.dice_nonce == chouettes.c.game_nonce,
                chouettes.c.updated_at <= before,
            )
            .order_by(chouettes.c.id)
        )
        return [info_from_row(row._mapping) for row in rows]

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

        def write(connection: Connection) -> bool:
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

    # --- dice ---------------------------------------------------------------------------------

    async def roller(self, chouette_id: int) -> Roller:
        """The session's dice: ``roller(nonce)`` is dice event ``nonce`` of the session. Read
        once its client seed is fixed (the seeds never change after) and kept."""
        known = self._dice.get(chouette_id)
        if known is None:
            row = (
                await self.engine.read(
                    sa.select(chouettes.c.server_seed, chouettes.c.client_seed).where(
                        chouettes.c.id == chouette_id
                    )
                )
            ).first()
            if row is None:
                raise NotFoundError(f"no chouette {chouette_id}")
            if row[1] is None:
                raise ValueError(f"chouette {chouette_id}: set the client seed before rolling")
            known = FairDice(bytes.fromhex(row[0]), row[1])
            if len(self._dice) > _CACHE_SIZE:
                self._dice.clear()
            self._dice[chouette_id] = known
        return known.roll

    async def dice_for(self, chouette_id: int, nonce: int) -> tuple[int, int]:
        """The two dice of dice event ``nonce`` of the session (the next is ``dice_nonce``)."""
        return (await self.roller(chouette_id))(nonce)

    async def dice_record(self, chouette_id: int) -> tuple[ChouetteInfo, tuple[ChouetteRoll, ...]]:
        """The session and every dice event recorded for it, in nonce order (the seating
        dice, then each game's opening roll, its re-rolls and its rolls: see
        :mod:`storage.chouette_dice`); the dice only, never the seed."""
        info = await self.info(chouette_id)
        seating, games, events = await self.engine.read_many(
            *((query, None) for query in dice_queries(info))
        )
        rolls = recorded_rolls(
            info,
            seating.scalar(),
            [(row[0], row[1], row[2]) for row in games],
            [(row[0], row[1]) for row in events],
        )
        return info, rolls

    async def latest_ended_in_chat(self, chat_id: int) -> ChouetteInfo | None:
        """The chat's session that ended last, if any."""
        row = (
            await self.engine.read(
                sa.select(*INFO_COLUMNS)
                .where(chouettes.c.chat_id == chat_id, chouettes.c.status == ENDED.value)
                .order_by(chouettes.c.ended_at.desc(), chouettes.c.id.desc())
                .limit(1)
            )
        ).first()
        return None if row is None else info_from_row(row._mapping)

    async def reveal_seed(self, chouette_id: int) -> bytes:
        """The server seed, once the session has ended (for the transcript anyone can check
        against the commitment); :class:`SeedStillSecretError` before."""
        row = (
            await self.engine.read(
                sa.select(chouettes.c.status, chouettes.c.server_seed).where(
                    chouettes.c.id == chouette_id
                )
            )
        ).first()
        if row is None:
            raise NotFoundError(f"no chouette {chouette_id}")
        if row[0] != ENDED:
            raise SeedStillSecretError(f"chouette {chouette_id} is still being played")
        return bytes.fromhex(row[1])


def _game_started(row: RowMapping, first_nonce: int, moment: datetime) -> dict[str, object]:
    """The columns of a session whose next game starts at ``moment``: being played, its rolls
    from dice event ``first_nonce`` on, its move time (if any) running from now."""
    return {
        "status": PLAYING.value,
        "game_nonce": first_nonce,
        "deadline": deadline_after(row["move_time_limit"], moment),
    }
