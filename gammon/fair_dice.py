"""Provably fair dice, scheme BGPF-1 (commit, reveal, verify).

Before any client seed exists the server draws a secret 32-byte ``server_seed`` and publishes
``commitment(server_seed)``. Every dice event of the match (opening rolls and their re-rolls
included) has a ``nonce`` counting from 0, and its two dice are drawn from
``HMAC-SHA256(server_seed, f"{client_seed}:{nonce}:{round}")``: bytes below 252 are accepted
in order (252 is the largest multiple of 6 that fits in a byte, so every face is equally
likely) and give ``byte % 6 + 1``. For an opening roll die 1 is player 0's and die 2 player 1's.

>>> seed = bytes.fromhex("8087bd1c35acd1acc5ba9950fb1f9c76106cab029319a28f0ee5d330255f6b93")
>>> [roll(seed, "alice-seed-42", nonce) for nonce in range(3)]
[(2, 3), (6, 3), (5, 2)]
"""

from __future__ import annotations

import hashlib
import hmac
import json
import reprlib
import secrets
import string
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

SCHEME: Final = "BGPF-1"
SEED_BYTES: Final = 32
_ACCEPT_BELOW: Final = 252


def new_server_seed() -> bytes:
    """A fresh secret seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """The public fingerprint published before the match: SHA-256 of the seed, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def join_client_seeds(seed_player0: str, seed_player1: str) -> str:
    """The match's client seed from both players' seeds."""
    return f"{seed_player0}|{seed_player1}"


def _faces(server_seed: bytes, client_seed: str, nonce: int) -> Iterator[int]:
    round_number = 0
    while True:
        message = f"{client_seed}:{nonce}:{round_number}".encode()
        for byte in hmac.new(server_seed, message, hashlib.sha256).digest():
            if byte < _ACCEPT_BELOW:
                yield byte % 6 + 1
        round_number += 1


def roll(server_seed: bytes, client_seed: str, nonce: int) -> tuple[int, int]:
    """The two dice of dice event ``nonce``."""
    if nonce < 0:
        raise ValueError(f"nonce counts from 0, got {nonce}")
    faces = _faces(server_seed, client_seed, nonce)
    return (next(faces), next(faces))


@dataclass(frozen=True)
class FairDice:
    """The dice of one match: its secret seed and the players' joined client seed.

    ``repr`` never shows the seed, so the value can be logged without revealing it.
    """

    server_seed: bytes
    client_seed: str

    def __post_init__(self) -> None:
        if len(self.server_seed) != SEED_BYTES:
            raise ValueError(f"a server seed has {SEED_BYTES} bytes")

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)

    def roll(self, nonce: int) -> tuple[int, int]:
        return roll(self.server_seed, self.client_seed, nonce)

    def __repr__(self) -> str:
        return f"FairDice(commitment={self.commitment!r}, client_seed={self.client_seed!r})"


def transcript(dice: FairDice, rolls: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The file a player downloads at match end: everything needed to recompute each roll."""
    return {
        "scheme": SCHEME,
        "commitment": dice.commitment,
        "server_seed": dice.server_seed.hex(),
        "client_seed": dice.client_seed,
        "rolls": [[int(first), int(second)] for first, second in rolls],
    }


@dataclass(frozen=True)
class Verification:
    """The outcome of checking a transcript: ``ok``, how many rolls matched, or what failed."""

    ok: bool
    rolls_checked: int
    problem: str = ""


class MalformedTranscriptError(ValueError):
    """The transcript is not a BGPF-1 transcript at all."""


def verify_transcript(data: Mapping[str, Any]) -> Verification:
    """Check the commitment and recompute every roll of a transcript.

    Raises :class:`MalformedTranscriptError` for anything that is not a well-formed BGPF-1
    transcript, so a failed :class:`Verification` always means the dice did not match.
    """
    server_seed, client_seed, rolls = _read_transcript(data)
    if commitment(server_seed) != data["commitment"].lower():
        return Verification(False, 0, "the server seed does not match the published commitment")
    for nonce, pair in enumerate(rolls):
        expected = roll(server_seed, client_seed, nonce)
        if tuple(pair) != expected:
            return Verification(
                False,
                nonce,
                f"roll {nonce + 1} (nonce {nonce}) is {pair[0]}-{pair[1]}, "
                f"but the seeds give {expected[0]}-{expected[1]}",
            )
    return Verification(True, len(rolls))


def _read_transcript(data: Mapping[str, Any]) -> tuple[bytes, str, list[list[int]]]:
    """The server seed, client seed and rolls, each checked for type and shape."""
    if not isinstance(data, Mapping):
        raise MalformedTranscriptError("a transcript is a JSON object")
    if data.get("scheme") != SCHEME:
        # reprlib keeps the message one short line whatever the file holds.
        shown = reprlib.repr(data.get("scheme"))
        raise MalformedTranscriptError(f"unknown scheme {shown}, expected {SCHEME}")
    for key in ("commitment", "server_seed", "client_seed"):
        if not isinstance(data.get(key), str):
            raise MalformedTranscriptError(f"{key!r} must be a string")
    if not _is_hex(data["commitment"], 2 * SEED_BYTES):
        raise MalformedTranscriptError("commitment must be a SHA-256 digest: 64 hex digits")
    return _server_seed(data["server_seed"]), _client_seed(data["client_seed"]), _rolls(data)


def _is_hex(text: str, length: int) -> bool:
    return len(text) == length and all(char in string.hexdigits for char in text)


def _server_seed(text: str) -> bytes:
    try:
        server_seed = bytes.fromhex(text)
    except ValueError:
        raise MalformedTranscriptError("server_seed is not hexadecimal") from None
    if len(server_seed) != SEED_BYTES:
        raise MalformedTranscriptError(f"server_seed must have {SEED_BYTES} bytes")
    return server_seed


def _client_seed(text: str) -> str:
    """The seed as given; it is hashed as UTF-8, which a lone surrogate (a JSON ``"\\ud800"``
    escape) cannot be written in."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise MalformedTranscriptError("client_seed is not valid Unicode text") from None
    return text


def _rolls(data: Mapping[str, Any]) -> list[list[int]]:
    rolls = data.get("rolls")
    if not isinstance(rolls, list) or not all(
        isinstance(pair, list)
        and len(pair) == 2
        and all(type(die) is int and 1 <= die <= 6 for die in pair)
        for pair in rolls
    ):
        raise MalformedTranscriptError("rolls must be a list of [die, die] pairs with dice 1 to 6")
    return rolls


def load_transcript(text: str) -> dict[str, Any]:
    """Parse transcript JSON, raising :class:`MalformedTranscriptError` on bad input."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise MalformedTranscriptError(f"not JSON: {error}") from None
    except RecursionError:
        raise MalformedTranscriptError("not JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise MalformedTranscriptError("a transcript is a JSON object")
    return data
