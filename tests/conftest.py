"""Shared test settings: compiled modules kept, hypothesis profiles sized for the 5-minute
suite, and the databases every test folder may ask for (tests/databases.py)."""

import os
import sys

# The suite starts hundreds of Python processes (consoles, bots, their drawing and engine
# processes, pytest's workers), each importing a few hundred of the project's modules. Where
# the environment says not to write compiled modules (PYTHONDONTWRITEBYTECODE, as on this
# project's machines) every one of them compiled every module from source again: 0.3 to 0.8 s
# of CPU a process. The suite writes them (into the usual __pycache__ folders, ignored by
# git) and its processes read them; this is set before any module of the project is imported
# and before pytest starts its workers, which inherit the environment.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

pytest_plugins = ["tests.databases"]

# derandomize: the same examples every run, so a run's verdict never depends on luck (a
# failure found once is found again, on every machine); what they explore is widened by
# adding cases, not by chance.
settings.register_profile(
    "default",
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")

# The longest tests (each 7 to 25 s on two cores), started first: the workers share out the
# rest of the suite meanwhile and steal from each other's queue at the end, so the suite no
# longer ends on one long test with the others idle. Measured: see docs/benchmarks.md.
LONGEST_FIRST = (
    "tests/system/test_processes.py::test_four_processes_one_killed_and_restarted",
    "tests/gammon/test_selfplay.py::test_random_matches_and_money_sessions",
    "tests/gammon/test_long_nardy_flow.py::test_a_thousand_random_games",
    "tests/test_readme.py::test_the_hint_and_analyse_examples",
    "tests/engine/test_nardy_player.py::test_beats_a_random_player",
    "tests/bot/test_replay.py::test_each_game_ends_with_its_animation",
    "tests/web/test_served_in_browser.py::test_the_served_replay_steps_to_the_last_play",
    "tests/bot/test_match_start.py::test_killed_right_after_any_write_of_an_accept",
    "tests/discord_app/test_tournament_round_robin.py::",
    "tests/telegram_app/test_tournament.py::",
    "tests/discord_app/test_tournament.py::",
    "tests/web/test_flood.py::",
    "tests/web/test_board_whole_match.py::",
    "tests/gammon/test_step_tree.py::test_the_complete_nodes_are_exactly_gnubgs_legal_results",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next(
            (place for place, start in enumerate(LONGEST_FIRST) if item.nodeid.startswith(start)),
            len(LONGEST_FIRST),
        )

    items.sort(key=rank)  # stable: the rest keep their order
