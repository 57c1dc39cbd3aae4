"""The chouette's board message: the picture (the board and every member's cube), turned to
whoever the game waits for as a match's board is turned to its mover; what was just played,
whose turn it is and what to do, each member's cube, the scores and gnubg's IDs; the buttons
for whoever may act, and mentions of the players who must act, with a private notice, in their
own language, for those of them who have been away from the table
(:class:`bot.core.match.attention.Attention`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import replace
from functools import partial

from bot.core.chouette import texts as chouette_texts
from bot.core.chouette.narration import caption
from bot.core.context import Context
from bot.core.match.attention import Attention
from bot.core.match.notices import private_notices
from bot.core.model import Button, Message, Public, Slot
from bot.core.runtime.admission import Admission
from bot.core.runtime.painter import Painter
from bot.core.text.dice_names import roll_text
from bot.core.text.i18n import Speech
from bot.core.tokens import Token, Verb, chouette_target, format_token
from gammon.chouette import ChouetteGame, CubeOwner, Side, match_id, position_id
from gammon.flow import Phase
from rendering import DEFAULT_LABELS, BoardView, LastPlay, chouette_members, render_chouette
from storage import ChouetteInfo, UserRecord

Seated = dict[int, UserRecord]


def by_key(users: Seated) -> dict[str, str]:
    """Display names by the rules' player id."""
    return {str(user_id): user.display_name for user_id, user in users.items()}


def viewer(game: ChouetteGame) -> int:
    """The board player whose side the board is drawn and numbered from, as a match's board
    is turned to its mover: the side the game waits for (the box to roll, move or answer the
    members' doubles; the team to roll, move or answer the box's), the winner's once the game
    is over, and the team's before the opening roll."""
    side = game.side_to_act
    if side is None:
        side = game.result.winner if game.result is not None else Side.TEAM
    return side.board_player


def board_view(game: ChouetteGame) -> BoardView:
    """The board as the picture and the console's text board show it: whose turn it is is
    the side the game waits for (the team while the box's doubles wait for its answers)."""
    view = BoardView.from_state(game.board)
    side = game.side_to_act
    return view if side is None else replace(view, turn=side.board_player)


def ids_line(game: ChouetteGame) -> str:
    """gnubg's IDs of the board (see :mod:`gammon.chouette.ids`), as a match board ends."""
    return f"Position ID: {position_id(game)} · Match ID: {match_id(game)}"


def box_turnable(game: ChouetteGame) -> tuple[str, ...]:
    """The members whose cube the box has access to (in the game, no double waiting on it,
    not owned by the member), whether or not it is the box's time to double."""
    return tuple(
        cube.member
        for cube in game.cubes
        if cube.live and cube.offered_by is None and cube.owner is not CubeOwner.MEMBER
    )


def box_may_double(game: ChouetteGame) -> tuple[str, ...]:
    """The members whose cube the box may turn now (none once it doubled this turn)."""
    board = game.board
    if (
        game.finished
        or board.phase is not Phase.ROLLING
        or board.player_on_roll != 0
        or game.box_doubled_at == board.dice_events
    ):
        return ()
    return box_turnable(game)


def team_may_double(game: ChouetteGame) -> tuple[str, ...]:
    """The members who may double the box now, on their own cube."""
    board = game.board
    if game.finished or board.phase is not Phase.ROLLING or board.player_on_roll != 1:
        return ()
    return tuple(
        cube.member
        for cube in game.cubes
        if cube.live and cube.offered_by is None and cube.owner is not CubeOwner.BOX
    )


def must_act(game: ChouetteGame) -> tuple[str, ...]:
    """Who the game waits for (the clock's late players): those who must answer a double
    (each doubled member, or the box), else the box or the acting captain to roll or move;
    nobody before the opening roll or once the game is over."""
    if game.finished:
        return ()
    pending = game.pending
    if pending:
        return tuple(
            dict.fromkeys(
                game.table.box if cube.offered_by is Side.TEAM else cube.member for cube in pending
            )
        )
    side = game.side_on_turn
    if side is None:
        return ()
    if side is Side.BOX:
        return (game.table.box,)
    return (game.acting_captain or game.table.captain,)


class ChouetteView:
    """Draws the chouette (or nothing, when pictures are off) and writes its board message."""

    def __init__(
        self,
        painter: Painter,
        attention: Attention,
        enabled: bool = True,
        admission: Admission | None = None,
    ) -> None:
        self._painter = painter
        self._attention = attention  # judged by the chouette's own log
        self.enabled = enabled
        self._admission = admission

    async def picture(
        self, context: Context, game: ChouetteGame, users: Seated, last: LastPlay | None
    ) -> bytes | None:
        if not self.enabled:
            return None
        _ = context.for_chat
        names = by_key(users)
        labels = {key: _(text) for key, text in DEFAULT_LABELS.items()}
        theme = context.user.prefs.theme
        draw = partial(
            render_chouette,
            board_view(game),
            box=names[game.table.box],
            captain=names.get(game.acting_captain or game.table.captain, ""),
            members=chouette_members(game, names),
            labels=labels,
            last_play=last,
            perspective=viewer(game),
            theme=theme if theme in ("classic", "dark") else "classic",
        )
        async with self._admission.aside() if self._admission else nullcontext():
            return await self._painter.paint(draw)

    async def board(
        self,
        context: Context,
        info: ChouetteInfo,
        game: ChouetteGame,
        users: Seated,
        totals: dict[int, int],
        last: LastPlay | None = None,
    ) -> Message:
        _ = context.for_chat
        names = by_key(users)
        headline, actors = self.turn(_, game, names)
        done = caption(_, game, names)
        lines = [
            _("Chouette, game {number}").format(number=info.game_number),
            *([done] if done else []),
            headline,
            *(chouette_texts.cube_line(_, cube, names[cube.member], game) for cube in game.cubes),
            chouette_texts.scores_line(
                _, totals, {user_id: user.display_name for user_id, user in users.items()}
            ),
            ids_line(game),
        ]
        waited_for = [users[int(player)] for player in actors]
        mention, notify = await self._attention.call(context, info.id, *waited_for)
        notices = private_notices(
            waited_for, notify, context.chat, lambda said: self.notice(said, info, game, names)
        )
        return Message(
            context.request.chat,
            "\n".join(lines),
            self.buttons(_, info, game, names),
            image=await self.picture(context, game, users, last),
            board=board_view(game),
            mention=mention,
            notify=notify,
            kind=Public(Slot(f"chouette:{info.id}")),
            notices=notices,
        )

    @staticmethod
    def notice(_: Speech, info: ChouetteInfo, game: ChouetteGame, names: dict[str, str]) -> str:
        """The private notice to a player the game waits for: which chouette, and what to do
        (``#c`` and the number also address it in a private chat with the bot)."""
        return _("The chouette #c{id} waits for you. {turn}").format(
            id=info.id, turn=ChouetteView.turn(_, game, names)[0]
        )

    @staticmethod
    def turn(_: Speech, game: ChouetteGame, names: dict[str, str]) -> tuple[str, list[str]]:
        """What happens now, and who must act."""
        box = names[game.table.box]
        captain = names[game.acting_captain or game.table.captain]
        playing = chouette_texts.playing_captain(_, game, names)  # the captain's role too
        actors = list(must_act(game))
        board = game.board
        dice = board.dice if board.phase is Phase.MOVING else None
        if game.pending:
            text = _("Doubles wait for an answer from: {names}.").format(
                names=", ".join(names[player] for player in actors)
            )
        elif board.phase is Phase.OPENING:  # stopped before the opening roll was written
            text = _("{box} (box) and {captain} (captain): the opening roll, /roll.").format(
                box=box, captain=captain
            )
        elif board.player_on_roll == 0 and dice is not None:
            text = _("{box} (box) to play {roll}: /move …").format(
                box=box, roll=roll_text(_.locale, dice)
            )
        elif board.player_on_roll == 0 and box_may_double(game):
            text = _("{box} (box) to roll, or to double before rolling.").format(box=box)
        elif board.player_on_roll == 0:
            text = _("{box} (box) to roll.").format(box=box)
        elif dice is not None:
            text = _("{captain} to play {roll} for the team: /move …").format(
                captain=playing, roll=roll_text(_.locale, dice)
            )
        elif team_may_double(game):
            text = _("{captain} to roll for the team; members may double the box first.").format(
                captain=playing
            )
        else:
            text = _("{captain} to roll for the team.").format(captain=playing)
        return text, actors

    @staticmethod
    def buttons(
        _: Speech, info: ChouetteInfo, game: ChouetteGame, names: dict[str, str]
    ) -> tuple[Button, ...]:
        if game.finished:
            return ()
        seats = {player: seat for seat, player in enumerate(game.table.order)}
        found: list[Button] = []

        def add(label: str, verb: str, member: str | None = None) -> None:
            target = chouette_target(info.id, seats[member] if member else 0)
            found.append(Button(label, format_token(Token(verb, "h", target, info.version))))

        _answer_buttons(_, game, names, add)
        if game.board.phase is Phase.OPENING:
            add(_("Roll"), Verb.ROLL)
        if game.board.phase is Phase.ROLLING:
            _rolling_buttons(_, game, names, add)
        return tuple(found)


_Add = Callable[..., None]  # a button: its label, its verb, the member it is for (if one)


def _answer_buttons(_: Speech, game: ChouetteGame, names: dict[str, str], add: _Add) -> None:
    """Answers to the cubes offered: the box's to the team, each member's to the box."""
    beavers = game.rules.beavers
    if any(cube.offered_by is Side.BOX for cube in game.pending):
        add(_("Take"), Verb.TAKE)
        if beavers:
            add(_("Beaver"), Verb.BEAVER)
        add(_("Drop"), Verb.DROP)
    for cube in game.pending:
        if cube.offered_by is Side.TEAM:
            add(_("Take {name}").format(name=names[cube.member]), Verb.TAKE, cube.member)
            if beavers:
                name = names[cube.member]
                add(_("Beaver {name}").format(name=name), Verb.BEAVER, cube.member)
            add(_("Drop {name}").format(name=names[cube.member]), Verb.DROP, cube.member)


def _rolling_buttons(_: Speech, game: ChouetteGame, names: dict[str, str], add: _Add) -> None:
    """Before a roll: the roll (unless a cube is pending) and the doubles allowed."""
    if game.board.player_on_roll == 0:
        doubled = box_may_double(game)
        if not game.pending:
            add(_("Roll"), Verb.ROLL)
        if len(doubled) > 1:
            add(_("Double all"), Verb.DOUBLE_ALL)
        for member in doubled:
            add(_("Double {name}").format(name=names[member]), Verb.DOUBLE, member)
    else:
        if not game.pending:
            add(_("Roll"), Verb.ROLL)
        if team_may_double(game):
            add(_("Double the box"), Verb.DOUBLE)
