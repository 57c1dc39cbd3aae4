"""The ``gammonbot`` command line."""

from __future__ import annotations

import sys

import click

from bot.moves_tool import serve


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
    """
    serve(iter(sys.stdin.readline, ""), sys.stdout)


if __name__ == "__main__":
    main()
