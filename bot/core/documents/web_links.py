"""The addresses of a match's and a tournament's web pages, when the bot serves them
(``WEB_BASE_URL``).

>>> links = WebLinks("https://gammon.example.org")
>>> links.match("Zm9vYmFy")
'https://gammon.example.org/m/Zm9vYmFy'
>>> links.board("Zm9vYmFy")
'https://gammon.example.org/m/Zm9vYmFy/play'
>>> links.check("Zm9vYmFy")
'https://gammon.example.org/m/Zm9vYmFy/verify'
>>> links.tournament("YmFyYmF6")
'https://gammon.example.org/t/YmFyYmF6'
>>> WebLinks(None).enabled
False
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WebLinks:
    base_url: str | None  # without a trailing slash; None: no web pages are served

    @property
    def enabled(self) -> bool:
        return bool(self.base_url)

    def match(self, slug: str) -> str:
        """The match's page: players, score game by game, links to the replay and the check."""
        return f"{self.base_url}/m/{slug}"

    def board(self, slug: str) -> str:
        """The match's board page: to watch it live, or with a player's key to play on it."""
        return f"{self.match(slug)}/play"

    def replay(self, slug: str) -> str:
        return f"{self.match(slug)}/replay"

    def check(self, slug: str) -> str:
        """The dice check that recomputes every roll in the browser."""
        return f"{self.match(slug)}/verify"

    def tournament(self, slug: str) -> str:
        """The tournament's page: its bracket or table as it stands, each match linked."""
        return f"{self.base_url}/t/{slug}"
