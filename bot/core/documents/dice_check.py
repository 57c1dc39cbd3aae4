"""The dice check page of a match, as data and as the self-contained file sent in the chat
when the bot serves no web pages (it recomputes every roll in the browser, offline)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.model import Attachment
from bot.pages.check_data import CheckData, recorded_rolls
from bot.pages.page_text import PageText
from gammon.actions import Action
from gammon.flow import MatchState
from storage import MatchInfo


def check_data(
    info: MatchInfo,
    names: Sequence[str],
    actions: Sequence[Action],
    seed: bytes | None,
    states: Sequence[MatchState] | None = None,
) -> CheckData:
    """What the check page shows: ``seed`` is None until the match has ended. ``states``:
    the actions replayed already (:func:`gammon.flow.replay_states`)."""
    return CheckData(
        match_number=info.id,
        names=(names[0], names[1]),
        variant=info.rules.variant.value,
        length=info.rules.length,
        commitment=info.dice_commitment,
        client_seeds=info.client_seeds,
        server_seed=None if seed is None else seed.hex(),
        finished=seed is not None,
        rolls=recorded_rolls(info.rules, actions, states),
    )


def check_attachment(
    info: MatchInfo,
    names: Sequence[str],
    actions: Sequence[Action],
    seed: bytes,
    locale: str,
    states: Sequence[MatchState] | None = None,
) -> Attachment:
    """``match-12-check.html``: the check page in the reader's language, as one file."""
    from bot.pages.pages import check_file  # Jinja2 and the templates: only when a match ends

    data = check_data(info, names, actions, seed, states)
    page = check_file(data, PageText.for_locale(locale))
    return Attachment(f"match-{info.id}-check.html", page)
