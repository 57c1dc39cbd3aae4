"""The GNU Backgammon oracle: 2000 positions with dice and every resulting position ID."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data" / "gnubg-plays-2000.jsonl"


@dataclass(frozen=True)
class OracleCase:
    index: int
    position_id: str
    dice: tuple[int, int]
    result_ids: frozenset[str]
    kind: str


@cache
def oracle_cases() -> tuple[OracleCase, ...]:
    cases = []
    with DATA.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            cases.append(
                OracleCase(
                    index=row["i"],
                    position_id=row["pos_id"],
                    dice=(row["dice"][0], row["dice"][1]),
                    result_ids=frozenset(row["ref_result_ids"]),
                    kind=row["class"],
                )
            )
    return tuple(cases)
