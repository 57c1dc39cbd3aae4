"""The board page as HTML: every language, the policy, and names and state that stay data."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.pages import texts
from bot.pages.pages import PLAY_SCRIPTS, PageText, PlayPageData, check_page, play_page
from bot.pages.security import asset, meta_policy
from tests.web.html_parts import parts
from tests.web.matches import check_data, play_match
from tests.web.play_site import URLS, opening_state

LANGUAGES = ("en", "de", "ru", "uk", "tr", "el", "bg", "ar")
HOSTILE = "</script><b>"


def _page(lang: str = "en", names: tuple[str, str] = ("alice", "bob"), **state: Any) -> str:
    data = PlayPageData(12, names, {**opening_state(), **state}, URLS)
    return play_page(data, PageText.for_locale(lang)).html


def _msgids() -> list[str]:
    """Every message id the page and its script show (read by a gettext that records)."""
    seen: list[str] = []

    def record(message: str) -> str:
        seen.append(message)
        return message

    text = PageText(record, "en")
    texts.play_texts(text, 12, ("alice", "bob"))
    texts.play_script_texts(text)
    texts.match_kind(text, "backgammon", 5)
    return list(dict.fromkeys(seen))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_string_of_the_page_is_translated(lang: str) -> None:
    path = f"bot/locales/{lang}/LC_MESSAGES/messages.po"
    with open(path, "rb") as file:
        catalog = read_po(file)
    untranslated = [
        msgid for msgid in _msgids() if not (catalog.get(msgid) and catalog[msgid].string)
    ]
    assert untranslated == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_renders_in_each_language(lang: str) -> None:
    html = _page(lang)
    found = parts(html)
    direction = "rtl" if lang == "ar" else "ltr"
    assert f'<html lang="{lang}" dir="{direction}">' in html
    assert "built-in method" not in html
    script_texts = json.loads(found.data["texts"])
    assert script_texts == texts.play_script_texts(PageText.for_locale(lang))
    assert json.loads(found.data["config"]) == {
        "live": URLS.live,
        "hello": URLS.hello,
        "act": URLS.act,
        "state": URLS.state,
        "lang": lang,
        "match": 12,
    }
    for button in ("roll", "double", "take", "drop", "beaver", "undo", "done", "accept"):
        assert found.buttons[button].text.strip(), button
    if lang != "en":  # the fixed strings are the language's, not English
        english = texts.play_texts(PageText.for_locale("en"), 12, ("alice", "bob"))
        assert "Keys: Tab" not in html
        assert english["undo"] not in found.buttons["undo"].text


def test_the_german_page_speaks_german() -> None:
    found = parts(_page("de"))
    assert found.buttons["undo"].text == "Zurück"
    assert found.buttons["done"].text == "Fertig"
    assert json.loads(found.data["texts"])["you_play"] == "Du spielst {name}."


def test_the_page_s_own_words_for_the_resign_question_and_the_turn() -> None:
    """Not the chats' entries: their "Cancel" withdraws a challenge (German "Zurückziehen"),
    and their "{name} to roll." some languages say to the player, whom spectators are not."""
    german = parts(_page("de"))
    assert german.buttons["resign-no"].text == "Weiterspielen"
    assert german.buttons["resign-cancel"].text == "Weiterspielen"
    assert "Cancel" not in _msgids()
    for lang in ("ru", "uk", "el", "bg"):
        to_roll = texts.play_script_texts(PageText.for_locale(lang))["to_roll"]
        assert not to_roll.startswith("{name},"), lang  # "{name}, your roll" addresses the player
    assert texts.play_script_texts(PageText.for_locale("en"))["to_roll"] == "{name} is to roll."


def test_the_script_is_its_files_in_order_each_small() -> None:
    found = parts(_page())
    files = [asset(name) for name in PLAY_SCRIPTS]
    assert found.scripts == ["".join(files)]
    assert PLAY_SCRIPTS[0] == "play_state.js"
    assert PLAY_SCRIPTS[-1] == "play_main.js"
    assert files[0].startswith('"use strict";')
    assert files[-1].endswith("})();\n")
    assert all(text.count("\n") < 200 for text in files)


def _directives(policy: str) -> dict[str, str]:
    return dict(item.split(" ", 1) for item in policy.split("; "))


def _hash(content: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(content.encode()).digest()).decode() + "'"


def test_the_policy_lets_the_page_talk_to_its_own_server_only() -> None:
    page = play_page(PlayPageData(12, ("a", "b"), opening_state(), URLS), PageText.for_locale("en"))
    found = parts(page.html)
    assert found.meta_policy is not None
    # Telegram's web client shows a Mini App in a frame; nobody else may frame the page.
    assert page.csp == found.meta_policy + "; frame-ancestors https://web.telegram.org"
    directives = _directives(found.meta_policy)
    assert directives["connect-src"] == "'self'"
    assert directives["default-src"] == "'none'"
    assert directives["img-src"] == "data:"
    assert directives["script-src"] == " ".join(_hash(script) for script in found.scripts)
    assert len(found.scripts) == 1
    assert len(found.styles) == 1
    assert directives["style-src"] == _hash(found.styles[0])
    for tag, attribute, url in found.urls:  # nothing loaded from elsewhere
        assert url.startswith(("data:", "/")), (tag, attribute, url)
    assert "http" not in found.scripts[0].replace("https://", "")  # no address in the script


def test_the_other_pages_keep_their_policy() -> None:
    """connect-src is the board's alone: the check page still may fetch nothing."""
    page = check_page(check_data(play_match()), PageText.for_locale("en"))
    assert "connect-src" not in page.csp
    assert meta_policy(scripts=[], styles=[], images="data:") == (
        "default-src 'none'; script-src 'none'; style-src 'none'; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )


def test_a_name_is_only_ever_escaped_and_cannot_end_a_block() -> None:
    html = _page(names=(HOSTILE, "bob"))
    assert HOSTILE not in html
    assert "&lt;/script&gt;&lt;b&gt;" in html  # the heading and the panel
    data = PlayPageData(12, (HOSTILE, "bob"), {**opening_state(), "names": [HOSTILE, "bob"]}, URLS)
    page = play_page(data, PageText.for_locale("en")).html
    found = parts(page)
    assert HOSTILE not in page
    assert json.loads(found.data["state"])["names"] == [HOSTILE, "bob"]
    assert page.count("</script>") == 4  # the three data blocks and the script, nothing more


def test_no_value_of_the_state_can_break_out_of_its_block() -> None:
    sneaky = "<!--<script>alert(1)</script>&amp;"
    data = PlayPageData(12, ("a", "b"), {**opening_state(), "lead": sneaky}, URLS)
    found = parts(play_page(data, PageText.for_locale("en")).html)
    assert json.loads(found.data["state"])["lead"] == sneaky
    assert sneaky not in found.data["state"]
    assert len(found.scripts) == 1


def test_the_heading_names_the_match() -> None:
    html = _page(length=7)
    assert "Match 12: \u2068alice\u2069 vs \u2068bob\u2069" in html
    assert "7-point match of backgammon" in html
    assert 'data-version="40"' in html
    nardy = _page(variant="long_nardy", length=0)
    assert "single games of long nardy" in nardy
