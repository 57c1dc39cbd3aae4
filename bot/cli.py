"""The ``gammonbot`` command line."""

from __future__ import annotations

import sys

import click

from bot.moves_tool import serve
from gammon.fair_dice import MalformedTranscriptError, load_transcript, verify_transcript


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
    serve(iter(sys.stdin.readline, ""), sys.stdout)


@main.command()
@click.argument("transcript", type=click.Path(dir_okay=False, path_type=str))
def verify(transcript: str) -> None:
    """Check a fair-dice transcript (BGPF-1): the commitment and every roll.

    Prints "OK: N rolls verified" and exits 0; names the first mismatch and exits 1; exits 2
    when the file cannot be read as a transcript.
    """
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


if __name__ == "__main__":
    main()
