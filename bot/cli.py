"""The ``gammonbot`` command line.

Only click and the standard library are imported when it starts: each command imports what
it needs when it runs (storage and SQLAlchemy, the renderer, the engine, the chat
platforms), so ``gammonbot --help`` answers at once and ``gammonbot hint`` loads the engine
alone.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Coroutine
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bot.cli_help import DeferredOptions, ListsSettings

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.hosting import AdapterFactory, WebSettings
    from engine.api import Level

T = TypeVar("T")

_LEVEL_HELP = "beginner, intermediate, advanced, expert or world_class."
_MAX_GAMES = 100
_CLEAR_LINE = "\r\x1b[K\x1b[?25h"  # to the line's start, erase it, show the cursor
_MAX_DECISIONS = 10_000


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gammonbot")
def main() -> None:
    """gammonbot: backgammon for Discord and Telegram, and tools around its rules engine."""


@main.command()
def moves() -> None:
    """Legal plays and play checking as JSON lines on stdin/stdout.

    \b
    In:  {"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]}
    Out: {"plays": [{"play": "8/5 6/5", "position_id": "..."}, ...]}
    In:  {"position_id": "4HPwATDgc/ABMA", "dice": [3, 1], "text": "8/5 6/5"}
    Out: {"play": "8/5 6/5", "position_id": "..."}
         or {"error": {"kind": "invalid" | "illegal" | "ambiguous", "message": "..."}}
    Add "variant": "long_nardy" for long nardy positions.
    """
    from bot.moves_tool import request_lines, serve

    # Raw bytes, not sys.stdin's text: an undecodable line must be answered, not crash us.
    serve(request_lines(sys.stdin.buffer), sys.stdout)


@main.command()
@click.argument("transcript", type=click.Path(dir_okay=False, path_type=str))
def verify(transcript: str) -> None:
    """Check a fair-dice transcript (BGPF-1): the commitment and every roll.

    Prints "OK: N rolls verified" and exits 0; names the first mismatch and exits 1; exits 2
    when the file cannot be read as a transcript.
    """
    from gammon.fair_dice import MalformedTranscriptError, load_transcript, verify_transcript

    try:
        with open(transcript, encoding="utf-8") as handle:
            text = handle.read(10_000_000)
        result = verify_transcript(load_transcript(text))
    except (OSError, UnicodeDecodeError) as error:
        click.echo(f"cannot read {transcript}: {error}", err=True)
        sys.exit(2)
    except MalformedTranscriptError as error:
        click.echo(f"not a valid transcript: {error}", err=True)
        sys.exit(2)
    if result.ok:
        click.echo(f"OK: {result.rolls_checked} rolls verified")
        return
    click.echo(f"FAILED: {result.problem}")
    sys.exit(1)


def _render_options() -> list[click.Parameter]:
    from gammon import Variant
    from rendering import DEFAULT_THEME, DEFAULT_WIDTH, THEMES

    return [
        click.Option(["--position-id"], required=True, help="GNU Backgammon Position ID."),
        click.Option(
            ["--match-id"], help="GNU Backgammon Match ID: dice, cube, score, whose turn."
        ),
        click.Option(
            ["--variant"],
            type=click.Choice([variant.value for variant in Variant]),
            default=Variant.BACKGAMMON.value,
            show_default=True,
        ),
        click.Option(
            ["--last-play"], help='The play to highlight, e.g. "8/5 6/5" ("*" marks hits).'
        ),
        click.Option(
            ["--theme"], type=click.Choice(sorted(THEMES)), default=DEFAULT_THEME, show_default=True
        ),
        click.Option(
            ["--size"],
            type=click.IntRange(480, 2400),
            default=DEFAULT_WIDTH,
            show_default=True,
            help="Width in pixels.",
        ),
        click.Option(
            ["--perspective"],
            type=click.IntRange(0, 1),
            help="Player at the bottom (default: to act).",
        ),
        click.Option(["--names"], nargs=2, default=("", ""), help="Names of players 0 and 1."),
        click.Option(
            ["-o", "--output"],
            required=True,
            type=click.Path(dir_okay=False),
            help="PNG file.",
        ),
    ]


@main.command(cls=DeferredOptions, options=_render_options)
def render(
    position_id: str,
    match_id: str | None,
    variant: str,
    last_play: str | None,
    theme: str,
    size: int,
    perspective: int | None,
    names: tuple[str, str],
    output: str,
) -> None:
    """Draw a position as a PNG, from GNU Backgammon IDs."""
    from gammon import Variant
    from rendering import BoardView, LastPlay, render_board

    try:
        view = BoardView.from_ids(position_id, match_id, variant)
        highlight = None
        if last_play:
            mover = 1 - view.on_roll if view.on_roll is not None else 1 - (view.turn or 0)
            highlight = LastPlay.from_text(last_play, mover, Variant(variant))
        png = render_board(
            view,
            perspective=perspective,
            theme=theme,
            size=size,
            names=names,
            last_play=highlight,
        )
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    with open(output, "wb") as handle:
        handle.write(png)
    click.echo(f"wrote {output} ({len(png) // 1024} KB)")


def _hint_level() -> list[click.Parameter]:
    from engine.api import DEFAULT_LEVEL

    return [
        click.Option(["--level"], default=DEFAULT_LEVEL.value, show_default=True, help=_LEVEL_HELP)
    ]


@main.command(cls=DeferredOptions, options=_hint_level)
@click.option("--position-id", required=True, help="GNU Backgammon Position ID.")
@click.option("--match-id", required=True, help="GNU Backgammon Match ID: dice, cube, score.")
@click.option(
    "--jacoby", is_flag=True, help="Money play with the Jacoby rule (ignored in a match)."
)
@click.option("--beaver", is_flag=True, help="Money play with beavers (ignored in a match).")
def hint(position_id: str, match_id: str, level: str, jacoby: bool, beaver: bool) -> None:
    """The engine's hint as JSON: the best plays for the dice in the Match ID, or the cube
    action (verdict and the three equities) when no dice are rolled yet.

    Money play is judged without the Jacoby rule and without beavers unless --jacoby or
    --beaver asks for them; a match uses neither.

    Exits 2 with one line on stderr for IDs that do not make a position to play: fields
    that contradict each other (a cube turned in the Crawford game, dice rolled while a
    double is offered, ...), a resignation on offer, a game that is over.
    """
    chosen = _level_or_exit(level)
    from engine.hints import hint as engine_hint
    from engine.hints import situation_from_ids
    from engine.records import hint_to_json

    try:
        situation, dice = situation_from_ids(position_id, match_id, jacoby=jacoby, beavers=beaver)
    except ValueError as error:
        click.echo(f"not a position to give a hint for: {error}", err=True)
        sys.exit(2)
    click.echo(json.dumps(hint_to_json(engine_hint(situation, dice, chosen))))


@main.command()
@click.argument("mat_file", type=click.Path(path_type=str))  # errors: one line
@click.option(
    "--level",
    help="How deep the engine looks: world_class (the default: as deep as GNU Backgammon's "
    "2-ply analysis, some 10-40 s for a 7-point match) or expert (the plain net, a second or "
    "two); the other playing levels are accepted too (their own depth, no noise).",
)
@click.option(
    "--max-games",
    type=click.IntRange(min=1),
    default=_MAX_GAMES,
    show_default=True,
    help="Refuse a file with more games (a long money session); raise it to analyse one.",
)
@click.option(
    "--max-decisions",
    type=click.IntRange(min=1),
    default=_MAX_DECISIONS,
    show_default=True,
    help="Refuse a file with more decisions (each roll with its play, each cube action).",
)
def analyse(mat_file: str, level: str | None, max_games: int, max_decisions: int) -> None:
    """Analyse a backgammon match in .mat format (ours, GNU Backgammon's or another
    server's export) and print the analysis as JSON: per player and per decision.

    A file over the limits is refused while it is read, before the analysis starts. On a
    terminal a progress bar shows on stderr; Ctrl-C stops with "interrupted" and exit 130.
    A game the file ends in before its result is analysed up to there, named in the JSON
    ("unfinished_game") and in a warning on stderr.

    Exits 2 with one line on stderr when the file cannot be read or analysed.
    """
    chosen = _level_or_exit(level) if level is not None else None
    try:
        from bot.analyse_tool import RefusedError, analyse_file
        from gammon.mat_format import MatLimits

        try:
            analyse_file(mat_file, chosen, MatLimits(games=max_games, decisions=max_decisions))
        except RefusedError as refused:
            click.echo(str(refused), err=True)
            sys.exit(2)
    except KeyboardInterrupt:
        # Ctrl-C: the engine runs in this process (its search threads end with it), so
        # stopping is saying so: no traceback, no half-written JSON. It may come while the
        # progress bar is being drawn: on a terminal its line is cleared, the cursor it hid
        # shown again.
        clear = _CLEAR_LINE if sys.stderr.isatty() else ""
        click.echo(f"{clear}interrupted", err=True)
        sys.exit(130)


def _level_or_exit(name: str) -> Level:
    """A level by name; "world-class" and "worldclass" are world_class too."""
    from engine.api import Level

    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return Level("world_class" if key == "worldclass" else key)
    except ValueError:
        choices = ", ".join(level.value for level in Level)
        click.echo(f"unknown level {name!r}: choose one of {choices}", err=True)
        sys.exit(2)


@main.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=str))
def backup(path: str) -> None:
    """Write a consistent copy of the SQLite database to PATH, while the bot keeps running
    (for PostgreSQL it names pg_dump)."""
    from storage import StorageError
    from storage.database import backup_sqlite, pg_dump_advice

    settings = _settings_or_exit()
    advice = pg_dump_advice(settings.database_url)
    if advice is not None:
        click.echo(advice, err=True)
        sys.exit(2)
    try:
        backup_sqlite(settings.database_url, path)
    except (ValueError, OSError, StorageError) as error:
        click.echo(f"backup failed: {error}", err=True)
        sys.exit(2)
    size = os.path.getsize(path)
    click.echo(f"backup written to {path} ({size // 1024} KB)")


@main.group()
def db() -> None:
    """The database's schema."""


@db.command()
def upgrade() -> None:
    """Bring the schema to the newest migration (the bot also does at start; run this first
    where several processes start together, or with a role that may not change the schema)."""
    from storage.health import upgrade as upgrade_schema

    settings = _settings_or_exit()
    state = _stored_or_exit(upgrade_schema(settings.database_url))
    click.echo(f"database schema at revision {state.revision}, the newest")


@main.group()
def ratings() -> None:
    """The players' ratings, derived from the rated matches."""


@ratings.command()
@click.option("--check", is_flag=True, help="Only compare with the stored numbers; change nothing.")
def rebuild(check: bool) -> None:
    """Recompute every rating from the rated matches, in the order they were rated, and
    compare with the stored numbers; write the recomputed ones where they differ (not with
    --check). Prints one JSON object; exits 1 when --check found a difference."""
    from gammon.rating import rate
    from storage.rating_repository import rebuild_ratings

    settings = _settings_or_exit()
    started = time.perf_counter()
    report = _stored_or_exit(rebuild_ratings(settings.database_url, rate, write=not check))
    summary = {
        "rated_matches": report.matches,
        "players": report.players,
        "differing_matches": report.differing_matches,
        "differing_players": report.differing_players,
        "identical": report.identical,
        "written": not check and not report.identical,
        "seconds": round(time.perf_counter() - started, 3),
        "examples": report.examples,
    }
    click.echo(json.dumps(summary))
    if check and not report.identical:
        sys.exit(1)


@main.command()
def health() -> None:
    """Exit 0 when the database is reachable and its schema current (a service's health
    check); else say why on one line and exit 1."""
    from storage.health import schema_state

    settings = _settings_or_exit()
    state = _stored_or_exit(schema_state(settings.database_url), "unhealthy:", status=1)
    if not state.current:
        found = f"at {state.revision}" if state.revision else "not created yet"
        click.echo(
            f"unhealthy: database schema {found}, the newest is {state.newest} "
            "(run: gammonbot db upgrade)",
            err=True,
        )
        sys.exit(1)
    click.echo(f"healthy: database reachable, schema at revision {state.revision}")


@main.command()
@click.option(
    "--demo",
    is_flag=True,
    help="Known dice (a fixed, published server seed) on a throwaway database, "
    "so the README's example plays as written.",
)
def console(demo: bool) -> None:
    """The local console chat: play by typing NAME: TEXT lines.

    The users CONSOLE_ADMINS names (e.g. CONSOLE_ADMINS=alice) administer its chats:
    /defaults and /chouette end."""
    settings = _settings_or_exit()
    if demo:
        import asyncio

        from bot.console_app.demo import run_demo

        asyncio.run(run_demo(settings.console_image_dir))
        return
    _database_or_exit(settings)
    _run_console(settings)


@main.command(cls=ListsSettings)
def run() -> None:
    """Start every chat platform whose token is set; with none, the console chat."""
    settings = _settings_or_exit()
    _database_or_exit(settings)
    factories = _adapter_factories(settings)
    if factories:
        _host_or_exit(settings, factories)
        return
    click.echo("No DISCORD_TOKEN or TELEGRAM_TOKEN set: starting the console chat.", err=True)
    _run_console(settings)


def _host_or_exit(settings: Settings, factories: list[AdapterFactory]) -> None:
    import asyncio

    from bot.hosting import StartError, host
    from bot.logs import RedactSecrets, configure_logging

    secrets = [
        token.get_secret_value()
        for token in (
            settings.discord_token,
            settings.telegram_token,
            settings.telegram_webhook_secret,
        )
        if token is not None
    ]
    configure_logging(secrets, settings.log_level)
    try:
        asyncio.run(
            host(
                settings.database_url,
                factories,
                tick_seconds=settings.clock_seconds,
                web=_web(settings),
            )
        )
    except StartError as error:
        click.echo(RedactSecrets(secrets).redact(str(error)), err=True)
        sys.exit(1)


def _run_console(settings: Settings) -> None:
    import asyncio

    from bot.console_app.main import run_console
    from bot.logs import configure_logging

    configure_logging([], settings.log_level)
    asyncio.run(
        run_console(
            settings.database_url,
            settings.console_image_dir,
            _web(settings),
            admins=settings.console_admins,
        )
    )


def _web(settings: Settings) -> WebSettings | None:
    """The web pages' settings, when ``WEB_BASE_URL`` asks for them."""
    from bot.hosting import WebSettings
    from bot.web.limits import WebLimits

    if settings.web_base_url is None:
        return None
    limits = WebLimits(
        max_connections=settings.web_max_connections,
        header_timeout=settings.web_header_timeout,
        keepalive_timeout=settings.web_keepalive_timeout,
    )
    token = settings.telegram_token
    return WebSettings(
        settings.web_base_url,
        settings.web_host,
        settings.web_port,
        limits,
        telegram_token=token.get_secret_value() if token is not None else None,
        init_data_max_age=settings.telegram_init_data_max_age,
        key_hours=settings.page_link_hours,
    )


def _adapter_factories(settings: Settings) -> list[AdapterFactory]:
    """One factory per platform whose token is set (imported only then)."""
    factories: list[AdapterFactory] = []
    if settings.discord_token is not None:
        from bot.discord_app import DiscordAdapter

        factories.append(partial(DiscordAdapter, settings=settings))
    if settings.telegram_token is not None:
        from bot.telegram_app import TelegramAdapter

        factories.append(partial(TelegramAdapter, settings=settings))
    return factories


def _database_or_exit(settings: Settings) -> None:
    """Open and migrate the database once before anything starts, so an unreachable server,
    a missing driver or an unwritable SQLite path is one line naming DATABASE_URL and exit 2,
    not a traceback from deep inside the console or a platform adapter. Then say which
    database it is and where the settings came from: a bot started in another folder is
    never silently on another database."""
    from bot.config import where_from
    from storage.database import check_database

    _stored_or_exit(check_database(settings.database_url))
    click.echo(where_from(settings, Path.cwd()), err=True)


def _stored_or_exit(
    work: Coroutine[Any, Any, T], prefix: str = "DATABASE_URL:", status: int = 2
) -> T:
    """Run ``work`` on the database; when it cannot be opened, one line after ``prefix`` and
    exit with ``status``."""
    import asyncio

    from storage import StorageError

    try:
        return asyncio.run(work)
    except StorageError as error:
        click.echo(f"{prefix} cannot open the database: {error}", err=True)
        sys.exit(status)


def _settings_or_exit() -> Settings:
    """The settings; each one that cannot be used is one line naming it, and exit 2."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    from bot.config import ENV_FILE, load_settings

    try:
        return load_settings()
    except ValidationError as error:
        for problem in error.errors():
            where = ".".join(str(part) for part in problem["loc"]).upper()
            said = " ".join(str(problem["msg"]).split())
            click.echo(f"setting {where}: {said}" if where else f"settings: {said}", err=True)
        sys.exit(2)
    except (SettingsError, OSError, UnicodeDecodeError) as error:
        said = " ".join(str(error).split())
        click.echo(f"settings: cannot read the environment or {ENV_FILE}: {said}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
