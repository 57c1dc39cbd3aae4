"""Where a match's web pages are, in the sentences that point to them: the match's page in the
start message, the dice check while it is played, the replay and the dice check at the end;
without web pages, the check page that comes as a file."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.context import Context
from bot.core.documents.web_links import WebLinks
from bot.core.model import Button
from bot.core.text.i18n import Speech
from bot.core.tokens import Token, Verb, format_token
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

    def board_button(self, _: Speech, info: MatchInfo) -> Button | None:
        """[Open board] under a match's board, when the bot serves web pages: pressed, it
        answers the presser's own link (:mod:`bot.core.match.board_links`); Telegram opens
        ``page`` as a Mini App instead where it can."""
        if not self.links.enabled:
            return None
        token = format_token(Token(Verb.BOARD_PAGE, "m", info.id, info.version))
        return Button(_("Open board"), token, page=self.links.board(info.slug))

    def check_url(self, info: MatchInfo) -> str | None:
        """The match's dice check on the web, when the bot serves web pages."""
        return self.links.check(info.slug) if self.links.enabled else None

    def live_check_line(self, _: Speech, info: MatchInfo) -> str:
        """Where the dice of a match being played can be looked at in a browser (the
        commitment and the client seeds; the rolls once it has ended), when the bot serves
        web pages; else nothing."""
        if not self.links.enabled:
            return ""
        return _("Dice check in your browser: {url}").format(url=self.links.check(info.slug))

    def check_lines(self, _: Speech, info: MatchInfo, files: Sequence[str]) -> list[str]:
        """How a player checks the dice of an ended match, naming the ``files`` sent with it:
        the check page (on the web, or attached) and the transcript."""
        transcript = next((name for name in files if name.endswith("-transcript.json")), None)
        page = next((name for name in files if name.endswith("-check.html")), None)
        lines = []
        if self.links.enabled:
            lines.append(_("Replay: {url}").format(url=self.links.replay(info.slug)))
            text = _(
                "Check the dice in your browser: {url}. It recomputes every roll from the "
                "server seed revealed now."
            ).format(url=self.links.check(info.slug))
        elif page is not None:
            text = _(
                "Check the dice: open the attached {file} in a browser. It recomputes every "
                "roll from the server seed revealed now, also offline."
            ).format(file=page)
        else:
            text = ""
        if transcript is not None:
            said = _("{file} holds the server seed and every roll.").format(file=transcript)
            text = f"{text} {said}" if text else said
        return [*lines, text] if text else lines

    def check_locale(self, context: Context, private: bool = False) -> str | None:
        """The language of the check page to attach (the chat's, or the asker's own when only
        they get it), or None when it is on the web."""
        if self.links.enabled:
            return None
        return context.locale if private else context.chat_locale
