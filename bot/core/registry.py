"""Every command of the bot, declared once, and every button's way to the core.

One entry per command: its name, the core's handler, a one-line summary (Telegram's menu,
Discord's description), its line in ``/help``, its typed options (what Discord's slash
command offers and the platforms' text fallbacks read) and who may use it. The core dispatches
through this table (:mod:`bot.core.dispatch`), ``/help`` is built from it, Telegram's menus and
the Discord tree take their names and descriptions from it, and the adapters' typed fallbacks
(``@gammonbot roll``) know the command names from it. Texts are gettext message ids (marked
with ``N_`` so Babel extracts them) and are translated where they are shown.

Adding a command: one :class:`Command` here, and its handler, a method of one of the core's
services, referred to through :class:`~bot.core.dispatch.Services` (``lambda s:
s.info.stats``: the ``stats`` method of the information service; mypy checks that it exists
and answers a command), e.g.::

    Command(
        "stats",
        handler=lambda s: s.info.stats,
        summary=N_("Your results"),
        help=N_("/stats – your results"),
    )

Options carry what a platform needs to offer them as typed fields (Discord's slash command
options) and how their values turn back into the core's argument text
(:meth:`Command.argument`), so a new command with options needs no edit in the adapters.

A command (or one of its actions, ``/chouette end``) that not everyone may use declares a
:class:`Restriction`; the core asks the platform whether the asker administers the chat only
then (see :mod:`bot.core.permissions`).

Buttons carry an action token (:mod:`bot.core.tokens`); :data:`PRESSES` says which service
answers a token of each kind and verb.

>>> find("roll").name
'roll'
>>> find("nope") is None
True
>>> find("defaults").restriction.concerns("length 7"), find("defaults").restriction.concerns("")
(True, False)
>>> route(Token("rematch", "m", 12, 40)).verbs == {Verb.REMATCH}
True
>>> route(Token("roll", "m", 12, 40)).verbs
frozenset()
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bot.core.info import rules_text
from bot.core.permissions import Permission
from bot.core.text.i18n import LOCALES, N_, language_name
from bot.core.tokens import Token, Verb

if TYPE_CHECKING:
    from bot.core.context import Context
    from bot.core.dispatch import Services
    from bot.core.model import Message

# What answers a command (the context and the argument text) and a button press.
CommandHandler = Callable[["Context", str], Awaitable[list["Message"]]]
PressHandler = Callable[["Context", Token], Awaitable[list["Message"]]]


class Kind(enum.Enum):
    """What an option holds."""

    USER = "user"  # a member of the chat (``@name``)
    MENTIONABLE = "mentionable"  # a member or a role of the chat (``@name``, ``@role``)
    INTEGER = "integer"
    TEXT = "text"
    CHOICE = "choice"  # one of ``choices``
    FLAG = "flag"  # on or off


@dataclass(frozen=True)
class Option:
    name: str
    kind: Kind
    description: str
    choices: tuple[str, ...] = ()  # CHOICE: the values, as the core reads them
    minimum: int | None = None  # INTEGER: the smallest value; TEXT: the shortest length
    maximum: int | None = None  # INTEGER: the largest value; TEXT: the longest length
    required: bool = False
    suggest: bool = False  # the platform offers values while typing (the legal plays)
    labels: tuple[str, ...] = ()  # CHOICE: what each choice shows, in order (default: values)
    prefix: str = ""  # word(s) written before the value: "length" -> "length 7"
    word: str = ""  # FLAG: the word(s) written when it is on (default: the option's name)

    def __post_init__(self) -> None:
        if self.labels and len(self.labels) != len(self.choices):
            raise ValueError(f"{self.name}: one label for each choice")

    def text(self, value: object) -> str:
        """The option's part of the argument text; empty when it is left out or off."""
        if value is None or value is False or value == "" or self.kind is Kind.USER:
            return ""  # users are passed as mentions, not as text
        if self.kind is Kind.MENTIONABLE:
            return self.prefix  # the member or role is passed as a mention, after its word
        if self.kind is Kind.FLAG:
            return self.word or self.name
        return f"{self.prefix} {value}".strip()


@dataclass(frozen=True)
class Subcommand:
    """One part of a command on platforms with subcommands (Discord: ``/defaults set``)."""

    name: str
    summary: str
    takes_options: bool = False  # offers the command's options; otherwise none (the bare command)


@dataclass(frozen=True)
class Restriction:
    """Who may use a command, or the actions of it named by the argument's first word, and
    what the others are told (a gettext message id). The core enforces :attr:`Permission.ADMIN`
    before the handler runs; :attr:`Permission.HOST_OR_ADMIN` and :attr:`Permission.ORGANISER`
    need the host, whom only the handler's service knows, so it asks
    :meth:`~bot.core.context.Context.may` with them (and names who may when it refuses)."""

    permission: Permission
    refusal: str
    words: tuple[str, ...] = ()  # the actions it concerns; none: any use with an argument

    def concerns(self, argument: str) -> bool:
        words = argument.lower().split()
        return bool(words) and (not self.words or words[0] in self.words)


@dataclass(frozen=True)
class Command:
    name: str
    # The core's service and its method answering it: ``lambda s: s.play.roll``.
    handler: Callable[[Services], CommandHandler]
    summary: str
    help: str | None = None  # its /help line; None when another command's line names it
    options: tuple[Option, ...] = ()
    restriction: Restriction | None = None  # who may use it (or some of its actions)
    listed: bool = True  # in the platforms' menus (/start is offered by Telegram itself)
    subcommands: tuple[Subcommand, ...] = ()  # on platforms with subcommands: these instead

    def argument(self, values: Mapping[str, object]) -> str:
        """The core's argument text for option values (by option name), in declaration order.

        >>> values = {"length": 5, "money": False, "variant": "nardy", "time": "time=24h"}
        >>> find("challenge").argument(values | {"beavers": True, "opponent": "@bob"})
        '5 nardy time=24h beaver'
        >>> find("defaults").argument({"length": 7, "money": None, "language": "de"})
        'length 7 language de'
        >>> find("defaults").argument({"money": True})
        'length money'
        """
        words = (option.text(values.get(option.name)) for option in self.options)
        return " ".join(word for word in words if word)


_LANGUAGE: Final = Option(
    "language",
    Kind.CHOICE,
    N_("Your language"),
    LOCALES,
    required=True,
    labels=tuple(language_name(locale) for locale in LOCALES),  # each in itself
)


# Options that /challenge and /play share.
_TIME: Final = Option(
    "time",
    Kind.CHOICE,
    N_("Time limit for each move"),
    ("time=12h", "time=24h", "time=72h", "time=7d", "time=none"),
    labels=(N_("12 hours"), N_("1 day"), N_("3 days"), N_("1 week"), N_("No limit")),
)
_CLOCK: Final = Option(
    "clock",
    Kind.CHOICE,
    N_("Match clock: a delay per move plus a reserve (typed: clock=10s+5m)"),
    ("clock=fast", "clock=normal"),
    labels=(N_("Fast: 8 s + 20 s per point"), N_("Normal: 10 s + 1 min per point")),
)
_LENGTH: Final = Option("length", Kind.INTEGER, N_("Match length in points"), minimum=1, maximum=25)
_MONEY: Final = Option("money", Kind.FLAG, N_("A money game instead of a match"))
_VARIANT: Final = Option(
    "variant",
    Kind.CHOICE,
    N_("Backgammon or long nardy"),
    ("backgammon", "nardy"),
    labels=(N_("Backgammon"), N_("Long nardy")),
)
_CUBE: Final = Option(
    "cube",
    Kind.CHOICE,
    N_("Play with the doubling cube"),
    ("cube", "nocube"),
    labels=(N_("on"), N_("off")),
)

# /take, /drop and /beaver: whose double a chouette's box answers.
_MEMBER: Final = Option(
    "member", Kind.USER, N_("A chouette's box: the member whose double you answer")
)
# /double: the member a chouette's box doubles (one; typed, /double names several or all).
_DOUBLED: Final = Option(
    "member", Kind.USER, N_("A chouette's box: the member you double (without it: every member)")
)
# Written before the rest of the argument, as a game is named there in a private chat.
_GAME: Final = Option(
    "game",
    Kind.TEXT,
    N_("In a private chat: the game to act in, #12 (a match) or #c3 (a chouette)"),
    maximum=12,
)
_MATCH_NUMBER: Final = Option(
    "game", Kind.TEXT, N_("In a private chat: the match, #12"), maximum=12
)

# /chouette end: the table's host or an administrator (its service knows the host).
CHOUETTE_END: Final = Restriction(
    Permission.HOST_OR_ADMIN,
    N_("Only the host who opened the table or an administrator ends it."),
    words=("end",),
)


# /tournament new: administrators and the organisers the chat's defaults name (its service asks,
# and names them when it refuses; the one who opened it, an administrator or an organiser then
# runs it).
TOURNAMENT_NEW: Final = Restriction(
    Permission.ORGANISER,
    N_("Only an administrator of the chat opens a tournament."),
    words=("new",),
)


COMMANDS: tuple[Command, ...] = (
    Command(
        "challenge",
        lambda s: s.challenges.challenge,
        N_("Offer a match: /challenge @user 5"),
        help=N_(
            "/challenge @user [length] [nardy] [nocube] [money] [jacoby] [beaver] "
            "[time=24h] [clock=normal] [hints] [unrated] – offer a match"
        ),
        options=(
            Option(
                "opponent", Kind.USER, N_("Whom you challenge; leave it out for an open challenge")
            ),
            _LENGTH,
            _MONEY,
            _VARIANT,
            _CUBE,
            _TIME,
            _CLOCK,
            Option("jacoby", Kind.FLAG, N_("Money games: gammons count only after a double")),
            Option("beavers", Kind.FLAG, N_("Money games: beavers are allowed"), word="beaver"),
            Option("hints", Kind.FLAG, N_("Both players may ask /hint for the best plays")),
            Option("unrated", Kind.FLAG, N_("The match changes nobody's rating")),
        ),
    ),
    Command(
        "play",
        lambda s: s.computer.play,
        N_("Play against the bot: /play 5 expert"),
        N_(
            "/play [length] [level] [nocube] [nardy] [money] [clock=normal] – offer the bot a "
            "match; [Start] begins it (levels: beginner, intermediate, advanced, expert, "
            "world_class)"
        ),
        options=(
            _LENGTH,
            Option(
                "level",
                Kind.CHOICE,
                N_("How strongly the bot plays"),
                ("beginner", "intermediate", "advanced", "expert", "world_class"),
                labels=(
                    N_("Beginner"),
                    N_("Intermediate"),
                    N_("Advanced"),
                    N_("Expert"),
                    N_("World class"),
                ),
            ),
            _MONEY,
            _VARIANT,
            _CUBE,
            _CLOCK,
        ),
    ),
    Command(
        "hint",
        lambda s: s.advice.hint,
        N_("The best plays, or the cube action"),
        N_(
            "/hint – the three best plays for your dice, or the cube action before you roll "
            "(against the bot, or when both agreed to hints)"
        ),
        options=(_MATCH_NUMBER,),
    ),
    Command(
        "analysis",
        lambda s: s.advice.analysis,
        N_("The analysis of a finished match"),
        N_(
            "/analysis [match] [level] – errors, error rate and luck of a finished match, "
            "as deep as GNU Backgammon's analysis; expert is quicker"
        ),
        options=(
            Option("match", Kind.INTEGER, N_("The match number (default: your last)"), minimum=1),
            Option(
                "level",
                Kind.CHOICE,
                N_("How deep the engine looks (default: world_class, as GNU Backgammon)"),
                ("expert", "world_class"),
                labels=(N_("Expert: quick"), N_("World class: deeper")),
            ),
        ),
    ),
    Command(
        "replay",
        lambda s: s.replay.replay,
        N_("A game again, play by play"),
        N_("/replay [match] [game] – a game as an animation and a board to step through"),
        options=(
            Option("match", Kind.INTEGER, N_("The match number (default: your last)"), minimum=1),
            Option(
                "game",
                Kind.INTEGER,
                N_("The game number (default: the last)"),
                minimum=1,
                prefix="game",
            ),
        ),
    ),
    Command(
        "accept",
        lambda s: s.challenges.accept,
        N_("Accept the newest challenge for you"),
        N_("/accept – accept the newest challenge for you"),
    ),
    Command(
        "roll",
        lambda s: s.play.roll,
        N_("Roll the dice"),
        N_("/roll, /double – at the start of your turn"),
        options=(_GAME,),
    ),
    Command("double", lambda s: s.play.double, N_("Offer the cube"), options=(_GAME, _DOUBLED)),
    Command(
        "take",
        lambda s: s.play.take,
        N_("Take the double: /take, or /take @member as a chouette's box"),
        N_(
            "/take, /drop, /beaver [@member] – answer a double; a chouette's box names the "
            "member, and may leave the name out only when one member's double waits"
        ),
        options=(_GAME, _MEMBER),
    ),
    Command(
        "drop",
        lambda s: s.play.drop,
        N_("Drop the double: /drop, or /drop @member as a chouette's box"),
        options=(_GAME, _MEMBER),
    ),
    Command(
        "beaver",
        lambda s: s.play.beaver,
        N_("Beaver: take the double and redouble at once, where beavers are played"),
        options=(_GAME, _MEMBER),
    ),
    Command(
        "move",
        lambda s: s.play.move,
        N_("Play your dice: /move 13/10* 6/5"),
        N_("/move 13/10* 6/5 – play your dice"),
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
        lambda s: s.play.resign,
        N_("Offer to resign: single, gammon or backgammon"),
        N_("/resign [single|gammon|backgammon] – offer to resign"),
        options=(
            _MATCH_NUMBER,
            Option(
                "level",
                Kind.CHOICE,
                N_("What you concede"),
                ("single", "gammon", "backgammon"),
                labels=(N_("a single game"), N_("a gammon"), N_("a backgammon")),
            ),
        ),
    ),
    Command(
        "board",
        lambda s: s.info.board,
        N_("Show the board again"),
        N_("/board – show the board again; /matches – your active matches"),
        options=(_MATCH_NUMBER,),
    ),
    Command(
        "matches",
        lambda s: s.matches.command,
        N_("Your active matches"),
        options=(Option("page", Kind.INTEGER, N_("Which page of the list"), minimum=1),),
    ),
    Command(
        "stats",
        lambda s: s.standings.stats,
        N_("Rating and results: /stats @user"),
        N_("/stats [@user] [nardy] – rating, results, cube and streaks, here and everywhere"),
        options=(
            Option("player", Kind.USER, N_("Whose statistics; leave it out for your own")),
            _VARIANT,
        ),
    ),
    Command(
        "top",
        lambda s: s.standings.top,
        N_("The best players by rating"),
        N_("/top [all] [nardy] – the ten best by rating in this chat, or of everyone"),
        options=(
            Option(
                "where",
                Kind.CHOICE,
                N_("This chat or everyone"),
                ("chat", "all"),
                labels=(N_("This chat"), N_("Everyone")),
            ),
            _VARIANT,
        ),
    ),
    Command(
        "claim",
        lambda s: s.play.claim,
        N_("Win when your opponent's time has run out"),
        N_("/claim – win the match when your opponent's time has run out"),
    ),
    Command(
        "seed",
        lambda s: s.settings.seed,
        N_("Your client seed for the next match"),
        N_("/seed TEXT – your own client seed for the next match"),
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
        lambda s: s.info.verify,
        N_("The fair dice of your match: commitment, seeds, transcript"),
        N_(
            "/verify – the fair dice of your match (commitment and client seeds; after the "
            "end the server seed and the files to check every roll), /export – its .mat file"
        ),
    ),
    Command("export", lambda s: s.info.export, N_("Your match as a .mat file")),
    Command(
        "rules",
        lambda s: s.info.rules,
        N_("The rules, chapter by chapter"),
        N_("/rules [topic] – the rules, chapter by chapter"),
        options=(
            Option(
                "topic",
                Kind.CHOICE,
                N_("The chapter"),
                tuple(chapter.topic for chapter in rules_text.CHAPTERS),
                labels=tuple(chapter.title for chapter in rules_text.CHAPTERS),
            ),
        ),
    ),
    Command(
        "settings",
        lambda s: s.settings.show,
        N_("Automatic rolls, confirmations, board theme"),
        N_("/settings – automatic rolls, forced moves, confirmation, board theme"),
    ),
    Command(
        "language",
        lambda s: s.settings.language,
        N_("Your language"),
        N_("/language CODE – your language; /language alone lists them"),
        options=(_LANGUAGE,),
    ),
    Command(
        "defaults",
        lambda s: s.settings.chat_defaults,
        N_("The chat's defaults (administrators)"),
        N_(
            "/defaults length N | language xx | organisers=@name… (or none) – the chat's "
            "defaults (administrators)"
        ),
        options=(
            Option(
                "length",
                Kind.INTEGER,
                N_("Match length in points"),
                minimum=1,
                maximum=25,
                prefix="length",
            ),
            Option("money", Kind.FLAG, N_("Money games by default"), word="length money"),
            Option(
                "language",
                Kind.CHOICE,
                N_("The chat's language"),
                _LANGUAGE.choices,
                labels=_LANGUAGE.labels,
                prefix="language",
            ),
            Option(
                "organisers",
                Kind.MENTIONABLE,
                N_("Who opens and runs tournaments besides administrators: a role or a member"),
                prefix="organisers",
            ),
            Option(
                "no_organisers",
                Kind.FLAG,
                N_("Nobody but administrators opens and runs tournaments"),
                word="organisers=none",
            ),
        ),
        restriction=Restriction(
            Permission.ADMIN, N_("Only an administrator of this chat can change its defaults.")
        ),
        subcommands=(
            Subcommand("show", N_("Show this chat's defaults")),
            Subcommand("set", N_("Change this chat's defaults (server managers)"), True),
        ),
    ),
    Command(
        "chouette",
        lambda s: s.chouette.chouette,
        N_("Chouette: one player, the box, against a team"),
        N_(
            "/chouette [team|turned|captain] [jacoby] [beaver] [time=24h] – open a chouette "
            "table here, or show it; /chouette join | leave | start | score | end"
        ),
        options=(
            Option(
                "action",
                Kind.CHOICE,
                N_("What to do at the table"),
                ("show", "join", "leave", "start", "score", "end"),
                labels=(
                    N_("Open or show the table"),
                    N_("Sit down"),
                    N_("Get up after this game"),
                    N_("Seat by the dice and start"),
                    N_("The scores"),
                    N_("End the session (host or administrators)"),
                ),
            ),
            Option(
                "advice",
                Kind.CHOICE,
                N_("A new table: who may advise the captain"),
                ("team", "turned", "captain"),
                labels=(
                    N_("Every member"),
                    N_("Members whose cube was turned"),
                    N_("Nobody: the captain decides alone"),
                ),
            ),
            Option("jacoby", Kind.FLAG, N_("Money games: gammons count only after a double")),
            Option("beavers", Kind.FLAG, N_("Money games: beavers are allowed"), word="beaver"),
            _TIME,
        ),
        restriction=CHOUETTE_END,
    ),
    Command(
        "tournament",
        lambda s: s.tournaments.tournament,
        N_("Tournaments: knockout, double elimination, round robin, Swiss, leagues"),
        N_(
            "/tournament – the chat's tournament; /tournament new [single|double|roundrobin|"
            "swiss rounds=5|league] [consolation=5] [lastchance=3] [playoff] [7] [final=9] "
            '[days=7] [random] [nardy] [time=24h] [unrated] [threads=off] "name" '
            "(administrators, organisers); "
            "/tournament join | leave | start | pause | resume | cancel | withdraw [@player] | "
            "replace @leaving @coming | decide @winner | next (a league's next season)"
        ),
        options=(
            Option(
                "action",
                Kind.CHOICE,
                N_("What to do"),
                (
                    "show",
                    "new",
                    "join",
                    "leave",
                    "start",
                    "pause",
                    "resume",
                    "cancel",
                    "withdraw",
                    "replace",
                    "decide",
                    "next",
                ),
                labels=(
                    N_("Show the tournament"),
                    N_("Open a tournament (administrators, organisers)"),
                    N_("Register"),
                    N_("Unregister"),
                    N_("Start it (organiser or administrators)"),
                    N_("Pause it"),
                    N_("Resume it"),
                    N_("Cancel it"),
                    N_("Withdraw yourself, or the player named"),
                    N_("Replace a player before their first match"),
                    N_("Decide a match that never began before its deadline"),
                    N_("Open a league's next season"),
                ),
            ),
            Option(
                "settings",
                Kind.TEXT,
                N_('A new tournament: format, lengths and name, e.g. single 7 final=9 "Cup"'),
                maximum=200,
            ),
            Option("player", Kind.USER, N_("The player to withdraw, to replace, or the winner")),
            Option("newcomer", Kind.USER, N_("Replacing: the player who takes the place")),
        ),
        restriction=TOURNAMENT_NEW,
    ),
    Command(
        "suggest",
        lambda s: s.chouette.suggest,
        N_("Chouette: suggest a play to your captain"),
        N_("/suggest 13/10* 6/5 – suggest a play to your chouette captain"),
        options=(
            Option(
                "play",
                Kind.TEXT,
                N_("The play you suggest"),
                maximum=100,
                required=True,
            ),
        ),
    ),
    Command("help", lambda s: s.info.help, N_("What I can do")),
    Command("start", lambda s: s.info.help, N_("What I can do"), listed=False),
)

_BY_NAME = {command.name: command for command in COMMANDS}


def find(name: str) -> Command | None:
    """The command called ``name`` (lower case, without the slash), or None."""
    return _BY_NAME.get(name)


NAMES: frozenset[str] = frozenset(_BY_NAME)
# The commands that act on or show the caller's match in a group chat (a typed play is
# /move): the core reads that match with who is speaking, in the same trip to the database.
ON_OWN_MATCH: frozenset[str] = frozenset(
    {"roll", "double", "take", "drop", "beaver", "move", "resign", "claim", "board", "hint"}
)
LISTED: tuple[Command, ...] = tuple(command for command in COMMANDS if command.listed)


@dataclass(frozen=True)
class Press:
    """The buttons of one kind of target (a token's ``m`` match, ``c`` challenge, ``u`` user,
    ``r`` replay, ``h`` chouette), or only those of some verbs, and the core's service
    answering their presses (``lambda s: s.play.press``)."""

    kind: str
    handler: Callable[[Services], PressHandler]
    verbs: frozenset[str] = frozenset()  # none: every verb of the kind not routed elsewhere


PRESSES: tuple[Press, ...] = (
    Press("c", lambda s: s.challenges.press),  # [Accept] [Decline] [Cancel], the bot's [Start]
    Press("m", lambda s: s.rematches.press, frozenset({Verb.REMATCH})),
    Press("m", lambda s: s.play.press),  # a match's board, its resignation and confirmation
    Press("u", lambda s: s.matches.press, frozenset({Verb.MATCHES_PAGE})),
    Press("u", lambda s: s.settings.press),  # the switches of /settings
    Press("r", lambda s: s.replay.press),
    Press("h", lambda s: s.chouette.press),
    Press("t", lambda s: s.tournaments.press),  # a registration's [Join] and [Leave]
    Press("p", lambda s: s.tournaments.starts.press),  # a pairing's [Start]
)

_BY_VERB = {(press.kind, verb): press for press in PRESSES for verb in press.verbs}
_BY_KIND = {press.kind: press for press in PRESSES if not press.verbs}


def route(token: Token) -> Press | None:
    """The entry answering a press of ``token``'s button; None for none (out of date)."""
    return _BY_VERB.get((token.kind, token.verb)) or _BY_KIND.get(token.kind)
