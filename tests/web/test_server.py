"""The web pages as served: found only by their slug, the seed absent until the end, every
answer with its security headers, names escaped, pictures of every frame."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from PIL import Image

import bot.web.server as server_module
from bot.pages.page_data import MatchPageData
from bot.pages.page_text import PageText
from bot.pages.pages import match_page
from bot.pages.security import Page
from tests.bot.scripted import PLATFORM, play_to_the_end
from tests.databases import sqlite_copy
from tests.web.served import Site, serving

EVIL = "<script>alert(1)</script>"


@pytest.fixture
async def site(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Site]:
    url = sqlite_copy(migrated_sqlite, tmp_path / "web.db")
    async with serving(url) as (room, server), aiohttp.ClientSession() as session:
        yield Site(room, server, session)


async def test_before_the_end_no_page_holds_the_seed(site: Site) -> None:
    slug = await site.slug()
    seed = await site.seed()
    assert len(seed) == 64
    for path in ("", "/replay", "/verify"):
        status, body, headers = await site.get(f"/m/{slug}{path}")
        assert status == 200, path
        assert seed not in body.lower(), path
        assert "script-src" in headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
    _status, check, _headers = await site.get(f"/m/{slug}/verify")
    commitment = (await site.room.stores.matches.match_info(1)).dice_commitment
    assert commitment in check
    assert "revealed when the match ends" in check


async def test_after_the_end_the_check_page_reveals_the_seed(site: Site) -> None:
    await play_to_the_end(site.room, ("anna", "bob"), seed=7)
    slug = await site.slug()
    _status, body, _headers = await site.get(f"/m/{slug}/verify")
    assert await site.seed() in body
    _status, page, _headers = await site.get(f"/m/{slug}")
    assert "Anna" in page
    assert "Bob" in page
    assert f"/m/{slug}/replay" in page
    assert f"/m/{slug}/verify" in page


async def test_unknown_or_malformed_addresses_are_not_found(site: Site) -> None:
    slug = await site.slug()
    guessed = "A" * 22
    for path in (
        f"/m/{guessed}",
        f"/m/{guessed}/verify",
        "/m/short",
        f"/m/{slug}x/verify",
        f"/m/{slug}/replay/9/0.png",
        f"/m/{slug}/replay/1/9999.png",
        "/m/1",
        "/",
        "/m/%3Cscript%3E",
    ):
        status, body, headers = await site.get(path)
        assert status == 404, path
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert "<script" not in body


async def test_a_hostile_name_is_shown_as_text(site: Site) -> None:
    await site.room.command("eve", "/challenge @mallory 1")
    await site.room.stores.users.upsert_user(PLATFORM, "eve", EVIL)
    await site.room.press("mallory", "Accept")
    slug = (await site.room.stores.matches.match_info(2)).slug
    for path in ("", "/replay", "/verify"):
        _status, body, _headers = await site.get(f"/m/{slug}{path}")
        assert EVIL not in body, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body or "\\u003cscript" in body, path


async def test_the_replay_pictures_are_the_frames(site: Site) -> None:
    slug = await site.slug()
    _status, page, _headers = await site.get(f"/m/{slug}/replay")
    pictures = sorted(set(re.findall(rf"/m/{slug}/replay/1/(\d+)\.png", page)), key=int)
    assert pictures[0] == "0"
    async with site.session.get(f"{site.base}/m/{slug}/replay/1/0.png") as response:
        assert response.status == 200
        assert response.headers["Content-Type"] == "image/png"
        assert response.headers["Cache-Control"] == "no-cache"  # the game goes on
        image = Image.open(io.BytesIO(await response.read()))
        assert image.format == "PNG"


async def test_the_page_speaks_the_readers_language(site: Site) -> None:
    slug = await site.slug()
    _status, german, _headers = await site.get(f"/m/{slug}/verify", **{"Accept-Language": "de"})
    assert 'lang="de"' in german
    _status, asked, _headers = await site.get(
        f"/m/{slug}/verify?lang=en", **{"Accept-Language": "de"}
    )
    assert 'lang="en"' in asked
    _status, unknown, _headers = await site.get(f"/m/{slug}?lang=xx")
    assert 'lang="en"' in unknown


async def test_a_page_asked_for_again_is_sent_as_made_until_the_match_moves(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flood of one page makes it once (see bot.web.page_cache); a play makes it anew."""
    made: list[str] = []

    def counted(data: MatchPageData, text: PageText) -> Page:
        made.append(text.lang)
        return match_page(data, text)

    monkeypatch.setattr(server_module, "match_page", counted)
    slug = await site.slug()
    first = [await site.get(f"/m/{slug}?lang=de") for _ in range(5)]
    assert made == ["de"]
    assert all(answer[:2] == first[0][:2] for answer in first)
    assert first[0][2]["Content-Security-Policy"].startswith("default-src 'none'")
    await site.get(f"/m/{slug}?lang=en")
    assert made == ["de", "en"]
    await play_to_the_end(site.room, ("anna", "bob"), seed=7)
    _status, after, _headers = await site.get(f"/m/{slug}?lang=de")
    assert made == ["de", "en", "de"]
    assert after != first[0][1]
