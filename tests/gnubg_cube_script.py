"""Cube analyses by GNU Backgammon, run inside gnubg's own Python (``gnubg -t -q -p``).

It reads a JSON list of requests from the file named by ``GAMMONBOT_GNUBG_REQUESTS`` and writes
one JSON list of answers to ``GAMMONBOT_GNUBG_RESULTS``. A request names a position (the
player on roll's Position ID), the cube (value and owner from the player on roll's view:
``centred``, ``decider`` or ``opponent``), the score (``away``: points each side still needs,
the player on roll first; ``[0, 0]`` for money), whether it is the Crawford game, Jacoby and
beavers (money only) and the plies to evaluate at. Each answer has, per ply, gnubg's cubeless
chances and its cube analysis as ``cfevaluate`` returns it: the no double, double/take and
double/pass equities (normalised to the cube, as gnubg's hint lists them), its decision code
and text.

Only gnubg, the standard library and :mod:`tests.gnubg_script_io` (requests in, answers out)
are imported, and only when gnubg runs the file: pytest imports it (doctests) without gnubg.
"""

from __future__ import annotations

import os
from typing import Any

_OWNER_INDEX = {"centred": -1, "decider": 0, "opponent": 1}


def _cube_info(gnubg: Any, request: dict[str, Any]) -> Any:
    away, other = request["away"]
    owner = _OWNER_INDEX[request["owner"]]
    if away == 0 and other == 0:
        info = gnubg.cubeinfo(request["cube"], owner, 0, 0, (0, 0), 0)
        info["jacoby"] = int(request["jacoby"])
        info["beavers"] = int(request["beavers"])
    else:
        length = max(away, other)
        score = (length - away, length - other)
        info = gnubg.cubeinfo(request["cube"], owner, 0, length, score, int(request["crawford"]))
        info["jacoby"] = 0
        info["beavers"] = 0
    return gnubg.calcgammonprice(info)


def _analyse(gnubg: Any, request: dict[str, Any]) -> dict[str, Any]:
    board = gnubg.positionfromid(request["position_id"])
    info = _cube_info(gnubg, request)
    plies: dict[str, Any] = {}
    for ply in request["plies"]:
        context = gnubg.evalcontext(1, ply, 1, 1, 0.0)
        chances = gnubg.evaluate(board, info, context)
        optimal, no_double, take, drop, code, text = gnubg.cfevaluate(board, info, context)
        plies[str(ply)] = {
            "probabilities": [round(value, 6) for value in chances[:5]],
            "optimal": round(optimal, 6),
            "no_double": round(no_double, 6),
            "double_take": round(take, 6),
            "double_pass": round(drop, 6),
            "decision": code,
            "text": text,
        }
    return plies


if __name__ == "__main__" and "GAMMONBOT_GNUBG_REQUESTS" in os.environ:
    from gnubg_script_io import serve  # type: ignore[import-not-found]  # on gnubg's path

    serve(_analyse)
