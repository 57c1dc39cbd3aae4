"""GNU Backgammon Match IDs put together bit by bit from the layout in gnubg's manual
("A technical description of the Match ID"), independently of ``gammon.match``: tests
that judge our reading of IDs must not take the IDs from our own writer.

The manual numbers the 66 bits from 1; here they are numbered from 0, so its "bit 1-4" is
``(0, 4)``. The key is stored little-endian (bit 0 is the lowest bit of byte 0) in 9 bytes,
and the ID is those bytes in standard Base64 (12 characters, no padding needed).
"""

from __future__ import annotations

import base64

# field: (first bit counted from 0, width), as the manual lays them out
LAYOUT = {
    "cube_log": (0, 4),  # bits 1-4: log2 of the cube value
    "cube_owner": (4, 2),  # bits 5-6: 0, 1, or 3 for centred
    "on_roll": (6, 1),  # bit 7: the player on roll (who rolls, or rolled, the dice)
    "crawford": (7, 1),  # bit 8
    "game_state": (8, 3),  # bits 9-11: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
    "turn": (11, 1),  # bit 12: who decides now
    "doubled": (12, 1),  # bit 13
    "resigned": (13, 2),  # bits 14-15: 0 none, 1 single, 2 gammon, 3 backgammon
    "die1": (15, 3),  # bits 16-18
    "die2": (18, 3),  # bits 19-21
    "length": (21, 15),  # bits 22-36: 0 is money play
    "score0": (36, 15),  # bits 37-51
    "score1": (51, 15),  # bits 52-66
}
CENTRED = 3
PLAYING = 1


def gnubg_match_id(**fields: int) -> str:
    """The Match ID of ``fields`` (names as in LAYOUT); a game being played with a centred
    cube at 1 and player 0 on roll and to act unless told otherwise."""
    values = {"cube_owner": CENTRED, "game_state": PLAYING} | fields
    key = 0
    for name, value in values.items():
        first, width = LAYOUT[name]
        assert 0 <= value < 1 << width, (name, value)
        key |= value << first
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")
