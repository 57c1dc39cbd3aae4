"""Starting a match: the match row, its players' seats, its opening roll and the acceptance of
its challenge, in one transaction."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from gammon.actions import action_to_dict
from gammon.flow import Step, new_match
from gammon.match_rules import MatchRules
from storage.dice import SecretSeed
from storage.direct import DirectConnection
from storage.errors import ConflictError, SeatTakenError
from storage.match.clock_columns import start_values
from storage.match.loads import MatchLoads
from storage.match.memory import MatchStates
from storage.match.sql import ACTIVE, now_utc, snapshot_of
from storage.records import Appended, ChallengeState
from storage.schema import challenges, match_events, match_seats, matches, tournament_matches

SLUG_BYTES = 16  # 128 random bits: nobody finds a match's pages by trying addresses


def new_slug() -> str:
    """A fresh unguessable slug for a match's web addresses (22 URL-safe characters)."""
    return secrets.token_urlsafe(SLUG_BYTES)


# The statements of every match's start, built once (storage/direct.py runs them straight).
_ACCEPT = (
    sa.update(challenges)
    .where(challenges.c.id == sa.bindparam("challenge"), challenges.c.state == ChallengeState.OPEN)
    .values(state=ChallengeState.ACCEPTED)
)
_STARTED = (
    sa.update(challenges)
    .where(challenges.c.id == sa.bindparam("challenge"))
    .values(match_id=sa.bindparam("match"))
)
_INSERT_MATCH = sa.insert(matches)


@lru_cache(maxsize=4)
def _seated(players: int) -> sa.Select[Any]:
    """Which of ``players`` users (``user0``, ...) is seated in the chat (``chat_id``)."""
    return sa.select(match_seats.c.user_id).where(
        match_seats.c.chat_id == sa.bindparam("chat_id"),
        match_seats.c.user_id.in_([sa.bindparam(f"user{n}") for n in range(players)]),
    )


def _take_seats(connection: DirectConnection, chat_id: int, player_ids: Sequence[int]) -> None:
    """Refuse (before writing) when a player already plays an active match in the chat; the
    seats' primary key settles what happens at the same moment."""
    asked = {"chat_id": chat_id, **{f"user{n}": user for n, user in enumerate(player_ids)}}
    taken = connection.execute(_seated(len(player_ids)), asked).first()
    if taken is not None:
        raise SeatTakenError(f"user {taken[0]} already plays in chat {chat_id}", int(taken[0]))


def _close_open_challenge(connection: DirectConnection, challenge_id: int) -> None:
    accepted = connection.execute(_ACCEPT, {"challenge": challenge_id})
    if accepted.rowcount != 1:
        raise ConflictError(f"challenge {challenge_id} is no longer open")


def _claim_slot(connection: DirectConnection, slot: tuple[int, str], match_id: int) -> None:
    tournament_id, key = slot
    claimed = connection.execute(
        sa.update(tournament_matches)
        .where(
            tournament_matches.c.tournament_id == tournament_id,
            tournament_matches.c.slot == key,
            tournament_matches.c.match_id.is_(None),
            tournament_matches.c.winner_id.is_(None),
        )
        .values(match_id=match_id)
    )
    if claimed.rowcount != 1:
        raise ConflictError(f"slot {key} of tournament {tournament_id} has its match")


class MatchStarts:
    """New matches, from a challenge or against the bot."""

    def __init__(self, loads: MatchLoads, states: MatchStates) -> None:
        self.engine = loads.engine
        self._loads = loads
        self._states = states

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
        tournament_slot: tuple[int, str] | None = None,
    ) -> Appended:
        """Start a match in one transaction: the match row, its players' seats, the ``steps``
        already played from the start (the opening roll and any re-rolls after a tie, planned
        by the caller with ``seed``'s dice) and, given ``challenge_id``, the acceptance of that
        challenge.

        Nothing is written when a player already has an active match in the chat
        (:class:`SeatTakenError`) or the challenge is no longer open (:class:`ConflictError`),
        and a crash leaves either all of it or none.

        With ``bot_level`` the second player is the bot: it takes no seat, since it plays any
        number of people in the same chat at once.

        With ``tournament_slot`` (tournament, slot) the match is that pairing's, marked in the
        same transaction: :class:`ConflictError` when the slot has its match already (another
        process started it) or a result (a walkover meanwhile)."""
        moment = now or now_utc()
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
            "snapshot": snapshot_of(state),
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
        } | start_values(rules, state, moment, bot_level)

        def write(connection: DirectConnection) -> int:
            if challenge_id is not None:  # first: a second accept is told it was answered
                _close_open_challenge(connection, challenge_id)
            _take_seats(connection, chat_id, seated)
            inserted = connection.execute(_INSERT_MATCH, values).inserted_primary_key
            assert inserted is not None
            match_id = int(inserted[0])
            connection.execute(
                sa.insert(match_seats),
                [{"chat_id": chat_id, "user_id": user, "match_id": match_id} for user in seated],
            )
            if action_dicts:
                connection.execute(
                    sa.insert(match_events),
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
                connection.execute(_STARTED, {"challenge": challenge_id, "match": match_id})
            if tournament_slot is not None:
                _claim_slot(connection, tournament_slot, match_id)
            return match_id

        try:
            match_id = await self.engine.write(write)
        except sa.exc.IntegrityError as error:  # a seat taken at the same moment elsewhere
            raise SeatTakenError(f"a player of the new match is seated: {error}") from None
        self._states.remember(match_id, version, state)
        loaded = await self._loads.load_match(match_id)
        return Appended(loaded, tuple(recorded), tuple(steps))
