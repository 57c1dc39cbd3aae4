"""Texts built from pieces: move time limits in the rules summary, and refusals of actions."""

from __future__ import annotations

import pytest

from bot.core.text.i18n import speech
from bot.core.text.texts import action_refusal, rules_summary
from gammon.actions import Action, ClaimWin, Double, Move, OpeningRoll, Roll
from gammon.flow import ActionError, MatchState, Refusal, apply, new_match
from gammon.match_rules import MatchRules

english = speech("en")
GERMAN = speech("de")
MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR


@pytest.mark.parametrize(
    ("seconds", "wanted"),
    [
        (60, "1 min per move"),
        (45 * MINUTE, "45 min per move"),
        (90 * MINUTE, "1 h 30 min per move"),
        (4 * HOUR, "4 h per move"),
        (72 * HOUR, "72 h per move"),
        (30 * DAY, "720 h per move"),
        (None, "no time limit"),
    ],
)
def test_move_time_limits_read_in_minutes_and_hours(seconds: int | None, wanted: str) -> None:
    summary = rules_summary(english, MatchRules(length=5), seconds)
    assert summary == f"5-point match of backgammon ({wanted})"


@pytest.mark.parametrize(
    ("seconds", "wanted"),
    [
        (60, "1 Min. pro Zug"),
        (90 * MINUTE, "1 Std. 30 Min. pro Zug"),
        (4 * HOUR, "4 Std. pro Zug"),
        (72 * HOUR, "72 Std. pro Zug"),
        (30 * DAY, "720 Std. pro Zug"),
    ],
)
def test_move_time_limits_in_german(seconds: int, wanted: str) -> None:
    summary = rules_summary(GERMAN, MatchRules(length=5), seconds)
    assert summary == f"Match bis 5 Punkte, Backgammon ({wanted})"


def refusal(state: MatchState, action: Action) -> ActionError:
    with pytest.raises(ActionError) as error:
        apply(state, action)
    return error.value


def started() -> MatchState:
    """Player 0 has won the opening roll (4-2) and must play it."""
    return apply(new_match(MatchRules(length=5)), OpeningRoll((4, 2)))


def test_rolling_after_rolling_says_to_play_the_dice_not_to_double() -> None:
    error = refusal(started(), Roll(0, (3, 1)))
    assert action_refusal(english, error) == "You have rolled already: play your dice with /move."
    assert action_refusal(GERMAN, error) == "Du hast schon gewürfelt: zieh jetzt mit /move."
    doubled_late = refusal(started(), Double(0))
    assert "double" in action_refusal(english, doubled_late)


@pytest.mark.parametrize("action", [Roll(1, (3, 1)), Double(1), Move(1, "8/5 6/5")])
def test_acting_out_of_turn_says_it_is_not_your_turn(action: Action) -> None:
    error = refusal(started(), action)
    assert action_refusal(english, error) == "It is not your turn."
    assert action_refusal(GERMAN, error) == "Du bist nicht am Zug."


def test_a_claim_before_anybody_is_on_turn_is_explained() -> None:
    error = refusal(new_match(MatchRules(length=5)), ClaimWin(1))
    assert action_refusal(english, error) == (
        "Nobody is on turn yet: the opening roll decides who starts, so there is nothing to claim."
    )
    assert action_refusal(GERMAN, error) == (
        "Noch ist niemand am Zug: der Eröffnungswurf entscheidet, wer beginnt, "
        "also gibt es nichts zu beanspruchen."
    )


def test_a_claim_by_the_player_on_turn_is_explained() -> None:
    error = refusal(started(), ClaimWin(0))
    assert action_refusal(english, error) == "Only the player who is waiting can claim the match."


def test_every_refusal_a_player_can_meet_has_its_own_sentence() -> None:
    """Codes only a broken caller meets (dice out of range, an unknown action, a phase with no
    sentence of its own) and illegal plays (explained by their PlayError) fall back."""
    internal = {
        Refusal.WRONG_PHASE,
        Refusal.ILLEGAL_PLAY,
        Refusal.INVALID_DICE,
        Refusal.UNKNOWN_ACTION,
    }
    sentences = {refusal: action_refusal(str, ActionError(refusal, "")) for refusal in Refusal}
    fallback = "That is not possible now."
    assert {refusal for refusal, text in sentences.items() if text == fallback} == internal
    assert len({sentences[refusal] for refusal in Refusal if refusal not in internal}) == len(
        Refusal
    ) - len(internal)
