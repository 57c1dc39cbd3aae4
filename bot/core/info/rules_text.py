"""``/rules [topic]``: the rules in our own words, chapter by chapter, with a board where a
picture explains better. Every chapter is a gettext message, so it exists in each language."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.core.text.i18n import LOCALES, N_, Speech, speech
from gammon import Position, Variant
from rendering import BoardView, LastPlay


@dataclass(frozen=True)
class Chapter:
    topic: str
    title: str  # a message id, translated where it is shown
    aliases: tuple[str, ...]
    picture: Position | None
    last_play: str | None = None  # highlighted on the picture (White's own numbering)


def _example_hit() -> Position:
    """White has just hit on its 10 point with 13/10* 6/5; Black waits on the bar."""
    white = {5: 2, 6: 3, 8: 3, 10: 1, 13: 4, 24: 2}
    black = {1: 2, 12: 5, 17: 3, 19: 4}
    return Position.from_points(
        white, {25 - point: count for point, count in black.items()} | {25: 1}
    )


def _example_bear_off() -> Position:
    return Position.from_points(
        {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}, {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}
    )


CHAPTERS: tuple[Chapter, ...] = (
    Chapter("overview", N_("Overview"), ("overview", "überblick", "ueberblick", "start"), None),
    Chapter("setup", N_("Setup"), ("setup", "aufbau"), Position.start()),
    Chapter("movement", N_("Movement"), ("movement", "moving", "ziehen", "zug"), None),
    Chapter(
        "hitting",
        N_("Hitting and the bar"),
        ("hitting", "bar", "schlagen"),
        _example_hit(),
        "13/10* 6/5",
    ),
    Chapter(
        "bearing off",
        N_("Bearing off"),
        ("bearingoff", "bearoff", "off", "abtragen"),
        _example_bear_off(),
    ),
    Chapter("doubling", N_("Doubling"), ("doubling", "cube", "doppeln", "doppler"), None),
    Chapter("crawford", N_("The Crawford rule"), ("crawford",), None),
    Chapter("scoring", N_("Scoring"), ("scoring", "gammon", "wertung"), None),
    Chapter("notation", N_("Notation"), ("notation", "schreibweise"), None),
    Chapter(
        "long nardy",
        N_("Long nardy"),
        ("nardy", "longnardy", "nardi", "nardy", "langnardy"),
        Position.start("long_nardy"),
    ),
    Chapter("fair dice", N_("Fair dice"), ("dice", "fair", "fairdice", "würfel", "wuerfel"), None),
    Chapter("rating", N_("Rating"), ("rating", "ratings", "elo", "fibs", "wertung"), None),
    Chapter("chouette", N_("Chouette"), ("chouette", "box", "captain"), None),
    Chapter(
        "tournament",
        N_("Tournaments"),
        ("tournament", "tournaments", "turnier", "knockout", "swiss", "league", "roundrobin"),
        None,
    ),
)


def _key(words: str) -> str:
    return "".join(char for char in words.casefold() if char.isalnum())


@lru_cache(maxsize=1)
def _titles() -> dict[str, Chapter]:
    """Every chapter by its title in every language the bot speaks, so that a player
    finds the chapter as its reader sees it named: /rules Удвоение, /rules Puanlama."""
    return {
        _key(speech(locale)(chapter.title)): chapter for locale in LOCALES for chapter in CHAPTERS
    }


def find_chapter(topic: str) -> Chapter | None:
    """The chapter a topic names: its English topic, one of its aliases, or its title in any
    of the bot's languages."""
    key = _key(topic)
    for chapter in CHAPTERS:
        if key in chapter.aliases or key == chapter.topic.replace(" ", ""):
            return chapter
    return _titles().get(key) if key else None


def chapter_text(_: Speech, chapter: Chapter) -> str:
    texts = {
        "overview": _(
            "Backgammon is a race for two. Each player has fifteen checkers and moves them, by the "
            "numbers of two dice, around the board into their own home board and then off it. "
            "Whoever bears off all fifteen first wins. On the way you may hit a lonely opposing "
            "checker and send it back, and you may block points so your opponent cannot land "
            "there. Chapters: setup, movement, hitting, bearing off, doubling, crawford, scoring, "
            "notation, nardy, dice, rating, chouette, tournament. Example: /rules doubling"
        ),
        "setup": _(
            "Each player counts the 24 points from their own side: point 1 is the first point of "
            "their home board, point 24 the farthest away. At the start each player has two "
            "checkers on their 24 point, five on the 13 point, three on the 8 point and five on "
            "the 6 point. You move from 24 towards 1; your opponent moves the other way round. "
            "Before the first move each player rolls one die; the higher number moves first, "
            "playing both of the numbers just rolled. Equal numbers are rolled again."
        ),
        "movement": _(
            "Each die is a move of its own: one checker moves by one number and another checker "
            "by the other, or one checker moves by both, one after the other. A checker may land "
            "on an empty point, on its own checkers, or on a single opposing checker, but never "
            "on a point with two or more opposing checkers. A double is played four times. You "
            "must play both numbers if you can (all four of a double); if only one can be played "
            "you play it, and if either could be played but not both, you must play the larger. "
            "Only when nothing can be played is the roll lost."
        ),
        "hitting": _(
            "A single checker on a point is a blot. Landing on an opposing blot hits it: it goes "
            "to the bar in the middle of the board. A player with a checker on the bar must bring "
            "it back in first, on the opponent's home board: a 3 enters on the opponent's 3 "
            "point, which is your 22. If the points for both numbers are blocked, the whole roll "
            "is lost. You may hit with one number and move on with the other."
        ),
        "bearing off": _(
            "Once all fifteen of your checkers are in your home board (points 1 to 6) you may "
            "bear them off. A 4 takes a checker off from the 4 point. If that point is empty you "
            "must make a move with a checker from a higher point; if there is no checker higher "
            "up, the number bears off a checker from your highest occupied point. You may always "
            "move inside the home board instead. A checker hit while bearing off must travel all "
            "the way home again before you continue."
        ),
        "doubling": _(
            "A game is worth one point times the doubling cube. At the start of your turn, "
            "before rolling, you may double if the cube is in the middle or yours. Your opponent "
            "then takes (the game goes on at twice the value, and the cube belongs to them) or "
            "drops (they lose the game at the value before the double). Only the owner of the "
            "cube may double next, so nobody doubles twice in a row. There is no upper limit."
        ),
        "crawford": _(
            "When a player first comes within one point of winning a match, the next game is the "
            "Crawford game: nobody may double in it. From the game after it the cube is back. A "
            "cube whose value already wins the match for its owner is dead and cannot be turned. "
            "Automatic doubles, beavers and the Jacoby rule are money-play options and never used "
            "in matches."
        ),
        "scoring": _(
            "The winner scores one point times the cube. If the loser has not borne off a single "
            "checker it is a gammon, worth two; if the loser also still has a checker on the bar "
            "or in the winner's home board it is a backgammon, worth three. A resignation scores "
            "what it offered (single, gammon or backgammon) times the cube. A match is won by the "
            "first player to reach its length."
        ),
        "notation": _(
            "Write a move as start/end for each checker: /move 13/10 6/5. A star marks a hit "
            "(13/10*), bar and off are written out (bar/22, 6/off), and a move made twice gets "
            "(2): 8/5(2). One checker moving with both numbers may be written in one go: 24/13 "
            "or 24/18/13. I also read 13-10 6-5, commas, and the dice in front: 31: 8/5 6/5. Hits "
            "are worked out from the board, so a missing star does no harm."
        ),
        "long nardy": _(
            "Long nardy starts with all fifteen checkers of each player on their head (their 24 "
            "point); both players travel in the same direction, counter-clockwise, into their own "
            "home board. A point with any opposing checker on it is closed: there is no hitting "
            "and no bar. Only one checker may leave the head per turn, except on a player's first "
            "turn with 6-6, 4-4 or 3-3, when two may (but Black's 4-4 after White's opening 5-5 "
            "takes only one). Six points in a row may be built only when an opposing checker is "
            "already past them. Bearing off works as in backgammon. A win is an oin (1) or, if "
            "the loser bore off nothing, a mars (2). There is no doubling cube."
        ),
        "fair dice": _(
            "The dice are provably fair, in this order. 1. When a challenge is posted I draw a "
            "secret server seed and publish its SHA-256, the commitment, with the challenge. "
            "2. Having seen it, each player may choose a client seed with /seed TEXT; whoever "
            "does not gets one made from the id the chat platform gave the accept (against me: "
            "the press of [Start]), which did not exist before the commitment. 3. Both client "
            "seeds are fixed when the match starts, just before the first roll. Every roll is "
            "computed from the server seed, both client seeds and the roll number with "
            "HMAC-SHA256, so neither I nor a player can steer the dice. 4. When the match ends "
            "I reveal the seed. The check page, linked next to the replay or sent as a file to "
            "open, checks the seed against the commitment and recomputes every roll in your "
            "browser, marking each one ✓ or ✗; the transcript does the same with: gammonbot "
            "verify transcript.json"
        ),
        "chouette": _(
            "A chouette is played by three to eight players: one, the box, against all the "
            "others, the team. Everyone rolls one die to take a seat: the highest is the box, the "
            "next the captain, the rest wait in line (ties roll again). The box and the captain "
            "play one money game on one board; the captain rolls and moves for the team, and the "
            "other members may suggest plays (/suggest), unless the table was opened with "
            "captain (the captain alone) or turned (only members whose cube was turned). Every "
            "member has a cube of their own against the box and makes their own cube decisions: "
            "before rolling, the box may double some or all members, and on the team's turn any "
            "member may double the box on their own cube. A member who drops pays and is out of "
            "the game; a cube the box drops pays that member. When the board game ends, each "
            "cube still in play pays its value once, twice for a gammon, three times for a "
            "backgammon. Only the captain's cube decides the rotation: if the box won it, the "
            "box stays and the captain goes to the end of the line; if the captain won it, the "
            "captain becomes the box and the old box goes to the end of the line. The next in "
            "line is the new captain."
        ),
        "rating": _(
            "Matches between two people are rated with the formula FIBS made the standard. "
            "Everyone starts at 1500. In a match of N points between players whose ratings "
            "differ by D, the lower rated one wins with the chance 1 / (10^(D·√N/2000) + 1). "
            "The winner gains 4·√N times the chance they had of losing, and the loser gives up "
            "as much. Each side's change is then multiplied by max(1, 5 − experience/100), "
            "where experience is the sum of the lengths of the rated matches they finished "
            "before: newcomers move five times as fast and settle at 400 points. Resignations, "
            "dropped doubles and lost time count like any other end. Money games, matches "
            "offered with the option unrated and matches against me change no rating (against "
            "me you keep a record per level). Backgammon and long nardy are rated apart. "
            "/stats shows your numbers, /top the leaderboard."
        ),
        "tournament": _(
            "An administrator or an organiser the chat's defaults name opens a tournament with "
            "/tournament new, players register, and the organiser starts it. Seeds go by rating, "
            "strongest first, or, with the option random, "
            "by the dice: the order of registration is shuffled with a server seed whose "
            "commitment was posted when the tournament opened and which is revealed at the start. "
            "Single elimination: the bracket has the next power of two of places, seed 1 meets "
            "the last seed and seeds 1 and 2 can meet only in the final; the places nobody fills "
            "are byes for the top seeds. The progressive consolation (from eight players) gathers "
            "the first-round losers and, in brackets of 16 or more, the second-round losers, so "
            "that nobody meets again at once the player who just knocked them out; the last "
            "chance takes the consolation's early losers for one more try. Double elimination: a "
            "player is out at their second lost match; the winners' bracket losers drop into the "
            "losers' bracket, and in the grand final the losers' bracket winner must beat the "
            "winners' bracket winner twice. Round robin: everyone plays everyone else in their "
            "group once (groups dealt by snake seeding); the table ranks by wins, then matches "
            "won minus lost, then match points scored minus conceded, then the matches among the "
            "players still level, then seed; with playoff the group winners play a knockout. "
            "Swiss: a fixed number of rounds, each paired by points, then seed, top down, with no "
            "rematch while one can be avoided; with an odd number the lowest-ranked player "
            "without a bye gets one, worth a win, so nobody has a second bye before everyone has "
            "had one. Swiss standings rank by points, then Buchholz (the points of every opponent "
            "met), then points difference. A league season is a round robin in each division; "
            "the top division's winner wins the season, and for the next one the best of each "
            "division go up one division and the last go down one. A player who withdraws loses "
            "every match still to play by walkover (the match's length to nothing) and keeps the "
            "place the table gives them; in a Swiss tournament they are left out of later rounds."
        ),
    }
    return texts[chapter.topic]


def chapter_title(_: Speech, chapter: Chapter) -> str:
    return _(chapter.title)


def chapter_view(chapter: Chapter) -> BoardView | None:
    if chapter.picture is None:
        return None
    position = chapter.picture
    return BoardView(
        variant=position.variant,
        sides=(position.player, position.opponent),
        turn=0,
        cube_visible=position.variant is Variant.BACKGAMMON,
    )


def chapter_highlight(chapter: Chapter) -> LastPlay | None:
    return LastPlay.from_text(chapter.last_play, 0) if chapter.last_play else None
