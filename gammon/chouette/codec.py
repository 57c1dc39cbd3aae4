"""Chouette actions and tables as JSON-ready dicts, and back: the form the event log keeps.

The stored record of a chouette game is its table, its rules and these action dicts, so
:func:`gammon.chouette.flow.replay` rebuilds any game after a restart. Reading is strict:
anything that is not exactly what :func:`chouette_action_to_dict` writes raises
``ValueError``, so a damaged record is noticed when it is read rather than replayed wrongly.

>>> chouette_action_to_dict(BoxDoubles("7", ["8", "9"]))
{'type': 'box_doubles', 'player': '7', 'members': ['8', '9']}
>>> chouette_action_from_dict({"type": "member_doubles", "player": "8"})
MemberDoubles(player='8')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from gammon.actions import action_from_dict, action_to_dict
from gammon.chouette.actions import (
    Answer,
    BoardAction,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    MemberAnswers,
    MemberDoubles,
)
from gammon.chouette.table import ChouetteTable


def chouette_action_to_dict(action: ChouetteAction) -> dict[str, Any]:
    """A JSON-ready dict naming the action's ``type`` and its fields; a board action keeps
    its gammon action as :func:`gammon.actions.action_to_dict` writes it."""
    data: dict[str, Any] = {"type": action.kind, "player": action.player}
    if isinstance(action, BoxDoubles):
        data["members"] = list(action.members)
    elif isinstance(action, MemberAnswers):
        data["answer"] = action.answer.value
    elif isinstance(action, BoxAnswers):
        data["member"] = action.member
        data["answer"] = action.answer.value
    elif isinstance(action, BoardAction):
        data["action"] = action_to_dict(action.action)
    elif not isinstance(action, MemberDoubles):
        raise ValueError(f"not a chouette action: {action!r}")
    return data


def chouette_action_from_dict(data: dict[str, Any]) -> ChouetteAction:
    """The inverse of :func:`chouette_action_to_dict`; raises ``ValueError`` on anything
    else (an unknown type, a missing or extra field, a value of the wrong kind)."""
    if not isinstance(data, dict):
        raise ValueError(f"not a chouette action: {data!r}")
    reader = _READERS.get(data.get("type"))  # type: ignore[arg-type]
    if reader is None:
        raise ValueError(f"not a chouette action: {data!r}")
    fields, read = reader
    if set(data) != {"type", "player", *fields}:
        raise ValueError(f"{data['type']} has the fields {sorted(fields)}: {data!r}")
    return read(data)


def table_to_dict(table: ChouetteTable) -> dict[str, Any]:
    """The rotation order, box first: ``{"order": ["7", "8", "9"]}``."""
    return {"order": list(table.order)}


def table_from_dict(data: dict[str, Any]) -> ChouetteTable:
    """The inverse of :func:`table_to_dict`. Only the form is checked (player ids are
    non-empty strings, none twice), not the number of players: a table read back is the
    table that was written, whatever the rules said of it then."""
    if not isinstance(data, dict) or set(data) != {"order"}:
        raise ValueError(f"not a chouette table: {data!r}")
    order = data["order"]
    if not isinstance(order, list):
        raise ValueError(f"a table's order is a list: {data!r}")
    players = tuple(_player(player) for player in order)
    if len(set(players)) != len(players):
        raise ValueError(f"a player sits at a table once: {data!r}")
    return ChouetteTable(players)


# --- reading each kind -----------------------------------------------------------------------


def _player(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"a player is a non-empty string: {value!r}")
    return value


def _answer(value: object) -> Answer:
    if not isinstance(value, str):
        raise ValueError(f"an answer is text: {value!r}")
    return Answer(value)  # ValueError for an unknown answer


def _box_doubles(data: dict[str, Any]) -> BoxDoubles:
    members = data["members"]
    if not isinstance(members, list):
        raise ValueError(f"members are a list: {data!r}")
    return BoxDoubles(_player(data["player"]), [_player(member) for member in members])


def _member_answers(data: dict[str, Any]) -> MemberAnswers:
    return MemberAnswers(_player(data["player"]), _answer(data["answer"]))


def _member_doubles(data: dict[str, Any]) -> MemberDoubles:
    return MemberDoubles(_player(data["player"]))


def _box_answers(data: dict[str, Any]) -> BoxAnswers:
    return BoxAnswers(_player(data["player"]), _player(data["member"]), _answer(data["answer"]))


def _board(data: dict[str, Any]) -> BoardAction:
    return BoardAction(_player(data["player"]), action_from_dict(data["action"]))


_READERS: Final[dict[str, tuple[tuple[str, ...], Callable[[dict[str, Any]], ChouetteAction]]]] = {
    BoxDoubles.kind: (("members",), _box_doubles),
    MemberAnswers.kind: (("answer",), _member_answers),
    MemberDoubles.kind: ((), _member_doubles),
    BoxAnswers.kind: (("member", "answer"), _box_answers),
    BoardAction.kind: (("action",), _board),
}
