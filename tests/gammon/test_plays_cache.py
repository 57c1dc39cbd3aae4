"""The legal plays of recent rolls are kept long enough for a bot with many matches going."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gammon import movegen
from gammon.movegen import legal_plays
from gammon.position import Position

DATA = Path(__file__).resolve().parent.parent / "data" / "gnubg-plays-2000.jsonl"
MATCHES = 200
NEW_ROLLS_PER_REQUEST = 3  # measured: about 2.4 new rolls a request with 200 matches going


def _rolls(count: int) -> list[tuple[Position, tuple[int, int]]]:
    seen: dict[tuple[str, tuple[int, ...]], tuple[Position, tuple[int, int]]] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        dice = (row["dice"][0], row["dice"][1])
        seen.setdefault(
            (row["pos_id"], tuple(sorted(dice))), (Position.from_id(row["pos_id"]), dice)
        )
        if len(seen) == count:
            break
    return list(seen.values())


def test_a_roll_s_plays_outlive_every_other_match_s_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A match's plays are found when it rolls and asked for again at its next request, after
    one request of each other match: they must still be kept then."""
    first, *others = _rolls(1 + MATCHES * NEW_ROLLS_PER_REQUEST)
    movegen._cached_plays.cache_clear()
    generated: list[Position] = []
    generate = movegen._generate

    def counted(position: Position, high: int, low: int) -> movegen._Found:
        generated.append(position)
        return generate(position, high, low)

    monkeypatch.setattr(movegen, "_generate", counted)
    kept = legal_plays(*first)
    for position, dice in others:
        legal_plays(position, dice)
    assert len(generated) == len(others) + 1  # every roll was new
    assert legal_plays(*first) is kept
    assert len(generated) == len(others) + 1  # and the first one was not generated again
