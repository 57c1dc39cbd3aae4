"""Every command of the bot, declared once.

One entry per command: its name, the core's handler, a one-line summary (Telegram's menu,
Discord's description), its line in ``/help`` and its typed options (what Discord's slash
command offers and the platforms' text fallbacks read). The core dispatches through this
table, ``/help`` is built from it, Telegram's menus and the Discord tree take their names and
descriptions from it, and the adapters' typed fallbacks (``@gammonbot roll``) know the command
names from it. Texts are gettext message ids (marked with ``N_`` so Babel extracts them) and are
translated where they are shown.

Adding a command: one :class:`Command` here, and its handler, a method of one of the core's
services (``"info.stats"``: the ``stats`` method of the information service), e.g.::

    Command(
        "stats",
        handler="info.stats",
        summary=N_("Your results"),
        help=N_("/stats – your results"),
    )

>>> find("roll").handler
'play.roll'
>>> find("nope") is None
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


def N_(text: str) -> str:  # noqa: N802 (gettext's conventional name for a deferred text)
    """Mark ``text`` for translation where it is shown, not here."""
    return text


class Kind(enum.Enum):
    """What an option holds."""

    USER = "user"  # a member of the chat (``@name``)
    INTEGER = "integer"
    TEXT = "text"
    CHOICE = "choice"  # one of ``choices``
    FLAG = "flag"  # on or off


@dataclass(frozen=True)
class Option:
    name: str
    kind: Kind
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = False
    suggest: bool = False  # the platform offers values while typing (the legal plays)


@dataclass(frozen=True)
class Command:
    name: str
    handler: str  # "service.method": the core's service and its method answering it
    summary: str
    help: str | None = None  # its /help line; None when another command's line names it
    options: tuple[Option, ...] = ()
    admin: bool = False  # changes need an administrator of the chat
    listed: bool = True  # in the platforms' menus (/start is offered by Telegram itself)


COMMANDS: tuple[Command, ...] = (
    Command(
        "challenge",
        handler="challenges.challenge",
        summary=N_("Offer a match: /challenge @user 5"),
        help=N_(
            "/challenge @user [length] [nardy] [nocube] [money] [jacoby] [beaver] "
            "[time=24h] – offer a match"
        ),
        options=(
            Option(
                "opponent", Kind.USER, N_("Whom you challenge; leave it out for an open challenge")
            ),
            Option("length", Kind.INTEGER, N_("Match length in points"), minimum=1, maximum=25),
            Option("money", Kind.FLAG, N_("A money game instead of a match")),
            Option("variant", Kind.CHOICE, N_("Backgammon or long nardy"), ("backgammon", "nardy")),
            Option("cube", Kind.CHOICE, N_("Play with the doubling cube"), ("cube", "nocube")),
            Option(
                "time",
                Kind.CHOICE,
                N_("Time limit for each move"),
                ("time=12h", "time=24h", "time=72h", "time=7d", "time=none"),
            ),
            Option("jacoby", Kind.FLAG, N_("Money games: gammons count only after a double")),
            Option("beavers", Kind.FLAG, N_("Money games: beavers are allowed")),
        ),
    ),
    Command(
        "accept",
        handler="challenges.accept",
        summary=N_("Accept the newest challenge for you"),
        help=N_("/accept – accept the newest challenge for you"),
    ),
    Command(
        "roll",
        handler="play.roll",
        summary=N_("Roll the dice"),
        help=N_("/roll, /double – at the start of your turn"),
    ),
    Command("double", handler="play.double", summary=N_("Offer the cube")),
    Command(
        "move",
        handler="play.move",
        summary=N_("Play your dice: /move 13/10* 6/5"),
        help=N_("/move 13/10* 6/5 – play your dice"),
        options=(
            Option(
                "play",
                Kind.TEXT,
                N_("Your play; start typing to see the legal ones"),
                maximum=100,
                required=True,
                suggest=True,
            ),
        ),
    ),
    Command(
        "resign",
        handler="play.resign",
        summary=N_("Offer to resign: single, gammon or backgammon"),
        help=N_("/resign [single|gammon|backgammon] – offer to resign"),
        options=(
            Option(
                "level",
                Kind.CHOICE,
                N_("What you concede"),
                ("single", "gammon", "backgammon"),
            ),
        ),
    ),
    Command(
        "board",
        handler="info.board",
        summary=N_("Show the board again"),
        help=N_("/board – show the board again; /matches – your active matches"),
    ),
    Command("matches", handler="info.match_list", summary=N_("Your active matches")),
    Command(
        "claim",
        handler="play.claim",
        summary=N_("Win when your opponent's time has run out"),
        help=N_("/claim – win the match when your opponent's time has run out"),
    ),
    Command(
        "seed",
        handler="settings.seed",
        summary=N_("Your client seed for the next match"),
        help=N_("/seed TEXT – your own client seed for the next match"),
        options=(
            Option(
                "seed",
                Kind.TEXT,
                N_("Any text, up to 64 characters"),
                maximum=64,
                required=True,
            ),
        ),
    ),
    Command(
        "verify",
        handler="info.verify",
        summary=N_("The dice transcript of your match"),
        help=N_("/verify, /export – the dice transcript and the .mat file of your match"),
    ),
    Command("export", handler="info.export", summary=N_("Your match as a .mat file")),
    Command(
        "rules",
        handler="info.rules",
        summary=N_("The rules, chapter by chapter"),
        help=N_("/rules [topic] – the rules, chapter by chapter"),
        options=(Option("topic", Kind.CHOICE, N_("The chapter")),),  # choices: rules_text
    ),
    Command(
        "settings",
        handler="settings.show",
        summary=N_("Automatic rolls, confirmations, board theme"),
        help=N_("/settings – automatic rolls, forced moves, confirmation, board theme"),
    ),
    Command(
        "language",
        handler="settings.language",
        summary=N_("Your language: en or de"),
        help=N_("/language en|de – your language"),
        options=(
            Option("language", Kind.CHOICE, N_("Your language"), ("en", "de"), required=True),
        ),
    ),
    Command(
        "defaults",
        handler="settings.chat_defaults",
        summary=N_("The chat's defaults (administrators)"),
        help=N_("/defaults length N | language xx – the chat's defaults (administrators)"),
        admin=True,
    ),
    Command("help", handler="info.help", summary=N_("What I can do")),
    Command("start", handler="info.help", summary=N_("What I can do"), listed=False),
)

_BY_NAME = {command.name: command for command in COMMANDS}


def find(name: str) -> Command | None:
    """The command called ``name`` (lower case, without the slash), or None."""
    return _BY_NAME.get(name)


NAMES: frozenset[str] = frozenset(_BY_NAME)
LISTED: tuple[Command, ...] = tuple(command for command in COMMANDS if command.listed)
