"""The organisers a chat's defaults name besides its administrators (``/defaults
organisers=…``): users, and on Discord a role whose members are organisers. They open and run
tournaments and leagues (:attr:`~bot.core.permissions.Permission.ORGANISER`).

They are kept with the chat's other defaults, in its settings, as the users' ids and the role's
platform id and name (the name as it was when it was named, for showing it).

>>> named = Organisers((3, 5), Role("42", "Staff"))
>>> Organisers.of({"organisers": named.stored()}) == named
True
>>> Organisers.of({}), bool(Organisers.of({"organisers": None}))
(Organisers(user_ids=(), role=None), False)
>>> split_organisers("length 5 organisers=@bob @carl")
('', 'length 5')
>>> split_organisers("Organisers=none language de"), split_organisers("organisers none")
(('none', 'language de'), ('none', ''))
>>> split_organisers("length 5")
(None, 'length 5')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.core.context import Context
from bot.core.model import Request, Role
from bot.core.permissions import AdminPorts
from storage import ChatRecord, UserRepository

KEY: Final = "organisers"  # in a chat's settings
_WORDS: Final = frozenset({"organisers", "organizers"})  # how /defaults names them


@dataclass(frozen=True)
class Organisers:
    user_ids: tuple[int, ...] = ()
    role: Role | None = None

    def __bool__(self) -> bool:
        return bool(self.user_ids) or self.role is not None

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Organisers:
        """The organisers a chat's settings name (none when they name none)."""
        stored = settings.get(KEY)
        if not isinstance(stored, dict):
            return cls()
        role = stored.get("role")
        return cls(
            tuple(int(user_id) for user_id in stored.get("users", ())),
            Role(str(role["id"]), str(role["name"])) if isinstance(role, dict) else None,
        )

    def stored(self) -> dict[str, Any] | None:
        """As the chat's settings keep it (None: nobody is named)."""
        if not self:
            return None
        role = None if self.role is None else {"id": self.role.role_id, "name": self.role.name}
        return {"users": list(self.user_ids), "role": role}


async def named_organiser(
    ports: AdminPorts, request: Request, user_id: int, chat: ChatRecord
) -> bool:
    """Whether the chat's defaults name the asker (``user_id``) an organiser, or a role they
    hold: the platform is asked about the role only when the user is not named."""
    named = Organisers.of(chat.settings)
    if user_id in named.user_ids:
        return True
    return named.role is not None and await ports.has_role(
        request.actor, request.chat, named.role.role_id
    )


async def organiser_names(context: Context, users: UserRepository) -> str:
    """The chat's organisers as the chat reads them: the role as ``@name``, then the users'
    names ("" when none is named)."""
    named = Organisers.of(context.chat.settings)
    names = [] if named.role is None else [f"@{named.role.name}"]
    for user_id in named.user_ids:
        known = context.known_users.get(user_id) or await users.get_user(user_id)
        context.known_users.setdefault(user_id, known)
        names.append(known.display_name)
    return ", ".join(names)


def split_organisers(argument: str) -> tuple[str | None, str]:
    """What ``/defaults``' argument says of the organisers: None when nothing, ``"none"`` when
    it clears them, ``""`` when it names those it mentions; and the rest of the argument,
    without that part and without the mentions' ``@names`` (the mentions come resolved)."""
    words: list[str] = []
    for word in argument.split():
        key, equals, value = word.partition("=")
        if equals and key.lower() in _WORDS:
            words += [KEY, value] if value and not value.startswith("@") else [KEY]
        elif not word.startswith("@"):
            words.append(KEY if word.lower() in _WORDS else word)
    if KEY not in words:
        return None, " ".join(words)
    at = words.index(KEY)
    clears = at + 1 < len(words) and words[at + 1].lower() == "none"
    rest = words[:at] + words[at + (2 if clears else 1) :]
    return ("none" if clears else ""), " ".join(rest)
