"""The pages as HTML: escaping, the policy's hashes, the sealed seed and the translations."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import re

import pytest

from bot.core.text.i18n import speech
from bot.pages.check_data import CheckData
from bot.pages.page_data import AnalysedError, AnalysedPlayer, AnalysisSummary, Board
from bot.pages.pages import (
    Frame,
    GameRow,
    MatchPageData,
    Page,
    PageText,
    ReplayPageData,
    check_file,
    check_page,
    match_page,
    replay_page,
)
from tests.web.html_parts import parts
from tests.web.matches import PlayedMatch, check_data, play_match

HOSTILE = "<script>alert(1)</script>"
ENGLISH = PageText(str, "en")


@pytest.fixture(scope="module")
def match() -> PlayedMatch:
    return play_match()


def _hash(content: str) -> str:
    return base64.b64encode(hashlib.sha256(content.encode("utf-8")).digest()).decode()


ANALYSED = AnalysisSummary(
    level="expert",
    players=(
        AnalysedPlayer("Alice", ("error rate 3.0 (PR)",), ()),
        AnalysedPlayer(
            "Bob",
            ("error rate 25.0 (PR)", "checker play −0.226 in 9 decisions"),
            (AnalysedError(1, "game 1, move 1, 3-1: …", "mGfwATDgc/ABMA", "cImlAAAAAAAE"),),
        ),
    ),
    chart_url="/m/x/analysis.png",
    chart_text="Alice's chance to win the match",
)


def full_match_page(names: tuple[str, str] = ("Alice", "Bob")) -> MatchPageData:
    """An ended match with everything the page can show."""
    game = GameRow(1, names[0], 2, "gammon", (2, 0), "/m/x/replay?game=1")
    return MatchPageData(
        12,
        names,
        "backgammon",
        3,
        "Over",
        True,
        (game,),
        "/r",
        "/v",
        mat_url="/m/x/match.mat",
        board=Board("/m/x/replay/1/40.png", f"{names[0]} bore off."),
        analysis=dataclasses.replace(
            ANALYSED,
            players=(dataclasses.replace(ANALYSED.players[0], name=names[0]), ANALYSED.players[1]),
        ),
    )


def _sample_pages(match: PlayedMatch) -> dict[str, Page]:
    game = GameRow(1, "Alice", 2, "gammon", (2, 0))
    return {
        "full match": match_page(full_match_page(), ENGLISH),
        "check": check_page(check_data(match), ENGLISH),
        "sealed": check_page(check_data(match, revealed=False), ENGLISH),
        "match": match_page(
            MatchPageData(12, ("Alice", "Bob"), "backgammon", 3, "Over", True, (game,), "/r", "/v"),
            ENGLISH,
        ),
        "replay": replay_page(
            ReplayPageData(12, ("Alice", "Bob"), ((Frame("/1/0.png", "Start"),),)), ENGLISH
        ),
    }


def test_the_policy_allows_exactly_the_inline_blocks_by_hash(match: PlayedMatch) -> None:
    for name, page in _sample_pages(match).items():
        found = parts(page.html)
        assert found.meta_policy is not None, name
        assert page.csp == found.meta_policy + "; frame-ancestors 'none'", name
        assert "frame-ancestors" not in found.meta_policy  # ignored (and complained of) in meta
        directives = dict(item.split(" ", 1) for item in found.meta_policy.split("; "))
        assert directives["default-src"] == "'none'"
        assert directives["base-uri"] == directives["form-action"] == "'none'"
        assert len(found.styles) == 1, name
        assert directives["style-src"] == f"'sha256-{_hash(found.styles[0])}'", name
        wanted = " ".join(f"'sha256-{_hash(script)}'" for script in found.scripts) or "'none'"
        assert directives["script-src"] == wanted, name
        assert "built-in method" not in page.html, name  # a text key that is a dict method
        for tag, attribute, url in found.urls:  # nothing is loaded from elsewhere
            assert (tag, attribute) in {("link", "href"), ("img", "src"), ("a", "href")}, name
            assert url.startswith(("data:", "/")), (name, url)
    assert len(parts(_sample_pages(match)["check"].html).scripts) == 1
    assert "img-src 'self' data:" in _sample_pages(match)["replay"].csp


def test_a_hostile_name_is_only_ever_escaped(match: PlayedMatch) -> None:
    data = check_data(match, names=(HOSTILE, "Bob"))
    html = check_page(data, ENGLISH).html
    assert HOSTILE not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert f"Client seed of \u2068{HOSTILE}\u2069" in parts(html).text
    other = match_page(
        MatchPageData(1, (HOSTILE, "Bob"), "backgammon", 0, HOSTILE, False, (), None, None), ENGLISH
    )
    replay = replay_page(ReplayPageData(1, (HOSTILE, "B"), ((Frame("/a.png", HOSTILE),),)), ENGLISH)
    full = match_page(full_match_page((HOSTILE, "Bob")), ENGLISH)
    for page in (other, replay, full):
        assert HOSTILE not in page.html
        assert len(parts(page.html).scripts) <= 1


def test_no_seed_can_close_the_data_block(match: PlayedMatch) -> None:
    seeds = ("</script><script>alert(1)</script>", "<!--<script> & 🎲|x")
    data = dataclasses.replace(check_data(match, names=("</script>", "b")), client_seeds=seeds)
    html = check_page(data, ENGLISH).html
    found = parts(html)
    assert html.count("</script>") == 2  # the data block's end and the check script's end
    block = json.loads(found.data["check-data"])
    assert block["clientSeeds"] == list(seeds)
    assert re.search(r"[<>&]", found.data["check-data"]) is None
    assert block["serverSeed"] == match.dice.server_seed.hex()
    assert block["rolls"][:2] == [[0, 6, 6], [1, 4, 3]]


def test_before_the_end_the_seed_is_nowhere(match: PlayedMatch) -> None:
    seed = match.dice.server_seed
    html = check_page(check_data(match, revealed=False), ENGLISH).html
    for form in (seed.hex(), seed.hex().upper(), base64.b64encode(seed).decode(), str(list(seed))):
        assert form not in html
    found = parts(html)
    assert found.scripts == []
    assert found.data == {}
    assert match.dice.commitment in html
    assert "The server seed is revealed when the match ends" in html
    assert 'id="summary" data-status="waiting"' in html
    assert html.count("<tr data-nonce=") == 198


def test_the_page_says_when_each_kind_of_client_seed_was_fixed(match: PlayedMatch) -> None:
    """Between people the accept fixes the seeds, against the bot the press of [Start]: each
    after the commitment was published, which the page says for both."""
    text = " ".join(parts(check_page(check_data(match), ENGLISH).html).text)
    said = text[text.index("Each player's client seed was fixed only after the commitment") :]
    assert said.index("/seed after the challenge was posted") < said.index("the accept")
    assert "(against the bot: the press of [Start]" in said


def test_the_check_file_is_the_page_in_utf8(match: PlayedMatch) -> None:
    data = dataclasses.replace(check_data(match), client_seeds=("Grüße 🎲", "b"))
    assert check_file(data, ENGLISH) == check_page(data, ENGLISH).html.encode("utf-8")
    assert check_file(data, ENGLISH).startswith(b"<!DOCTYPE html>")


def test_the_pages_speak_german() -> None:
    german = PageText(speech("de"), "de")
    html = check_page(check_data(play_match()), german).html
    assert '<html lang="de" dir="ltr">' in html
    assert "Würfelprüfung von Match 12" in html
    assert "So funktioniert die Prüfung" in html
    assert "Match bis 3 Punkte" in html
    block = json.loads(parts(html).data["check-data"])
    assert block["texts"]["ok"] == "Jeder Wurf passt zu den Seeds ({count} geprüft)."
    for english in ("How the check works", "Rolled by", "Dice check", "Every roll"):
        assert english not in html
    replay = replay_page(ReplayPageData(3, ("A", "B"), ((Frame("/x.png", "x"),),)), german).html
    assert "Zug 1 von 1" in replay
    assert "Partie 1" in replay
    assert PageText.for_locale("de-AT").lang == "de"
    assert PageText.for_locale("fr").lang == "en"


def test_an_arabic_page_runs_right_to_left_with_its_codes_left_to_right() -> None:
    arabic = PageText.for_locale("ar")
    html = check_page(check_data(play_match()), arabic).html
    assert '<html lang="ar" dir="rtl">' in html
    assert re.search("[\u0600-\u06ff]", parts(html).text[0])  # written in Arabic
    assert "direction: ltr" in html  # seeds, digests and numbers keep their order


def test_the_match_page_lists_the_games_and_the_links() -> None:
    games = (
        GameRow(1, "Alice", 2, "gammon", (2, 0)),
        GameRow(2, None, 0, "draw", (2, 0)),
    )
    data = MatchPageData(
        7, ("Alice", "Bob"), "long_nardy", 0, "Bob to roll", False, games, "/r", None
    )
    html = match_page(data, ENGLISH).html
    assert "Match 7: \u2068Alice\u2069 vs \u2068Bob\u2069" in html
    assert "single games of long nardy" in html
    assert html.count("<tr data-game=") == 2
    assert "<td>—</td>" in html
    assert 'href="/r"' in html
    assert 'id="verify-link"' not in html
    empty = match_page(dataclasses.replace(data, games=()), ENGLISH).html
    assert "No game has finished yet." in empty


def test_the_replay_page_starts_at_the_first_frame() -> None:
    games = (
        (Frame("/1/0.png", "Start"), Frame("/1/1.png", "31: 8/5 6/5")),
        (Frame("/2/0.png", "G2"),),
    )
    html = replay_page(ReplayPageData(5, ("A", "B"), games), ENGLISH).html
    assert 'src="/1/0.png"' in html
    assert "Keys: ← and → step" in html
    assert "Play 1 of 2" in html
    assert json.loads(parts(html).data["replay-data"])["games"] == [
        [["/1/0.png", "Start"], ["/1/1.png", "31: 8/5 6/5"]],
        [["/2/0.png", "G2"]],
    ]
    assert html.count("<option ") == 2
    nothing = replay_page(ReplayPageData(5, ("A", "B"), ()), ENGLISH).html
    assert "Nothing to replay yet." in nothing
    assert parts(nothing).scripts == []
    with pytest.raises(ValueError, match="at least one frame"):
        ReplayPageData(5, ("A", "B"), ((),))


def test_the_replay_buttons_are_drawn_icons_named_in_the_reader_s_language() -> None:
    """⏮ and ⏭ are missing from many systems' fonts (the page loads none): an empty box. The
    buttons hold no characters, only a drawn icon that takes the text's colour, and say what
    they do in their label and tooltip."""
    german = PageText(speech("de"), "de")
    names = {
        ENGLISH: ("First position", "Previous position", "Next position", "Last position"),
        german: ("Erste Stellung", "Vorige Stellung", "Nächste Stellung", "Letzte Stellung"),
    }
    for text, wanted in names.items():
        page = replay_page(ReplayPageData(3, ("A", "B"), ((Frame("/x.png", "x"),),)), text)
        buttons = parts(page.html).buttons
        for button_id, name in zip(("first", "previous", "next", "last"), wanted, strict=True):
            button = buttons[button_id]
            assert button.text.strip() == "", (button_id, button.text)
            assert button.attributes["aria-label"] == button.attributes["title"] == name
            tags = [tag for tag, _attributes in button.inside]
            assert tags[0] == "svg"
            assert {"path", "rect"} & set(tags[1:])
            svg = button.inside[0][1]
            assert svg["aria-hidden"] == "true"
            assert svg["fill"] == "currentColor"
            for _tag, attributes in button.inside:  # the policy allows no style attribute
                assert "style" not in attributes


def test_the_match_page_shows_the_board_the_links_and_the_analysis() -> None:
    html = match_page(full_match_page(), ENGLISH).html
    assert "Final position" in html
    assert '<img src="/m/x/replay/1/40.png" alt="Alice bore off.">' in html
    assert '<a id="mat-link" href="/m/x/match.mat" download>' in html
    assert '<a class="game-replay" href="/m/x/replay?game=1">Watch</a>' in html
    assert '<li value="1" id="error-1">' in html
    assert "<code>cImlAAAAAAAE</code>" in html
    assert "Analysed at level expert." in html
    playing = match_page(dataclasses.replace(full_match_page(), finished=False), ENGLISH).html
    assert "Position now" in playing
    waiting = dataclasses.replace(full_match_page(), analysis=None, analysing=True)
    assert "its analysis appears here when ready" in match_page(waiting, ENGLISH).html
    bare = dataclasses.replace(full_match_page(), analysis=None, board=None, mat_url=None)
    html = match_page(bare, ENGLISH).html
    assert 'id="analysis"' not in html
    assert "<img" not in html
    assert "match.mat" not in html


def test_the_replay_page_can_open_at_a_later_game() -> None:
    games = ((Frame("/1/0.png", "G1"),), (Frame("/2/0.png", "G2"), Frame("/2/1.png", "x")))
    html = replay_page(ReplayPageData(5, ("A", "B"), games, start=1), ENGLISH).html
    assert 'src="/2/0.png"' in html
    assert "Play 1 of 2" in html
    assert '<option value="1" selected>' in html
    assert json.loads(parts(html).data["replay-data"])["start"] == 1
    with pytest.raises(ValueError, match="no game 3"):
        ReplayPageData(5, ("A", "B"), games, start=2)


def test_a_seed_with_a_direction_override_turns_nothing_around(match: PlayedMatch) -> None:
    """A client seed chosen before seeds were read without controls: the page names its
    override instead of obeying it, and the script still checks the seed itself."""
    data = check_data(match)
    seeded = CheckData(**{**data.__dict__, "client_seeds": ("\u202edlrow olleh", "b")})
    page = parts(check_page(seeded, ENGLISH).html)
    assert "[U+202E]dlrow olleh" in page.text
    assert not any("\u202e" in text for text in page.text)
    assert json.loads(page.data["check-data"])["clientSeeds"][0] == "\u202edlrow olleh"


def test_a_name_cannot_turn_its_sentence_around(match: PlayedMatch) -> None:
    page = parts(check_page(check_data(match, names=("عربي", "Bob")), ENGLISH).html)
    assert "\u2068عربي\u2069 vs \u2068Bob\u2069" in page.text


def test_the_analysis_level_is_named_as_players_read_it() -> None:
    """The page names the level in words of its language, as the chats do, not by the
    option's spelling ("world_class")."""
    deeper = dataclasses.replace(
        full_match_page(), analysis=dataclasses.replace(ANALYSED, level="world_class")
    )
    assert "Analysed at level world class." in match_page(deeper, ENGLISH).html
    german = match_page(deeper, PageText.for_locale("de")).html
    assert "world_class" not in german
    assert "Weltklasse" in german
