"""Bad input around the bot, hints and analyses gets a clear refusal that names the reason."""

from __future__ import annotations

from tests.bot.scripted import Room, headline


async def test_play_refuses_an_unknown_level_and_a_length_out_of_range(room: Room) -> None:
    for text, word in (
        ("/play level=foo", "level=foo"),
        ("/play 99", "99"),
        ("/play 5 fast", "fast"),
    ):
        answer = await room.command("anna", text)
        assert len(answer) == 1
        assert answer[0].private_to == "anna"
        assert f"“\u2068{word}\u2069”" in answer[0].text  # the player's word, isolated
        assert "world_class" in answer[0].text  # the levels are named
    assert await room.match_of("anna") is None


async def test_play_refuses_a_time_limit(room: Room) -> None:
    answer = await room.command("anna", "/play 3 time=24h")
    assert "no time limit" in answer[0].text
    assert await room.match_of("anna") is None


async def test_a_level_is_refused_in_a_challenge_to_a_person(room: Room) -> None:
    answer = await room.command("anna", "/challenge @bob 3 expert")
    assert answer[0].private_to == "anna"
    assert "Levels are for matches against the bot" in answer[0].text


async def test_hint_outside_a_match_is_refused(room: Room) -> None:
    answer = await room.command("anna", "/hint")
    assert answer[0].private_to == "anna"
    assert "no match in this chat" in answer[0].text


async def test_hint_in_a_match_between_people_without_the_option_is_refused(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    for name in ("anna", "bob"):
        answer = await room.command(name, "/hint")
        assert answer[0].private_to == name
        assert "challenge allowed them" in answer[0].text


async def test_the_hints_option_is_shown_with_the_challenge(room: Room) -> None:
    offer = await room.command("anna", "/challenge @bob 3 hints")
    assert "hints allowed" in offer[0].text
    await room.press("bob", "Accept")
    loaded = await room.match_of("anna")
    assert loaded is not None
    assert loaded.info.hints


async def test_hint_is_only_for_the_own_decision(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3 hints")
    started = await room.press("bob", "Accept")
    waiting = "anna" if headline(started[-1]).startswith("Bob to play") else "bob"
    answer = await room.command(waiting, "/hint")
    assert answer[0].private_to == waiting
    assert "wait until it is your turn" in answer[0].text


async def test_analysis_refusals_name_the_reason(room: Room) -> None:
    none_yet = await room.command("anna", "/analysis")
    assert "no finished match" in none_yet[0].text
    garbage = await room.command("anna", "/analysis twelve")
    assert "/analysis 12" in garbage[0].text
    unknown = await room.command("anna", "/analysis 4711")
    assert "no finished match of yours with that number in this chat" in unknown[0].text
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    loaded = await room.match_of("anna")
    assert loaded is not None
    running = await room.command("anna", f"/analysis {loaded.info.id}")
    assert "not finished yet" in running[0].text


async def test_another_chats_match_stays_hidden(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    loaded = await room.match_of("anna")
    assert loaded is not None
    other = Room(room.core, room.chat.__class__(room.chat.platform, "group-2"))
    answer = await other.command("carl", f"/analysis {loaded.info.id}")
    assert "no finished match of yours with that number in this chat" in answer[0].text
