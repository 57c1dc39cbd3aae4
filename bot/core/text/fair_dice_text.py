"""The fair dice in words: the short line a challenge and a match's start carry, and the whole
story that ``/verify`` tells (the commitment in full, each player's client seed, and after
the end the server seed).

The guarantee is the order of events, not the length of a line: the commitment is fixed and
published with the challenge (against the bot: with the offer that [Start] begins), before any
client seed is, and ``/verify`` shows it in full from that moment on. The messages everyone
reads carry only its first digits, enough to recognise it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.core.text.i18n import Speech
from bot.core.text.player_text import isolated

COMMITMENT_SHOWN: Final = 12  # hex digits of the commitment in a challenge and a match's start


def fair_dice_line(_: Speech, commitment: str, check: str | None = None) -> str:
    """The commitment in short, and where to see more: /verify, and the match's check page
    (``check``) once there is one on the web.

    >>> fair_dice_line(str, "23a789666f470dccd5e81b476e465f74")
    'Fair dice, commitment 23a789666f47… (/verify shows the details)'
    >>> fair_dice_line(str, "23a789666f470dccd5e81b476e465f74", "https://g.example/m/x/verify")
    'Fair dice, commitment 23a789666f47… (details: /verify or https://g.example/m/x/verify)'
    """
    short = commitment[:COMMITMENT_SHOWN]
    if check:
        return _("Fair dice, commitment {commitment}… (details: /verify or {url})").format(
            commitment=short, url=check
        )
    return _("Fair dice, commitment {commitment}… (/verify shows the details)").format(
        commitment=short
    )


def commitment_sentence(_: Speech, commitment: str) -> str:
    return _("Dice commitment (SHA-256 of the secret server seed): {commitment}.").format(
        commitment=commitment
    )


def client_seeds_sentence(_: Speech, names: Sequence[str], seeds: Sequence[str]) -> str:
    """Each player's client seed, named (a seed is a player's own text: isolated)."""
    return _("Client seeds: {first} “{seed0}”, {second} “{seed1}”.").format(
        first=names[0], seed0=isolated(seeds[0]), second=names[1], seed1=isolated(seeds[1])
    )


def challenge_details(
    _: Speech, challenge_id: int, commitment: str, against_bot: bool = False
) -> str:
    """``/verify`` while a challenge waits (``against_bot``: an offer to the bot, waiting for
    its [Start]): the commitment, and how client seeds are fixed."""
    if against_bot:
        state = _("Challenge {id} is waiting for your [Start].").format(id=challenge_id)
        seeds = _(
            "Until you press [Start], you may choose your client seed with /seed TEXT; "
            "otherwise the chat platform's id of your press is used, and the bot's seed is "
            "made of it too. The server seed is revealed when the match ends."
        )
    else:
        state = _("Challenge {id} is waiting for an answer.").format(id=challenge_id)
        seeds = _(
            "Until the match starts, each player may choose a client seed with /seed TEXT; "
            "otherwise the chat platform's id of the accept is used. The server seed is "
            "revealed when the match ends."
        )
    return "\n".join((state, commitment_sentence(_, commitment), seeds))


def match_details(
    _: Speech,
    match_id: int,
    commitment: str,
    names: Sequence[str],
    seeds: Sequence[str],
    server_seed: bytes | None,
) -> str:
    """``/verify`` for a match: the commitment, the client seeds and, once it has ended, the
    server seed (else when it will be revealed)."""
    if server_seed is None:
        state = _("Match {id} is still being played.").format(id=match_id)
        seed = _("The server seed is revealed when the match ends.")
    else:
        state = _("Match {id} has ended.").format(id=match_id)
        seed = _("The server seed, revealed at the end: {seed}.").format(seed=server_seed.hex())
    return "\n".join(
        (state, commitment_sentence(_, commitment), client_seeds_sentence(_, names, seeds), seed)
    )
