"""Matches and their event log: create, load, append with optimistic concurrency, queries.

Storage only persists: the command layer applies the rules (``gammon.flow.plan``) to the state
it loaded and hands over the steps; :meth:`MatchRepository.append` then, in one short write
transaction, checks and bumps the version (``UPDATE ... WHERE id = ? AND version = ?``),
inserts the events and stores the new snapshot. A stale writer gets :class:`ConflictError` and
writes nothing. No transaction stays open while the engine computes. The dice come from
:class:`storage.dice.DiceRepository`, the only holder of the secret seeds.

The snapshot leaves the history out (the log holds it), so an append writes as much at move
500 as at move 5. A state loaded from a snapshot therefore has no actions, and one kept in memory
only those applied since it was loaded: who needs the whole history (the transcript, the .mat
export) asks :meth:`MatchRepository.history` or :meth:`MatchRepository.with_history`.
"""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from gammon.actions import Action, action_from_dict, action_to_dict
from gammon.flow import MatchState, Phase, Step, new_match, replay
from gammon.match_rules import MatchRules
from gammon.serialization import state_from_dict, state_to_dict
from storage.acted import SeenActions
from storage.database import Database
from storage.dice import SecretSeed
from storage.errors import ConflictError, NotFoundError, SeatTakenError
from storage.event_log import EventLog, Then
from storage.people import user_record
from storage.records import (
    Appended,
    ChallengeState,
    LoadedMatch,
    Logged,
    MatchInfo,
    MatchStatus,
    UserRecord,
)
from storage.results import BufferedResult
from storage.schema import (
    challenges,
    match_events,
    match_seats,
    matches,
    users,
)

logger = logging.getLogger(__name__)

ACTIVE = MatchStatus.ACTIVE
SLUG_BYTES = 16  # 128 random bits: nobody finds a match's pages by trying addresses


def new_slug() -> str:
    """A fresh unguessable slug for a match's web addresses (22 URL-safe characters)."""
    return secrets.token_urlsafe(SLUG_BYTES)


FINISHED = MatchStatus.FINISHED

# Every column but the secret seed and the snapshot: what match listings read.
_INFO_COLUMNS = [column for column in matches.c if column.name not in ("server_seed", "snapshot")]


# The match row and its snapshot; the snapshot is left out (NULL) when the caller already
# holds the state of the stored version (``known_version``).
_LOAD_MATCH = sa.select(
    *_INFO_COLUMNS,
    sa.case(
        (matches.c.version == sa.bindparam("known_version"), sa.null()),
        else_=matches.c.snapshot,
    ).label("snapshot"),
    matches.c.snapshot_version,
).where(matches.c.id == sa.bindparam("match_id"))


# One action appended: the row moves on only from the expected version of an active match.
_APPEND = (
    sa.update(matches)
    .where(
        matches.c.id == sa.bindparam("b_match"),
        matches.c.version == sa.bindparam("b_expected"),
        matches.c.status == ACTIVE,
    )
    .values(
        {
            column: sa.bindparam(column, type_=matches.c[column].type)
            for column in (
                "version",
                "snapshot",
                "snapshot_version",
                "status",
                "turn_user_id",
                "updated_at",
                "deadline",
                "finished_at",
            )
        }
    )
    .returning(*_INFO_COLUMNS)
)
_INSERT_EVENTS = sa.insert(match_events)
_LOG = EventLog(match_events, owner="match_id", actor="actor_id")
# The two players of a match (the same row twice would be one: a match has two players).
_MATCH_PLAYERS = (
    sa.select(users)
    .join(matches, sa.or_(matches.c.player0_id == users.c.id, matches.c.player1_id == users.c.id))
    .where(matches.c.id == sa.bindparam("match_id"))
)
_ACTIVE_MATCH_ID = sa.select(match_seats.c.match_id).where(
    match_seats.c.chat_id == sa.bindparam("chat_id"),
    match_seats.c.user_id == sa.bindparam("user_id"),
)
# The same seat as a subquery: a user's active match in a chat and its players, read without
# knowing its id (along with who is speaking, see UserRepository.upsert_user_in_chat).
_SEAT = (
    sa.select(match_seats.c.match_id)
    .where(
        match_seats.c.chat_id == sa.bindparam("seat_chat"),
        match_seats.c.user_id == sa.bindparam("seat_user"),
    )
    .scalar_subquery()
)
_LOAD_ACTIVE = sa.select(*_INFO_COLUMNS, matches.c.snapshot, matches.c.snapshot_version).where(
    matches.c.id == _SEAT
)
_ACTIVE_PLAYERS = (
    sa.select(users)
    .join(matches, sa.or_(matches.c.player0_id == users.c.id, matches.c.player1_id == users.c.id))
    .where(matches.c.id == _SEAT)
)


def _take_seats(connection: Connection, chat_id: int, player_ids: Sequence[int]) -> None:
    """Refuse (before writing) when a player already plays an active match in the chat; the
    seats' primary key settles what happens at the same moment."""
    taken = connection.execute(
        sa.select(match_seats.c.user_id).where(
            match_seats.c.chat_id == chat_id, match_seats.c.user_id.in_(player_ids)
        )
    ).first()
    if taken is not None:
        raise SeatTakenError(f"user {taken[0]} already plays in chat {chat_id}", int(taken[0]))


def _close_open_challenge(connection: Connection, challenge_id: int) -> None:
    accepted = connection.execute(
        sa.update(challenges)
        .where(challenges.c.id == challenge_id, challenges.c.state == ChallengeState.OPEN)
        .values(state=ChallengeState.ACCEPTED)
    )
    if accepted.rowcount != 1:
        raise ConflictError(f"challenge {challenge_id} is no longer open")


@dataclass(frozen=True)
class _Cached:
    """A match state in memory and the version it belongs to."""

    version: int
    state: MatchState


def _snapshot(state: MatchState) -> dict[str, Any]:
    """What is stored as the match's snapshot: the state without its history, which the event
    log holds, so that writing it costs the same however long the match has run."""
    return state_to_dict(state, with_actions=False)


def _now() -> datetime:
    return datetime.now(UTC)


def _info(data: RowMapping) -> MatchInfo:
    return MatchInfo(
        id=data["id"],
        chat_id=data["chat_id"],
        player_ids=(data["player0_id"], data["player1_id"]),
        rules=MatchRules.from_dict(data["rules"]),
        status=MatchStatus(data["status"]),
        version=data["version"],
        turn_user_id=data["turn_user_id"],
        dice_commitment=data["dice_commitment"],
        client_seeds=(data["client_seed0"], data["client_seed1"]),
        move_time_limit=data["move_time_limit"],
        deadline=data["deadline"],
        board_messages=data["board_messages"],
        created_at=data["created_at"],
        updated_at=data["updated_at"],
        finished_at=data["finished_at"],
        bot_level=data["bot_level"],
        hints=bool(data["hints"]),
        rated=bool(data["rated"]),
        slug=data["slug"] or "",
    )


_STATE_CACHE_SIZE = 2048


class MatchRepository:
    """Matches and their event log. Keeps the newest state of recently used matches in
    memory, keyed by version: a cached state is only ever used for the exact version it
    belongs to, and every write still checks that version in the database."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._states: OrderedDict[int, _Cached] = OrderedDict()
        self._facts: dict[int, tuple[tuple[int, int], int | None]] = {}
        # When a user acted in a match, as this process saw it (see :meth:`acted_since`).
        self._acted = SeenActions(2 * _STATE_CACHE_SIZE)

    def _remember(self, match_id: int, version: int, state: MatchState) -> None:
        """Keep ``state`` as the match's state at ``version``, unless a newer version's state
        is kept already (a load that read the row just before a write committed)."""
        known = self._states.get(match_id)
        if known is not None and known.version > version:
            return
        self._states[match_id] = _Cached(version, state)
        self._states.move_to_end(match_id)
        if len(self._states) > _STATE_CACHE_SIZE:
            self._states.popitem(last=False)

    def _recall(self, match_id: int, version: int) -> MatchState | None:
        cached = self._states.get(match_id)
        if cached is None or cached.version != version:
            return None
        self._states.move_to_end(match_id)
        return cached.state

    async def match_info(self, match_id: int) -> MatchInfo:
        """The match's row without its state (cheap: no snapshot is read)."""
        found = await self._infos(matches.c.id == match_id)
        if not found:
            raise NotFoundError(f"no match {match_id}")
        return found[0]

    async def start_match(
        self,
        *,
        chat_id: int,
        player_ids: tuple[int, int],
        rules: MatchRules,
        client_seeds: tuple[str, str],
        seed: SecretSeed,
        steps: Sequence[Step] = (),
        challenge_id: int | None = None,
        move_time_limit: int | None = None,
        now: datetime | None = None,
        bot_level: str | None = None,
        hints: bool = False,
        rated: bool = True,
    ) -> Appended:
        """Start a match in one transaction: the match row, its players' seats, the ``steps``
        already played from the start (the opening roll and any re-rolls after a tie, planned
        by the caller with ``seed``'s dice) and, given ``challenge_id``, the acceptance of that
        challenge.

        Nothing is written when a player already has an active match in the chat
        (:class:`SeatTakenError`) or the challenge is no longer open (:class:`ConflictError`),
        and a crash leaves either all of it or none.

        With ``bot_level`` the second player is the bot: it takes no seat, since it plays any
        number of people in the same chat at once."""
        moment = now or _now()
        seated = player_ids[:1] if bot_level is not None else player_ids
        state = steps[-1].after if steps else new_match(rules)
        recorded = [action for step in steps for action in step.recorded]
        action_dicts = [action_to_dict(action) for action in recorded]
        version = len(recorded)
        values = {
            "chat_id": chat_id,
            "player0_id": player_ids[0],
            "player1_id": player_ids[1],
            "variant": rules.variant.value,
            "rules": rules.to_dict(),
            "status": ACTIVE,
            "version": version,
            "snapshot": _snapshot(state),
            "snapshot_version": version,
            "turn_user_id": None if state.turn is None else player_ids[state.turn],
            "dice_commitment": seed.commitment,
            "server_seed": seed.stored,
            "client_seed0": client_seeds[0],
            "client_seed1": client_seeds[1],
            "move_time_limit": move_time_limit,
            "deadline": moment + timedelta(seconds=move_time_limit) if move_time_limit else None,
            "board_messages": {},
            "created_at": moment,
            "updated_at": moment,
            "finished_at": None,
            "bot_level": bot_level,
            "hints": hints,
            "rated": rated and bot_level is None,
            "slug": new_slug(),
        }

        def write(connection: Connection) -> int:
            if challenge_id is not None:  # first: a second accept is told it was answered
                _close_open_challenge(connection, challenge_id)
            _take_seats(connection, chat_id, seated)
            inserted = connection.execute(sa.insert(matches), values).inserted_primary_key
            assert inserted is not None
            match_id = int(inserted[0])
            connection.execute(
                sa.insert(match_seats),
                [{"chat_id": chat_id, "user_id": user, "match_id": match_id} for user in seated],
            )
            if action_dicts:
                connection.execute(
                    _INSERT_EVENTS,
                    [
                        {
                            "match_id": match_id,
                            "seq": seq,
                            "actor_id": None,
                            "action": action,
                            "created_at": moment,
                        }
                        for seq, action in enumerate(action_dicts)
                    ],
                )
            if challenge_id is not None:
                connection.execute(
                    sa.update(challenges)
                    .where(challenges.c.id == challenge_id)
                    .values(match_id=match_id)
                )
            return match_id

        try:
            match_id = await self.engine.write(write)
        except sa.exc.IntegrityError as error:  # a seat taken at the same moment elsewhere
            raise SeatTakenError(f"a player of the new match is seated: {error}") from None
        self._remember(match_id, version, state)
        loaded = await self.load_match(match_id)
        return Appended(loaded, tuple(recorded), tuple(steps))

    async def load_match(self, match_id: int) -> LoadedMatch:
        """The match and its current state (rebuilt from the log if the snapshot is stale). The
        state carries no history when it comes from the snapshot: see :meth:`with_history`.

        When the state of the stored version is in memory already, the snapshot is not even
        read: the row says which version is current, the cache has that version's state."""
        row = (await self.engine.read(*self._load_query(match_id))).first()
        return await self._loaded(match_id, row)

    async def load_match_with_players(
        self, match_id: int
    ) -> tuple[LoadedMatch, dict[int, UserRecord]]:
        """:meth:`load_match`, and the match's players by id, read in the same hand-over to
        the database thread (a command on a match needs both)."""
        found, players = await self.engine.read_many(
            self._load_query(match_id), (_MATCH_PLAYERS, {"match_id": match_id})
        )
        loaded = await self._loaded(match_id, found.first())
        return loaded, {user.id: user for user in (user_record(row._mapping) for row in players)}

    def _load_query(self, match_id: int) -> tuple[Any, dict[str, Any]]:
        cached = self._states.get(match_id)
        return _LOAD_MATCH, {"match_id": match_id, "known_version": cached and cached.version}

    async def _loaded(self, match_id: int, row: Any) -> LoadedMatch:
        """The match from its row as :data:`_LOAD_MATCH` read it."""
        if row is None:
            raise NotFoundError(f"no match {match_id}")
        info = _info(row._mapping)
        self._facts[match_id] = (info.player_ids, info.move_time_limit)
        known = self._recall(match_id, info.version)
        if known is not None:
            return LoadedMatch(info, known)
        snapshot = row._mapping["snapshot"]
        if snapshot is not None and row._mapping["snapshot_version"] == info.version:
            state = state_from_dict(snapshot)
            self._remember(match_id, info.version, state)
            return LoadedMatch(info, state)
        # Only the events of the version read: a write may have added more since.
        state = replay(info.rules, await self.history(match_id, info.version))
        if info.status == ACTIVE:
            logger.info("match %s: snapshot rebuilt from %s events", match_id, info.version)
            await self._store_snapshot(match_id, info.version, state)
        self._remember(match_id, info.version, state)
        return LoadedMatch(info, state)

    async def _store_snapshot(self, match_id: int, version: int, state: MatchState) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                sa.update(matches)
                .where(matches.c.id == match_id, matches.c.version == version)
                .values(snapshot=_snapshot(state), snapshot_version=version)
            )

    async def events(self, match_id: int) -> list[Action]:
        """The event log in order: the truth of the match."""
        return list(await self.history(match_id))

    async def history(self, match_id: int, version: int | None = None) -> tuple[Action, ...]:
        """The match's actions in order, read from the event log along its primary key: the
        only place the history is kept. ``version`` stops at that version's last action, to go
        with a state loaded at it while the match may have moved on since."""
        query = sa.select(match_events.c.action).where(match_events.c.match_id == match_id)
        if version is not None:
            query = query.where(match_events.c.seq < version)
        rows = await self.engine.read(query.order_by(match_events.c.seq))
        return tuple(action_from_dict(action) for (action,) in rows)

    async def recent_events(
        self, match_id: int, version: int, count: int | None = None
    ) -> tuple[Logged, ...]:
        """The last ``count`` actions before ``version`` (all of them without ``count``), each
        with the user whose request made it: set on the first action of each write made for a
        person (or the bot), None on what followed by itself and on the dice's own writes."""
        query = sa.select(match_events.c.seq, match_events.c.action, match_events.c.actor_id)
        query = query.where(match_events.c.match_id == match_id, match_events.c.seq < version)
        if count is not None:
            query = query.where(match_events.c.seq >= version - count)
        rows = await self.engine.read(query.order_by(match_events.c.seq))
        return tuple(Logged(seq, action_from_dict(action), actor) for seq, action, actor in rows)

    async def with_history(self, loaded: LoadedMatch) -> LoadedMatch:
        """``loaded`` with its whole history in the state, for the transcript and the export.

        A state has one action for each event applied since it was loaded (none from a
        snapshot), so the log is read only when it has fewer than its version's events, i.e.
        unless it was replayed from the log or has been in memory since the match began."""
        if len(loaded.state.actions) == loaded.info.version:
            return loaded
        actions = await self.history(loaded.info.id, loaded.info.version)
        return LoadedMatch(loaded.info, replace(loaded.state, actions=actions))

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
        moment = now or _now()
        new_version = expected_version + len(recorded)
        finished = state.phase is Phase.FINISHED
        players, limit = await self._fixed_facts(match_id)
        turn = state.turn
        values: dict[str, Any] = {
            "b_match": match_id,
            "b_expected": expected_version,
            "version": new_version,
            # A finished match is read rarely (exports, checks): its log alone is kept.
            "snapshot": None if finished else _snapshot(state),
            "snapshot_version": None if finished else new_version,
            "status": FINISHED if finished else ACTIVE,
            "turn_user_id": None if turn is None or finished else players[turn],
            "updated_at": moment,
            "deadline": moment + timedelta(seconds=limit) if limit and not finished else None,
            "finished_at": moment if finished else None,
        }

        def claim(connection: Connection) -> RowMapping | None:
            row = connection.execute(_APPEND, values).first()
            return None if row is None else row._mapping

        try:
            row = await _LOG.append(
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
            self._states.pop(match_id, None)
            raise
        self._remember(match_id, new_version, state)
        if actor_id is not None:
            self._acted.saw(match_id, actor_id, moment)
        return Appended(LoadedMatch(_info(row), state), tuple(recorded), tuple(steps))

    async def applied(self, match_id: int, event_id: str) -> bool:
        """Whether the action of the platform event ``event_id`` is in the match's log."""
        return await _LOG.applied(self.engine, match_id, event_id)

    async def _at_version(self, match_id: int, expected_version: int) -> LoadedMatch:
        loaded = await self.load_match(match_id)
        if loaded.info.version != expected_version:
            raise ConflictError(f"match {match_id} is no longer at version {expected_version}")
        return loaded

    async def _fixed_facts(self, match_id: int) -> tuple[tuple[int, int], int | None]:
        """The players and move time limit: set at creation, never changed, so cached."""
        facts = self._facts.get(match_id)
        if facts is None:
            info = await self.match_info(match_id)
            facts = (info.player_ids, info.move_time_limit)
            if len(self._facts) > _STATE_CACHE_SIZE:
                self._facts.clear()
            self._facts[match_id] = facts
        return facts

    async def claim_reminder(self, match_id: int, version: int, stage: int) -> bool:
        """Mark that the reminder of ``stage`` went out for the match at ``version``: True for
        the one caller that marks it, False when it was marked already (by another process's
        clock at the same minute, say) or the match has moved on. The first statement writes
        the row onto itself: it takes the row's lock (PostgreSQL) or the write lock (SQLite)
        before the marker is read, so of two clocks the second reads the first one's mark."""

        def write(connection: Connection) -> bool:
            row = connection.execute(
                sa.update(matches)
                .where(matches.c.id == match_id)
                .where(matches.c.version == version)
                .where(matches.c.status == ACTIVE)
                .values(board_messages=matches.c.board_messages)
                .returning(matches.c.board_messages)
            ).first()
            if row is None:
                return False
            kept = dict(row[0] or {})
            marker = kept.get("reminded", {})
            if marker.get("version") == version and marker.get("stage", 0) >= stage:
                return False
            kept["reminded"] = {"version": version, "stage": stage}
            connection.execute(
                sa.update(matches).where(matches.c.id == match_id).values(board_messages=kept)
            )
            return True

        return await self.engine.write(write)

    async def _infos(self, *conditions: Any) -> list[MatchInfo]:
        rows = await self.engine.read(
            sa.select(*_INFO_COLUMNS).where(*conditions).order_by(matches.c.id)
        )
        return [_info(row._mapping) for row in rows]

    async def active_match_for(self, chat_id: int, user_id: int) -> LoadedMatch | None:
        """The user's active match in this chat (a user has at most one per chat)."""
        match_id = await self.active_match_id_for(chat_id, user_id)
        return await self.load_match(match_id) if match_id is not None else None

    async def active_match_with_players(
        self, chat_id: int, user_id: int
    ) -> tuple[LoadedMatch, dict[int, UserRecord]] | None:
        """The user's active match in this chat with its players, as
        :meth:`load_match_with_players` reads them, found and read in one hand-over to the
        database thread; None when the user plays none here."""
        queries = self.active_match_queries(chat_id, user_id)
        return await self.active_match_read(await self.engine.read_many(*queries))

    def active_match_queries(self, chat_id: int, user_id: int) -> list[tuple[Any, dict[str, Any]]]:
        """The statements that read the user's active match in this chat and its players, to
        be read along with something else (see :meth:`active_match_read`)."""
        seat = {"seat_chat": chat_id, "seat_user": user_id}
        return [(_LOAD_ACTIVE, seat), (_ACTIVE_PLAYERS, seat)]

    async def active_match_read(
        self, results: Sequence[BufferedResult]
    ) -> tuple[LoadedMatch, dict[int, UserRecord]] | None:
        """The match and players :meth:`active_match_queries` read; None: no active match."""
        match_row, players = results
        row = match_row.first()
        if row is None:
            return None
        loaded = await self._loaded(int(row._mapping["id"]), row)
        return loaded, {user.id: user for user in (user_record(row._mapping) for row in players)}

    async def active_match_id_for(self, chat_id: int, user_id: int) -> int | None:
        """The id of the user's active match in this chat, without loading its state."""
        found = await self.engine.read(_ACTIVE_MATCH_ID, {"chat_id": chat_id, "user_id": user_id})
        value = found.scalar()
        return None if value is None else int(value)

    async def latest_match_for(self, chat_id: int, user_id: int) -> MatchInfo | None:
        """The user's newest match in this chat, active or ended."""
        found = await self._infos(
            matches.c.chat_id == chat_id,
            sa.or_(matches.c.player0_id == user_id, matches.c.player1_id == user_id),
        )
        return found[-1] if found else None

    async def last_action_at(self, match_id: int, user_id: int) -> datetime | None:
        """When the user last acted in the match: their newest event; before their first,
        when they joined it (the challenger: when the challenge was posted; whoever accepted
        it, or started a match against the bot with [Start]: when it began). None for a
        stranger."""
        found = await self.engine.read(
            sa.select(sa.func.max(match_events.c.created_at)).where(
                match_events.c.match_id == match_id, match_events.c.actor_id == user_id
            )
        )
        value: datetime | None = found.scalar()  # max() keeps the column's type: aware UTC
        if value is not None:
            self._acted.saw(match_id, user_id, value)
            return value
        challenged = await self.engine.read(
            sa.select(challenges.c.created_at).where(
                challenges.c.match_id == match_id,
                challenges.c.challenger_id == user_id,
                challenges.c.bot_level.is_(None),
            )
        )
        posted: datetime | None = challenged.scalar()
        if posted is not None:
            return posted
        info = await self.match_info(match_id)
        return info.created_at if info.player_index(user_id) is not None else None

    async def acted_since(self, match_id: int, user_id: int, since: datetime) -> bool:
        """Whether :meth:`last_action_at` is later than ``since`` (False for a stranger).

        Without reading, when this process has seen an event of the user in the match later
        than ``since``: events are only ever added, never changed or removed, so the user's
        newest event is at least as late as any event of theirs once seen, whatever other
        processes wrote since. Only a "yes" is answered from memory; anything else is read."""
        if self._acted.after(match_id, user_id, since):
            return True
        last = await self.last_action_at(match_id, user_id)
        return last is not None and last > since

    async def latest_match_in(self, chat_id: int) -> MatchInfo | None:
        """The chat's newest match, whoever plays it."""
        rows = await self.engine.read(
            sa.select(*_INFO_COLUMNS)
            .where(matches.c.chat_id == chat_id)
            .order_by(matches.c.id.desc())
            .limit(1)
        )
        found = rows.first()
        return None if found is None else _info(found._mapping)

    async def active_matches_of(self, user_id: int) -> list[MatchInfo]:
        """Every active match the user plays in, in any chat."""
        return await self._infos(
            matches.c.status == ACTIVE,
            sa.or_(matches.c.player0_id == user_id, matches.c.player1_id == user_id),
        )

    async def timed_matches(self) -> list[MatchInfo]:
        """Active matches with a move time limit running (for reminders and claims)."""
        return await self._infos(matches.c.status == ACTIVE, matches.c.deadline.is_not(None))

    async def bot_turn_matches(self) -> list[MatchInfo]:
        """Active matches against the bot in which the bot must act (after a restart: its
        turn was interrupted)."""
        return await self._infos(
            matches.c.status == ACTIVE,
            matches.c.bot_level.is_not(None),
            matches.c.turn_user_id.in_(sa.select(users.c.id).where(users.c.is_bot)),
        )

    async def find_by_slug(self, slug: str) -> MatchInfo | None:
        """The match whose web addresses use ``slug``, or None."""
        if not slug or len(slug) > 32:
            return None
        found = await self._infos(matches.c.slug == slug)
        return found[0] if found else None

    async def latest_finished_for(self, chat_id: int, user_id: int) -> MatchInfo | None:
        """The user's newest finished match in this chat."""
        found = await self._infos(
            matches.c.chat_id == chat_id,
            matches.c.status == FINISHED,
            sa.or_(matches.c.player0_id == user_id, matches.c.player1_id == user_id),
        )
        return found[-1] if found else None
