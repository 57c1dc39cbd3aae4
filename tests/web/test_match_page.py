"""The match page as served: the last position, each game's replay, the analysis with its
numbered errors and their IDs, and the .mat file to download."""

from __future__ import annotations

import dataclasses
import html as html_text
import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from PIL import Image

from bot.core.info.replays import ReplayFrames
from bot.core.model import ChatRef
from engine.api import MatchAnalysis, PlayerAnalysis
from engine.records import analysis_to_json
from gammon.mat_format import read_mat
from tests.bot.scripted import PLATFORM, Room, play_to_the_end
from tests.bot.test_analysis_text import ANALYSIS
from tests.databases import sqlite_copy
from tests.web.html_parts import parts
from tests.web.served import Site, serving

EVIL = "<script>alert(1)</script>"


@pytest.fixture
async def site(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Site]:
    url = sqlite_copy(migrated_sqlite, tmp_path / "web.db")
    async with serving(url) as (room, server), aiohttp.ClientSession() as session:
        yield Site(room, server, session)


async def analysed(site: Site, analysis: MatchAnalysis = ANALYSIS, match_id: int = 1) -> None:
    """Store ``analysis`` as the finished analysis of the ended match ``match_id``."""
    analyses = site.room.stores.analyses
    assert await analyses.claim(match_id, "expert")
    await analyses.store(match_id, analysis_to_json(analysis), site.room.core.clock())


async def fetch(site: Site, path: str) -> tuple[int, bytes, dict[str, str]]:
    async with site.session.get(site.base + path) as response:
        return response.status, await response.read(), dict(response.headers)


async def png_at(site: Site, path: str) -> Image.Image:
    status, body, headers = await fetch(site, path)
    assert status == 200, path
    assert headers["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(body))


async def test_while_playing_the_page_shows_the_position_now(site: Site) -> None:
    slug = await site.slug()
    _status, html, headers = await site.get(f"/m/{slug}?lang=en")
    assert "Position now" in html
    board = re.search(rf'<img src="(/m/{slug}/replay/1/(\d+)\.png\?lang=en)" alt="([^"]*)"', html)
    assert board is not None
    assert board[2] == "0"  # the opening roll is all there is so far
    assert board[3].startswith("Opening roll: Anna ")
    assert (await png_at(site, board[1])).width > 300
    assert "img-src 'self' data:" in headers["Content-Security-Policy"]
    assert parts(html).scripts == []
    assert 'id="analysis"' not in html  # nothing to analyse yet


async def test_after_the_end_the_page_has_everything(site: Site) -> None:
    await play_to_the_end(site.room, ("anna", "bob"), seed=7)
    slug = await site.slug()
    _status, html, _headers = await site.get(f"/m/{slug}?lang=en")
    assert "Final position" in html
    games = await ReplayFrames(site.room.stores.matches).games(
        await site.room.stores.matches.match_info(1)
    )
    last = len(games[-1].frames) - 1
    assert f'src="/m/{slug}/replay/{len(games)}/{last}.png?lang=en"' in html
    assert f'href="/m/{slug}/replay?lang=en&amp;game=1"' in html  # the game's own replay
    assert 'href="/m/' + slug + '/match.mat" download' in html
    # Ended, but not analysed yet: the page says the analysis is on its way.
    assert "its analysis appears here when ready" in html

    await analysed(site)
    _status, html, _headers = await site.get(f"/m/{slug}?lang=en")
    assert "its analysis appears here when ready" not in html
    text = " ".join(parts(html).text)
    assert "Analysed at level expert." in text
    assert "checker play −0.276 in 10 decisions" in text
    assert "cube −0.037 in 1 decision" in text
    assert "luck −0.346" in text
    # The errors, numbered as the chart's markers, each with the IDs of its moment.
    numbered = re.findall(r'<li value="(\d+)" id="error-\1">', html)
    assert numbered == ["1", "2", "3"]
    assert "game 1, move 1, 3-1: played 24/23 13/10, best 8/5 6/5 (−0.226)" in text
    assert "<code>mGfwATDgc/ABMA</code>" in html
    assert "<code>cImlAAAAAAAE</code>" in html
    assert "0.000" not in text
    chart = re.search(r'<img id="analysis-chart" src="([^"]+)" alt="([^"]*)"', html)
    assert chart is not None
    assert html_text.unescape(chart[2]) == "Anna's chance to win the match"
    picture = await png_at(site, chart[1].replace("&amp;", "&"))
    assert picture.size == (900, 420)


async def test_the_mat_file_downloads(site: Site) -> None:
    slug = await site.slug()
    status, body, headers = await fetch(site, f"/m/{slug}/match.mat")
    assert status == 200
    assert headers["Content-Disposition"] == 'attachment; filename="match-1.mat"'
    assert headers["Content-Type"] == "text/plain; charset=utf-8"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert await site.seed() not in body.decode()
    await play_to_the_end(site.room, ("anna", "bob"), seed=7)
    _status, body, _headers = await fetch(site, f"/m/{slug}/match.mat")
    record = read_mat(body.decode())  # GNU Backgammon's format, read back
    assert record.names == ("Anna", "Bob")
    assert record.rules.length == 1
    history = await site.room.stores.matches.history(1)
    assert len(record.actions) <= len(history)


async def test_a_money_game_has_no_mat_file(site: Site) -> None:
    room = Room(site.room.core, ChatRef(PLATFORM, "group-2"))
    await room.command("carl", "/challenge @dora money")
    await room.press("dora", "Accept")
    slug = (await site.room.stores.matches.match_info(2)).slug
    _status, html, _headers = await site.get(f"/m/{slug}")
    assert "match.mat" not in html
    status, _body, _headers = await fetch(site, f"/m/{slug}/match.mat")
    assert status == 404


async def test_the_replay_opens_at_the_game_asked_for(site: Site) -> None:
    room = Room(site.room.core, ChatRef(PLATFORM, "group-2"))
    await room.command("carl", "/challenge @dora 5 nocube")
    await room.press("dora", "Accept")
    await play_to_the_end(room, ("carl", "dora"), seed=3)
    info = await site.room.stores.matches.match_info(2)
    games = await ReplayFrames(site.room.stores.matches).games(info)
    assert len(games) >= 2  # without a cube a game is worth 3 points at most
    _status, html, _headers = await site.get(f"/m/{info.slug}/replay?lang=en&game=2")
    assert f'src="/m/{info.slug}/replay/2/0.png?lang=en"' in html
    assert '<option value="1" selected>' in html
    assert 'data-game="1"' in html
    for wrong in ("0", "99", "x", "-1", "1e3", "٢"):
        _status, html, _headers = await site.get(f"/m/{info.slug}/replay?lang=en&game={wrong}")
        assert f'src="/m/{info.slug}/replay/1/0.png?lang=en"' in html, wrong


async def test_hostile_names_in_the_analysis_are_escaped(site: Site) -> None:
    await play_to_the_end(site.room, ("anna", "bob"), seed=7)
    evil = dataclasses.replace(ANALYSIS.players[0], name=EVIL)
    hostile = dataclasses.replace(ANALYSIS, players=(evil, ANALYSIS.players[1]))
    await analysed(site, hostile)
    _status, html, _headers = await site.get(f"/m/{await site.slug()}")
    assert EVIL not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


async def test_the_page_speaks_every_language(site: Site) -> None:
    await play_to_the_end(site.room, ("anna", "bob"), seed=7)
    idle = PlayerAnalysis("Anna", 0, 0.0, 0, 0.0, 0.0, 0.0, ())
    await analysed(site, dataclasses.replace(ANALYSIS, players=(idle, ANALYSIS.players[1])))
    slug = await site.slug()
    _status, english, _headers = await site.get(f"/m/{slug}?lang=en")
    english_texts = set(parts(english).text)
    for lang in ("de", "ru", "uk", "tr", "el", "bg", "ar"):
        _status, html, _headers = await site.get(f"/m/{slug}?lang={lang}")
        direction = "rtl" if lang == "ar" else "ltr"
        assert f'<html lang="{lang}" dir="{direction}">' in html
        # (Position ID and Match ID stay gnubg's English terms in most languages.)
        for english_text in ("Final position", "Analysis", "Watch"):
            assert english_text in english_texts
            assert english_text not in parts(html).text, (lang, english_text)
        assert "no decision to judge" not in html, lang
