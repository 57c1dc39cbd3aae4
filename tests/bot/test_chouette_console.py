"""A chouette's first moves through the console protocol: NAME: TEXT lines, buttons by label."""

from __future__ import annotations

import io

from bot.console_app.chat import ConsoleChat
from gammon.flow import Phase
from storage import LoadedChouette
from tests.bot.scripted import Room


async def _loaded(chat: ConsoleChat) -> LoadedChouette:
    found = await chat.core.chats.find_chat("console", "main")
    assert found is not None
    loaded = await chat.core.chouettes.active_for_chat(found.id)
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
        (await chat.core.users.upsert_user("console", name, name.title())).id: name
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
