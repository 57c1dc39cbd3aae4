"""A chouette's dice made checkable, as a match's are: the commitment when the table opens, the
client seed when the first game starts, and when the session has ended the revealed seed, the
dice transcript (``gammonbot verify FILE``) and the self-contained check page; ``/verify`` in
the chouette's chat answers for it (before the end: the commitment and the client seed).

The transcript lists every dice event of the session in nonce order (the seating dice, then
game after game its opening roll with its re-rolls and every roll: see
:mod:`storage.chouette.dice`), so the same check as a match's recomputes each of them. The seed
is read only once the session has ended (storage refuses it before)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.chouette.rounds import ChouetteRounds
from bot.core.context import Context
from bot.core.model import Attachment, Message, Private
from bot.core.text.i18n import Speech
from bot.pages.check_data import CheckData, RecordedRoll
from gammon.fair_dice import FairDice, transcript
from storage import ChouetteInfo, ChouetteRepository, ChouetteRoll, ChouetteStatus, RollKind


class ChouetteCheck:
    def __init__(self, chouettes: ChouetteRepository, rounds: ChouetteRounds) -> None:
        self.chouettes = chouettes
        self.rounds = rounds

    def seed_lines(self, _: Speech, info: ChouetteInfo, seed: bytes) -> list[str]:
        """What the end says of the dice: the revealed seed against the commitment, and how
        to check every roll (with the files attached), or the seed alone when nothing was
        rolled."""
        if info.client_seed is None:
            return [
                _(
                    "The dice were drawn from the server seed {seed}; its SHA-256 is the "
                    "commitment {commitment} published at the start."
                ).format(seed=seed.hex(), commitment=info.dice_commitment)
            ]
        return [
            _(
                "The dice were drawn from the server seed {seed} with the client seed {client}; "
                "the server seed's SHA-256 is the commitment {commitment} published when the "
                "table was opened. Check every roll with: gammonbot verify transcript.json"
            ).format(seed=seed.hex(), client=info.client_seed, commitment=info.dice_commitment),
            _(
                "Or open the attached check page: it recomputes every roll in your browser, "
                "also offline."
            ),
        ]

    async def files(
        self, context: Context, chouette_id: int, seed: bytes, locale: str
    ) -> tuple[Attachment, ...]:
        """The transcript and the check page (in ``locale``) of an ended session; none when
        it never rolled (no client seed was fixed)."""
        info, recorded = await self.chouettes.dice_record(chouette_id)
        if info.client_seed is None:
            return ()
        dice = FairDice(seed, info.client_seed)
        rolls = complete(recorded, info.dice_nonce, dice)
        players = list(dict.fromkeys([*(p for roll in rolls for p in roll.players), *info.seats]))
        names = await self.rounds.names(context, players)
        # Tens of milliseconds for a long session: not on the event loop's time.
        return await asyncio.to_thread(_files, info, rolls, names, players, dice, locale)

    async def verify(self, context: Context, info: ChouetteInfo) -> list[Message]:
        """``/verify`` at the chouette: before the end its commitment and client seed (the
        seed comes at the end); after it, the transcript and the check page, privately."""
        _ = context._
        if info.status is not ChouetteStatus.ENDED:
            if info.client_seed is None:
                text = _(
                    "Chouette #c{id} has not rolled yet. Its dice commitment is {commitment}; "
                    "its client seed is fixed when the first game starts, and the server seed "
                    "is revealed when the session ends."
                ).format(id=info.id, commitment=info.dice_commitment)
            else:
                text = _(
                    "Chouette #c{id} is still being played. Its dice commitment is "
                    "{commitment} and its client seed {client}; the server seed is revealed "
                    "when the session ends."
                ).format(id=info.id, commitment=info.dice_commitment, client=info.client_seed)
            return context.refuse(text)
        seed = await self.chouettes.reveal_seed(info.id)
        files = await self.files(context, info.id, seed, context.locale)
        lines = [
            _("The dice of chouette #c{id}.").format(id=info.id),
            *self.seed_lines(_, info, seed),
        ]
        return [
            Message(
                context.request.chat,
                "\n".join(lines),
                attachments=files,
                kind=Private(context.request.actor.user_id),
            )
        ]


def complete(
    recorded: Sequence[ChouetteRoll], count: int, dice: FairDice
) -> tuple[ChouetteRoll, ...]:
    """The session's ``count`` dice events from nonce 0, as recorded; a seating die a session
    older than the record of seating dice did not keep is drawn from the revealed seed."""
    by_nonce = {roll.nonce: roll for roll in recorded}
    return tuple(
        by_nonce.get(nonce) or ChouetteRoll(nonce, 0, RollKind.SEATING, (), dice.roll(nonce))
        for nonce in range(max([count, *(nonce + 1 for nonce in by_nonce)]))
    )


def _files(
    info: ChouetteInfo,
    rolls: Sequence[ChouetteRoll],
    names: Mapping[int, str],
    players: Sequence[int],
    dice: FairDice,
    locale: str,
) -> tuple[Attachment, ...]:
    from bot.pages.pages import PageText, check_file  # Jinja2 and the templates: at the end only

    data: dict[str, Any] = transcript(dice, [roll.dice for roll in rolls])
    data["chouette"] = info.id
    data["dice_events"] = [
        {
            "nonce": roll.nonce,
            "game": roll.game,
            "kind": roll.kind.value,
            "players": [names[player] for player in roll.players],
        }
        for roll in rolls
    ]
    check = CheckData(
        match_number=info.id,
        names=tuple(names[player] for player in players),
        variant="backgammon",
        length=0,
        commitment=info.dice_commitment,
        client_seeds=(dice.client_seed,),
        server_seed=dice.server_seed.hex(),
        finished=True,
        rolls=tuple(_recorded(roll, names) for roll in rolls),
        chouette=True,
    )
    page = check_file(check, PageText.for_locale(locale))
    return (
        Attachment(f"chouette-{info.id}-transcript.json", json.dumps(data, indent=1).encode()),
        Attachment(f"chouette-{info.id}-check.html", page),
    )


def _recorded(roll: ChouetteRoll, names: Mapping[int, str]) -> RecordedRoll:
    return RecordedRoll(
        nonce=roll.nonce,
        game=roll.game,
        player=None,
        opening=roll.kind is RollKind.OPENING,
        dice=roll.dice,
        names=tuple(names[player] for player in roll.players),
        seating=roll.kind is RollKind.SEATING,
    )
