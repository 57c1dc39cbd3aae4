"""The secret server seeds: this repository hands out rolls, and a seed itself only once the
match it belongs to has ended (for the transcript anyone can check).

A challenge stores the seed drawn when it was posted; the match it starts copies it. Until then
the seed travels only inside a :class:`SecretSeed`, which never shows its value.
"""

from __future__ import annotations

import sqlalchemy as sa

from gammon.fair_dice import FairDice, commitment, join_client_seeds
from gammon.flow import Roller
from storage.database import Database
from storage.errors import NotFoundError, SeedStillSecretError
from storage.records import MatchStatus
from storage.schema import challenges, matches

_CACHE_SIZE = 2048
_ENDED = (MatchStatus.FINISHED, MatchStatus.ABANDONED, MatchStatus.EXPIRED)

# Read for every challenge and every match's first dice: built once (storage/direct.py).
_CHALLENGE_SEED = sa.select(challenges.c.server_seed).where(
    challenges.c.id == sa.bindparam("challenge")
)
_MATCH_SEEDS = sa.select(
    matches.c.server_seed, matches.c.client_seed0, matches.c.client_seed1
).where(matches.c.id == sa.bindparam("match"))


class SecretSeed:
    """A server seed on its way from a challenge to the match it starts; never printed.

    >>> SecretSeed(bytes(32))
    SecretSeed(hidden)
    """

    __slots__ = ("_value",)

    def __init__(self, value: bytes) -> None:
        self._value = value

    def __repr__(self) -> str:
        return "SecretSeed(hidden)"

    def dice(self, client_seeds: tuple[str, str]) -> FairDice:
        return FairDice(self._value, join_client_seeds(*client_seeds))

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed: public from the moment the challenge is posted."""
        return commitment(self._value)

    @property
    def stored(self) -> str:
        """The form the database keeps (storage only)."""
        return self._value.hex()


class DiceRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._dice: dict[int, FairDice] = {}

    async def for_challenge(self, challenge_id: int, fallback: bytes) -> SecretSeed:
        """The seed drawn with the challenge (``fallback`` for a challenge made before seeds
        were drawn with challenges)."""
        found = await self.engine.read(_CHALLENGE_SEED, {"challenge": challenge_id})
        value = found.scalar()
        return SecretSeed(fallback if value is None else bytes.fromhex(value))

    async def roller(self, match_id: int) -> Roller:
        """The match's dice: ``roller(nonce)`` is dice event ``nonce``. Read once per match
        (its seeds never change after it started) and kept."""
        known = self._dice.get(match_id)
        if known is None:
            row = (await self.engine.read(_MATCH_SEEDS, {"match": match_id})).first()
            if row is None:
                raise NotFoundError(f"no match {match_id}")
            known = FairDice(bytes.fromhex(row[0]), join_client_seeds(row[1], row[2]))
            if len(self._dice) > _CACHE_SIZE:
                self._dice.clear()
            self._dice[match_id] = known
        return known.roll

    async def dice_for(self, match_id: int, nonce: int) -> tuple[int, int]:
        """The dice of dice event ``nonce`` of the match."""
        return (await self.roller(match_id))(nonce)

    async def reveal_seed(self, match_id: int) -> bytes:
        """The server seed, once the match has ended (for the transcript)."""
        row = (
            await self.engine.read(
                sa.select(matches.c.status, matches.c.server_seed).where(matches.c.id == match_id)
            )
        ).first()
        if row is None:
            raise NotFoundError(f"no match {match_id}")
        if row[0] not in _ENDED:
            raise SeedStillSecretError(f"match {match_id} is still being played")
        return bytes.fromhex(row[1])
