"""A chouette's dice, checkable as a match's are: the commitment at the opening, the client seed
at the start, and at the end the seed, the transcript (``gammonbot verify``) and the check page;
``/verify`` at the chouette answers for it, and nothing shows the seed before the end.

The transcript is checked against what the chat showed: the seating dice (ties re-rolled), each
opening roll and each roll, in the order they were rolled."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from bot.cli import main
from bot.core.chouette.check import complete
from bot.core.model import Message
from gammon.fair_dice import FairDice
from gammon.flow import Phase
from storage import ChouetteRoll, RollKind
from tests.bot.chouette_play_helpers import current, name_of, open_and_start
from tests.bot.scripted import Room

HEX = re.compile(r"\b[0-9a-f]{64}\b")
# The seating of six, as the chat shows it with these test dice (test_chouette_session).
SEATING = (
    "Seating dice: Ann 3, Bob 2, Cy 3, Dee 5, Eve 5, Fay 3; re-roll for a tie: Ann 5, Cy 4, "
    "Fay 4; re-roll for a tie: Dee 2, Eve 3; re-roll for a tie: Cy 6, Fay 1."
)


def file_of(messages: list[Message], suffix: str) -> bytes:
    found = [a.data for m in messages for a in m.attachments if a.filename.endswith(suffix)]
    assert len(found) == 1, [a.filename for m in messages for a in m.attachments]
    return found[0]


async def test_the_client_seed_is_shown_when_the_first_game_starts(room: Room) -> None:
    await open_and_start(room, "ann", "bob", "cy")  # the fourth message, e4, starts it
    seating = next(message for message in room.log if message.text.startswith("Seating dice"))
    assert seating.text.splitlines()[1] == "Client seed of the dice: test:e4"


async def test_verify_at_a_chouette_before_and_after_its_end(room: Room) -> None:
    opened = await room.command("ann", "/chouette")
    commitment = HEX.search(opened[0].text)
    assert commitment is not None
    await room.command("bob", "/chouette join")
    early = await room.command("cy", "/verify")  # Cy does not even sit at it: the dice are public
    assert [message.private_to for message in early] == ["cy"]
    assert early[0].text == (
        f"Chouette #c1 has not rolled yet. Its dice commitment is {commitment.group(0)}; its "
        "client seed is fixed when the first game starts, and the server seed is revealed "
        "when the session ends."
    )
    await room.command("cy", "/chouette join")
    await room.command("cy", "/chouette start")  # the client seed: test:e5
    during = await room.command("bob", "/verify")
    assert during[0].text == (
        f"Chouette #c1 is still being played. Its dice commitment is {commitment.group(0)} and "
        "its client seed test:e5; the server seed is revealed when the session ends."
    )
    assert during[0].attachments == ()
    await room.command("ann", "/chouette end")
    ended = await room.press("ann", "End the session")
    seed = json.loads(file_of(ended, "-transcript.json"))["server_seed"]
    before = room.log[: room.log.index(ended[0])]
    assert all(seed not in message.text for message in before)  # never shown before the end
    assert all(not message.attachments for message in before)

    after = await room.command("bob", "/verify")
    assert [message.private_to for message in after] == ["bob"]
    assert after[0].text.splitlines()[0] == "The dice of chouette #c1."
    assert seed in after[0].text
    assert file_of(after, "-transcript.json") == file_of(ended, "-transcript.json")
    page = file_of(after, "chouette-1-check.html").decode()
    assert "Dice check of chouette 1" in page
    assert seed in page


async def test_a_match_of_the_caller_still_answers_verify_first(room: Room) -> None:
    await room.command("ann", "/chouette")
    await room.command("ann", "/challenge @dee 1")
    await room.press("dee", "Accept")
    answer = await room.command("ann", "/verify")
    assert answer[0].text.startswith("Match ")  # Ann's match in this chat, being played
    other = await room.command("bob", "/verify")
    assert other[0].text.startswith("Chouette #c1 has not rolled yet.")


def _events(text: str, rolled: bool) -> list[tuple[str, tuple[int, int]]]:
    """The dice an answer showed, in its order: each opening roll (the box's die, then the
    captain's) and, for a /roll, the roll (high die first, as the chat writes it)."""
    found: list[tuple[str, tuple[int, int]]] = [
        ("opening", (int(box), int(captain)))
        for box, captain in re.findall(r"Opening roll: \S+ (\d), \S+ (\d)\.", text)
    ]
    roll = re.search(r"rolled (\d)-(\d)", text) if rolled else None
    if roll is not None:
        found.append(("roll", (int(roll.group(1)), int(roll.group(2)))))
    return found


async def test_the_transcript_holds_every_die_shown_in_the_order_it_was_rolled(
    room: Room, tmp_path: Path
) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", "dee", "eve", "fay")
    seating = next(message.text for message in room.log if message.text.startswith("Seating"))
    assert seating.splitlines()[0] == SEATING
    seated = [int(die) for die in re.findall(r"\S+ (\d)", SEATING)]
    shown = [event for message in room.log for event in _events(message.text, False)]
    for _step in range(60):  # rolls and plays, across the end of a game when it comes
        game = (await current(room)).game
        assert game is not None
        board = game.board
        mover = name_of(
            people, game.table.box if board.player_on_roll == 0 else game.acting_captain or ""
        )
        rolling = board.phase is Phase.ROLLING
        command = "/roll" if rolling else f"/move {board.legal_plays()[0]}"
        answer = await room.command(mover, command)
        shown += _events("\n".join(message.text for message in answer), rolling)
    await room.command("ann", "/chouette end")
    ended = await room.press("ann", "End the session")

    data = json.loads(file_of(ended, "chouette-1-transcript.json"))
    assert data["client_seed"] == "test:e7"
    rolls = [tuple(pair) for pair in data["rolls"]]
    kinds = [event["kind"] for event in data["dice_events"]]
    assert [first for first, _second in rolls[: len(seated)]] == seated
    assert kinds[: len(seated)] == ["seating"] * len(seated)
    after = rolls[len(seated) :]
    assert len(after) == len(shown)
    for (kind, dice), recorded, recorded_kind in zip(
        shown, after, kinds[len(seated) :], strict=True
    ):
        assert recorded_kind == kind
        assert (recorded if kind == "opening" else tuple(sorted(recorded, reverse=True))) == dice
    assert [event["nonce"] for event in data["dice_events"]] == list(range(len(rolls)))

    path = tmp_path / "transcript.json"
    path.write_bytes(file_of(ended, "-transcript.json"))
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert (result.exit_code, result.output.strip()) == (0, f"OK: {len(rolls)} rolls verified")


def test_seating_dice_a_session_did_not_keep_are_drawn_from_the_revealed_seed() -> None:
    """Sessions started before the seating dice were kept: their first nonces come from the
    seed, so the transcript still starts at nonce 0."""
    dice = FairDice(bytes(range(32)), "old:seed")
    kept = [ChouetteRoll(2, 1, RollKind.OPENING, (1, 2), dice.roll(2))]
    filled = complete(kept, 3, dice)
    assert [(roll.nonce, roll.kind, roll.dice) for roll in filled] == [
        (0, RollKind.SEATING, dice.roll(0)),
        (1, RollKind.SEATING, dice.roll(1)),
        (2, RollKind.OPENING, dice.roll(2)),
    ]
