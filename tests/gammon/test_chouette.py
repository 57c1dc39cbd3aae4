"""Chouette games: the cubes, who may act when, settlement per cube and the rotation, scripted
game by game with every expected number and order worked out by hand from the rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gammon import Position
from gammon.actions import Double, Move, OpeningRoll, Resign, Roll, Take, WinKind
from gammon.chouette import (
    Answer,
    BoardAction,
    BoardResult,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    ChouetteError,
    ChouetteGame,
    ChouetteRules,
    ChouetteTable,
    Consultation,
    CubeOwner,
    MemberAnswers,
    MemberDoubles,
    Scoreboard,
    Side,
    advance,
    advisers,
    apply,
    new_game,
    new_table,
    next_table,
    refusal,
    replay,
    settle,
    settle_forfeit,
)
from gammon.flow import Phase, Refusal

BOX, TEAM = Side.BOX, Side.TEAM
TAKE, DROP, BEAVER = Answer.TAKE, Answer.DROP, Answer.BEAVER


def run(game: ChouetteGame, *actions: ChouetteAction) -> ChouetteGame:
    for action in actions:
        game = apply(game, action)
    return game


def refused(game: ChouetteGame, action: ChouetteAction) -> str:
    error = refusal(game, action)
    assert error is not None, action
    assert str(error)
    return error.reason


def actor(game: ChouetteGame, side: Side) -> str:
    if side is BOX:
        return game.table.box
    assert game.acting_captain is not None
    return game.acting_captain


def opened(table: ChouetteTable, starter: Side, rules: ChouetteRules | None = None) -> ChouetteGame:
    """The opening 3-1 won by ``starter``, who makes the 5 point; the other side is on roll."""
    game = new_game(table, rules)
    dice = (3, 1) if starter is BOX else (1, 3)
    who = actor(game, starter)
    game = apply(game, BoardAction(who, OpeningRoll(dice)))
    game = apply(game, BoardAction(who, Move(starter.board_player, "8/5 6/5")))
    assert game.board.phase is Phase.ROLLING
    return game


def pass_turn(game: ChouetteGame, dice: tuple[int, int] = (2, 1)) -> ChouetteGame:
    """The side on roll rolls ``dice`` and plays the first legal play."""
    side = game.side_on_turn
    assert side is not None
    assert game.board.phase is Phase.ROLLING
    who = actor(game, side)
    game, _ = advance(game, BoardAction(who, Roll(side.board_player, dice)))
    if game.board.phase is Phase.MOVING:
        play = game.board.legal_plays()[0]
        game, _ = advance(game, BoardAction(who, Move(side.board_player, str(play))))
    return game


def bear_off_last(game: ChouetteGame, winner: Side, loser: dict[int, int]) -> ChouetteGame:
    """Set the board to ``winner`` on roll with one checker left on its 1 point and the loser's
    checkers at ``loser`` (its own numbering), then bear that checker off with 2-1."""
    assert not game.pending
    board = replace(
        game.board,
        phase=Phase.ROLLING,
        player_on_roll=winner.board_player,
        position=Position.from_points({1: 1}, loser),
        dice=None,
    )
    game = replace(game, board=board)
    who = actor(game, winner)
    game = apply(game, BoardAction(who, Roll(winner.board_player, (2, 1))))
    game = apply(game, BoardAction(who, Move(winner.board_player, "1/off")))
    assert game.finished
    return game


SINGLE_LOSER = {6: 5}  # ten checkers already off
GAMMON_LOSER = {13: 15}  # none off, none in the winner's home board
BACKGAMMON_LOSER = {13: 14, 20: 1}  # none off, one in the winner's home board


# --- a whole game with mixed cubes -------------------------------------------------------------


def test_mixed_takes_and_drops_settle_cube_by_cube() -> None:
    table = new_table(["A", "B", "C", "D"])  # A box, B captain, then C and D
    game = opened(table, BOX)  # the team is on roll

    # Team's turn: C alone doubles and the box takes: C's cube is at 2, the box owns it.
    game = run(game, MemberDoubles("C"), BoxAnswers("A", "C", TAKE))
    assert (game.cube("C").value, game.cube("C").owner) == (2, CubeOwner.BOX)
    game = pass_turn(game)

    # Box's turn: the box doubles B and D but not C. B takes, D drops (pays 1, is out).
    game = run(game, BoxDoubles("A", ["B", "D"]), MemberAnswers("B", TAKE))
    assert refused(game, BoardAction("A", Roll(0, (2, 1)))) == "double_pending"
    game = apply(game, MemberAnswers("D", DROP))
    assert game.live_members == ("B", "C")
    game = pass_turn(game)

    # Team's turn: C cannot double (the box owns C's cube); B redoubles his own cube to 4
    # and the box drops: B wins 2 and is out, C moves the team's checkers from now on.
    assert refused(game, MemberDoubles("C")) == "not_cube_owner"
    game = run(game, MemberDoubles("B"), BoxAnswers("A", "B", DROP))
    assert game.acting_captain == "C"
    assert game.rotation_winner is TEAM  # B, the captain, has won against the box
    assert refused(game, BoardAction("B", Roll(1, (2, 1)))) == "already_dropped"
    game = pass_turn(game)

    # Box's turn: the box redoubles C to 4; C takes. Team's turn: C redoubles to 8; the box
    # takes.
    game = run(game, BoxDoubles("A", ["C"]), MemberAnswers("C", TAKE))
    assert (game.cube("C").value, game.cube("C").owner) == (4, CubeOwner.MEMBER)
    game = pass_turn(game)
    game = run(game, MemberDoubles("C"), BoxAnswers("A", "C", TAKE))
    assert (game.cube("C").value, game.cube("C").owner) == (8, CubeOwner.BOX)
    game = pass_turn(pass_turn(game))

    # The team bears off first and gammons the box: C's 8-cube pays 16.
    game = bear_off_last(game, TEAM, GAMMON_LOSER)
    assert game.result == BoardResult(TEAM, WinKind.GAMMON)
    assert settle(game) == {"A": -17, "B": 2, "C": 16, "D": -1}
    assert next_table(game).order == ("B", "C", "D", "A")  # B beat the box: B takes it


def test_the_box_beats_the_captain_but_loses_on_balance_and_keeps_the_box() -> None:
    table = new_table(["A", "B", "C"])
    game = opened(table, TEAM)  # the box is on roll
    game = run(game, BoxDoubles("A", ["B"]), MemberAnswers("B", DROP))  # B pays 1
    assert game.acting_captain == "C"
    game = pass_turn(game)
    game = run(game, MemberDoubles("C"), BoxAnswers("A", "C", TAKE))
    game = pass_turn(game)
    game = bear_off_last(game, TEAM, SINGLE_LOSER)  # C wins a single game on a 2-cube
    assert settle(game) == {"A": -1, "B": -1, "C": 2}
    assert next_table(game).order == ("A", "C", "B")  # the captain lost: A stays


def test_the_box_wins_a_backgammon_and_the_jacoby_rule() -> None:
    table = new_table(["A", "B", "C", "D"])
    for jacoby, expected in (
        (False, {"A": 12, "B": -6, "C": -3, "D": -3}),
        (True, {"A": 8, "B": -6, "C": -1, "D": -1}),
    ):
        game = opened(table, BOX, ChouetteRules(jacoby=jacoby))
        game = run(game, MemberDoubles("B"), BoxAnswers("A", "B", TAKE))
        game = pass_turn(game)
        game = bear_off_last(game, BOX, BACKGAMMON_LOSER)
        assert game.result == BoardResult(BOX, WinKind.BACKGAMMON)
        assert settle(game) == expected
        assert next_table(game).order == ("A", "C", "D", "B")


def test_beavers_when_played() -> None:
    table = new_table(["A", "B", "C"])
    game = opened(table, TEAM)
    game = apply(game, BoxDoubles("A", ["B", "C"]))
    assert refused(game, MemberAnswers("B", BEAVER)) == "beaver_disabled"

    game = opened(table, TEAM, ChouetteRules(beavers=True))
    game = run(game, BoxDoubles("A", ["B", "C"]), MemberAnswers("B", BEAVER))
    game = apply(game, MemberAnswers("C", TAKE))
    assert (game.cube("B").value, game.cube("B").owner) == (4, CubeOwner.MEMBER)
    assert game.cube("C").value == 2
    game = pass_turn(game)
    game = run(game, MemberDoubles("C"), BoxAnswers("A", "C", BEAVER))
    assert (game.cube("C").value, game.cube("C").owner) == (8, CubeOwner.BOX)
    game = pass_turn(game)
    game = bear_off_last(game, BOX, SINGLE_LOSER)
    assert settle(game) == {"A": 12, "B": -4, "C": -8}


# --- who may act, and when ---------------------------------------------------------------------


def test_a_dropped_member_cannot_act_again_that_game() -> None:
    table = new_table(["A", "B", "C", "D"])
    game = opened(table, TEAM)
    game = run(game, BoxDoubles("A", ["C"]), MemberAnswers("C", DROP))
    assert not game.cube("C").live
    assert refused(game, MemberAnswers("C", TAKE)) == "already_dropped"
    game = pass_turn(game)  # the box plays; the team is on roll
    assert refused(game, MemberDoubles("C")) == "already_dropped"
    assert refused(game, BoardAction("C", Roll(1, (2, 1)))) == "already_dropped"
    game = pass_turn(game)
    assert refused(game, BoxDoubles("A", ["C"])) == "already_dropped"
    assert refused(game, BoxDoubles("A", ["B", "C"])) == "already_dropped"  # all or nothing
    game = pass_turn(game)
    assert refused(game, BoxAnswers("A", "C", TAKE)) == "already_dropped"
    assert "C" not in advisers(game)


def test_the_box_doubles_only_some_members() -> None:
    table = new_table(["A", "B", "C", "D", "E"])
    game = opened(table, TEAM)
    game = apply(game, BoxDoubles("A", ["C", "E"]))
    assert [cube.member for cube in game.pending] == ["C", "E"]
    assert refused(game, MemberAnswers("B", TAKE)) == "no_double_pending"
    assert refused(game, MemberAnswers("D", DROP)) == "no_double_pending"
    assert refused(game, BoxDoubles("A", ["B"])) == "already_doubled"
    game = run(game, MemberAnswers("E", TAKE), MemberAnswers("C", TAKE))
    assert [cube.value for cube in game.cubes] == [1, 2, 1, 2]
    assert refused(game, BoxDoubles("A", ["B"])) == "already_doubled"  # once a turn
    game = pass_turn(pass_turn(game))
    # A later turn: B and D are still centred, C and E own theirs.
    assert refused(game, BoxDoubles("A", ["B", "E"])) == "not_cube_owner"
    game = run(game, BoxDoubles("A", ["D"]), MemberAnswers("D", TAKE))
    assert [cube.value for cube in game.cubes] == [1, 2, 2, 2]


def test_members_double_independently_only_on_their_turn_with_access() -> None:
    table = new_table(["A", "B", "C", "D"])
    game = new_game(table)
    assert refused(game, MemberDoubles("B")) == "opening_roll_first"
    assert refused(game, BoxDoubles("A", ["B"])) == "opening_roll_first"
    game = opened(table, TEAM)  # the box is on roll
    assert refused(game, MemberDoubles("C")) == "not_your_turn"
    game = pass_turn(game)  # the team is on roll
    assert refused(game, BoxDoubles("A", ["B"])) == "not_your_turn"
    game = apply(game, MemberDoubles("D"))
    assert refused(game, MemberDoubles("D")) == "double_pending"
    game = apply(game, MemberDoubles("B"))  # the captain doubles too, on his own cube
    assert refused(game, BoardAction("B", Roll(1, (2, 1)))) == "double_pending"
    game = run(game, BoxAnswers("A", "D", TAKE), BoxAnswers("A", "B", TAKE))
    assert refused(game, BoxAnswers("A", "B", TAKE)) == "no_double_pending"
    game = apply(game, BoardAction("B", Roll(1, (2, 1))))
    assert refused(game, MemberDoubles("C")) == "already_rolled"
    game = apply(game, BoardAction("B", Move(1, str(game.board.legal_plays()[0]))))
    # The box owns B's and D's cubes at 2, so it may redouble them; C's is still centred.
    game = apply(game, BoxDoubles("A", ["B", "D"]))
    game = run(game, MemberAnswers("B", TAKE), MemberAnswers("D", DROP))
    assert [(cube.value, cube.owner) for cube in game.cubes] == [
        (4, CubeOwner.MEMBER),
        (1, CubeOwner.CENTRE),
        (2, CubeOwner.BOX),
    ]
    game = apply(game, BoardAction("A", Roll(0, (2, 1))))
    assert refused(game, BoxDoubles("A", ["C"])) == "already_rolled"
    game = apply(game, BoardAction("A", Move(0, str(game.board.legal_plays()[0]))))
    assert refused(game, MemberDoubles("D")) == "already_dropped"
    game = run(game, MemberDoubles("B"), BoxAnswers("A", "B", TAKE))  # B owned it at 4
    assert (game.cube("B").value, game.cube("B").owner) == (8, CubeOwner.BOX)
    game = pass_turn(game)
    game = pass_turn(game)
    assert refused(game, MemberDoubles("B")) == "not_cube_owner"


def test_acting_out_of_role() -> None:
    table = new_table(["A", "B", "C"])
    game = opened(table, TEAM)
    assert refused(game, BoxDoubles("B", ["C"])) == "out_of_role"
    assert refused(game, BoxDoubles("A", [])) == "invalid_members"
    assert refused(game, BoxDoubles("A", ["B", "B"])) == "invalid_members"
    assert refused(game, BoxDoubles("A", ["Z"])) == "not_in_team"
    assert refused(game, BoxDoubles("A", ["A"])) == "not_in_team"
    assert refused(game, BoardAction("B", Roll(1, (2, 1)))) == Refusal.NOT_YOUR_TURN
    assert refused(game, BoardAction("C", Roll(1, (2, 1)))) == "out_of_role"  # not captain
    assert refused(game, BoardAction("Z", Roll(1, (2, 1)))) == "not_in_team"
    assert refused(game, BoardAction("A", Roll(1, (2, 1)))) == "out_of_role"  # box is 0
    assert refused(game, BoardAction("A", Double(0))) == "unsupported_action"
    assert refused(game, BoardAction("A", Resign(0, WinKind.SINGLE))) == "unsupported_action"
    assert refused(game, BoardAction("A", Take(0))) == "unsupported_action"
    game = apply(game, BoxDoubles("A", ["C"]))
    assert refused(game, MemberAnswers("A", TAKE)) == "out_of_role"
    assert refused(game, MemberAnswers("Z", TAKE)) == "not_in_team"
    assert refused(game, BoxAnswers("C", "C", TAKE)) == "out_of_role"
    assert refused(game, MemberDoubles("A")) == "out_of_role"
    game = run(game, MemberAnswers("C", TAKE))
    game = apply(game, BoardAction("A", Roll(0, (6, 5))))
    error = refusal(game, BoardAction("A", Move(0, "6/off")))
    assert error is not None
    assert error.reason == Refusal.ILLEGAL_PLAY
    assert error.board_error is not None


def test_a_finished_game_refuses_everything_and_a_running_one_is_not_settled() -> None:
    table = new_table(["A", "B", "C"])
    game = opened(table, TEAM)
    with pytest.raises(ChouetteError) as error:
        settle(game)
    assert error.value.reason == "not_finished"
    with pytest.raises(ChouetteError):
        next_table(game)
    game = run(game, BoxDoubles("A", ["B", "C"]), MemberAnswers("B", DROP))
    game = apply(game, MemberAnswers("C", DROP))
    assert game.finished
    assert game.result is None
    assert settle(game) == {"A": 2, "B": -1, "C": -1}
    assert refused(game, BoardAction("A", Roll(0, (2, 1)))) == "game_over"
    assert refused(game, MemberDoubles("B")) == "game_over"


def test_the_captain_drops_and_the_next_member_in_the_game_plays_on() -> None:
    table = new_table(["A", "B", "C", "D"])
    game = opened(table, TEAM)
    game = run(game, BoxDoubles("A", ["B", "C"]), MemberAnswers("B", DROP))
    game = apply(game, MemberAnswers("C", DROP))
    assert game.acting_captain == "D"  # B and C are out: D is next in line still in the game
    assert game.rotation_winner is BOX
    game = pass_turn(game)
    assert refused(game, BoardAction("B", Roll(1, (2, 1)))) == "already_dropped"
    game = bear_off_last(game, TEAM, GAMMON_LOSER)  # D rolls and bears off for the team
    # D wins a gammon on the centred cube; the rotation still follows B, who lost.
    assert settle(game) == {"A": 0, "B": -1, "C": -1, "D": 2}
    assert next_table(game).order == ("A", "C", "D", "B")


def test_advisers_under_each_consultation_option() -> None:
    table = new_table(["A", "B", "C", "D", "E"])
    expected = {
        Consultation.TEAM: ("C", "E"),
        Consultation.TURNED: ("C",),
        Consultation.CAPTAIN: (),
    }
    for option, advising in expected.items():
        game = opened(table, TEAM, ChouetteRules(consultation=option))
        game = run(game, BoxDoubles("A", ["C", "D"]), MemberAnswers("C", TAKE))
        game = apply(game, MemberAnswers("D", DROP))
        assert game.acting_captain == "B"
        assert advisers(game) == advising


def test_advance_records_canonical_plays_and_replay_rebuilds_the_game() -> None:
    table = new_table(["A", "B", "C"])
    game = new_game(table)
    game, recorded = advance(game, BoardAction("B", OpeningRoll((1, 3))))
    game, recorded = advance(game, BoardAction("B", Move(1, "8-5 6-5")))
    assert recorded == [BoardAction("B", Move(1, "8/5 6/5"))]
    game = run(game, BoxDoubles("A", ["C"]), MemberAnswers("C", TAKE))
    game = pass_turn(game)
    assert replay(table, game.rules, game.actions) == game


def test_rules_round_trip_and_scoreboard() -> None:
    rules = ChouetteRules(consultation=Consultation.TURNED, jacoby=True, beavers=True)
    assert ChouetteRules.from_dict(rules.to_dict()) == rules
    with pytest.raises(ValueError, match="unknown"):
        ChouetteRules.from_dict({"raccoons": True})
    board = Scoreboard().add({"A": 2, "B": -1, "C": -1}).add({"B": 3, "C": -4, "D": 1})
    assert board.as_dict() == {"A": 2, "B": 2, "C": -5, "D": 1}
    assert (board.total("D"), board.total("nobody"), board.games) == (1, 0, 2)
    with pytest.raises(ChouetteError) as error:
        board.add({"A": 1})
    assert error.value.reason == "not_zero_sum"


# --- rotation through whole games --------------------------------------------------------------


def captain_wins_on_cubes(table: ChouetteTable) -> ChouetteGame:
    """Every member doubles the box on the team's first turn and the box drops them all."""
    game = opened(table, BOX)
    for member in table.team:
        game = run(game, MemberDoubles(member), BoxAnswers(table.box, member, DROP))
    return game


def box_wins_on_cubes(table: ChouetteTable) -> ChouetteGame:
    """The box doubles every member on its first turn and they all drop."""
    game = opened(table, TEAM)
    game = apply(game, BoxDoubles(table.box, table.team))
    return run(game, *(MemberAnswers(member, DROP) for member in table.team))


def box_beats_captain_only(table: ChouetteTable) -> ChouetteGame:
    """The line doubles and the box drops them; then the box doubles out the captain."""
    game = opened(table, BOX)
    for member in table.line:
        game = run(game, MemberDoubles(member), BoxAnswers(table.box, member, DROP))
    game = pass_turn(game)
    return run(game, BoxDoubles(table.box, [table.captain]), MemberAnswers(table.captain, DROP))


def captain_beats_box_only(table: ChouetteTable) -> ChouetteGame:
    """The box doubles out the line; then the captain doubles and the box drops."""
    game = opened(table, TEAM)
    game = apply(game, BoxDoubles(table.box, table.line))
    game = run(game, *(MemberAnswers(member, DROP) for member in table.line))
    game = pass_turn(game)
    return run(game, MemberDoubles(table.captain), BoxAnswers(table.box, table.captain, DROP))


def test_rotation_through_games_with_three_players() -> None:
    table = new_table(["A", "B", "C"])
    scoreboard = Scoreboard()
    script = [
        (captain_wins_on_cubes, {"A": -2, "B": 1, "C": 1}, ("B", "C", "A")),
        (box_beats_captain_only, {"B": 0, "C": -1, "A": 1}, ("B", "A", "C")),
        (captain_beats_box_only, {"B": 0, "A": 1, "C": -1}, ("A", "C", "B")),
        (box_wins_on_cubes, {"A": 2, "C": -1, "B": -1}, ("A", "B", "C")),
    ]
    for play, points, order in script:
        game = play(table)
        assert game.finished
        assert settle(game) == points
        scoreboard = scoreboard.add(settle(game))
        table = next_table(game)
        assert table.order == order
    assert scoreboard.as_dict() == {"A": 2, "B": 0, "C": -2}


def test_rotation_through_games_with_four_players() -> None:
    table = new_table(["A", "B", "C", "D"])
    script = [
        (box_wins_on_cubes, ("A", "C", "D", "B")),
        (captain_wins_on_cubes, ("C", "D", "B", "A")),
        (box_beats_captain_only, ("C", "B", "A", "D")),
        (captain_beats_box_only, ("B", "A", "D", "C")),
    ]
    for play, order in script:
        table = next_table(play(table))
        assert table.order == order


def test_rotation_through_games_with_six_players() -> None:
    table = new_table(["A", "B", "C", "D", "E", "F"])
    scoreboard = Scoreboard()
    script = [
        (captain_wins_on_cubes, ("B", "C", "D", "E", "F", "A")),
        (box_beats_captain_only, ("B", "D", "E", "F", "A", "C")),
        (captain_beats_box_only, ("D", "E", "F", "A", "C", "B")),
        (box_wins_on_cubes, ("D", "F", "A", "C", "B", "E")),
        (captain_wins_on_cubes, ("F", "A", "C", "B", "E", "D")),
    ]
    for play, order in script:
        game = play(table)
        scoreboard = scoreboard.add(settle(game))
        table = next_table(game)
        assert table.order == order
    # Game by game (each cube dropped at 1): A -5 +1 -1 -1 +1; B +1 -3 +3 -1 +1;
    # C +1 -1 -1 -1 +1; D +1 +1 +1 +5 -5; E and F +1 +1 -1 -1 +1.
    assert scoreboard.as_dict() == {"A": -5, "B": 1, "C": -1, "D": 3, "E": 1, "F": 1}


def test_a_side_out_of_time_pays_a_single_game_on_every_cube_still_in_play() -> None:
    table = new_table(["A", "B", "C", "D"])  # A box, B captain, then C and D
    game = opened(table, BOX)  # the team is on roll
    game = run(
        game,
        MemberDoubles("C"),
        MemberDoubles("D"),
        BoxAnswers("A", "C", TAKE),  # C's cube at 2, the box owns it
        BoxAnswers("A", "D", DROP),  # the box pays D 1, D is out
    )
    # The team is late: B's cube (1) and C's (2) go to the box; D keeps the 1 it won.
    assert settle_forfeit(game, TEAM) == {"A": 2, "B": -1, "C": -2, "D": 1}
    # The box is late: it pays every cube still in play, and D as before.
    assert settle_forfeit(game, BOX) == {"A": -4, "B": 1, "C": 2, "D": 1}
