"""A chouette's first moves through the console protocol: NAME: TEXT lines, buttons by label."""

from __future__ import annotations

import hashlib
import io
import random
import re

from bot.console_app.chat import ConsoleChat
from gammon.flow import Phase
from storage import LoadedChouette
from tests.bot.scripted import Room


async def _loaded(chat: ConsoleChat) -> LoadedChouette:
    found = await chat.core.ports.repositories.chats.find_chat("console", "main")
    assert found is not None
    loaded = await chat.core.ports.repositories.chouettes.active_for_chat(found.id)
    assert loaded is not None
    return loaded


async def test_a_chouette_is_opened_seated_and_played_in_the_console(room: Room) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output)
    for line in (
        "ann: /chouette",
        "bob: /chouette join",
        "cy: /chouette join",
        "cy: /chouette start",
    ):
        await chat.line(line)
    text = output.getvalue()
    assert "ann opens a chouette table" in text
    assert "Seating dice:" in text
    assert "Opening roll:" in text
    assert "Chouette, game 1" in text
    by_id = {
        (
            await chat.core.ports.repositories.users.upsert_user("console", name, name.title())
        ).id: name
        for name in ("ann", "bob", "cy")
    }
    for _turn in range(6):  # the opening play, then rolls and plays
        loaded = await _loaded(chat)
        game = loaded.game
        assert game is not None
        board = game.board
        player = game.table.box if board.player_on_roll == 0 else game.acting_captain
        name = by_id[int(player or "0")]
        before = len(output.getvalue())
        if board.phase is Phase.ROLLING:
            await chat.line(f"{name}: [Roll]")
        else:
            await chat.line(f"{name}: /move {board.legal_plays()[0]}")
        printed = output.getvalue()[before:]
        assert "Chouette, game 1" in printed or "cannot move" in printed, printed
    assert (await _loaded(chat)).info.version > 2
    await chat.line("bob: /chouette score")
    assert "Games played: 0. Scores: no game finished yet." in output.getvalue()


async def test_a_move_typed_in_a_private_console_chat_is_played_at_the_chouette(
    room: Room,
) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output)
    for line in (
        "ann: /chouette",
        "bob: /chouette join",
        "cy: /chouette join",
        "cy: /chouette start",
    ):
        await chat.line(line)
    loaded = await _loaded(chat)
    game = loaded.game
    assert game is not None
    assert game.board.phase is Phase.MOVING  # the opening roll is played at once
    by_id = {
        (
            await chat.core.ports.repositories.users.upsert_user("console", name, name.title())
        ).id: name
        for name in ("ann", "bob", "cy")
    }
    player = game.table.box if game.board.player_on_roll == 0 else game.acting_captain
    name = by_id[int(player or "0")]
    before = len(output.getvalue())
    await chat.line(f"#@{name} {name}: {game.board.legal_plays()[0]}")
    printed = output.getvalue()[before:]
    assert "[bot → #main]" in printed
    assert "Chouette, game 1" in printed
    receipt = f"[bot → only {name}]\nDone in chouette #c{loaded.info.id}: the board is in its chat."
    assert receipt in printed
    assert (await _loaded(chat)).info.version > loaded.info.version


class Table:
    """Four console players at one chouette, acting by typed lines and pressed buttons; what
    the game allows is read from the repository, as chouette_play_helpers does."""

    def __init__(self, chat: ConsoleChat, output: io.StringIO, people: dict[int, str]) -> None:
        self.chat = chat
        self.output = output
        self.people = people  # user id → console name
        self.rng = random.Random(21)

    def name(self, player: str | int | None) -> str:
        return self.people[int(player or "0")]

    async def say(self, name: str, text: str) -> str:
        """One input line; what the console printed for it, which is no refusal."""
        before = len(self.output.getvalue())
        await self.chat.line(f"{name}: {text}")
        printed = self.output.getvalue()[before:]
        assert not printed.startswith("?"), printed  # e.g. "? no [Roll] button here"
        assert "[bot → only" not in printed, printed  # refusals are private
        return printed

    async def play_until(self, side: int | None) -> str:
        """Roll (by the [Roll] button) and move (by /move, a legal play) until ``side`` (0 the
        box, 1 the team) is about to roll, or with ``None`` until the game ends; everything
        printed meanwhile."""
        loaded = await _loaded(self.chat)
        number = loaded.info.game_number
        printed: list[str] = []
        for _step in range(2000):
            loaded = await _loaded(self.chat)
            game = loaded.game
            if loaded.info.game_number != number or game is None or game.finished:
                assert side is None, "the game ended early"
                return "".join(printed)
            board = game.board
            if side is not None and board.phase is Phase.ROLLING and board.player_on_roll == side:
                return "".join(printed)
            mover = self.name(game.table.box if board.player_on_roll == 0 else game.acting_captain)
            if board.phase is Phase.ROLLING:
                printed.append(await self.say(mover, "[Roll]"))
            else:
                assert board.phase is Phase.MOVING, board.phase
                play = self.rng.choice(board.legal_plays())
                printed.append(await self.say(mover, f"/move {play}"))
        raise AssertionError("the game did not end")


def _points(text: str, label: str) -> dict[str, int]:
    """``This game: ann +2, bob −1`` (or ``Scores: ann +2 · bob −1``) as numbers by name."""
    found = re.search(rf"(?:^|\s){label}: (.*)$", text, re.MULTILINE)
    assert found is not None, text
    return {
        name: int(value.replace("−", "-"))
        for name, value in re.findall(r"(\S+) ([+−]?\d+)", found.group(1))
    }


async def test_a_whole_chouette_session_is_played_in_the_console(room: Room) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output)
    chat.session = "chouette-session-"  # the same event ids, so the same seating every run
    people = {
        (await room.stores.users.upsert_user("console", name, name)).id: name
        for name in ("ann", "bob", "cy", "dee")
    }
    table = Table(chat, output, people)
    opened = await table.say("ann", "/chouette")
    commitment = re.search(r"Dice commitment: ([0-9a-f]{64})", opened)
    assert commitment is not None, opened
    for name in ("bob", "cy", "dee"):
        assert f"{name} sits down" in (await table.say(name, "/chouette join")).lower()
    started = await table.say("dee", "/chouette start")
    assert "Seating dice:" in started
    assert "Chouette, game 1" in started
    order = [table.name(seat) for seat in (await _loaded(chat)).info.seats]
    assert sorted(order) == ["ann", "bob", "cy", "dee"]
    box, captain, second, third = order
    assert f"Box: {box} · captain: {captain} · then: {second}, {third}" in started

    # Game 1: the box doubles everyone at its turn; the captain drops, so the box has beaten
    # the captain whatever happens next; the second takes, the third drops. The second,
    # first in line still in the game, plays the team's checkers to the board's end.
    await table.play_until(0)
    doubled = await table.say(box, "[Double all]")
    assert f"{box} (box) doubles" in doubled
    assert "[Take] [Drop]" in doubled
    assert f"{captain} drops the box's double and pays 1." in await table.say(captain, "[Drop]")
    await table.say(second, "[Take]")
    await table.say(third, "[Drop]")
    game = (await _loaded(chat)).game
    assert game is not None
    assert table.name(game.acting_captain) == second
    assert [(cube.value, cube.live) for cube in game.cubes] == [(1, False), (2, True), (1, False)]
    printed = await table.play_until(None)
    first = _points(printed, "This game")
    assert first[captain] == -1
    assert first[third] == -1
    assert first[second] in (2, 4, 6, -2, -4, -6)  # the cube at 2: single, gammon, backgammon
    assert first[box] == -(first[second] - 2)
    assert sum(first.values()) == 0
    loaded = await _loaded(chat)
    # The box beat the captain: the box stays, the captain goes to the end of the line.
    assert [table.name(seat) for seat in loaded.info.seats] == [box, second, third, captain]
    assert loaded.info.game_number == 2
    assert "Chouette, game 2" in printed

    # Game 2: the new captain doubles the box and the box drops: the captain has won, so
    # whatever the others do, the captain becomes the box and the old box goes to the end.
    box, captain, second, third = box, second, third, captain
    await table.play_until(1)
    offer = await table.say(captain, "[Double the box]")
    assert f"[Take {captain}] [Drop {captain}]" in offer
    assert f"[Drop {captain}]" in offer
    await table.say(box, f"[Drop {captain}]")
    printed = await table.play_until(None)
    second_game = _points(printed, "This game")
    assert second_game[captain] == 1
    assert second_game[second] == second_game[third] != 0  # both cubes at 1, the same result
    assert second_game[box] == -1 - 2 * second_game[second]
    loaded = await _loaded(chat)
    assert [table.name(seat) for seat in loaded.info.seats] == [captain, second, third, box]
    assert loaded.info.game_number == 3

    # The running score adds the two games up and is zero-sum.
    score = await table.say("cy", "/chouette score")
    assert "Games played: 2." in score
    totals = _points(score, "Scores")
    expected = {name: first[name] + second_game[name] for name in people.values()}
    assert totals == expected
    assert sum(totals.values()) == 0

    # The host ends the session (game 3 has started: asked first): the seed behind every
    # die, committed to at the opening.
    before = len(output.getvalue())
    await chat.line("ann: /chouette end")
    assert "[End the session] [Keep playing]" in output.getvalue()[before:]
    ended = await table.say("ann", "[End the session]")
    assert "The chouette is over. Games played: 2." in ended
    assert _points(ended, "Scores") == expected
    seed = re.search(
        r"server seed ([0-9a-f]+) with the client seed \S+; the server seed's SHA-256 is the "
        r"commitment ([0-9a-f]+)",
        ended,
    )
    assert seed is not None, ended
    assert seed.group(2) == commitment.group(1)
    assert hashlib.sha256(bytes.fromhex(seed.group(1))).hexdigest() == commitment.group(1)


async def test_doubles_are_answered_by_typed_commands_in_the_console(room: Room) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output)
    chat.session = "typed-answers-"  # the same event ids, so the same seating every run
    people = {
        (await room.stores.users.upsert_user("console", name, name)).id: name
        for name in ("ann", "bob", "cy", "dee")
    }
    table = Table(chat, output, people)
    await table.say("ann", "/chouette")
    for name in ("bob", "cy", "dee"):
        await table.say(name, "/chouette join")
    await table.say("dee", "/chouette start")
    box, captain, second, third = (table.name(seat) for seat in (await _loaded(chat)).info.seats)

    # The box doubles everyone; each member types the answer for their own cube.
    await table.play_until(0)
    assert f"{box} (box) doubles {captain}, {second}, {third}." in await table.say(box, "/double")
    taken = await table.say(captain, "/take")
    assert f"{captain} takes the box's double: their cube is at 2." in taken
    assert f"{second} drops the box's double and pays 1." in await table.say(second, "/drop")
    assert f"{third} takes the box's double" in await table.say(third, "/take")

    # Two members redouble the box; its bare /take is refused with both names, then it
    # answers each by name: a mention, and a name typed as it is.
    await table.play_until(1)
    await table.say(captain, "/double")
    await table.say(third, "/double")
    before = len(output.getvalue())
    await chat.line(f"{box}: /take")
    refused = output.getvalue()[before:]
    assert f"[bot → only {box}]" in refused
    assert (
        f"Several doubles wait for you: {captain}, {third}. Answer one with /take NAME." in refused
    )
    taken = await table.say(box, f"/take @{captain}")
    assert f"{box} (box) takes {captain}'s double: that cube is at 4." in taken
    assert f"{box} (box) drops {third}'s double and pays 2." in await table.say(
        box, f"/drop {third}"
    )
    game = (await _loaded(chat)).game
    assert game is not None
    assert [(cube.value, cube.live) for cube in game.cubes] == [(4, True), (1, False), (2, False)]
