"""``/suggest 13/10* 6/5`` at a chouette: who may advise the acting captain now, and the play
they suggest, read as the captain would have to play it."""

from __future__ import annotations

from bot.core.text import texts
from bot.core.text.i18n import Speech
from gammon.actions import Move
from gammon.chouette import ChouetteGame, Consultation, Side, advisers
from gammon.flow import ActionError, Phase, advance


def refusal_to_advise(_: Speech, game: ChouetteGame, player: str) -> str | None:
    """Why ``player`` (the rules' id) may not advise the captain now; None when they may."""
    if game.finished:
        return _("No chouette game is being played here.")
    if player == game.table.box:
        return _("The box plays alone: it does not advise the team.")
    if player not in game.table.team:
        return _("You do not play in this game.")
    cube = game.cube(player)
    if cube.dropped_by is Side.BOX:
        return _("The box dropped your double: your game is over, you no longer advise.")
    if cube.dropped_by is Side.TEAM:
        return _("You dropped out of this game: you no longer advise.")
    if player == game.acting_captain:
        return _("You are the captain: play it with /move.")
    if game.rules.consultation is Consultation.CAPTAIN:
        return _("At this table the captain decides alone: nobody advises.")
    if player not in advisers(game):
        return _("Only members whose cube has been turned advise here.")
    board = game.board
    if board.phase is not Phase.MOVING or board.player_on_roll != Side.TEAM.board_player:
        return _("The team has no roll to play now.")
    return None


def suggested_play(_: Speech, game: ChouetteGame, text: str) -> str:
    """The suggested play in canonical notation; raises :class:`ValueError` with the
    refusal when it is not a legal play of the team's roll."""
    try:
        _after, recorded = advance(game.board, Move(Side.TEAM.board_player, text))
    except ActionError as error:
        raise ValueError(texts.action_refusal(_, error)) from None
    written = recorded[0]
    assert isinstance(written, Move)
    return written.play
