"""The FIBS rating formula against FIBS's own table and against matches worked by hand."""

from __future__ import annotations

import pytest

from gammon.rating import (
    Standing,
    experience_factor,
    rate,
    upset_chance,
    winning_chance,
)

# What a favourite must win to keep their rating, by rating difference (rows) and match
# length 1, 3, 5, 7, 9, 11 (columns): the table posted to rec.games.backgammon from FIBS's
# formula (bkgm.com/rgb/rgb.cgi?view+45), three decimals.
FIBS_TABLE = {
    100: (0.529, 0.550, 0.564, 0.576, 0.585, 0.594),
    200: (0.557, 0.598, 0.626, 0.648, 0.666, 0.682),
    300: (0.585, 0.645, 0.684, 0.714, 0.738, 0.759),
    400: (0.613, 0.689, 0.737, 0.772, 0.799, 0.822),
    700: (0.691, 0.802, 0.858, 0.894, 0.918, 0.935),
}
LENGTHS = (1, 3, 5, 7, 9, 11)


@pytest.mark.parametrize("difference", sorted(FIBS_TABLE))
def test_the_favourites_chance_matches_the_fibs_table(difference: int) -> None:
    for length, expected in zip(LENGTHS, FIBS_TABLE[difference], strict=True):
        assert round(1 - upset_chance(difference, length), 3) == expected
        assert round(winning_chance(1500 + difference, 1500, length), 3) == expected
        assert round(winning_chance(1500, 1500 + difference, length), 3) == round(1 - expected, 3)


def test_the_experience_factor_at_its_boundaries() -> None:
    assert experience_factor(0) == 5.0
    assert experience_factor(1) == 4.99
    assert experience_factor(100) == 4.0
    assert experience_factor(399) == pytest.approx(1.01)
    assert experience_factor(400) == 1.0
    assert experience_factor(401) == 1.0
    assert experience_factor(10_000) == 1.0


def test_two_new_players_in_a_five_point_match() -> None:
    # D = 0, so each had an even chance: 4 * sqrt(5) * 0.5 = 4.4721, times 5 for new players.
    change = rate(Standing(), Standing(), 5)
    assert change.winner == Standing(pytest.approx(1522.3607, abs=1e-4), 5)  # type: ignore[arg-type]
    assert change.loser == Standing(pytest.approx(1477.6393, abs=1e-4), 5)  # type: ignore[arg-type]


def test_an_experienced_favourite_beats_a_new_player() -> None:
    # 1600 (500 points played) beats 1500 (new) over 7 points: D = 100,
    # 10^(100 * 2.64575 / 2000) = 1.35636, P_upset = 0.42443; the favourite gains
    # 4 * 2.64575 * 0.42443 = 4.49177 (factor 1), the new player loses 5 times that.
    change = rate(Standing(1600.0, 500), Standing(1500.0, 0), 7)
    assert change.winner_gain == pytest.approx(4.49177, abs=1e-5)
    assert change.loser_loss == pytest.approx(22.45886, abs=1e-5)
    assert change.winner == Standing(pytest.approx(1604.49177, abs=1e-5), 507)  # type: ignore[arg-type]
    assert change.loser == Standing(pytest.approx(1477.54114, abs=1e-5), 7)  # type: ignore[arg-type]


def test_an_underdog_wins_and_each_side_moves_by_its_own_experience() -> None:
    # 1400 (250 points) beats 1650 (399 points) over 3 points: D = 250,
    # 10^(250 * 1.73205 / 2000) = 1.64626, P_upset = 0.37789; base 4 * 1.73205 * 0.62211
    # = 4.31012; the winner's factor 2.5 gives +10.77530, the loser's 1.01 gives -4.35322.
    change = rate(Standing(1400.0, 250), Standing(1650.0, 399), 3)
    assert change.winner_gain == pytest.approx(10.77530, abs=1e-5)
    assert change.loser_loss == pytest.approx(4.35322, abs=1e-5)
    assert (change.winner.experience, change.loser.experience) == (253, 402)


def test_a_match_has_a_length() -> None:
    with pytest.raises(ValueError, match="length"):
        rate(Standing(), Standing(), 0)
