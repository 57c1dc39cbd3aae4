"""``/take``, ``/drop`` and ``/beaver`` typed at a chouette: whose double the answer is for.

A team member answers the box's double on their own cube and names nobody (naming
themselves, or the box whose double it is, means the same). The box answers a member's
double and names the member, by a mention or by name (``/take @bob``, ``/take bob``). Without
a name the box answers the one member's double that waits; when several wait it is refused,
and the refusal names them, for ``/drop`` as for ``/take``: each answer is for one cube and a
drop cannot be taken back, so the box says whose it is.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

from bot.core.chouette.play import Make
from bot.core.chouette.view import Seated, by_key
from bot.core.model import Actor
from bot.core.people import clean_name
from bot.core.refusal import Refusal
from bot.core.text.i18n import Speech
from bot.core.text.player_text import isolated
from gammon.chouette import (
    Answer,
    BoxAnswers,
    ChouetteAction,
    ChouetteGame,
    MemberAnswers,
    Side,
)

# The users by our ids (the request's own reader of them: each read once).
Users = Callable[[Sequence[int]], Awaitable[Seated]]


def typed_answer(
    _: Speech, answer: Answer, seated: Users, mentions: Sequence[Actor], argument: str
) -> Make:
    """The caller's typed answer, made from the game as it is now: the names a box may use
    are those of the players at this game, ``mentions`` and ``argument`` what the command
    named."""

    async def make(game: ChouetteGame, player: str, _nonce: int) -> ChouetteAction:
        users = await seated([int(key) for key in game.table.order])
        named = named_player(_, users, mentions, argument)
        if named == player:
            named = None
        if player == game.table.box:
            member = named or only_waiting(_, game, by_key(users), answer)
            return BoxAnswers(player, member, answer)
        if named is not None and named != game.table.box:
            raise Refusal(
                _(
                    "Each member answers only the double on their own cube: type /{command} "
                    "without a name."
                ).format(command=answer.value)
            )
        own = next((cube for cube in game.cubes if cube.member == player), None)
        if own is not None and own.live and own.offered_by is not Side.BOX:
            raise Refusal(_("No double waits for your answer."))
        return MemberAnswers(player, answer)  # the rules refuse anyone out of the game

    return make


def named_player(_: Speech, users: Seated, mentions: Sequence[Actor], argument: str) -> str | None:
    """The seated player (the rules' player id) a command names: its first mention, else the
    argument as a name (the whole name, or the start of exactly one name, in any case, with
    or without an @); None when it names nobody."""
    if mentions:
        mention = mentions[0]
        for user_id, user in users.items():
            if (user.platform, user.platform_user_id) == (mention.platform, mention.user_id):
                return str(user_id)
        raise Refusal(_not_here(_, clean_name(mention.name, mention.user_id)))
    # Read once, as names are kept (no control or format characters, single spaces): the
    # name looked up is the name a refusal shows.
    typed = clean_name(argument, "")
    text = typed.removeprefix("@").casefold()
    if not text:
        return None
    exact = [key for key, user in users.items() if user.display_name.casefold() == text]
    found = exact or [
        key for key, user in users.items() if user.display_name.casefold().startswith(text)
    ]
    if not found:
        raise Refusal(_not_here(_, isolated(typed)))
    if len(found) > 1:
        raise Refusal(
            _("Several players here are called {name}: {names}. Mention the one you mean.").format(
                name=isolated(typed),
                names=", ".join(users[key].display_name for key in found),
            )
        )
    return str(found[0])


def named_players(_: Speech, users: Seated, mentions: Sequence[Actor], argument: str) -> list[str]:
    """Every seated player a command names (``/double @bob cy``), each once: the mentions,
    and the argument's text read as one name or, when it is none, as names apart (split at
    spaces and commas). Words starting with @ are the mentions' own when there are any."""
    named = [named_player(_, users, (mention,), "") for mention in mentions]
    words = [word for word in re.split(r"[\s,]+", argument) if word]
    if mentions:
        words = [word for word in words if not word.startswith("@")]
    if words:
        try:
            named.append(named_player(_, users, (), " ".join(words)))
        except Refusal:
            if len(words) == 1:
                raise
            named += [named_player(_, users, (), word) for word in words]
    return list(dict.fromkeys(player for player in named if player is not None))


def only_waiting(_: Speech, game: ChouetteGame, names: dict[str, str], answer: Answer) -> str:
    """The one member whose double waits for the box's answer; refused when none or several
    do (the refusal names them)."""
    waiting = [cube.member for cube in game.pending if cube.offered_by is Side.TEAM]
    if not waiting:
        raise Refusal(_("No double waits for your answer."))
    if len(waiting) > 1:
        raise Refusal(
            _("Several doubles wait for you: {names}. Answer one with /{command} NAME.").format(
                names=", ".join(names[member] for member in waiting), command=answer.value
            )
        )
    return waiting[0]


def _not_here(_: Speech, name: str) -> str:
    return _("Nobody called {name} plays at this table.").format(name=name)
