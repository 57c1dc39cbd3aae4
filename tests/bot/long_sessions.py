"""Long money sessions as ``.mat`` text, for the limits and the interruption of
``gammonbot analyse``: thousands of one-move games written by hand, or a fully played game
(random dice and plays, written by our ``.mat`` writer) repeated."""

from __future__ import annotations

import random

from gammon.actions import CannotMove, Move, OpeningRoll, Roll
from gammon.flow import Phase, apply, new_match
from gammon.mat_format import export_mat
from gammon.match_rules import MatchRules

HEADER = '; [Player 1 "Anna"]\n; [Player 2 "Bob"]\n\n 0 point match\n\n'
ONE_MOVE_GAME = """\
 Game {number}
 Anna : 0                         Bob : 0
  1) 31: 8/5 6/5
      Wins 1 point

"""


def one_move_session(games: int) -> str:
    """A money session of ``games`` games, each Anna's opening 3-1 and Bob's resignation."""
    return HEADER + "".join(ONE_MOVE_GAME.format(number=n) for n in range(1, games + 1))


def played_session(games: int, seed: int = 1) -> str:
    """A money session of ``games`` copies of one game played to its end by random legal
    plays (about forty rolls a side: a long file to analyse)."""
    body = _played_game(seed).splitlines()[1:]  # without its "Game 1" line
    text = [HEADER]
    for number in range(1, games + 1):
        text.append("\n".join([f" Game {number}", *body, "", ""]))
    return "".join(text)


def _played_game(seed: int) -> str:
    rng = random.Random(seed)
    state = new_match(MatchRules(length=1))
    first, second = rng.sample(range(1, 7), 2)
    state = apply(state, OpeningRoll((first, second)))
    while state.phase is not Phase.FINISHED:
        player = state.player_on_roll
        if state.phase is Phase.ROLLING:
            state = apply(state, Roll(player, (rng.randint(1, 6), rng.randint(1, 6))))
        elif plays := state.legal_plays():
            state = apply(state, Move(player, str(rng.choice(plays))))
        else:
            state = apply(state, CannotMove(player))
    text = export_mat(state, ["Anna", "Bob"])
    game = text[text.index(" Game 1") :]
    return game.replace(" and the match", "")
