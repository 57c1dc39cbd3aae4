"""The files of a match: the dice transcript (once the seed is revealed), the check page (when
it is not on the web) and the .mat file for GNU Backgammon and eXtreme Gammon."""

from __future__ import annotations

import asyncio
import json

from bot.core.documents.dice_check import check_attachment
from bot.core.model import Attachment
from gammon.actions import OpeningRoll, Roll
from gammon.fair_dice import FairDice, join_client_seeds, transcript
from gammon.flow import replay_states
from gammon.mat_format import export_mat
from storage import LoadedMatch, MatchRepository


class MatchFiles:
    def __init__(self, matches: MatchRepository) -> None:
        self._matches = matches

    async def of(
        self,
        loaded: LoadedMatch,
        names: list[str],
        seed: bytes | None,
        check_locale: str | None = None,
    ) -> tuple[Attachment, ...]:
        """The transcript of the dice (given the revealed ``seed``), the check page in the
        language ``check_locale`` (given one) and the .mat file. They need every action, which
        a loaded state does not carry: they come from the event log."""
        complete = await self._matches.with_history(loaded)
        # Tens of milliseconds for a long match: not on the event loop's time.
        return await asyncio.to_thread(_attachments, complete, names, seed, check_locale)

    async def mat(self, loaded: LoadedMatch, names: list[str]) -> Attachment | None:
        """The .mat file alone (as ``/export`` sends it); None for money backgammon, which
        the format does not hold."""
        files = await self.of(loaded, names, None)
        return next((file for file in files if file.filename.endswith(".mat")), None)


def _attachments(
    loaded: LoadedMatch, names: list[str], seed: bytes | None, check_locale: str | None
) -> tuple[Attachment, ...]:
    files = []
    actions = loaded.state.actions
    exported = not (loaded.state.rules.is_money and loaded.state.variant.value == "backgammon")
    checked = seed is not None and check_locale is not None
    # The check page and the export both go through the record game by game: replayed once.
    states = replay_states(loaded.state.rules, actions) if exported or checked else None
    if seed is not None:
        dice = FairDice(seed, join_client_seeds(*loaded.info.client_seeds))
        rolls = [action.dice for action in actions if isinstance(action, OpeningRoll | Roll)]
        data = json.dumps(transcript(dice, rolls), indent=1).encode()
        files.append(Attachment(f"match-{loaded.info.id}-transcript.json", data))
        if check_locale is not None:
            page = check_attachment(loaded.info, names, actions, seed, check_locale, states)
            files.append(page)
    if exported:
        mat = export_mat(loaded.state, names, states=states).encode()
        files.append(Attachment(f"match-{loaded.info.id}.mat", mat))
    return tuple(files)
