"""What the tap-to-play board page starts from: the match, its first state and its addresses.

The state is the dictionary the server sends every viewer (``docs/board-page.md`` and the live
contract): the page shows it at once and takes every later one from the live stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayUrls:
    """The page's addresses on the server: ``live`` the event stream, ``hello`` who the
    viewer is, ``act`` where actions go, ``state`` the state once (after a lost stream)."""

    live: str
    hello: str
    act: str
    state: str


@dataclass(frozen=True)
class PlayPageData:
    """The board page of match ``number`` between ``names`` (player 0 first): the state to
    show first (its ``variant`` and ``length`` name the match in the heading) and the
    addresses the page's script talks to."""

    number: int
    names: tuple[str, str]
    state: dict[str, Any]
    urls: PlayUrls
