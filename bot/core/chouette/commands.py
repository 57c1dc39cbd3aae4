"""``/chouette`` and ``/suggest``, the chouette's buttons, and ``/roll``, ``/move``,
``/double``, ``/take``, ``/drop`` and ``/beaver`` for a player who sits in the chat's chouette
game and has no match here, or who types them in a private chat with the bot while their
chouette game waits for them.

The parts: :mod:`bot.core.chouette.seating` (the table between games),
:mod:`bot.core.chouette.joining` (joining and leaving),
:mod:`bot.core.chouette.play` (the game's actions), :mod:`bot.core.chouette.answers` (whose
double a typed answer is for), :mod:`bot.core.chouette.doubling` (whom a double is for),
:mod:`bot.core.chouette.advice` (who may advise, and what), :mod:`bot.core.chouette.rounds`
(from one game to the next), :mod:`bot.core.chouette.view` (the board message),
:mod:`bot.core.chouette.narration` (what was just played, in words),
:mod:`bot.core.chouette.check` (the dice made checkable, and ``/verify`` at the chouette),
:mod:`bot.core.chouette.private` (from a private chat) and :mod:`bot.core.chouette.texts` (the
sentences)."""

from __future__ import annotations

from functools import partial

from bot.core.chouette import actions as chouette_actions
from bot.core.chouette import answers as chouette_answers
from bot.core.chouette.advice import refusal_to_advise, suggested_play
from bot.core.chouette.check import ChouetteCheck
from bot.core.chouette.doubling import box_doubles_all, typed_double
from bot.core.chouette.joining import ChouetteJoining
from bot.core.chouette.play import ChouettePlay, Make
from bot.core.chouette.private import ChouetteInPrivate
from bot.core.chouette.rounds import ChouetteRounds
from bot.core.chouette.seating import ChouetteSeating
from bot.core.context import Context
from bot.core.match.match_finder import MatchFinder
from bot.core.match.options import OptionError, parse_challenge_options
from bot.core.model import MAX_TEXT, Message
from bot.core.tokens import Token, Verb, chouette_seat
from gammon.chouette import Answer, ChouetteRules, Consultation
from storage import ChouetteInfo, ChouetteRepository, ChouetteStatus, MatchInfo, NotFoundError

ACTIONS = ("join", "leave", "start", "score", "end", "show")
_ANSWERS: dict[str, Answer] = {
    Verb.TAKE: Answer.TAKE,
    Verb.DROP: Answer.DROP,
    Verb.BEAVER: Answer.BEAVER,
}


def parse_rules(words: list[str]) -> tuple[ChouetteRules, int | None] | None:
    """The options of a new table (``captain``, ``turned``, ``team``, ``jacoby``, ``beaver``,
    and ``time=24h`` as for /challenge: the move time limit in seconds, none by default);
    None when a word is none of them."""
    consultation, jacoby, beavers = Consultation.TEAM, False, False
    limit: int | None = None
    for word in words:
        if word.startswith(("time=", "limit=")):
            try:
                limit = parse_challenge_options(word).move_time_limit
            except OptionError:
                return None
        elif word in ("team", "turned", "captain"):
            consultation = Consultation(word)
        elif word == "jacoby":
            jacoby = True
        elif word in ("beaver", "beavers"):
            beavers = True
        else:
            return None
    return ChouetteRules(consultation, jacoby, beavers), limit


class ChouetteService:
    def __init__(
        self,
        chouettes: ChouetteRepository,
        seating: ChouetteSeating,
        joining: ChouetteJoining,
        play: ChouettePlay,
        finder: MatchFinder,
        check: ChouetteCheck,
    ) -> None:
        self.chouettes = chouettes
        self.check = check
        self.seating = seating
        self.joining = joining
        self.play = play
        self.private = ChouetteInPrivate(chouettes, finder, self.fallback)

    async def chouette(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        words = argument.lower().split()
        action = words[0] if words and words[0] in ACTIONS else None
        if action == "show":  # Discord's choice for the bare command: open or show
            action, words = None, words[1:]
        loaded = None
        if not context.request.chat.private:
            loaded = await self.chouettes.active_for_chat(context.chat.id)
        if loaded is not None and loaded.info.status is ChouetteStatus.ENDED:
            loaded = None  # ended between the two reads: the chat is free
        if action is None:
            options = parse_rules(words)
            if options is None:
                return context.refuse(_help(context))
            if loaded is not None:
                shown = await self.seating.show(context, loaded)
                if not words:
                    return shown
                refused = _("This chat has a chouette table already; its options stay as they are.")
                return [*context.refuse(refused), *shown]
            return await self.seating.open_or_show(context, *options)
        if loaded is None:
            return await self._none_here(context)
        info = loaded.info
        if action == "score":
            return await self.seating.scores(context, loaded)
        if action == "join":
            return await self.joining.join(context, info)
        if action == "leave":
            return await self.joining.leave(context, info)
        if action == "start":
            return await self.seating.start(context, info)
        return await self.seating.end(context, info)

    async def _none_here(self, context: Context) -> list[Message]:
        """The answer to ``/chouette join``, ``leave``, ``start``, ``score`` or ``end`` where no
        session is open: that the chat's last one has ended (another process's end may have
        come a moment before), with its final scores; else that there is none."""
        ended = None
        if not context.request.chat.private:
            ended = await self.chouettes.latest_ended_in_chat(context.chat.id)
        if ended is not None:
            return await self.play.rounds.ended(context, ended.id)
        return context.refuse(
            context._("There is no chouette in this chat. Open one with /chouette.")
        )

    async def suggest(self, context: Context, argument: str) -> list[Message]:
        """``/suggest 13/10* 6/5``: a team member's advice, posted for the captain."""
        _ = context._
        play = argument.strip()[:MAX_TEXT]
        if not play:
            return context.refuse(_("Write the play after /suggest, e.g. /suggest 13/10* 6/5"))
        chouette_id = None
        if not context.request.chat.private:
            chouette_id = await self.chouettes.active_id_for_chat(context.chat.id)
        game = (await self.chouettes.load(chouette_id)).game if chouette_id is not None else None
        if game is None:
            return context.refuse(_("No chouette game is being played here."))
        refused = refusal_to_advise(_, game, str(context.user.id))
        if refused is not None:
            return context.refuse(refused)
        try:
            written = suggested_play(_, game, play)
        except ValueError as error:
            return context.refuse(str(error))
        users = await self.play.rounds.seated(context, [int(game.acting_captain or "0")])
        captain = next(iter(users.values()))
        _ = context.for_chat  # the whole chat reads the advice
        text = _("{name} suggests {play}").format(name=context.user.display_name, play=written)
        return [Message(context.request.chat, text, mention=(captain.platform_user_id,))]

    async def _seated_here(self, context: Context) -> ChouetteInfo | None:
        """The chat's chouette, when the caller sits at it (between games too)."""
        if context.request.chat.private:
            return None
        chouette_id = await self.chouettes.active_id_for_chat(context.chat.id)
        if chouette_id is None:
            return None
        info = await self.chouettes.info(chouette_id)
        return info if info.is_seated(context.user.id) else None

    async def fallback(self, context: Context, verb: str, argument: str) -> list[Message] | None:
        """``/roll``, ``/move``, ``/double``, ``/take``, ``/drop`` or ``/beaver`` from a player
        without a match here: acted on in the chat's chouette game when they sit in it (refused
        between games); None when they do not sit at the chat's chouette."""
        info = await self._seated_here(context)
        if info is None:
            return None
        if info.status is ChouetteStatus.ENDED:  # a moment ago, in another process
            return await self.play.rounds.ended(context, info.id)
        if info.status is not ChouetteStatus.PLAYING:
            return context.refuse(context._("No chouette game is being played here."))
        chouette_id = info.id
        if verb == "roll":
            make = chouette_actions.roll(self.chouettes, chouette_id)
        elif verb == "move":
            make = chouette_actions.move(argument.strip())
        elif verb in _ANSWERS:
            make = _typed_answer(context, self.play.rounds, _ANSWERS[verb], argument)
        else:
            make = typed_double(
                context._,
                partial(self.play.rounds.seated, context),
                context.request.mentions,
                argument,
            )
        return await self.play.act(context, make, chouette_id)

    async def in_private(
        self, context: Context, verb: str, argument: str, wanted: int | None = None
    ) -> list[Message] | None:
        """The same typed in a private chat: acted on in the caller's chouette game that
        waits for them (``wanted``: the one they named with ``#c``), in its chat; None when
        the command means their match (:class:`ChouetteInPrivate` says which)."""
        return await self.private.answer(context, verb, argument, wanted)

    async def verify(self, context: Context, match: MatchInfo | None) -> list[Message] | None:
        """``/verify`` in a group chat, for the chat's chouette: the one not ended yet, or
        the one that ended last when it ended after ``match`` (the caller's latest match
        here, finished: an active match of theirs comes first). None when it is the match's
        to answer, or the chat has no chouette."""
        if context.request.chat.private:
            return None
        running = await self.chouettes.active_id_for_chat(context.chat.id)
        if running is not None:
            return await self.check.verify(context, await self.chouettes.info(running))
        ended = await self.chouettes.latest_ended_in_chat(context.chat.id)
        if ended is None or ended.ended_at is None:
            return None
        if match is not None and (match.finished_at or match.updated_at) > ended.ended_at:
            return None
        return await self.check.verify(context, ended)

    async def press(self, context: Context, token: Token) -> list[Message]:
        _ = context._
        if token.verb in (Verb.END, Verb.KEEP_PLAYING):
            return await self.seating.confirm_end(context, token)
        chouette_id, seat = chouette_seat(token.target)
        try:
            info = await self.chouettes.info(chouette_id)
        except NotFoundError:
            return context.refuse(_("That button is out of date."))
        member = str(info.seats[seat]) if 0 < seat < len(info.seats) else None
        if seat and member is None:
            return context.refuse(_("That button is out of date."))
        if token.verb == Verb.ROLL:
            make = chouette_actions.roll(self.chouettes, chouette_id)
        elif token.verb == Verb.DOUBLE_ALL:
            make = box_doubles_all(_)
        elif token.verb == Verb.DOUBLE:
            make = (
                chouette_actions.member_doubles()
                if member is None
                else chouette_actions.box_doubles(member)
            )
        elif token.verb in _ANSWERS:
            make = chouette_actions.answer(_ANSWERS[token.verb], member)
        else:
            return context.refuse(_("That button is out of date."))
        return await self.play.act(context, make, chouette_id, token.version)


def _help(context: Context) -> str:
    return context._(
        "/chouette [team|turned|captain] [jacoby] [beaver] [time=24h] opens a table; "
        "/chouette join, leave, start, score, end."
    )


def _typed_answer(context: Context, rounds: ChouetteRounds, answer: Answer, argument: str) -> Make:
    return chouette_answers.typed_answer(
        context._, answer, partial(rounds.seated, context), context.request.mentions, argument
    )
