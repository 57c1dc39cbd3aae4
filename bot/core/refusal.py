"""One way to refuse a request: raise :class:`Refusal` with the reason in the asker's words;
the dispatcher answers it privately to the asker (:meth:`bot.core.context.Context.refuse`),
wherever in the services it was raised. The table driver (:mod:`bot.core.tables`) answers the
refusal of an action by the rules itself, the same way, after what played by itself first
(unless the request was handled before: then the table as it is now)."""

from __future__ import annotations


class Refusal(Exception):  # noqa: N818 (a refusal is an answer, not an error of the bot)
    """The request is refused for the reason ``text``, already in the asker's language."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text
