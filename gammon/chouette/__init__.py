"""Chouette: backgammon for three to eight players, one against the rest.

**Seating.** Everyone rolls one die: the highest is the *box*, the second highest the
*captain*, and the others wait in line in the order of their dice (players who tie roll again
to settle their own places). A newcomer joins at the end of the line between games. A player
who leaves between games is simply taken out of the order, so everyone behind moves up one
place; when the box leaves, the captain takes over the box.

**Play.** The box plays alone against everyone else, the *team*. On the one board the box and
the captain play an ordinary money game: the opening roll decides who starts, and the captain
rolls and moves for the whole team. How much the team may help is an option:

- ``team`` (the default): members still in the game may talk the checker play over with the
  captain, but the captain has the last word;
- ``turned``: only members still in the game whose cube has been turned may advise;
- ``captain``: the captain decides alone and nobody advises.

Each player makes their own cube decisions.

**Cubes.** Every team member has a cube of their own against the box, in the centre at 1 when
the game starts. As in a two-player game, a cube is turned only at the start of one's own turn,
before rolling, and only by a player with access to it (centred, or owned by that player):

- On the box's turn the box may double some or all of the members whose cubes it may turn,
  naming them all at once (one doubling per turn). Each doubled member answers alone: *take*
  (their cube is worth twice as much and they own it) or *drop* (they pay the value before the
  double and are out of this game: no more cube actions and no more advice).
- On the team's turn any member with access to their cube, the captain included, may double
  the box on that cube, whatever the others do. The box answers each cube separately: *take*
  (the box owns that cube at twice the value) or *drop* (the box pays that member the value
  before the double, and the member's game is over, won).
- Nobody rolls while a double waits for an answer.
- Beavers are an option (off by default): whoever is doubled may take and at once redouble,
  keeping the cube at four times the value. There are no raccoons.

When the captain's own cube leaves the game, the next member in line who is still in the game
moves the team's checkers until the end of the game; that changes nothing in the rotation. A
game ends when the board game ends or when no team member is left in it.

**Scoring.** The box plays a separate game against each member. A cube still in play when the
board game ends pays its value once for a single game, twice for a gammon and three times for
a backgammon, to whoever won on the board. The Jacoby rule is an option (off by default): then
a cube that was never turned pays a single game only. The box wins or loses the sum of all its
games, so every game, and the running score, adds up to zero.

**Rotation.** Only the box's game against the captain counts, however the other cubes went.
If the box won it (on the board, or because the captain dropped), the box stays, the captain
goes to the end of the line and the next in line becomes captain. If the captain won it (on
the board, or because the box dropped the captain's double), the captain becomes the box, the
old box goes to the end of the line and the next in line becomes captain.

**Not played here.** A partner for the box (with six or more players some clubs let or make
the box share its results with the next player in line, who becomes captain when the box
loses); automatic doubles; raccoons; resignations and settlements; "extras" between members;
club duties of the box such as taking the captain's cube or at least half of the cubes turned
at once; a fixed order for cube decisions; and rotations that also weigh the other cubes
(e.g. a box that lost on balance standing up even after beating the captain).
"""

from gammon.chouette.actions import (
    Answer,
    BoardAction,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    MemberAnswers,
    MemberDoubles,
)
from gammon.chouette.codec import (
    chouette_action_from_dict,
    chouette_action_to_dict,
    table_from_dict,
    table_to_dict,
)
from gammon.chouette.errors import ChouetteError, ChouetteRefusal
from gammon.chouette.flow import advance, apply, refusal, replay
from gammon.chouette.ids import match_id, position_id
from gammon.chouette.scoring import Scoreboard, next_table, settle, settle_forfeit
from gammon.chouette.state import (
    BOARD_RULES,
    BoardResult,
    ChouetteGame,
    ChouetteRules,
    Consultation,
    CubeOwner,
    MemberCube,
    advisers,
    new_game,
)
from gammon.chouette.table import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ChouetteTable,
    Side,
    join,
    leave,
    new_table,
    rotate,
    seat_order,
)

__all__ = [
    "BOARD_RULES",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Answer",
    "BoardAction",
    "BoardResult",
    "BoxAnswers",
    "BoxDoubles",
    "ChouetteAction",
    "ChouetteError",
    "ChouetteGame",
    "ChouetteRefusal",
    "ChouetteRules",
    "ChouetteTable",
    "Consultation",
    "CubeOwner",
    "MemberAnswers",
    "MemberCube",
    "MemberDoubles",
    "Scoreboard",
    "Side",
    "advance",
    "advisers",
    "apply",
    "chouette_action_from_dict",
    "chouette_action_to_dict",
    "join",
    "leave",
    "match_id",
    "new_game",
    "new_table",
    "next_table",
    "position_id",
    "refusal",
    "replay",
    "rotate",
    "seat_order",
    "settle",
    "settle_forfeit",
    "table_from_dict",
    "table_to_dict",
]
