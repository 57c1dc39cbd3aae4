"""Every string the web pages show, as gettext message ids.

The templates only place these strings; Babel extracts them from here (``bot/**.py``). Strings
the browser script fills in later keep their ``{placeholders}`` and are formatted in the page.
Each function calls a local ``_``: that name is what Babel looks for. A player's name in a
sentence is isolated (:func:`bot.core.text.player_text.isolated`), so right-to-left letters in it
cannot reorder the sentence around it.
"""

from __future__ import annotations

from bot.core.text.player_text import isolated
from bot.core.text.texts import level_name
from bot.pages.page_text import PageText


def match_kind(text: PageText, variant: str, length: int) -> str:
    """ "5-point match of backgammon", "money game of backgammon", "single games of long nardy"
    (the same wording, and catalog entries, as the bot's own messages)."""
    _ = text.gettext
    game = _("long nardy") if variant == "long_nardy" else _("backgammon")
    if length:
        return text.ngettext(
            "{length}-point match of {game}", "{length}-point match of {game}", length
        ).format(length=length, game=game)
    if variant == "long_nardy":
        return _("single games of {game}").format(game=game)
    return _("money game of {game}").format(game=game)


def players(text: PageText, names: tuple[str, str]) -> str:
    _ = text.gettext
    return _("{first} vs {second}").format(first=isolated(names[0]), second=isolated(names[1]))


def match_title(text: PageText, number: int, names: tuple[str, str]) -> str:
    _ = text.gettext
    return _("Match {id}: {first} vs {second}").format(
        id=number, first=isolated(names[0]), second=isolated(names[1])
    )


def check_texts(text: PageText, number: int, names: tuple[str, str]) -> dict[str, str]:
    """The check page's fixed strings."""
    _ = text.gettext
    return {
        "title": _("Dice check of match {id}").format(id=number),
        "over": _("The match is over."),
        "playing": _("The match is still being played."),
        "seeds": _("Seeds"),
        "scheme": _("Scheme"),
        "commitment": _("Commitment (SHA-256 of the server seed, published before the match)"),
        "server_seed": _("Server seed"),
        "sealed": _("Secret until the match ends."),
        "digest": _("SHA-256 of the revealed seed, computed by your browser"),
        "client_seed_0": _("Client seed of {name}").format(name=isolated(names[0])),
        "client_seed_1": _("Client seed of {name}").format(name=isolated(names[1])),
        "joined": _("Client seed of the match (both joined with “|”)"),
        "pending": _("Checking the dice…"),
        "noscript": _("This check runs in your browser and needs JavaScript."),
        "waiting": _(
            "The server seed is revealed when the match ends; then this page checks every roll."
        ),
        "how": _("How the check works"),
        "how_commit": _(
            "Before the match the bot drew a secret server seed and published its SHA-256, the "
            "commitment. Only that seed has this fingerprint, so the bot cannot swap it later."
        ),
        "how_client": _(
            "Each player's client seed was fixed only after the commitment was published: "
            "one the player chose with /seed after the challenge was posted, or else one made "
            "of the identifier the chat platform gave the accept (against the bot: the press "
            "of [Start], of which the bot's own seed is made too). So the bot could not pick a "
            "server seed that favours anybody."
        ),
        "how_roll": _(
            "Every roll of the match has a number, the nonce, counting from 0; opening rolls "
            "and their re-rolls count too. Its dice come from HMAC-SHA256 keyed with the server "
            "seed over the text “client seed:nonce:0”: each byte below 252 gives a die, byte "
            "mod 6 plus 1, and the first two make the roll. Should fewer than two qualify, "
            "“:1”, “:2” and so on follow. In an opening roll the first die is the first "
            "player's."
        ),
        "how_browser": _(
            "When the match is over the seed is revealed, and your browser redoes all of this "
            "itself with its built-in WebCrypto: nothing is sent anywhere, and the saved page "
            "works offline."
        ),
        "rolls": _("Rolls"),
        "no_rolls": _("No rolls yet."),
        "col_number": _("No."),
        "col_game": _("Game"),
        "col_player": _("Rolled by"),
        "col_recorded": _("Recorded"),
        "col_computed": _("Computed"),
        "col_result": _("Result"),
        "opening": _("opening roll: {first}, {second}").format(
            first=isolated(names[0]), second=isolated(names[1])
        ),
    }


def chouette_kind(text: PageText) -> str:
    """ "Chouette · money game of backgammon": what a chouette's board plays."""
    _ = text.gettext
    chouette = _("Chouette")
    return f"{chouette} · {match_kind(text, 'backgammon', 0)}"


def chouette_check_texts(text: PageText, number: int) -> dict[str, str]:
    """The check page's fixed strings for a chouette session: the match's, where they fit,
    and the session's own. ``seating`` and ``opening_of`` keep their placeholders (the
    players change from game to game)."""
    _ = text.gettext
    shared = check_texts(text, number, ("", ""))
    return {
        **shared,
        "title": _("Dice check of chouette {id}").format(id=number),
        "over": _("The session is over."),
        "playing": _("The session is still being played."),
        "commitment": _(
            "Commitment (SHA-256 of the server seed, published when the table was opened)"
        ),
        "sealed": _("Secret until the session ends."),
        "client_seed": _("Client seed of the session"),
        "waiting": _(
            "The server seed is revealed when the session ends; then this page checks every roll."
        ),
        "how_commit": _(
            "When the table was opened the bot drew a secret server seed and published its "
            "SHA-256, the commitment. Only that seed has this fingerprint, so the bot cannot "
            "swap it later."
        ),
        "how_client": _(
            "The session's client seed was fixed at the first /chouette start, after the "
            "commitment was published, from the identifier the chat platform gave that "
            "message: the bot could not pick a server seed that favours anybody."
        ),
        "how_roll": _(
            "Every dice event of the session has a number, the nonce, counting from 0: first "
            "the seating dice, one event for each die a player rolled to take a seat (only its "
            "first die counts), then game after game the opening roll with its re-rolls and "
            "every roll of the game. Its dice come from HMAC-SHA256 keyed with the server seed "
            "over the text “client seed:nonce:0”: each byte below 252 gives a die, byte mod 6 "
            "plus 1, and the first two make the roll. Should fewer than two qualify, “:1”, “:2” "
            "and so on follow. In an opening roll the first die is the box's."
        ),
        "how_browser": _(
            "When the session is over the seed is revealed, and your browser redoes all of "
            "this itself with its built-in WebCrypto: nothing is sent anywhere, and the saved "
            "page works offline."
        ),
        "seating": _("seating die of {name}"),
        "opening": _("opening roll: {first}, {second}").format(first=_("Box"), second=_("Captain")),
        "opening_of": _("opening roll: {first}, {second}"),
    }


def check_script_texts(text: PageText) -> dict[str, str]:
    """The strings the check script shows, placeholders left for it to fill."""
    _ = text.gettext
    return {
        "progress": _("Checking the rolls… {done} of {count}"),
        "ok": _("Every roll matches the seeds ({count} checked)."),
        "bad_one": _(
            "Roll {number} (nonce {nonce}) does not match: recorded {recorded}, "
            "the seeds give {computed}."
        ),
        "bad_many": _(
            "Rolls that do not match the seeds: {count}. The first is roll {number} "
            "(nonce {nonce})."
        ),
        "bad_seed": _(
            "The revealed server seed does not match the commitment: these dice cannot be trusted."
        ),
        "bad_hex": _("The revealed server seed is not 64 hexadecimal digits."),
        "unavailable": _(
            "This browser offers no WebCrypto here, so it cannot check the dice: browsers allow "
            "it only on https pages and in files opened from disk. Save this page and open the "
            "file, or use the https address."
        ),
        "error": _("The check stopped with an error: {error}"),
    }


def match_texts(text: PageText) -> dict[str, str]:
    _ = text.gettext
    return {
        "games": _("Games"),
        "no_games": _("No game has finished yet."),
        "col_game": _("Game"),
        "col_winner": _("Winner"),
        "col_points": _("Points"),
        "col_how": _("How it ended"),
        "col_score": _("Score after"),
        "col_replay": _("Replay"),
        "watch": _("Watch"),
        "replay": _("Replay"),
        "verify": _("Check the dice"),
        "mat": _("Download as .mat (GNU Backgammon, eXtreme Gammon)"),
        "final_position": _("Final position"),
        "position_now": _("Position now"),
        "analysis": _("Analysis"),
        "analysing": _("The engine is analysing the match; its analysis appears here when ready."),
        "position_id": _("Position ID"),
        "match_id": _("Match ID"),
        "error_rate": _("Error rate: the average equity lost per decision × 500; lower is better."),
    }


def analysis_level(text: PageText, level: str) -> str:
    """The level an analysis was made at, named as the chats name it ("world class")."""
    _ = text.gettext
    return _("Analysed at level {level}.").format(level=level_name(text.speech, level))


def replay_texts(text: PageText, number: int, names: tuple[str, str]) -> dict[str, str]:
    _ = text.gettext
    return {
        "title": _("Replay of match {id}: {first} vs {second}").format(
            id=number, first=isolated(names[0]), second=isolated(names[1])
        ),
        "game": _("Game"),
        "first": _("First position"),
        "previous": _("Previous position"),
        "next": _("Next position"),
        "last": _("Last position"),
        "keyboard": _("Keys: ← and → step, Home and End jump to the first and the last position."),
        "nothing": _("Nothing to replay yet."),
        "noscript": _("Stepping through needs JavaScript; without it you see the first position."),
    }


def replay_script_texts(text: PageText) -> dict[str, str]:
    _ = text.gettext
    return {"counter": _("Play {number} of {count}")}


def game_label(text: PageText, number: int) -> str:
    _ = text.gettext
    return _("Game {number}").format(number=number)


def tournament_texts(text: PageText) -> dict[str, str]:
    """The tournament page's fixed strings (its names, results and sentences come with its
    data, already translated)."""
    _ = text.gettext
    return {
        "matches": _("Matches"),
        "table": _("Table"),
        "bye": _("bye"),
        "walkover": _("walkover"),
        "in_play": _("in play"),
        "col_rank": _("No."),
        "col_player": _("Player"),
        "col_points": _("Points"),
        "col_record": _("Won–lost"),
        "col_buchholz": _("Buchholz"),
    }


def round_label(text: PageText, number: int) -> str:
    """A bracket's column heading."""
    _ = text.gettext
    return _("Round {number}").format(number=number)


def resign_levels(text: PageText) -> dict[str, str]:
    """What a resignation offers, by its level (1 single, 2 gammon, 3 backgammon)."""
    _ = text.gettext
    return {"level_1": _("a single game"), "level_2": _("a gammon"), "level_3": _("a backgammon")}


def play_texts(text: PageText, number: int, names: tuple[str, str]) -> dict[str, str]:
    """The board page's fixed strings: its heading, buttons and help."""
    _ = text.gettext
    return {
        "title": match_title(text, number, names),
        "board": _("Board"),
        "roll": _("Roll"),
        "double": _("Double"),
        "take": _("Take"),
        "drop": _("Drop"),
        "beaver": _("Beaver"),
        "undo": _("Undo"),
        "done": _("Done"),
        "accept": _("Accept"),
        "reject": _("Reject"),
        "resign": _("Resign"),
        # Closing the resign menu or saying no to its question: the chats' own words for that
        # ("Cancel" is the chats' withdrawing of a challenge, "Zurückziehen" in German).
        "cancel": _("Keep playing"),
        **resign_levels(text),
        "help_keys": _(
            "Keys: Tab and the arrow keys go from point to point, Enter or Space picks a "
            "checker and then where it goes, U takes a step back."
        ),
        "noscript": _("The board needs JavaScript."),
    }


def play_script_texts(text: PageText) -> dict[str, str]:
    """The strings the board's script shows, placeholders left for it to fill."""
    _ = text.gettext
    return {
        "score": _("Score: {first} {a} – {b} {second}"),
        "crawford": _("Crawford game"),
        "pips": _("Pips: {pips}"),
        "delay": _("delay {seconds} s"),
        "opening": _("waiting for the opening roll"),
        # Spectators read it too: not the chats' "{name} to roll.", which some languages say
        # to the player ("{name}, your roll").
        "to_roll": _("{name} is to roll."),
        "to_play": _("{name} to play {roll}."),
        "doubled": _("{name} doubles to {value}."),
        "resigning": _("{name} offers to resign {level}."),
        "won": _("{name} wins"),
        "over": _("The match is over."),
        **resign_levels(text),
        "confirm_resign": _("Do you really offer to resign {level}?"),
        "you_play": _("You play {name}."),
        "watching": _("You are watching."),
        "reconnecting": _("Connection lost; reconnecting…"),
        "unreachable": _("The server could not be reached; try again."),
        "point": _("Point {number}: {count} of {name}"),
        "empty_point": _("Point {number}: empty"),
        "bar": _("Bar: {count} of {name}"),
        "off": _("Borne off: {count} of {name}"),
        "cube": _("Cube at {value}"),
        "offered": _("Cube offered at {value}"),
    }
