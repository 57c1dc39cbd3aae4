"""Match analyses by GNU Backgammon, run inside gnubg's own Python (``gnubg -t -q -p``).

It reads a JSON list of requests from the file named by ``GAMMONBOT_GNUBG_REQUESTS`` and writes
one JSON list of answers to ``GAMMONBOT_GNUBG_RESULTS``. A request names a ``.mat`` file and the
plies to analyse at (checker play and cube alike). gnubg imports the file, runs ``analyse
match`` and answers with its match statistics per player (the names as in the file): unforced
moves, close cube decisions and the equity lost in each (normalised: EMG in a match, as gnubg's
"error rate" counts it), and per game each record it analysed: the action (``move``,
``double``, ``take``, ``drop``), the player's name, for a move the equities of the best and of
the played play, and where gnubg judged the cube before it, the no double and double/take
equities. All equities are normalised to the cube (EMG in a match: gnubg keeps the cube's in
match-winning chances, they are converted by gnubg's ``mwc2eq`` at the record's score and
cube), so the double/pass is 1.

Only gnubg, the standard library and :mod:`tests.gnubg_script_io` are imported, and only when
gnubg runs the file.
"""

from __future__ import annotations

import os
from typing import Any

_SIDES = {"X": 0, "O": 1}
_CUBE_ERRORS = (
    "missed-double-below-cp",
    "missed-double-above-cp",
    "wrong-double-below-dp",
    "wrong-double-above-tg",
    "wrong-take",
    "wrong-drop",
)


class _Cube:
    """The cube and score of one game as its records go by, for gnubg's ``mwc2eq``."""

    def __init__(self, gnubg: Any, length: int, info: dict[str, Any]) -> None:
        self.gnubg = gnubg
        self.length = length
        self.score = (info["score-X"], info["score-O"])
        self.crawford = int(bool(info.get("crawford", False)))
        self.value = 1
        self.owner = -1

    def equity(self, value: float, side: str) -> float:
        """``value`` (gnubg's cubeful figure for ``side`` on roll) as normalised equity."""
        if not self.length:
            return value
        info = self.gnubg.cubeinfo(
            self.value, self.owner, _SIDES[side], self.length, self.score, self.crawford
        )
        return float(self.gnubg.mwc2eq(value, info))

    def follow(self, record: dict[str, Any]) -> None:
        side = _SIDES[record["player"]]
        if record["action"] == "take":
            self.value *= 2
            self.owner = side


def _record(record: dict[str, Any], cube: _Cube) -> dict[str, Any]:
    analysis = record.get("analysis", {})
    found: dict[str, Any] = {"action": record["action"], "player": record["player"]}
    moves = analysis.get("moves")
    if record["action"] == "move" and moves:
        found["best"] = moves[0]["score"]
        found["played"] = moves[analysis["imove"]]["score"]
        found["plays"] = len(moves)
    if "nd-cubeful-eq" in analysis:
        found["no_double"] = cube.equity(analysis["nd-cubeful-eq"], record["player"])
        found["double_take"] = cube.equity(analysis["dt-cubeful-eq"], record["player"])
    cube.follow(record)
    return found


def _game(gnubg: Any, length: int, game: dict[str, Any], names: dict[str, str]) -> list[Any]:
    cube = _Cube(gnubg, length, game["info"])
    return [{**_record(record, cube), "player": names[record["player"]]} for record in game["game"]]


def _statistics(stats: dict[str, Any]) -> dict[str, Any]:
    moves, cube = stats["moves"], stats["cube"]
    return {
        "unforced_moves": moves["unforced-moves"],
        "checker_error": moves["error-skill"],
        "close_cube": cube["close-cube"],
        "total_cube": cube["total-cube"],
        # The cube's "error-skill" is per close decision: the total is the sum of its kinds.
        "cube_error": sum(cube[f"err-{kind}-skill"] for kind in _CUBE_ERRORS),
    }


def _analyse(gnubg: Any, request: dict[str, Any]) -> dict[str, Any]:
    plies = int(request["plies"])
    gnubg.command(f"set analysis chequerplay evaluation plies {plies}")
    gnubg.command(f"set analysis cubedecision evaluation plies {plies}")
    gnubg.command(f"import mat {request['mat']}")
    gnubg.command("analyse match")
    match = gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)
    info = match["match-info"]
    names = {side: info[side]["name"] for side in ("X", "O")}
    return {
        "players": {names[side]: _statistics(match["stats"][side]) for side in ("X", "O")},
        "games": [_game(gnubg, info["match-length"], game, names) for game in match["games"]],
    }


if __name__ == "__main__" and "GAMMONBOT_GNUBG_REQUESTS" in os.environ:
    from gnubg_script_io import serve  # type: ignore[import-not-found]  # on gnubg's path

    serve(_analyse)
