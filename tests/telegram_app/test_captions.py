"""A match over Telegram as the group reads it: each board's caption starts with what was just
played, the dice's commitment is short in the group and whole behind /verify, and the end's
[Rematch] offers the same match again."""

from __future__ import annotations

import hashlib
import re

from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness
from tests.telegram_app.test_match import _dice, _match, _words

COMMITMENT = hashlib.sha256(hashlib.sha256(b"seed-0").digest()).hexdigest()  # the first seed's
MENTION = re.compile(r'^<a href="tg://user\?id=\d+">\w+</a>\n')


async def _started(telegram: Harness, rules: str) -> None:
    await telegram.say(BOB, GROUP, "/help")  # so the bot knows who @bob is
    await telegram.say(ANNA, GROUP, f"/challenge @bob {rules}")
    await telegram.press_label(BOB, GROUP, "Accept")


async def test_the_caption_of_the_next_board_says_the_play(telegram: Harness) -> None:
    await _started(telegram, "3")
    loaded = await _match(telegram)
    assert loaded is not None
    assert loaded.state.turn == 0  # with the fixed seeds Anna opens
    play = str(loaded.state.legal_plays()[0])
    calls = await telegram.say(ANNA, GROUP, f"/move {play}")
    sent = [call for call in calls if call.method.startswith("send")]
    assert [call.method for call in sent] == ["sendPhoto"]  # the board alone: no note
    caption = MENTION.sub("", sent[0].params["caption"])
    assert caption.startswith(f"Anna rolled {_dice(loaded)} and played {play}.\nBob to roll.")


async def test_the_commitment_is_short_in_the_group_and_whole_behind_verify(
    telegram: Harness,
) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")
    offer = [s for s in telegram.api.in_chat(GROUP) if "challenges Bob" in _words(s)][-1]
    assert f"Fair dice, commitment {COMMITMENT[:12]}… (/verify shows the details)" in _words(offer)
    assert COMMITMENT not in _words(offer)
    await telegram.say(BOB, GROUP, "/verify")  # before the accept: the whole commitment
    answer = telegram.newest(GROUP, "text")
    assert f"(SHA-256 of the secret server seed): {COMMITMENT}." in _words(answer)
    await telegram.press_label(BOB, GROUP, "Accept")
    start = [s for s in telegram.api.in_chat(GROUP) if _words(s).startswith("Match 1:")][-1]
    assert COMMITMENT not in _words(start)
    assert "Client seeds" not in _words(start)
    await telegram.say(ANNA, GROUP, "/verify")
    seeds = _words(telegram.newest(GROUP, "text"))
    assert COMMITMENT in seeds
    assert "Client seeds: Anna “\u2068telegram:" in seeds  # a seed is isolated
    assert ", Bob “\u2068telegram:" in seeds


async def test_rematch_is_offered_by_one_press_and_accepted_by_the_other(
    telegram: Harness,
) -> None:
    await _started(telegram, "1 time=3h")
    await telegram.say(ANNA, GROUP, "/resign")  # Anna opens with the fixed seeds
    await telegram.press_label(ANNA, GROUP, "Resign")
    await telegram.press_label(BOB, GROUP, "Accept")
    end = telegram.newest(GROUP, "animation")
    assert "Match over: Bob wins 1–0." in _words(end)
    rows = end.data["reply_markup"]["inline_keyboard"]
    assert [button["text"] for row in rows for button in row] == ["Rematch"]

    calls = await telegram.press_label(CARL, GROUP, "Rematch")  # not his match
    toasts = [call.params.get("text") for call in calls if call.method == "answerCallbackQuery"]
    assert toasts == ["This is not your match."]
    await telegram.press_label(BOB, GROUP, "Rematch")
    offer = telegram.newest(GROUP, "text")
    assert _words(offer).startswith('<a href="tg://user?id=11">Anna</a>\nBob offers Anna a rematch')
    assert "1-point match of backgammon (3 h per move)" in _words(offer)
    # The end is kept as it was, without its button now: Anna accepts the offer as any other.
    kept = telegram.api.messages[(GROUP, end.data["message_id"])].data
    assert "Match over: Bob wins 1–0." in str(kept["caption"])
    assert "reply_markup" not in kept
    await telegram.press_label(ANNA, GROUP, "Accept")
    assert any(_words(s).startswith("Match 2: Bob vs Anna") for s in telegram.api.in_chat(GROUP))
    rematch = await _match(telegram)
    assert rematch is not None
    assert (rematch.info.id, rematch.info.move_time_limit) == (2, 3 * 3600)
    still = telegram.api.messages[(GROUP, end.data["message_id"])].data
    assert "Match over: Bob wins 1–0." in str(still["caption"])
