"""Provably fair dice, scheme BGPF-1."""

from __future__ import annotations

import ast
import hashlib
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from gammon.fair_dice import (
    FairDice,
    MalformedTranscriptError,
    commitment,
    join_client_seeds,
    load_transcript,
    new_server_seed,
    roll,
    transcript,
    verify_transcript,
)

VECTOR_SEED = bytes.fromhex("8087bd1c35acd1acc5ba9950fb1f9c76106cab029319a28f0ee5d330255f6b93")
VECTOR_ROLLS = [(2, 3), (6, 3), (5, 2), (1, 6), (5, 1), (6, 1), (6, 6), (3, 5), (3, 2), (5, 1)]


def test_the_published_test_vector() -> None:
    assert [roll(VECTOR_SEED, "alice-seed-42", nonce) for nonce in range(10)] == VECTOR_ROLLS


def test_the_commitment_is_the_sha256_of_the_seed() -> None:
    assert commitment(VECTOR_SEED) == hashlib.sha256(VECTOR_SEED).hexdigest()
    assert len(new_server_seed()) == 32
    assert new_server_seed() != new_server_seed()


def test_client_seeds_are_joined_with_a_bar() -> None:
    assert join_client_seeds("alice", "bob") == "alice|bob"


def test_the_seed_never_shows_in_repr() -> None:
    dice = FairDice(VECTOR_SEED, "alice-seed-42")
    assert VECTOR_SEED.hex() not in repr(dice)
    assert dice.commitment in repr(dice)


def chi_square(counts: Counter[object], categories: int, total: int) -> float:
    expected = total / categories
    return sum((counts.get(key, 0) - expected) ** 2 / expected for key in range(categories))


def test_the_dice_are_uniform_over_100000_rolls() -> None:
    dice = FairDice(bytes(range(32)), "uniformity|check")
    rolls = [dice.roll(nonce) for nonce in range(100_000)]
    faces: Counter[object] = Counter(face - 1 for pair in rolls for face in pair)
    pairs: Counter[object] = Counter((first - 1) * 6 + second - 1 for first, second in rolls)
    # Critical values at p = 0.001: 20.52 for 5 degrees of freedom, 66.62 for 35.
    assert chi_square(faces, 6, 200_000) < 20.52
    assert chi_square(pairs, 36, 100_000) < 66.62


def test_a_transcript_verifies_and_names_the_first_wrong_roll() -> None:
    dice = FairDice(VECTOR_SEED, "alice-seed-42")
    data = transcript(dice, VECTOR_ROLLS)
    assert data["scheme"] == "BGPF-1"
    assert verify_transcript(data).ok
    assert verify_transcript(data).rolls_checked == 10
    data["rolls"][4] = [6, 6]
    result = verify_transcript(data)
    assert not result.ok
    assert "roll 5" in result.problem


def test_a_transcript_with_a_different_seed_fails_the_commitment() -> None:
    data = transcript(FairDice(VECTOR_SEED, "x"), [])
    data["server_seed"] = bytes(32).hex()
    assert "commitment" in verify_transcript(data).problem


def _transcript_text(**changes: object) -> str:
    data: dict[str, object] = {
        "scheme": "BGPF-1",
        "commitment": "aa",
        "server_seed": "00",
        "client_seed": "c",
        "rolls": [],
    }
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "text",
    [
        "[]",
        "{",
        '{"scheme": "other"}',
        _transcript_text(server_seed="zz"),
        _transcript_text(rolls=[[7, 1]]),
        _transcript_text(rolls=[[1, 2, 3]]),
        _transcript_text(client_seed=5),
    ],
)
def test_malformed_transcripts_are_refused_clearly(text: str) -> None:
    with pytest.raises(MalformedTranscriptError):
        verify_transcript(load_transcript(text))


def test_the_engine_never_imports_the_random_module() -> None:
    gammon = Path(__file__).resolve().parents[2] / "gammon"
    for source in gammon.rglob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(alias.name != "random" for alias in node.names), source
            if isinstance(node, ast.ImportFrom):
                assert node.module != "random", source


def test_a_whole_match_never_touches_the_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.gammon.selfplay import play_random_match

    def forbidden(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the global random was used")

    for name in ("random", "randint", "randrange", "choice", "choices", "shuffle", "getrandbits"):
        monkeypatch.setattr(random, name, forbidden)
    state = play_random_match(random.Random(7), length=3)
    assert state.winner is not None
