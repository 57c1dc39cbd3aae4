"""Where a match's web pages are, in the sentences that point to them: the match's page in the
start message, the replay and the dice check at the end; without web pages, the check page
that comes as a file."""

from __future__ import annotations

from bot.core.context import Context
from bot.core.i18n import Speech
from bot.core.web_links import WebLinks
from storage import MatchInfo


class MatchPages:
    def __init__(self, links: WebLinks) -> None:
        self.links = links

    def page_line(self, _: Speech, info: MatchInfo) -> str:
        """Where the match's web page is (score, and after the end its replay and dice
        check), when the bot serves web pages; else nothing."""
        if not self.links.enabled:
            return ""
        return _("The match's page: {url}").format(url=self.links.match(info.slug))

    def check_line(self, _: Speech, info: MatchInfo) -> str:
        """Where to check the dice in a browser: the match's pages, or the attached file."""
        if self.links.enabled:
            return _("Replay: {replay}\nDice check in your browser: {check}").format(
                replay=self.links.replay(info.slug), check=self.links.check(info.slug)
            )
        return _(
            "Or open the attached check page: it recomputes every roll in your browser, "
            "also offline."
        )

    def check_locale(self, context: Context, private: bool = False) -> str | None:
        """The language of the check page to attach (the chat's, or the asker's own when only
        they get it), or None when it is on the web."""
        if self.links.enabled:
            return None
        return context.locale if private else context.chat_locale
