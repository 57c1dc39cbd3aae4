"""tools/update_catalogs.py, the translators' workflow: the .po files are the source, a text
changed in the code comes back fuzzy with its old translation, and nothing is compiled while a
language has a problem."""

from __future__ import annotations

import gettext
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog

ROOT = Path(__file__).resolve().parents[2]


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "update_catalogs", ROOT / "tools" / "update_catalogs.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = load_tool()


def template(*ids: str | tuple[str, str]) -> Catalog:
    catalog = Catalog()
    for message_id in ids:
        catalog.add(message_id)
    return catalog


def german(entries: dict[str | tuple[str, str], str | tuple[str, ...]]) -> Catalog:
    catalog = Catalog(locale="de")
    for message_id, string in entries.items():
        catalog.add(message_id, string)
    return catalog


def test_a_changed_text_comes_back_fuzzy_with_its_old_translation() -> None:
    catalog = german({"Roll the dice, {name}.": "Würfle, {name}."})
    tool.merge(catalog, template("Roll the dice now, {name}."))
    message = catalog.get("Roll the dice now, {name}.")
    assert message is not None
    assert message.fuzzy
    assert message.string == "Würfle, {name}."
    assert catalog.get("Roll the dice, {name}.") is None
    assert tool.problems(catalog) == [
        "fuzzy (check the suggestion, then clear the flag): 'Roll the dice now, {name}.'"
    ]


def test_a_new_text_arrives_untranslated_and_a_dropped_one_leaves() -> None:
    catalog = german({"Good luck!": "Viel Glück!", "Gone": "Weg"})
    tool.merge(catalog, template("Good luck!", "Your turn."))
    assert [message.id for message in catalog if message.id] == ["Good luck!", "Your turn."]
    assert tool.problems(catalog) == ["untranslated: 'Your turn.'"]


def test_lost_placeholders_and_wrong_plural_counts_are_problems() -> None:
    catalog = german(
        {
            "{name} wins.": "Jemand gewinnt.",
            ("{count} point", "{count} points"): ("ein Punkt", "{count} Punkte", "zu viele"),
        }
    )
    assert tool.problems(catalog) == [
        "placeholders [] instead of ['{name}']: '{name} wins.'",
        "2 plural forms wanted, 3 given: '{count} point'",
    ]


def test_a_plural_form_may_say_the_number_in_words() -> None:
    catalog = german({("{count} point", "{count} points"): ("ein Punkt", "{count} Punkte")})
    assert tool.problems(catalog) == []


def test_nothing_is_compiled_while_a_language_has_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for language, text in (("de", "Viel Glück!"), ("ru", "")):
        catalog = Catalog(locale=language)
        catalog.add("Good luck!", text)
        tool.write_catalog(tool.catalog_path(language, tmp_path), catalog)
    assert tool.update_all(["de", "ru"], template("Good luck!"), tmp_path) == 1
    assert "ru: 1 problem(s)" in capsys.readouterr().out
    assert not list(tmp_path.rglob("*.mo"))

    russian = tool.read_catalog(tool.catalog_path("ru", tmp_path), "ru")
    russian.get("Good luck!").string = "Удачи!"
    tool.write_catalog(tool.catalog_path("ru", tmp_path), russian)
    assert tool.update_all(["de", "ru"], template("Good luck!"), tmp_path) == 0
    with tool.catalog_path("ru", tmp_path).with_suffix(".mo").open("rb") as handle:
        assert gettext.GNUTranslations(handle).gettext("Good luck!") == "Удачи!"


def test_a_new_language_starts_with_its_plural_rule_and_every_text_open() -> None:
    catalog = tool.new_catalog("pl", template("Good luck!", ("{count} point", "{count} points")))
    assert catalog.num_plurals == 3
    assert tool.problems(catalog) == ["untranslated: 'Good luck!'", "untranslated: '{count} point'"]
