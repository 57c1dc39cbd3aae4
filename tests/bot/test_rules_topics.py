"""A /rules chapter is found by its English topic, an alias, or its title in the reader's
language, whatever the letters' case or spaces."""

from __future__ import annotations

import re

import pytest

from bot.core.info.rules_text import CHAPTERS, chapter_text, find_chapter
from bot.core.text.i18n import LOCALES, speech


@pytest.mark.parametrize(
    ("typed", "topic"),
    [
        ("bearing off", "bearing off"),
        ("BearOff", "bearing off"),
        ("Überblick", "overview"),  # German
        ("удвоение", "doubling"),  # Russian
        ("Puanlama", "scoring"),  # Turkish
        ("Длинные нарды", "long nardy"),  # Russian, with a space
        ("Swiss", "tournament"),  # an alias
        ("Turniere", "tournament"),  # German
        ("турниры", "tournament"),  # Russian
        ("Turnuvalar", "tournament"),  # Turkish
        ("البطولات", "tournament"),  # Arabic
    ],
)
def test_a_chapter_is_found_by_its_topic_alias_or_translated_title(typed: str, topic: str) -> None:
    chapter = find_chapter(typed)
    assert chapter is not None
    assert chapter.topic == topic


@pytest.mark.parametrize("typed", ["chess", "", "   ", "марс-марс"])
def test_an_unknown_topic_finds_nothing(typed: str) -> None:
    assert find_chapter(typed) is None


@pytest.mark.parametrize("locale", LOCALES)
def test_the_overview_lists_every_other_chapter_in_every_language(locale: str) -> None:
    """The overview ends "… Chapters: setup, movement, …, chouette. Example: /rules
    doubling": each listed word finds its chapter, together every chapter but the overview."""
    overview, *others = CHAPTERS
    listed = chapter_text(speech(locale), overview).split(":")[-2]
    listed = re.sub(r"\([^)]*\)", "", listed.rsplit(".", 1)[0])  # ru: "setup (расстановка)"
    found = [find_chapter(word.strip()) for word in listed.split(",")]
    assert found == others, (locale, listed)
