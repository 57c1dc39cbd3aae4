"""The web pages as pure functions: data in, a :class:`Page` (HTML and its CSP) out.

Every page is self-contained (inline style and script allowed by hash, no outside resource) so
it works the same served by the bot and saved to disk. Strings come from :mod:`bot.pages.texts`
through the reader's :class:`PageText`; names and seeds are escaped by Jinja's autoescape, and
data for the scripts goes in a JSON block that no value can break out of.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from bot.core.text.player_text import BIDI_CONTROLS, isolated
from bot.pages import texts
from bot.pages.check_data import CheckData
from bot.pages.columns import RESULT_HEADING, roll_column_css
from bot.pages.page_data import Frame, GameRow, MatchPageData, ReplayPageData
from bot.pages.page_text import PageText
from bot.pages.play_data import PlayPageData, PlayUrls
from bot.pages.security import (
    TELEGRAM_WEB,
    Page,
    asset,
    header_policy,
    meta_policy,
    script_json,
)
from bot.pages.tournament_data import TournamentPageData
from gammon.fair_dice import SCHEME

__all__ = [
    "Frame",
    "GameRow",
    "MatchPageData",
    "Page",
    "PageText",
    "PlayPageData",
    "PlayUrls",
    "ReplayPageData",
    "check_file",
    "check_page",
    "match_page",
    "play_page",
    "replay_page",
    "tournament_page",
]

_ICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
    '<rect x="1" y="1" width="14" height="14" rx="3" fill="#1f6f43"/>'
    '<g fill="#fff"><circle cx="5" cy="5" r="1.4"/><circle cx="8" cy="8" r="1.4"/>'
    '<circle cx="11" cy="11" r="1.4"/></g></svg>'
)
# A data: icon, so no browser asks the server (or the disk) for /favicon.ico.
ICON = "data:image/svg+xml," + quote(_ICON_SVG)


@cache
def _environment() -> Environment:
    environment = Environment(
        loader=PackageLoader("bot.pages"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,  # a misspelt name fails the render instead of showing ""
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["isolated"] = isolated
    environment.filters["seed_shown"] = seed_shown
    return environment


def seed_shown(seed: str) -> str:
    """A client seed as the check page shows it: a bidirectional control in it (a seed chosen
    before they were read out) is named, not obeyed, so the seed shows what it holds and
    turns nothing around; the page's script checks the seed itself.

    >>> seed_shown("\u202edlrow olleh")
    '[U+202E]dlrow olleh'
    """
    return "".join(f"[U+{ord(char):04X}]" if char in BIDI_CONTROLS else char for char in seed)


def _render(
    template: str,
    text: PageText,
    *,
    title: str,
    styles: tuple[str, ...],
    scripts: tuple[str, ...],
    images: str,
    extra_style: str = "",
    connect: str | None = None,
    framed_by: str = "'none'",
    **context: Any,
) -> Page:
    """Render ``template`` with the shared head: the policy allows exactly ``scripts`` (empty
    when the page runs none) and the concatenated ``styles`` plus ``extra_style`` (rules made
    for this page; the hash covers whatever the block holds); ``connect`` is the connect-src
    of a page that talks to the server (none by default)."""
    style = "".join(asset(name) for name in styles) + extra_style
    script = "".join(asset(name) for name in scripts)
    policy = meta_policy(
        scripts=[script] if script else [], styles=[style], images=images, connect=connect
    )
    html = (
        _environment()
        .get_template(template)
        .render(
            lang=text.lang,
            direction=text.direction,
            policy=policy,
            title=title,
            icon=ICON,
            style=Markup(style),
            script=Markup(script),
            **context,
        )
    )
    return Page(html=html, csp=header_policy(policy, framed_by))


def check_page(data: CheckData, text: PageText) -> Page:
    """The dice check: seeds, rolls and, once the seed is revealed, the check in the browser.

    While ``data.server_seed`` is ``None`` the page holds no script and no seed: it shows the
    commitment, the client seeds and the rolls so far. A chouette session's page
    (``data.chouette``) has one client seed, and names in each row who rolled.

    The verdict is in ``#summary[data-status]``: ``pending`` while the script works, then
    ``ok``, ``bad`` (a roll, or the seed against the commitment), ``unavailable`` (no
    WebCrypto: the page is not in a secure context) or ``error``; ``waiting`` while the seed is
    secret. Each roll is a ``<tr data-nonce="…" data-status="pending|ok|bad|sealed">``.
    """
    revealed = data.server_seed is not None
    if data.chouette:
        fixed = texts.chouette_check_texts(text, data.match_number)
        players, kind = ", ".join(map(isolated, data.names)), texts.chouette_kind(text)
    else:
        fixed = texts.check_texts(text, data.match_number, (data.names[0], data.names[1]))
        players = texts.players(text, (data.names[0], data.names[1]))
        kind = texts.match_kind(text, data.variant, data.length)
    page_json = script_json(
        {
            "scheme": SCHEME,
            "commitment": data.commitment,
            "clientSeeds": list(data.client_seeds),
            "clientSeed": data.client_seed,  # what the dice were drawn with
            "serverSeed": data.server_seed,
            "rolls": [[roll.nonce, *roll.dice] for roll in data.rolls],
            "texts": texts.check_script_texts(text),
        }
    )
    return _render(
        "check.html",
        text,
        title=fixed["title"],
        styles=("base.css", "check.css"),
        scripts=("check.js",) if revealed else (),
        images="data:",
        extra_style=roll_column_css(fixed, data.rolls),
        data=data,
        t=fixed,
        revealed=revealed,
        result_heading=RESULT_HEADING,
        row_status="pending" if revealed else "sealed",
        scheme=SCHEME,
        players=players,
        kind=kind,
        client_seed=data.client_seed,
        page_json=page_json if revealed else "",
    )


def check_file(data: CheckData, text: PageText) -> bytes:
    """The check page as a file to download (``match-12-check.html``): it checks offline."""
    return check_page(data, text).html.encode("utf-8")


def match_page(data: MatchPageData, text: PageText) -> Page:
    """The match overview: players, rules, status, the last position, the finished games
    (each with its replay), the links (replay, dice check, .mat) and the analysis once made.

    The board and the analysis's chart come from the server (``img-src 'self'``); the page
    runs no script."""
    title = texts.match_title(text, data.number, data.names)
    analysis = data.analysis
    return _render(
        "match.html",
        text,
        title=title,
        styles=("base.css", "match.css"),
        scripts=(),
        images="'self' data:",
        data=data,
        t=texts.match_texts(text),
        kind=texts.match_kind(text, data.variant, data.length),
        level=texts.analysis_level(text, analysis.level) if analysis else "",
    )


def replay_page(data: ReplayPageData, text: PageText) -> Page:
    """The replay: one board picture at a time, stepped with buttons, a game selector and keys.

    Pictures come from the server (``img-src 'self'``), so unlike the check page the replay
    needs the server; the first picture and caption are in the HTML, so it shows something
    without JavaScript too.
    """
    fixed = texts.replay_texts(text, data.number, data.names)
    start = data.games[data.start][0] if data.games else None
    page_json = script_json(
        {
            "games": [[[frame.image_url, frame.caption] for frame in game] for game in data.games],
            "start": data.start,
            "texts": texts.replay_script_texts(text),
        }
    )
    counter = (
        texts.replay_script_texts(text)["counter"].format(
            number=1, count=len(data.games[data.start])
        )
        if data.games
        else ""
    )
    return _render(
        "replay.html",
        text,
        title=fixed["title"],
        styles=("base.css", "replay.css"),
        scripts=("replay.js",) if start else (),
        images="'self' data:",
        t=fixed,
        start=start,
        start_game=data.start,
        counter=counter,
        game_labels=[texts.game_label(text, number) for number in range(1, len(data.games) + 1)],
        page_json=page_json,
    )


def tournament_page(data: TournamentPageData, text: PageText) -> Page:
    """A tournament as it stands: its bracket (a column a round, a box a match, the winner of
    each box marked, each started match linked to its page) and its tables. No script and no
    picture: the page is HTML and style only."""
    return _render(
        "tournament.html",
        text,
        title=data.name,
        styles=("base.css", "tournament.css"),
        scripts=(),
        images="data:",
        data=data,
        t=texts.tournament_texts(text),
        round_labels={
            part_round.number: texts.round_label(text, part_round.number)
            for part in data.parts
            for part_round in part.rounds
        },
    )


# The board's script, in the order its files make one inline script (play_state.js opens the
# function play_main.js closes; see the head of play_state.js).
PLAY_SCRIPTS = (
    "play_state.js",
    "play_board.js",
    "play_panels.js",
    "play_input.js",
    "play_server.js",
    "play_main.js",
)


def play_page(data: PlayPageData, text: PageText) -> Page:
    """The tap-to-play board: the match's state drawn by the page's script, kept up to date
    through the live stream, with the controls of the player who must act.

    The state, the script's strings and the addresses are JSON blocks (``#state``, ``#texts``,
    ``#config``); the policy adds ``connect-src 'self'`` (the stream and the actions) to what
    the other pages allow. ``docs/board-page.md`` names the elements a test can find.
    """
    fixed = texts.play_texts(text, data.number, data.names)
    state = data.state
    config = {
        "live": data.urls.live,
        "hello": data.urls.hello,
        "act": data.urls.act,
        "state": data.urls.state,
        "lang": text.lang,
        "match": data.number,
    }
    return _render(
        "play.html",
        text,
        title=fixed["title"],
        styles=("base.css", "play.css"),
        scripts=PLAY_SCRIPTS,
        images="data:",
        connect="'self'",
        framed_by=TELEGRAM_WEB,  # a Mini App in Telegram's web client
        t=fixed,
        kind=texts.match_kind(text, str(state.get("variant")), int(state.get("length") or 0)),
        version=state.get("version", 0),
        state_json=script_json(state),
        texts_json=script_json(texts.play_script_texts(text)),
        config_json=script_json(config),
        names=data.names,
    )
