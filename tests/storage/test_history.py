"""Snapshots leave the history to the event log: an append writes as much at move 400 as at
move 10, a state loaded from its snapshot is the replayed state without its actions, and the
transcript and the .mat export, which need every action, still get all of them."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import random
import re
from dataclasses import replace
from typing import Any

import sqlalchemy as sa

from bot.core.model import ChatRef
from bot.core.service import Core
from gammon.actions import Action, OpeningRoll, Roll
from gammon.fair_dice import FairDice, join_client_seeds, transcript, verify_transcript
from gammon.flow import MatchState, replay
from gammon.mat_format import export_mat, import_mat
from gammon.match_rules import MatchRules
from gammon.position import Variant
from gammon.serialization import state_from_dict, state_to_dict
from storage import ChatRepository, Database, LoadedMatch, MatchRepository
from storage.schema import matches
from tests.bot.scripted import PLATFORM, Room, headline, play_to_the_end
from tests.gammon.selfplay import play_random_match
from tests.storage.players import Table, append_action, create_match, next_action


async def play_until(table: Table, match_id: int, version: int, rng: random.Random) -> LoadedMatch:
    """Random legal actions until the match has at least ``version`` events (a roll and the
    dance it causes are written together, so it may be one more)."""
    loaded = await table.matches.load_match(match_id)
    while loaded.info.version < version and loaded.info.status == "active":
        action = await next_action(table.dice, match_id, loaded.state, rng)
        appended = await append_action(table.matches, match_id, loaded.info.version, action)
        loaded = appended.match
    return loaded


async def stored_snapshot(table: Table, match_id: int) -> str:
    """The snapshot column exactly as the database holds it."""
    async with table.database.engine.connect() as connection:
        text = (
            await connection.execute(
                sa.select(sa.cast(matches.c.snapshot, sa.Text)).where(matches.c.id == match_id)
            )
        ).scalar()
    assert isinstance(text, str)
    return text


def without_history(state: MatchState) -> MatchState:
    return replace(state, actions=())


async def fixed_match(table: Table, rules: MatchRules, number: int) -> int:
    """A new match with fixed dice (server seed from ``number``), in a chat of its own."""
    chat = await ChatRepository(table.database).upsert_chat("telegram", f"-history-{number}")
    created = await create_match(
        table.matches,
        chat_id=chat.id,
        player_ids=table.player_ids,
        rules=rules,
        server_seed=hashlib.sha256(f"history-{number}".encode()).digest(),
        client_seeds=("seed-anna", "seed-bob"),
    )
    return created.info.id


async def test_a_long_matchs_snapshot_does_not_grow_with_its_actions(table: Table) -> None:
    match_id = await fixed_match(table, MatchRules(length=0), 0)
    rng = random.Random(5)
    sizes = {}
    for move in (10, 400):
        loaded = await play_until(table, match_id, move, rng)
        assert loaded.info.status == "active"
        text = await stored_snapshot(table, match_id)
        snapshot = json.loads(text)
        assert "actions" not in snapshot
        # All that grows is the list of game results, by one short entry per game.
        results = len(json.dumps(snapshot["games"]))
        sizes[move] = (len(text), len(text) - results, len(loaded.state.games))
    (early, early_rest, _), (late, late_rest, games) = sizes[10], sizes[400]
    assert late_rest - early_rest <= 8  # a few more digits in counters and scores
    assert late - early <= 150 * games
    with_actions = len(json.dumps(state_to_dict(loaded.state)))
    assert with_actions > 10 * late  # what every append wrote before


async def test_a_state_loaded_from_its_snapshot_is_the_replayed_state(table: Table) -> None:
    rng = random.Random(11)
    for number in range(4):
        variant = Variant.LONG_NARDY if number % 2 else Variant.BACKGAMMON
        match_id = await fixed_match(table, MatchRules(length=3, variant=variant), number)
        for stop in (1, 25, 60 + 30 * number):
            await play_until(table, match_id, stop, rng)
            fresh = MatchRepository(table.database)  # nothing in memory: the snapshot is read
            loaded = await fresh.load_match(match_id)
            events = await fresh.events(match_id)
            replayed = replay(loaded.info.rules, events)
            if loaded.info.status == "active":
                assert loaded.state.actions == ()
            assert without_history(loaded.state) == without_history(replayed)
            complete = await fresh.with_history(loaded)
            assert complete.state == replayed
            assert complete.info == loaded.info


async def test_history_stops_at_the_version_it_is_asked_for(table: Table) -> None:
    match_id = await fixed_match(table, MatchRules(length=5), 0)
    rng = random.Random(3)
    early = await play_until(table, match_id, 20, rng)
    await play_until(table, match_id, 40, rng)
    everything = await table.matches.history(match_id)
    assert everything == tuple(await table.matches.events(match_id))
    assert len(everything) >= 40
    at_early = await table.matches.history(match_id, early.info.version)
    assert at_early == everything[: early.info.version]
    fresh = MatchRepository(table.database)
    stale = LoadedMatch(early.info, without_history(early.state))
    assert (await fresh.with_history(stale)).state == replay(early.info.rules, at_early)


async def test_an_old_snapshot_with_its_actions_still_loads(table: Table) -> None:
    match_id = await fixed_match(table, MatchRules(length=3), 0)
    rng = random.Random(8)
    loaded = await play_until(table, match_id, 30, rng)
    replayed = replay(loaded.info.rules, await table.matches.events(match_id))
    old = state_to_dict(replayed)  # as every snapshot was written before
    assert len(old["actions"]) == loaded.info.version
    async with table.database.engine.begin() as connection:
        await connection.execute(
            sa.update(matches).where(matches.c.id == match_id).values(snapshot=old)
        )
    fresh = MatchRepository(table.database)
    reloaded = await fresh.load_match(match_id)
    assert reloaded.state == replayed
    assert (await fresh.with_history(reloaded)).state == replayed
    action = await next_action(table.dice, match_id, reloaded.state, rng)
    await append_action(fresh, match_id, reloaded.info.version, action)
    assert "actions" not in json.loads(await stored_snapshot(table, match_id))


def test_a_state_dict_with_or_without_its_actions_reads_back() -> None:
    state = play_random_match(random.Random(21), length=3)
    full = state_to_dict(state)
    bare = state_to_dict(state, with_actions=False)
    assert state_from_dict(json.loads(json.dumps(full))) == state
    assert state_from_dict(json.loads(json.dumps(bare))) == without_history(state)
    assert full == {**bare, "actions": full["actions"]}


# --- the command layer: transcript and .mat from a state that holds no history -------------


def new_core(database: Database) -> Core:
    """A bot as after a restart: nothing of the matches in memory. Server seeds are fixed (the
    n-th is SHA-256 of "history-n") so every run sees the same dice."""
    count = itertools.count()
    return Core(
        database,
        render_images=False,
        server_seeds=lambda: hashlib.sha256(f"history-{next(count)}".encode()).digest(),
    )


def attachments(messages: list[Any]) -> dict[str, bytes]:
    return {file.filename: file.data for message in messages for file in message.attachments}


def rolls_of(actions: tuple[Action, ...]) -> list[tuple[int, int]]:
    return [action.dice for action in actions if isinstance(action, OpeningRoll | Roll)]


async def test_a_match_resumed_after_a_restart_ends_with_its_whole_record(
    migrated_url: str,
) -> None:
    database = Database(migrated_url)
    room = Room(new_core(database), ChatRef(PLATFORM, "group-1"))
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    with contextlib.suppress(AssertionError):  # "not over yet", as wanted here
        await play_to_the_end(room, ("anna", "bob"), seed=1, limit=60)
    chat = await room.stores.chats.upsert_chat(PLATFORM, "group-1")
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    running = await room.stores.matches.latest_match_for(chat.id, anna.id)
    assert running is not None
    assert running.status == "active"
    assert running.version > 20
    match_id = running.id

    room.core = new_core(database)
    midway = await room.command("anna", "/export")
    events = tuple(await room.stores.matches.events(match_id))
    assert list(attachments(midway).values()) == [
        export_mat(replay(running.rules, events), ["Anna", "Bob"]).encode()
    ]

    room.core = new_core(database)
    await play_to_the_end(room, ("anna", "bob"), seed=2)
    ending = [message for message in room.log if headline(message).startswith("Match over")]
    assert len(ending) == 1
    history = await room.stores.matches.history(match_id)
    final = replay(running.rules, history)
    seed = await room.stores.dice.reveal_seed(match_id)
    dice = FairDice(seed, join_client_seeds(*running.client_seeds))
    files = attachments(ending)
    record = json.loads(files[f"match-{match_id}-transcript.json"])
    assert verify_transcript(record).ok
    assert record == transcript(dice, rolls_of(history))
    mat = files[f"match-{match_id}.mat"].decode()
    assert [line.split() for line in mat.splitlines() if line.startswith(" Game ")] == [
        ["Game", str(number)] for number in range(1, len(final.games) + 1)
    ]
    rules, actions = import_mat(mat)
    again = replay(rules, actions)
    assert (again.score, again.games) == (final.score, final.games)
    dances = [message.text for message in room.log if "cannot move" in message.text]
    assert dances
    assert all(re.search(r" rolled \d-\d and cannot move", text) for text in dances)

    room.core = new_core(database)
    verified = attachments(await room.command("bob", "/verify"))
    assert verified == {
        f"match-{match_id}-transcript.json": files[f"match-{match_id}-transcript.json"],
        f"match-{match_id}-check.html": files[f"match-{match_id}-check.html"],
    }
    exported = attachments(await room.command("anna", "/export"))
    assert exported == {f"match-{match_id}.mat": files[f"match-{match_id}.mat"]}
    await database.close()
