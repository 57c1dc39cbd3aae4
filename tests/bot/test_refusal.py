"""A refusal raised anywhere in a service is said privately to the asker, in their language,
and leaves the match as it was."""

from __future__ import annotations

from tests.bot.scripted import Room


async def test_a_command_on_no_match_is_refused_privately(room: Room) -> None:
    for command in ("/roll", "/move 13/10 6/5", "/board", "/hint", "/resign"):
        answer = await room.command("anna", command)
        assert len(answer) == 1, command
        assert answer[0].private_to == "anna", command
        assert answer[0].text == "You have no match in this chat. Start one with /challenge."


async def test_the_refusal_is_in_the_askers_language(room: Room) -> None:
    await room.command("anna", "/language de")
    (answer,) = await room.command("anna", "/board")
    assert answer.private_to == "anna"
    assert "/challenge" in answer.text
    assert answer.text != "You have no match in this chat. Start one with /challenge."
