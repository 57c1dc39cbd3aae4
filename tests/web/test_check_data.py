"""The rolls of a match record, as the check page lists them."""

from __future__ import annotations

import dataclasses

import pytest

from bot.pages.check_data import RecordedRoll, recorded_rolls
from gammon.actions import OpeningRoll, Roll
from gammon.flow import replay_states
from gammon.match_rules import MatchRules
from gammon.position import Variant
from tests.web.matches import check_data, play_match


def test_every_dice_event_of_a_real_match_in_nonce_order() -> None:
    match = play_match()
    rolls = recorded_rolls(match.rules, match.actions)
    dice_actions = [action for action in match.actions if isinstance(action, OpeningRoll | Roll)]
    assert len(rolls) == len(dice_actions) == match.state.dice_events == 198
    assert [item.nonce for item in rolls] == list(range(len(rolls)))
    for item, action in zip(rolls, dice_actions, strict=True):
        assert item.dice == action.dice == match.dice.roll(item.nonce)
        assert item.opening == isinstance(action, OpeningRoll)
        assert item.player == (action.player if isinstance(action, Roll) else None)


def test_tied_opening_rolls_count_and_each_game_starts_with_one() -> None:
    match = play_match()
    rolls = recorded_rolls(match.rules, match.actions)
    games = [item.game for item in rolls]
    assert games == sorted(games)
    assert (games[0], games[-1]) == (1, 4)
    firsts = [next(item for item in rolls if item.game == number) for number in range(1, 5)]
    assert all(item.opening for item in firsts)
    ties = [item for item in rolls if item.opening and item.dice[0] == item.dice[1]]
    assert [(item.nonce, item.game) for item in ties] == [(0, 1), (56, 2), (103, 3)]
    for tie in ties:
        again = rolls[tie.nonce + 1]  # the re-roll: the next nonce, the same game
        assert again.opening
        assert again.game == tie.game
        assert again.player is None


def test_long_nardy_draws_lots_only_before_the_first_game() -> None:
    match = play_match("nardy", rules=MatchRules(length=2, variant=Variant.LONG_NARDY))
    rolls = recorded_rolls(match.rules, match.actions)
    assert [item.nonce for item in rolls if item.opening] == [0]
    assert rolls[-1].game == len(match.state.games) == 3
    assert all(item.player in (0, 1) for item in rolls[1:])


def test_states_replayed_by_the_caller_give_the_same_rolls() -> None:
    match = play_match()
    states = replay_states(match.rules, match.actions)
    assert recorded_rolls(match.rules, match.actions, states) == recorded_rolls(
        match.rules, match.actions
    )


def test_an_empty_record_has_no_rolls() -> None:
    assert recorded_rolls(MatchRules(length=1), []) == ()


def test_check_data_refuses_an_unknown_variant_or_a_short_seed() -> None:
    data = check_data(play_match())
    with pytest.raises(ValueError, match="variant"):
        dataclasses.replace(data, variant="chess")
    with pytest.raises(ValueError, match="64 hex digits"):
        dataclasses.replace(data, server_seed="abcd")


def test_recorded_rolls_are_plain_values() -> None:
    item = RecordedRoll(nonce=0, game=1, player=None, opening=True, dice=(3, 1))
    assert item == RecordedRoll(0, 1, None, True, (3, 1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.nonce = 1  # type: ignore[misc]
