"""A tournament's page as served (``/t/<slug>``): the bracket with each started match linked to
its page, the winner of each box marked, hostile names escaped, the language chosen as the
match pages choose it; the chat's messages point to it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.core.model import Message
from tests.bot.scripted import PLATFORM, play_to_the_end
from tests.databases import sqlite_copy
from tests.web.html_parts import parts
from tests.web.served import Site, serving

EVIL = "<script>alert(1)</script>"
BRACKET_LINE = re.compile(r"Full bracket: http://127\.0\.0\.1(/t/[A-Za-z0-9_-]{22})")


@pytest.fixture
async def site(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Site]:
    url = sqlite_copy(migrated_sqlite, tmp_path / "web.db")
    async with serving(url) as (room, server), aiohttp.ClientSession() as session:
        yield Site(room, server, session)


def _text(answer: list[Message]) -> str:
    return "\n".join(message.text for message in answer)


async def _opened(site: Site, name: str = "Club cup") -> str:
    """A knockout of four opened and joined by Ann, Cy, Dee and Eve (seeded in that order):
    its page's path, as the registration message gives it."""
    room = site.room
    opened = _text(await room.command("ann", f'/tournament new single 1 "{name}"', admin=True))
    for player in ("cy", "dee", "eve"):
        await room.command(player, "/tournament join")
    found = BRACKET_LINE.search(opened)
    assert found is not None, opened
    return found[1]


async def _semifinals(site: Site) -> tuple[str, str]:
    """The tournament started: the first semifinal (Ann vs Eve) played to its end, the second
    (Cy vs Dee) begun; the match pages of the two, in that order."""
    room = site.room
    await room.command("ann", "/tournament start")
    first, second = [m for m in room.log if any(b.label == "Start" for b in m.buttons)][:2]
    await room.send("eve", token=first.buttons[0].token)
    await play_to_the_end(room, ("ann", "eve"), seed=3)
    await room.send("dee", token=second.buttons[0].token)
    (tournament,) = await room.stores.tournaments.live_in_chat(1)
    snapshot = await room.stores.tournaments.snapshot(tournament.id)
    played = {match.slot: match.match_id for match in snapshot.matches}
    slugs = []
    for slot in ("main-1-1", "main-1-2"):
        match_id = played[slot]
        assert match_id is not None
        slugs.append((await room.stores.matches.match_info(match_id)).slug)
    return f"/m/{slugs[0]}", f"/m/{slugs[1]}"


def _box(html: str, slot: str) -> str:
    found = re.search(rf'<div class="box" data-slot="{slot}" (.*?)\n</div>', html, re.S)
    assert found is not None, slot
    return found[0]


async def test_the_chat_points_to_the_page_which_lists_who_registered(site: Site) -> None:
    path = await _opened(site)
    status, html, headers = await site.get(f"{path}?lang=en")
    assert status == 200
    assert "<h1>Club cup</h1>" in html
    assert "Registered (4): " in html
    for name in ("Ann", "Cy", "Dee", "Eve"):
        assert f"\u2068{name}\u2069" in html
    assert headers["Content-Security-Policy"].startswith("default-src 'none'; script-src 'none';")
    shown = _text(await site.room.command("cy", "/tournament"))
    assert f"Full bracket: http://127.0.0.1{path}" in shown


async def test_the_bracket_links_each_started_match_and_marks_the_winner(site: Site) -> None:
    path = await _opened(site)
    first_page, second_page = await _semifinals(site)
    status, html, _headers = await site.get(f"{path}?lang=en")
    assert status == 200
    assert re.findall(r"<h4>([^<]*)</h4>", html) == ["Round 1", "Round 2"]
    assert parts(html).scripts == []

    played = _box(html, "main-1-1")
    assert 'data-state="done"' in played
    assert f'<a class="match-link" href="{first_page}?lang=en">semifinal 1</a>' in played
    names = re.findall(r'<li class="(winner|player)"><span class="name">(\w+)</span>', played)
    assert [name for _, name in names] == ["Ann", "Eve"]  # seed 1 first
    assert sorted(marked for marked, _ in names) == ["player", "winner"]
    winner_side = 0 if names[0][0] == "winner" else 1
    scores = re.findall(r'<span class="score num">(\d+)</span>', played)
    assert int(scores[winner_side]) in (1, 2, 3)  # a 1-point match: a single game, gammon...
    assert scores[1 - winner_side] == "0"

    playing = _box(html, "main-1-2")
    assert 'data-state="in-play"' in playing
    assert f'<a class="match-link" href="{second_page}?lang=en">semifinal 2</a>' in playing
    assert "in play" in playing
    assert 'class="winner"' not in playing

    final = _box(html, "main-2-1")
    assert 'data-state="waiting"' in final
    assert "<a " not in final  # no match yet
    assert f'<span class="name">{names[winner_side][1]}</span>' in final
    assert '<span class="name">—</span>' in final

    shown = _text(await site.room.command("cy", "/tournament"))  # the pairings, running
    assert shown.endswith(f"Full bracket: http://127.0.0.1{path}")

    linked_status, linked, _headers = await site.get(f"{second_page}?lang=en")
    assert linked_status == 200
    assert "Cy" in linked
    assert "Dee" in linked


async def test_an_unknown_address_is_not_found(site: Site) -> None:
    await _opened(site)
    status, text, _headers = await site.get("/t/AAAAAAAAAAAAAAAAAAAAAA?lang=en")
    assert status == 404
    assert "There is nothing at this address." in text
    status, _page, _headers = await site.get("/t/short")
    assert status == 404


async def test_hostile_names_are_escaped(site: Site) -> None:
    path = await _opened(site, name=EVIL)
    await _semifinals(site)
    await site.room.stores.users.upsert_user(PLATFORM, "eve", EVIL)
    _status, html, _headers = await site.get(f"{path}?lang=en")
    assert EVIL not in html
    assert "<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>" in html
    assert '<span class="name">&lt;script&gt;alert(1)&lt;/script&gt;</span>' in html
    assert parts(html).scripts == []


async def test_the_page_speaks_the_language_asked_or_the_browsers(site: Site) -> None:
    path = await _opened(site)
    await _semifinals(site)
    _status, asked, _headers = await site.get(f"{path}?lang=de")
    assert '<html lang="de" dir="ltr">' in asked
    assert "<h4>Runde 1</h4>" in asked
    assert re.search(r'href="/m/[A-Za-z0-9_-]+\?lang=de"', asked)  # links keep the language
    _status, browser, _headers = await site.get(path, **{"Accept-Language": "ru-RU,ru;q=0.9"})
    assert '<html lang="ru" dir="ltr">' in browser
    assert "<h4>Раунд 1</h4>" in browser
    _status, arabic, _headers = await site.get(f"{path}?lang=ar", **{"Accept-Language": "de"})
    assert '<html lang="ar" dir="rtl">' in arabic
    _status, unknown, _headers = await site.get(f"{path}?lang=xx")
    assert '<html lang="en" dir="ltr">' in unknown
    assert "<h4>Round 1</h4>" in unknown


async def test_a_round_robin_shows_its_table(site: Site) -> None:
    room = site.room
    opened = _text(await room.command("ann", '/tournament new roundrobin 1 "Trio"', admin=True))
    for player in ("cy", "dee"):
        await room.command(player, "/tournament join")
    found = BRACKET_LINE.search(opened)
    assert found is not None, opened
    await room.command("ann", "/tournament start")
    _status, html, _headers = await site.get(f"{found[1]}?lang=en")
    assert "<h2>Table</h2>" in html
    rows = re.findall(r"<tr><td class=\"num\">(\d+)</td><td>(\w+)</td>(.*?)</tr>", html)
    assert sorted(name for _rank, name, _rest in rows) == ["Ann", "Cy", "Dee"]
    for _rank, _name, rest in rows:  # nothing played yet: no points, no wins, no difference
        assert rest == '<td class="num">0</td><td class="num">0–0</td><td class="num">+0</td>'
    assert "Buchholz" not in html  # a Swiss table's column only
    assert len(re.findall(r'<div class="box" data-slot="group-', html)) == 3  # each pair once


async def test_a_consolation_is_promised_from_eight_players_and_not_named_for_four(
    site: Site,
) -> None:
    room = site.room
    command = '/tournament new single consolation=3 lastchance=1 5 "Small cup"'
    opened = _text(await room.command("ann", command, admin=True))
    # Registration: the field is not known yet, so the side brackets come with their minimum.
    assert (
        "Small cup: single elimination, consolation to 3 (with 8 players or more), "
        "last chance to 1" in opened
    )
    found = BRACKET_LINE.search(opened)
    assert found is not None, opened
    for player in ("cy", "dee", "eve"):
        await room.command(player, "/tournament join")
    await room.command("ann", "/tournament start")
    # Four players have no consolation and no last chance: neither is named any more.
    shown = _text(await room.command("cy", "/tournament"))
    assert "Small cup: single elimination\n" in shown
    status, html, _headers = await site.get(f"{found[1]}?lang=en")
    assert status == 200
    assert '<p class="lead">single elimination</p>' in html
