"""Action tokens: the whole state of a button, in one compact format for every platform.

``bg1:<verb>:<target>:<version>`` where the target is ``m<id>`` (a match), ``c<id>`` (a
challenge), ``u<id>`` (a user's settings), ``r<id>`` (a match's replay), ``h<n>`` (a
chouette and a seat at it: see :func:`chouette_target`), ``t<id>`` (a tournament's
registration) or ``p<id>`` (a tournament's pairing) and the version is
the match version the button was made for, so a stale or repeated press can be recognised
(a replay button carries the frame it shows instead: see :func:`replay_position`; the
chouette's [End the session] and [Keep playing] carry the user id of whoever asked, the only
one who may press them). At most 64 bytes (Telegram's callback data limit).

>>> format_token(Token("take", "m", 12, 40))
'bg1:take:m12:40'
>>> parse_token("bg1:take:m12:40")
Token(verb='take', kind='m', target=12, version=40)
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final

PREFIX: Final = "bg1"
MAX_BYTES: Final = 64


class Verb(enum.StrEnum):
    """What a button does (a ``str``, so tokens stay plain text)."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RESIGN_SINGLE = "resign1"
    RESIGN_GAMMON = "resign2"
    RESIGN_BACKGAMMON = "resign3"
    KEEP_PLAYING = "keep"
    ACCEPT_RESIGNATION = "raccept"
    REJECT_RESIGNATION = "rreject"
    CLAIM = "claim"
    CONFIRM = "confirm"
    CHANGE = "change"
    AUTO_ROLL = "autoroll"
    AUTO_FORCED = "forced"
    CONFIRM_MOVES = "confirmmoves"
    NOTIFY = "notify"
    THEME = "theme"
    REPLAY_FIRST = "rfirst"  # the four steps of a replay: distinct verbs, so the four
    REPLAY_BACK = "rback"  # buttons of one board differ even where two lead to one frame
    REPLAY_FORWARD = "rnext"
    REPLAY_LAST = "rlast"
    DOUBLE_ALL = "dall"  # the chouette's box doubles every member it may
    END = "end"  # the chouette's session ends (asked first while a game is being played)
    REMATCH = "rematch"  # a finished match's players offer (or accept) another one like it
    START = "start"  # the person who offered the bot a match starts it (rolls the first dice)
    MATCHES_PAGE = "mpage"  # a page of /matches: the user's, the page in the version's place
    JOIN = "join"  # a tournament's registration
    LEAVE = "leave"
    PLAY = "play"  # the board page's [Done]: the play is the request's argument
    BOARD_PAGE = "page"  # [Open board]: the presser's own link to the match's board page


VERBS: Final = frozenset(Verb)
# The kinds of target: "m" match, "c" challenge, "u" settings, "r" replay, "h" chouette,
# "t" tournament, "p" a tournament's pairing. A platform that matches tokens itself (Discord's
# button template) builds its pattern from this, so a new kind is never left out there.
KINDS: Final = "mcurhtp"
_PATTERN: Final = re.compile(rf"^bg1:([a-z0-9]{{1,12}}):([{KINDS}])([0-9]{{1,12}}):([0-9]{{1,9}})$")


@dataclass(frozen=True)
class Token:
    verb: str
    kind: str  # one of KINDS
    target: int
    version: int


class BadTokenError(ValueError):
    """Not a token this bot made."""


def format_token(token: Token) -> str:
    text = f"{PREFIX}:{token.verb}:{token.kind}{token.target}:{token.version}"
    if token.verb not in VERBS or len(text.encode()) > MAX_BYTES:
        raise ValueError(f"not a valid token: {text!r}")
    return text


def parse_token(text: object) -> Token:
    """Read a token defensively: anything unexpected is a :class:`BadTokenError`."""
    if not isinstance(text, str) or len(text) > MAX_BYTES:
        raise BadTokenError("not a token")
    found = _PATTERN.match(text)
    if not found or found.group(1) not in VERBS:
        raise BadTokenError("not a token")
    return Token(found.group(1), found.group(2), int(found.group(3)), int(found.group(4)))


FRAMES_PER_GAME: Final = 10_000  # more frames than any game has: a game of 10,000 plays


def replay_position(game: int, frame: int) -> int:
    """The number a replay button carries for frame ``frame`` (from 0) of game ``game`` (from 1).

    >>> replay_position(3, 17)
    30017
    >>> replay_frame(30017)
    (3, 17)
    """
    if game < 1 or not 0 <= frame < FRAMES_PER_GAME:
        raise ValueError(f"no replay position for game {game}, frame {frame}")
    return game * FRAMES_PER_GAME + frame


def replay_frame(position: int) -> tuple[int, int]:
    """The game and frame a replay button's number means (see :func:`replay_position`)."""
    return divmod(position, FRAMES_PER_GAME)


SEATS: Final = 10  # more seats than a chouette has (eight)


def chouette_target(chouette_id: int, seat: int = 0) -> int:
    """The number a chouette button carries: the chouette and the seat (in the rotation order)
    of the member it names, or 0 for none (the presser acts for themselves).

    >>> chouette_target(12, 3)
    123
    >>> chouette_seat(123)
    (12, 3)
    """
    if not 0 <= seat < SEATS:
        raise ValueError(f"no chouette seat {seat}")
    return chouette_id * SEATS + seat


def chouette_seat(target: int) -> tuple[int, int]:
    """The chouette and seat a chouette button's number means (see :func:`chouette_target`)."""
    return divmod(target, SEATS)
