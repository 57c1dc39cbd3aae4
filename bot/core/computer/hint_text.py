"""How a hint reads in a chat: the best plays with their equities, or the cube action."""

from __future__ import annotations

from bot.core.text.dice_names import roll_text
from bot.core.text.i18n import Speech
from bot.core.text.numbers import signed as signed_number
from engine.api import CubeHint, CubeVerdict, Hint


def signed(value: float, locale: str = "en") -> str:
    """An equity with its sign and three decimals as ``locale`` writes them; a rounded zero
    shows as +0.000."""
    return signed_number(locale, 0.0 if abs(value) < 0.0005 else value, 3)


def _verdict(_: Speech, cube: CubeHint) -> str:
    answer = _("take") if cube.take else _("pass")
    if cube.beaver:
        answer = _("beaver")
    names = {
        CubeVerdict.NO_DOUBLE: _("No double, {answer}"),
        CubeVerdict.DOUBLE_TAKE: _("Double, take"),
        CubeVerdict.DOUBLE_PASS: _("Double, pass"),
        CubeVerdict.DOUBLE_BEAVER: _("Double, beaver"),
        CubeVerdict.TOO_GOOD_TAKE: _("Too good to double, {answer}"),
        CubeVerdict.TOO_GOOD_PASS: _("Too good to double, {answer}"),
    }
    return names[cube.verdict].format(answer=answer)


def _cube_text(_: Speech, cube: CubeHint, taker: bool) -> str:
    if cube.verdict is CubeVerdict.NO_CUBE:
        lines = [_("No cube action now: the cube cannot be turned.")]
    else:
        lines = [_("Cube action: {verdict}.").format(verdict=_verdict(_, cube))]
    lines.append(
        _("No double {nd} · Double/take {dt} · Double/pass {dp}").format(
            nd=signed(cube.no_double, _.locale),
            dt=signed(cube.double_take, _.locale),
            dp=signed(cube.double_pass, _.locale),
        )
    )
    if taker:
        advice = _("beaver") if cube.beaver else _("take") if cube.take else _("pass")
        lines.append(_("Your answer to the double: {advice}.").format(advice=advice))
    lines.append(_("Equities from the doubler's side, per unit of the cube."))
    return "\n".join(lines)


def hint_text(_: Speech, hint: Hint, *, taker: bool = False) -> str:
    """``taker``: the caller answers a double (the cube action is the doubler's)."""
    if hint.cube is not None:
        return _cube_text(_, hint.cube, taker)
    assert hint.dice is not None
    roll = roll_text(_.locale, hint.dice)
    if not hint.plays:
        return _("{roll} cannot be played.").format(roll=roll)
    lines = [_("Best plays for {roll} (equity after the play):").format(roll=roll)]
    for rank, play in enumerate(hint.plays, start=1):
        behind = f"  ({signed(play.difference, _.locale)})" if rank > 1 else ""
        lines.append(f"{rank}. {play.notation}  {signed(play.equity, _.locale)}{behind}")
    return "\n".join(lines)
