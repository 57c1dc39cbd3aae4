"""Tournament pictures for the golden images: written out as the bot would describe them, so
the rendering is tested alone (the bot's side is tests/bot/test_tournament_picture.py)."""

from __future__ import annotations

from collections.abc import Callable

from rendering.tournament import draw_tournament
from rendering.tournament_view import (
    BracketMatch,
    BracketPart,
    BracketRound,
    Entry,
    StandingsTable,
    TableLine,
    TournamentPicture,
)

SEEDS = {
    "Anna Groß": 1,
    "Bob": 2,
    "محمد عبد الله": 3,
    "Дмитрий": 4,
    "Eleni Παπαδοπούλου": 5,
    "Fay": 6,
    "Gustav-Adolf von Hohenzollern-Sigmaringen": 7,
    "Hal": 8,
}
ANNA, BOB, MUHAMMAD, DMITRY, ELENI, FAY, GUSTAV, HAL = SEEDS


def won(name: str, score: int) -> Entry:
    return Entry(name, SEEDS[name], str(score), winner=True)


def lost(name: str, score: int) -> Entry:
    return Entry(name, SEEDS[name], str(score))


def waiting(name: str) -> Entry:
    return Entry(name, SEEDS[name])


def bye(name: str) -> BracketMatch:
    return BracketMatch(waiting(name), Entry(), bye=True)


def match(first: Entry, second: Entry) -> BracketMatch:
    return BracketMatch(first, second)


def knockout_with_consolation() -> TournamentPicture:
    """Eight players, the quarterfinals played and one semifinal; the consolation's first
    round half played."""
    main = BracketPart(
        "Main bracket",
        (
            BracketRound(
                "Quarterfinals",
                (
                    match(won(ANNA, 7), lost(HAL, 2)),
                    match(lost(DMITRY, 6), won(ELENI, 7)),
                    match(won(BOB, 7), lost(GUSTAV, 0)),
                    match(won(MUHAMMAD, 7), lost(FAY, 5)),
                ),
            ),
            BracketRound(
                "Semifinals",
                (match(won(ANNA, 7), lost(ELENI, 3)), match(waiting(BOB), waiting(MUHAMMAD))),
            ),
            BracketRound("Final", (match(waiting(ANNA), Entry()),)),
        ),
    )
    consolation = BracketPart(
        "Consolation",
        (
            BracketRound(
                "Round 1",
                (match(lost(HAL, 1), won(DMITRY, 5)), match(waiting(GUSTAV), waiting(FAY))),
            ),
            BracketRound("Round 2", (match(waiting(DMITRY), Entry()),)),
        ),
    )
    return TournamentPicture("Club cup", (main, consolation))


def double_elimination_with_reset() -> TournamentPicture:
    """Six players, every match played: the losers' bracket's winner (Bob) wins the grand
    final's first match, and Anna the second."""
    winners = BracketPart(
        "Winners' bracket",
        (
            BracketRound(
                "Quarterfinals",
                (
                    bye(ANNA),
                    match(won(DMITRY, 5), lost(ELENI, 3)),
                    bye(BOB),
                    match(won(MUHAMMAD, 5), lost(FAY, 3)),
                ),
            ),
            BracketRound(
                "Semifinals",
                (match(won(ANNA, 5), lost(DMITRY, 3)), match(won(BOB, 5), lost(MUHAMMAD, 3))),
            ),
            BracketRound("Final", (match(won(ANNA, 5), lost(BOB, 3)),)),
        ),
    )
    losers = BracketPart(
        "Losers' bracket",
        (
            BracketRound("Round 1", (bye(ELENI), bye(FAY))),
            BracketRound(
                "Round 2",
                (match(lost(ELENI, 3), won(MUHAMMAD, 5)), match(lost(FAY, 3), won(DMITRY, 5))),
            ),
            BracketRound("Round 3", (match(won(MUHAMMAD, 5), lost(DMITRY, 3)),)),
            BracketRound("Round 4", (match(lost(MUHAMMAD, 3), won(BOB, 5)),)),
        ),
    )
    grand_final = BracketPart(
        "Grand final",
        (
            BracketRound("Round 1", (match(lost(ANNA, 3), won(BOB, 5)),)),
            BracketRound("Round 2", (match(won(ANNA, 5), lost(BOB, 3)),)),
        ),
    )
    return TournamentPicture("Spring double", (winners, losers, grand_final))


def line(
    rank: int, name: str, won: int, lost: int, difference: int, buchholz: int = 0
) -> TableLine:
    return TableLine(
        str(rank),
        name,
        str(won + lost),
        f"{won}–{lost}",
        str(won),
        f"{difference:+d}".replace("-", "−"),
        str(buchholz),
    )


def round_robin_of_two_groups() -> TournamentPicture:
    first = StandingsTable(
        "Group 1",
        (
            line(1, ANNA, 2, 0, 9),
            line(2, ELENI, 1, 1, 1),
            line(3, DMITRY, 1, 1, -2),
            line(4, HAL, 0, 2, -8),
        ),
    )
    second = StandingsTable(
        "Group 2",
        (
            line(1, MUHAMMAD, 2, 1, 6),
            line(2, BOB, 2, 1, 4),
            line(3, GUSTAV, 1, 2, -3),
            TableLine("4", FAY, "3", "1–2", "1", "−7", out=True),
        ),
    )
    return TournamentPicture("Winter league", tables=(first, second))


def swiss_table() -> TournamentPicture:
    standings = StandingsTable(
        "Standings",
        (
            line(1, BOB, 3, 0, 14, 5),
            line(2, ANNA, 2, 1, 6, 6),
            line(3, MUHAMMAD, 2, 1, 2, 4),
            line(4, ELENI, 1, 2, -1, 5),
            line(5, DMITRY, 1, 2, -4, 3),
            line(6, HAL, 0, 3, -17, 4),
        ),
        buchholz=True,
    )
    return TournamentPicture("Open Swiss, round 3 of 5", tables=(standings,))


PICTURES: dict[str, Callable[[], TournamentPicture]] = {
    "tournament_knockout": knockout_with_consolation,
    "tournament_double": double_elimination_with_reset,
    "tournament_groups": round_robin_of_two_groups,
    "tournament_swiss": swiss_table,
}
SCENES: dict[str, Callable[[], bytes]] = {
    name: (lambda make=make: draw_tournament(make())) for name, make in PICTURES.items()
}


def sixty_four_players() -> TournamentPicture:
    """A 64-player knockout with consolation and last chance, the first round played: the
    largest bracket issue 39 names (also the benchmark's)."""
    names = [f"Player {number} of the club" for number in range(1, 65)]

    def part(heading: str, players: int, played: bool) -> BracketPart:
        rounds = []
        count, number = players // 2, 1
        while count:
            matches = tuple(
                match(
                    Entry(names[2 * i], 2 * i + 1, "7", winner=True),
                    Entry(names[2 * i + 1], 2 * i + 2, "4"),
                )
                if played and number == 1
                else match(Entry(), Entry())
                for i in range(count)
            )
            rounds.append(BracketRound(f"Round {number}", matches))
            count, number = count // 2, number + 1
        return BracketPart(heading, tuple(rounds))

    return TournamentPicture(
        "Big open",
        (
            part("Main bracket", 64, True),
            part("Consolation", 32, False),
            part("Last chance", 32, False),
        ),
    )
