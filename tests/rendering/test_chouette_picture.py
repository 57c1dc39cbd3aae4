"""The chouette picture: the board as any board, without its cube, and the team's panel; golden
images of two games played through the chouette rules, eight players fitting, hostile names
kept in their place, and small PNGs.

Rewrite the golden pictures after an intended change (then look at them before committing):

    python -m tests.rendering.regenerate_goldens
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from gammon import parse_play
from gammon.actions import Move, OpeningRoll, Roll
from gammon.chouette import (
    Answer,
    BoardAction,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    ChouetteGame,
    CubeOwner,
    MemberAnswers,
    MemberDoubles,
    apply,
    new_game,
    new_table,
)
from rendering import (
    DEFAULT_LABELS,
    BoardView,
    LastPlay,
    MemberCubeView,
    chouette_members,
    render_chouette,
    render_image,
)
from rendering.chouette import MAX_MEMBERS, chouette_image
from tests.rendering.compare import difference, picture

GOLDEN = Path(__file__).parent / "golden"
WIDTH, BOARD_HEIGHT = 960, 842
TAKE, DROP = Answer.TAKE, Answer.DROP


def run(game: ChouetteGame, *actions: ChouetteAction) -> ChouetteGame:
    for action in actions:
        game = apply(game, action)
    return game


# --- the scenes ------------------------------------------------------------------------------

FIVE = {"bob": "Bob", "dmitry": "Дмитрий", "anna": "Anna Groß", "eleni": "Ελένη", "chen": "Chen"}


def four_members_game() -> tuple[ChouetteGame, LastPlay]:
    """Bob in the box against Дмитрий (captain), Anna, Ελένη and Chen. Дмитрий and Anna
    doubled and Bob took both; Bob redoubled Дмитрий to 4 (taken) and doubled Ελένη, who
    dropped; Chen's cube is still centred. Bob has just hit with 13/7* 13/11 and the team has
    rolled 3-2 on the bar."""
    game = new_game(new_table(["bob", "dmitry", "anna", "eleni", "chen"]))
    game = run(
        game,
        BoardAction("bob", OpeningRoll((3, 1))),
        BoardAction("bob", Move(0, "8/5 6/5")),
        MemberDoubles("dmitry"),
        MemberDoubles("anna"),
        BoxAnswers("bob", "dmitry", TAKE),
        BoxAnswers("bob", "anna", TAKE),
        BoardAction("dmitry", Roll(1, (6, 4))),
        BoardAction("dmitry", Move(1, "24/18 13/9")),
        BoxDoubles("bob", ["dmitry", "eleni"]),
        MemberAnswers("dmitry", TAKE),
        MemberAnswers("eleni", DROP),
        BoardAction("bob", Roll(0, (6, 2))),
    )
    before = game.board.position
    game = run(game, BoardAction("bob", Move(0, "13/7* 13/11")))
    last = LastPlay.from_play(parse_play("13/7* 13/11", before, (6, 2)), 0)
    return run(game, BoardAction("dmitry", Roll(1, (3, 2)))), last


def chouette_four_members() -> bytes:
    game, last = four_members_game()
    return render_chouette(
        BoardView.from_state(game.board),
        box=FIVE["bob"],
        captain=FIVE["dmitry"],
        members=chouette_members(game, FIVE),
        last_play=last,
    )


EIGHT = {
    "box": "Bartholomew Fitzgerald-Smythe III",
    "c1": "Maximilian Alexander von Hohenzollern",
    "c2": "Κωνσταντίνος Παπαδόπουλος",
    "c3": "عبد الرحمن بن عبد العزيز",
    "c4": "Анастасия Владимировна Ковалёва",
    "c5": "Eve",
    "c6": "Oleksandr Шевченко 🎲",
    "c7": "Zoë",
}


def seven_members_game() -> ChouetteGame:
    """Eight at the table. The box doubled the captain (who dropped: Κωνσταντίνος now moves
    the team's checkers), the Arabic name and Eve, who both took; then Анастасия doubled and
    the box took, and Oleksandr's double waits for the box's answer."""
    game = new_game(new_table(list(EIGHT)))
    return run(
        game,
        BoardAction("c1", OpeningRoll((2, 5))),
        BoardAction("c1", Move(1, "13/8 13/11")),
        BoxDoubles("box", ["c1", "c3", "c5"]),
        MemberAnswers("c1", DROP),
        MemberAnswers("c3", TAKE),
        MemberAnswers("c5", TAKE),
        BoardAction("box", Roll(0, (4, 2))),
        BoardAction("box", Move(0, "8/4 6/4")),
        MemberDoubles("c4"),
        BoxAnswers("box", "c4", TAKE),
        MemberDoubles("c6"),
    )


def chouette_seven_members() -> bytes:
    game = seven_members_game()
    return render_chouette(
        BoardView.from_state(game.board),
        box=EIGHT["box"],
        captain=EIGHT["c2"],
        members=chouette_members(game, EIGHT),
        theme="dark",
    )


SCENES: dict[str, Callable[[], bytes]] = {
    "chouette_four_members": chouette_four_members,
    "chouette_seven_members": chouette_seven_members,
}


# --- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SCENES))
def test_chouette_pictures_match_their_golden_images(name: str) -> None:
    rendered = picture(SCENES[name]())
    golden = picture((GOLDEN / f"{name}.png").read_bytes())
    assert rendered.size == golden.size
    assert rendered.width == WIDTH
    assert rendered.mode == "P"
    mean, far = difference(rendered, golden)
    assert mean < 1.5, f"{name}: mean difference {mean:.2f}"
    assert far < 0.003, f"{name}: {far:.2%} of pixels differ clearly"


def test_the_comparison_would_notice_other_cubes() -> None:
    game, last = four_members_game()
    members = chouette_members(game, FIVE)
    moved = (members[0], replace(members[1], owner="member"), *members[2:])
    other = picture(
        render_chouette(
            BoardView.from_state(game.board),
            box="Bob",
            captain="Дмитрий",
            members=moved,
            last_play=last,
        )
    )
    golden = picture((GOLDEN / "chouette_four_members.png").read_bytes())
    mean, far = difference(golden, other)
    assert far > 0.0005 or mean > 0.2


def test_the_members_come_from_the_game_in_seat_order() -> None:
    game, _last = four_members_game()
    assert chouette_members(game, FIVE) == (
        MemberCubeView("Дмитрий", 4, "member", captain=True, acting=True),
        MemberCubeView("Anna Groß", 2, "box"),
        MemberCubeView("Ελένη", 1, "centre", dropped=True),
        MemberCubeView("Chen", 1, "centre"),
    )
    seven = chouette_members(seven_members_game())  # no names: the ids are shown
    assert [line.name for line in seven] == ["c1", "c2", "c3", "c4", "c5", "c6", "c7"]
    assert (seven[0].captain, seven[0].dropped, seven[0].acting) == (True, True, False)
    assert (seven[1].captain, seven[1].dropped, seven[1].acting) == (False, False, True)
    assert (seven[3].owner, seven[3].value) == ("box", 2)
    assert (seven[5].offered_by, seven[5].owner) == ("member", "centre")


def test_the_board_is_drawn_as_any_board_without_its_cube() -> None:
    game, last = four_members_game()
    view = BoardView.from_state(game.board)
    members = chouette_members(game, FIVE)
    chouette = chouette_image(view, box="Bob", captain="Дмитрий", members=members, last_play=last)
    titled = {**DEFAULT_LABELS, "money": "Chouette"}  # its title, not "Money game"
    board = render_image(
        view, perspective=1, names=("Bob", "Дмитрий"), last_play=last, labels=titled
    )
    assert board.size == (WIDTH, BOARD_HEIGHT)
    assert chouette.crop((0, 0, WIDTH, BOARD_HEIGHT)).tobytes() == board.tobytes()
    # A view that would show a cube (or an offered one) draws the same board: the cubes are
    # the members'.
    cubed = replace(view, cube_visible=True, cube_value=2, cube_owner=0)
    with_cube = chouette_image(cubed, box="Bob", captain="Дмитрий", members=members, last_play=last)
    assert with_cube.tobytes() == chouette.tobytes()


def test_eight_players_fit_and_names_stay_in_their_place() -> None:
    game = seven_members_game()
    view = BoardView.from_state(game.board)
    members = chouette_members(game, EIGHT)
    assert len(members) == MAX_MEMBERS == 7
    plain = chouette_image(view, box="B", captain="C", members=members, theme="dark")
    assert plain.width == WIDTH
    assert BOARD_HEIGHT + 7 * 40 < plain.height < WIDTH * 4 / 3  # a portrait photo at most
    hostile = tuple(replace(line, name="\u202e🎲" + "Ж" * 300 + "\x00") for line in members)
    wild = chouette_image(view, box="W" * 300, captain="C", members=hostile, theme="dark")
    assert wild.size == plain.size
    # The rails, the cubes and the box's block (the right half of the panel) do not move.
    right = (WIDTH // 2, BOARD_HEIGHT, WIDTH, plain.height)
    rails = (WIDTH // 2, BOARD_HEIGHT, round(WIDTH * 0.74), plain.height)  # left of the box
    assert plain.crop(rails).tobytes() == wild.crop(rails).tobytes()
    assert difference(plain.crop(right), wild.crop(right))[1] < 0.05  # only the box's name
    with pytest.raises(ValueError, match="1 to 7"):
        chouette_image(view, box="B", captain="C", members=(*members, members[-1]))
    with pytest.raises(ValueError, match="1 to 7"):
        chouette_image(view, box="B", captain="C", members=())


def test_a_team_of_two_gets_a_short_panel() -> None:
    game, _last = four_members_game()
    view = BoardView.from_state(game.board)
    two = chouette_image(
        view,
        box="Bob",
        captain="Дмитрий",
        members=(
            MemberCubeView("Дмитрий", captain=True, acting=True),
            MemberCubeView("Anna", 2, CubeOwner.BOX),
        ),
    )
    seven = chouette_image(
        view, box="B", captain="C", members=chouette_members(seven_members_game())
    )
    assert BOARD_HEIGHT < two.height < seven.height


def test_chouette_pictures_are_small_pngs_and_the_same_every_time() -> None:
    for scene in SCENES.values():
        png = scene()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(png) < 200 * 1024
        assert png == scene()


def test_the_words_are_labels() -> None:
    for key in ("chouette_box", "chouette_captain", "chouette_acting", "chouette_out"):
        assert key in DEFAULT_LABELS
    game = seven_members_game()
    view = BoardView.from_state(game.board)
    members = chouette_members(game, EIGHT)
    english = chouette_image(view, box="B", captain="C", members=members)
    arabic = {
        "chouette_box": "الصندوق",
        "chouette_captain": "القائد",
        "chouette_acting": "القائد بالنيابة",
        "chouette_out": "خارج اللعب",
    }
    translated = chouette_image(view, box="B", captain="C", members=members, labels=arabic)
    assert translated.size == english.size
    assert difference(english, translated)[1] > 0.0005


def test_bad_lines_are_refused() -> None:
    with pytest.raises(ValueError, match="owner"):
        MemberCubeView("Anna", 2, "nobody")
    with pytest.raises(ValueError, match="value"):
        MemberCubeView("Anna", 0)
    with pytest.raises(ValueError, match="offered"):
        MemberCubeView("Anna", offered_by="captain")
    assert MemberCubeView("Anna", 2, CubeOwner.MEMBER).owner == "member"
    game, _last = four_members_game()
    view = BoardView.from_state(game.board)
    two_acting = (MemberCubeView("A", acting=True), MemberCubeView("B", acting=True))
    with pytest.raises(ValueError, match="at most one"):
        chouette_image(view, box="B", captain="A", members=two_acting)
    with pytest.raises(ValueError, match="perspective"):
        render_chouette(view, box="B", captain="A", members=two_acting[:1], perspective=2)
