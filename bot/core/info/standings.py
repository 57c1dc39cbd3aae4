"""``/stats`` and ``/top``: ratings, statistics and leaderboards, in a chat and overall, for
backgammon and (with ``nardy``) long nardy, which are rated apart.

The leaderboard is text and a picture in the board's style, drawn by the painter's process.
Numbers are written the way the reader's language writes them (Babel).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from bot.core.context import Context
from bot.core.model import Message
from bot.core.runtime.painter import Painter
from bot.core.text.i18n import speech
from bot.core.text.numbers import decimal, whole
from bot.core.text.ratings import rating_text
from gammon.rating import Standing
from rendering import LeaderboardLabels, LeaderboardLine, draw_leaderboard
from storage import Ranked, RatingRepository, UserRecord, UserRepository
from storage.player_results import PlayerResultRepository, Statistics
from storage.ratings import LEADERBOARD_EXPERIENCE

MINIMUM_EXPERIENCE = LEADERBOARD_EXPERIENCE  # match points before a player is on a board
TOP = 10
NARDY_WORDS = frozenset({"nardy", "nardi", "longnardy", "нарды"})
ALL_WORDS = frozenset({"all", "everyone", "global", "alle"})


@dataclass(frozen=True)
class Question:
    """What ``/stats`` or ``/top`` asked for: the game, and for ``/top`` whose board."""

    game: str
    everyone: bool


def read_question(argument: str) -> Question:
    words = {"".join(char for char in word.lower() if char.isalnum()) for word in argument.split()}
    return Question("nardy" if words & NARDY_WORDS else "backgammon", bool(words & ALL_WORDS))


@dataclass(frozen=True)
class StandingsService:
    ratings: RatingRepository
    results: PlayerResultRepository
    users: UserRepository
    painter: Painter

    async def stats(self, context: Context, argument: str) -> list[Message]:
        """The statistics of the caller, or of the player mentioned."""
        question = read_question(argument)
        who = await self._subject(context)
        if who is None:
            return context.refuse(context._("I do not know that player yet."))
        overall = await self.results.statistics(who.id, question.game)
        here = await self.results.statistics(who.id, question.game, chat_id=context.chat.id)
        standing = await self.ratings.standing(who.id, question.game)
        rank = await self.ratings.rank(who.id, question.game, MINIMUM_EXPERIENCE)
        text = StatisticsText(context.chat_locale).text(  # posted for the whole chat
            who, question.game, standing, rank, here, overall
        )
        return [Message(context.request.chat, text, locale=context.chat_locale)]

    async def _subject(self, context: Context) -> UserRecord | None:
        mentions = context.request.mentions
        if not mentions:
            return context.user
        mentioned = mentions[0]
        return await self.users.find_user(mentioned.platform, mentioned.user_id)

    async def top(self, context: Context, argument: str) -> list[Message]:
        """The best ten by rating in this chat (or of everyone), and the caller's own place."""
        question = read_question(argument)
        chat_id = None if question.everyone else context.chat.id
        best, rank = await self.ratings.leaderboard(
            context.user.id, question.game, MINIMUM_EXPERIENCE, TOP, chat_id
        )
        standing = await self.ratings.standing(context.user.id, question.game)
        board = LeaderboardText(context.chat_locale, question, context.user.id)
        lines = [board.line(ranked) for ranked in best]
        own = None
        if rank is not None and rank > TOP:
            own = board.line(
                Ranked(
                    rank,
                    context.user.id,
                    context.user.display_name,
                    standing.rating,
                    standing.experience,
                )
            )
        text = board.text(lines, own, context.user.display_name, standing.experience)
        picture = partial(draw_leaderboard, lines, board.labels(), own)
        return [
            Message(
                context.request.chat,
                text,
                image=await self.painter.paint(picture),
                locale=context.chat_locale,
            )
        ]


class LeaderboardText:
    def __init__(self, locale: str, question: Question, asking: int) -> None:
        self.locale = locale
        self._ = speech(locale)
        self.question = question
        self.asking = asking

    def title(self) -> str:
        _ = self._
        game = _("long nardy") if self.question.game == "nardy" else _("backgammon")
        where = _("everyone") if self.question.everyone else _("this chat")
        return _("Top {count} · {game} · {where}").format(count=TOP, game=game, where=where)

    def labels(self) -> LeaderboardLabels:
        _ = self._
        return LeaderboardLabels(
            self.title(),
            player=_("Player"),
            rating=_("Rating"),
            experience=_("Experience"),
            empty=_.ngettext(
                "Nobody has played {points} point of rated matches yet.",
                "Nobody has played {points} points of rated matches yet.",
                MINIMUM_EXPERIENCE,
            ).format(points=MINIMUM_EXPERIENCE),
        )

    def line(self, ranked: Ranked) -> LeaderboardLine:
        return LeaderboardLine(
            rank=whole(self.locale, ranked.rank),
            name=ranked.display_name,
            rating=rating_text(self.locale, ranked.rating),
            experience=whole(self.locale, ranked.experience),
            own=ranked.user_id == self.asking,
            place=ranked.rank,
        )

    def text(
        self,
        lines: list[LeaderboardLine],
        own: LeaderboardLine | None,
        asking_name: str,
        experience: int,
    ) -> str:
        """The board as text: a row a player, their experience labelled; below it the
        asker's place, or how much experience a place needs and how much they have."""
        _ = self._
        rows = [self.title()]
        rows += [
            _("{rank}. {name} — {rating} · experience {points}").format(
                rank=line.rank, name=line.name, rating=line.rating, points=line.experience
            )
            for line in lines
        ]
        if not lines:
            rows.append(self.labels().empty)
        if own is not None:
            rows.append(_("Your place: {rank}").format(rank=own.rank))
        elif not any(line.own for line in lines) and experience < MINIMUM_EXPERIENCE:
            rows.append(
                _.ngettext(
                    "A place here needs {points} point of rated matches; {name} has {experience}.",
                    "A place here needs {points} points of rated matches; {name} has {experience}.",
                    MINIMUM_EXPERIENCE,
                ).format(
                    points=whole(self.locale, MINIMUM_EXPERIENCE),
                    name=asking_name,
                    experience=whole(self.locale, experience),
                )
            )
        return "\n".join(rows)


class StatisticsText:
    def __init__(self, locale: str) -> None:
        self.locale = locale
        self._ = speech(locale)

    def text(
        self,
        who: UserRecord,
        game: str,
        standing: Standing,
        rank: int | None,
        here: Statistics,
        overall: Statistics,
    ) -> str:
        _ = self._
        rating, experience = standing.rating, standing.experience
        title = _("long nardy") if game == "nardy" else _("backgammon")
        rows = [f"{who.display_name} — {title}"]
        rows.append(
            _("Rating {rating} · experience {points}").format(
                rating=rating_text(self.locale, rating), points=whole(self.locale, experience)
            )
            + (" · " + _("rank {rank}").format(rank=whole(self.locale, rank)) if rank else "")
        )
        if overall.played == 0 and not overall.against_bot:
            rows.append(_("No finished match yet."))
            return "\n".join(rows)
        rows.append(self._matches(_("Everywhere"), overall))
        rows += self._details(overall)
        rows.append(self._matches(_("In this chat"), here))
        if here.played:
            rows += self._details(here)
        if overall.opponents:
            named = ", ".join(f"{o.display_name} ({o.matches})" for o in overall.opponents)
            rows.append(_("Played most: {names}").format(names=named))
        if overall.error_rate is not None:
            rows.append(
                _("Error rate: {rate} on average (analysed matches: {count})").format(
                    rate=decimal(self.locale, overall.error_rate, 1),
                    count=overall.analysed,
                )
            )
        if overall.against_bot:
            records = ", ".join(
                f"{level} {won}–{lost}"
                for level, (won, lost) in sorted(overall.against_bot.items())
            )
            rows.append(_("Against the bot: {records}").format(records=records))
        return "\n".join(rows)

    def _details(self, stats: Statistics) -> list[str]:
        """Games, cube and streaks, indented under their heading."""
        _ = self._
        lines = [
            _(
                "Games won: {single} single, {gammon} gammon, {backgammon} backgammon; lost: {lost}"
            ).format(
                single=stats.singles_won,
                gammon=stats.gammons_won,
                backgammon=stats.backgammons_won,
                lost=stats.games_lost,
            ),
            _("Doubles offered: {offered}; taken: {taken}; dropped: {dropped}").format(
                offered=stats.doubles_offered,
                taken=stats.doubles_taken,
                dropped=stats.doubles_dropped,
            ),
            _("Winning streak: {current} now, {longest} at best").format(
                current=stats.current_streak, longest=stats.longest_streak
            ),
        ]
        return ["  " + line for line in lines]

    def _matches(self, where: str, stats: Statistics) -> str:
        return self._("{where}: {played} played, {won} won, {lost} lost").format(
            where=where, played=stats.played, won=stats.matches_won, lost=stats.matches_lost
        )
