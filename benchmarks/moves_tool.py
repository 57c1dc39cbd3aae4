"""Latency of ``gammonbot moves`` once started: one request line for the starting position.

Starts the tool once, then sends the same request line after line, waiting for each answer.
Prints one JSON object as its last line with the round-trip median and p99 in ms, for the
listing request and for a typed play.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 500
LIST_REQUEST = json.dumps({"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}) + "\n"
PLAY_REQUEST = json.dumps({"position_id": "4HPwATDgc/ABMA", "dice": [3, 1], "text": "8/5 6/5"})


def round_trips(process: subprocess.Popen[str], line: str) -> list[float]:
    assert process.stdin is not None
    assert process.stdout is not None
    timings = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        process.stdin.write(line)
        process.stdin.flush()
        answer = process.stdout.readline()
        timings.append((time.perf_counter() - started) * 1000)
        if not answer.startswith("{"):
            raise RuntimeError(f"unexpected answer: {answer!r}")
    timings.sort()
    return timings


def main() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "moves"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    try:
        round_trips(process, LIST_REQUEST)  # warm up
        listing = round_trips(process, LIST_REQUEST)
        typed = round_trips(process, PLAY_REQUEST + "\n")
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=10)
    print(
        json.dumps(
            {
                "rounds": ROUNDS,
                "list_start_31_ms_median": round(statistics.median(listing), 3),
                "list_start_31_ms_p99": round(listing[int(ROUNDS * 0.99)], 3),
                "check_start_31_ms_median": round(statistics.median(typed), 3),
                "check_start_31_ms_p99": round(typed[int(ROUNDS * 0.99)], 3),
            }
        )
    )


if __name__ == "__main__":
    main()
