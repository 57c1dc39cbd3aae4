"""Helpers for storage tests: a chat with two players, and random legal actions to append."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from bot.core.events import match_then
from gammon.actions import Action, OpeningRoll, Roll
from gammon.fair_dice import FairDice
from gammon.flow import MatchState, Phase, plan
from gammon.match_rules import MatchRules
from storage import (
    Appended,
    ChatRepository,
    ConflictError,
    Database,
    DiceRepository,
    LoadedMatch,
    MatchRepository,
    SecretSeed,
    UserRepository,
)
from storage.schema import matches
from tests.gammon.selfplay import random_action


@dataclass
class Table:
    database: Database
    matches: MatchRepository
    chat_id: int
    player_ids: tuple[int, int]
    extra_chats: int = 0

    @property
    def dice(self) -> DiceRepository:
        return DiceRepository(self.database)

    async def new_match(self, rules: MatchRules | None = None) -> LoadedMatch:
        """A new match of the two players: in the table's chat while they have no active match
        there (a player has one active match per chat), else in a chat of its own."""
        chat_id = self.chat_id
        if await self.matches.active_match_id_for(chat_id, self.player_ids[0]) is not None:
            self.extra_chats += 1
            chats = ChatRepository(self.database)
            chat_id = (await chats.upsert_chat("telegram", f"-500-{self.extra_chats}")).id
        return await create_match(
            self.matches,
            chat_id=chat_id,
            player_ids=self.player_ids,
            rules=rules or MatchRules(length=3),
            server_seed=os.urandom(32),
            client_seeds=("seed-anna", "seed-bob"),
        )


async def open_table(url: str, *, migrate: bool = True) -> Table:
    database = Database(url)
    if migrate:
        await database.migrate()
    users = UserRepository(database)
    anna = await users.upsert_user("telegram", "1001", "Anna")
    bob = await users.upsert_user("telegram", "1002", "Bob")
    chat = await ChatRepository(database).upsert_chat("telegram", "-500")
    return Table(database, MatchRepository(database), chat.id, (anna.id, bob.id))


async def next_action(
    dice: DiceRepository, match_id: int, state: MatchState, rng: random.Random
) -> Action:
    """A random legal action; rolls take their dice from the match's own fair dice."""
    action = random_action(state, rng, FairDice(bytes(32), "unused"))
    if isinstance(action, OpeningRoll):
        return OpeningRoll(await dice.dice_for(match_id, state.dice_events))
    if isinstance(action, Roll) and state.phase is Phase.ROLLING:
        return Roll(action.player, await dice.dice_for(match_id, state.dice_events))
    return action


async def drop_snapshot(table: Table, match_id: int) -> None:
    """Forget a match's cached state, as a crash before the snapshot was written would: the
    next load must replay the log. (Done with SQL: the bot never needs it.)"""
    async with table.database.engine.begin() as connection:
        await connection.execute(
            sa.update(matches)
            .where(matches.c.id == match_id)
            .values(snapshot=None, snapshot_version=None)
        )
    table.matches.states.forget(match_id)


async def create_match(
    matches: MatchRepository,
    *,
    chat_id: int,
    player_ids: tuple[int, int],
    rules: MatchRules,
    server_seed: bytes,
    client_seeds: tuple[str, str],
    move_time_limit: int | None = None,
    now: datetime | None = None,
) -> LoadedMatch:
    """A match waiting for its opening roll (the bot rolls it in the starting write; tests
    often want to append it themselves)."""
    started = await matches.start_match(
        chat_id=chat_id,
        player_ids=player_ids,
        rules=rules,
        client_seeds=client_seeds,
        seed=SecretSeed(server_seed),
        move_time_limit=move_time_limit,
        now=now,
    )
    return started.match


def _no_dice(nonce: int) -> tuple[int, int]:
    raise AssertionError("no follow-ups here: actions carry their own dice")


async def append_action(
    matches: MatchRepository,
    match_id: int,
    expected_version: int,
    action: Action,
    *,
    actor_id: int | None = None,
    now: datetime | None = None,
) -> Appended:
    """Apply one action with the rules engine, as the bot's match service does, and have
    storage write it at ``expected_version``."""
    loaded = await matches.load_match(match_id)
    if loaded.info.version != expected_version:
        raise ConflictError(f"match {match_id} is at version {loaded.info.version}")
    steps = plan(loaded.state, action, None, _no_dice)
    then = match_then(loaded.info, loaded.state, steps)  # what the match's end sets off
    return await matches.append(
        match_id, expected_version, steps, actor_id=actor_id, now=now, then=then
    )
