"""The rules engine depends on nothing but the standard library."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

GAMMON = Path(__file__).resolve().parent.parent / "gammon"


def imported_top_level_modules(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_gammon_imports_only_the_standard_library_and_itself() -> None:
    sources = sorted(GAMMON.rglob("*.py"))
    assert len(sources) >= 5
    foreign = {
        f"{source.name}: {name}"
        for source in sources
        for name in imported_top_level_modules(source)
        if name != "gammon" and name not in sys.stdlib_module_names and name != "__future__"
    }
    assert foreign == set()


def test_the_checker_notices_a_foreign_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import json\nfrom click import group\nfrom . import sibling\n")
    assert imported_top_level_modules(sample) == {"json", "click"}


RENDERING = GAMMON.parent / "rendering"


def test_rendering_never_imports_the_bot_or_storage() -> None:
    sources = sorted(RENDERING.rglob("*.py"))
    assert len(sources) >= 5
    allowed = {"gammon", "rendering", "PIL", "__future__"}
    foreign = {
        f"{source.name}: {name}"
        for source in sources
        for name in imported_top_level_modules(source)
        if name not in allowed and name not in sys.stdlib_module_names
    }
    assert foreign == set()


def test_no_database_code_outside_storage() -> None:
    root = GAMMON.parent
    database_modules = {"sqlalchemy", "sqlite3", "aiosqlite", "alembic", "asyncpg", "psycopg"}
    offenders = {
        f"{source.relative_to(root)}: {name}"
        for package in ("gammon", "rendering", "bot")
        for source in sorted((root / package).rglob("*.py"))
        for name in imported_top_level_modules(source)
        if name in database_modules
    }
    assert offenders == set()


def _imports_of(package: str) -> set[str]:
    root = GAMMON.parent / package
    sources = sorted(root.rglob("*.py"))
    assert sources, package
    return {
        f"{source.relative_to(GAMMON.parent)}: {name}"
        for source in sources
        for name in imported_top_level_modules(source)
    }


def test_the_core_knows_no_chat_platform() -> None:
    offenders = {
        entry for entry in _imports_of("bot/core") if entry.endswith((": discord", ": telegram"))
    }
    assert offenders == set()


def test_the_platform_adapters_reach_the_database_only_through_the_core() -> None:
    offenders = {
        entry
        for package in ("bot/discord_app", "bot/telegram_app")
        for entry in _imports_of(package)
        if entry.endswith((": storage", ": gammon", ": sqlalchemy"))
    }
    assert offenders == set()
    for package in ("bot/discord_app", "bot/telegram_app"):
        for source in sorted((GAMMON.parent / package).rglob("*.py")):
            text = source.read_text(encoding="utf-8")
            for repository in ("posted", "users", "chats", "matches", "challenges"):
                assert f"core.{repository}." not in text, f"{source.name}: core.{repository}"


def test_storage_never_imports_the_bot() -> None:
    assert {entry for entry in _imports_of("storage") if entry.endswith(": bot")} == set()


def classes_longer_than(source: Path, limit: int) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    return {
        f"{source.name}: {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    }


def test_no_class_of_the_command_layer_grows_past_300_lines() -> None:
    # Every module of the core, in its sub-packages too (a glob of the top folder alone would
    # see only the composition root).
    sources = sorted((GAMMON.parent / "bot" / "core").rglob("*.py"))
    assert len(sources) >= 70
    assert {entry for source in sources for entry in classes_longer_than(source, 300)} == set()


def test_the_class_size_check_notices_a_long_class(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("class Big:\n" + "    x = 1\n" * 300 + "\n\nclass Small:\n    y = 2\n")
    assert classes_longer_than(sample, 300) == {"sample.py: Big (301 lines)"}


def folders_with_more_modules_than(root: Path, limit: int) -> set[str]:
    """The folders under ``root`` (``root`` too) holding more than ``limit`` Python modules of
    their own (``__init__.py`` is no module of its own; sub-folders count apart)."""
    return {
        f"{folder.relative_to(root.parent)}: {count} modules"
        for folder in [root, *sorted(p for p in root.rglob("*") if p.is_dir())]
        if (count := len([m for m in folder.glob("*.py") if m.name != "__init__.py"])) > limit
    }


def test_no_folder_of_the_bot_holds_more_than_20_modules() -> None:
    """A folder is a part of the design: the core was once one folder of 79 modules, and its
    features (matches, the chouette, the computer, ...) showed only in the modules' names."""
    root = GAMMON.parent / "bot"
    assert len(list(root.rglob("*.py"))) >= 100
    assert folders_with_more_modules_than(root, 20) == set()


def test_the_folder_size_check_notices_a_crowded_folder(tmp_path: Path) -> None:
    root = tmp_path / "bot"
    (root / "core" / "match").mkdir(parents=True)
    for index in range(21):
        (root / "core" / f"m{index}.py").write_text("")
        (root / "core" / "match" / f"m{index}.py").write_text("")
    (root / "__init__.py").write_text("")
    for index in range(20):
        (root / f"m{index}.py").write_text("")
    assert folders_with_more_modules_than(root, 20) == {
        "bot/core: 21 modules",
        "bot/core/match: 21 modules",
    }


ENGINE_LIBRARY = ("bgsage", "bgbot_cpp")


def test_only_the_engine_adapter_imports_the_engine_library() -> None:
    root = GAMMON.parent
    importers = {
        str(source.relative_to(root))
        for package in ("gammon", "engine", "rendering", "storage", "bot")
        for source in sorted((root / package).rglob("*.py"))
        if imported_top_level_modules(source) & set(ENGINE_LIBRARY)
    }
    assert importers == {
        "engine/backgammon.py",
        "engine/backgammon_cube.py",
        "engine/backgammon_deep.py",
    }


def test_the_rules_never_import_the_engine_and_the_engine_never_the_bot() -> None:
    assert {entry for entry in _imports_of("gammon") if entry.endswith(": engine")} == set()
    assert {
        entry
        for entry in _imports_of("engine")
        if entry.endswith((": bot", ": storage", ": rendering"))
    } == set()


def test_the_bot_process_does_not_load_the_engine_library() -> None:
    """The bot's own process imports only the engine's plain interface; the library and its
    weights are loaded in the worker processes."""
    code = (
        "import sys, bot.hosting, bot.cli, bot.core.service\n"
        "loaded = sorted(name for name in sys.modules if name.split('.')[0] in "
        f"{ENGINE_LIBRARY!r})\n"
        "print(loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "[]"


def computed_attribute_lookups(source: Path) -> set[str]:
    """``getattr`` calls whose attribute name is not written out: dispatch by strings."""
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    return {
        f"{source.name}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and not (
            len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        )
    }


def test_the_core_dispatches_through_references_not_names() -> None:
    """Handlers are typed references in the registry: nothing in the core looks a method up by
    a name it computes (the registry once named ``"play.roll"`` and the core used ``getattr``)."""
    sources = sorted((GAMMON.parent / "bot" / "core").rglob("*.py"))
    assert {entry for source in sources for entry in computed_attribute_lookups(source)} == set()


def test_the_lookup_check_notices_a_computed_name(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("a = getattr(x, 'label', None)\nb = getattr(services, name)\n")
    assert computed_attribute_lookups(sample) == {"sample.py:2"}


def test_buttons_reach_the_services_only_through_the_dispatcher() -> None:
    """One dispatch for commands and buttons: in the core only the dispatcher reads a button's
    token and hands it to a service's ``press``."""
    readers = {
        str(source.relative_to(GAMMON.parent))
        for source in sorted((GAMMON.parent / "bot" / "core").rglob("*.py"))
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "parse_token")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "press")
        )
    }
    assert readers == {"bot/core/dispatch.py"}


def imported_modules(source: Path) -> set[str]:
    """Every module a source imports, by its full dotted name (``from a.b import c``: a.b),
    inside functions too."""
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _importers(package: str, forbidden: tuple[str, ...]) -> set[str]:
    root = GAMMON.parent
    sources = sorted((root / package).rglob("*.py"))
    assert sources, package
    return {
        f"{source.relative_to(root)}: {name}"
        for source in sources
        for name in imported_modules(source)
        if any(name == prefix or name.startswith(prefix + ".") for prefix in forbidden)
    }


FRONT_ENDS = (
    "bot.web",
    "bot.discord_app",
    "bot.telegram_app",
    "bot.console_app",
    "bot.cli",
    "bot.hosting",
)


def test_the_core_imports_no_front_end() -> None:
    """The core serves every front-end and depends on none: the check page it attaches to a
    match's end comes from bot.pages, which the web server serves too."""
    assert _importers("bot/core", FRONT_ENDS) == set()


def test_the_pages_are_documents_without_a_server_or_a_database() -> None:
    forbidden = (*FRONT_ENDS, "storage", "aiohttp", "sqlalchemy")
    assert _importers("bot/pages", forbidden) == set()


def test_the_import_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def late() -> None:\n    from bot.web.server import WebPages\n")
    assert imported_modules(sample) == {"bot.web.server"}


def test_the_web_server_reads_through_its_port_only() -> None:
    """The web pages read matches through bot.core.info.page_reads, never storage or the core's
    other parts."""
    root = GAMMON.parent
    allowed_core = {
        "bot.core.text.i18n",
        "bot.core.info.page_reads",
        "bot.core.info.replays",
        "bot.core.text.texts",
        "bot.core.text.player_text",
    }
    offenders = {
        f"{source.relative_to(root)}: {name}"
        for source in sorted((root / "bot" / "web").rglob("*.py"))
        for name in imported_modules(source)
        if name.split(".")[0] in ("storage", "sqlalchemy")
        or (name.startswith("bot.core") and name not in allowed_core)
    }
    assert offenders == set()


STORAGE = GAMMON.parent / "storage"


def test_storage_imports_no_rating_rule() -> None:
    """Storage keeps the ratings; the rule that computes them (``gammon.rating``) is applied
    by the command layer's handler of a match's end, and handed to the rebuild."""
    sources = sorted(STORAGE.rglob("*.py"))
    assert len(sources) >= 10
    assert {
        f"{source.name}: {name}"
        for source in sources
        for name in imported_modules(source)
        if name == "gammon.rating" or name.startswith("gammon.rating.")
    } == set()


def variant_decisions(source: Path) -> set[str]:
    """Where a source decides by a table's variant: any use of the ``Variant`` type or its
    members, and any ``.variant`` read for something else than storing it (``.variant.value``)."""
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    stored = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "value"
    }
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "Variant":
            found.add(f"{source.name}:{node.lineno} Variant")
        elif isinstance(node, ast.alias) and node.name == "Variant":
            found.add(f"{source.name}: imports Variant")
        elif isinstance(node, ast.Attribute) and node.attr == "variant" and id(node) not in stored:
            found.add(f"{source.name}:{node.lineno} .variant")
    return found


def test_storage_decides_nothing_by_variant() -> None:
    """Whether a finished match is analysed and under which name it is rated are decisions
    of the command layer (:mod:`bot.core.events`); storage only stores the variant."""
    sources = sorted(STORAGE.rglob("*.py"))
    assert {entry for source in sources for entry in variant_decisions(source)} == set()


def test_the_variant_check_notices_a_decision(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from gammon.position import Variant\n"
        "row = {'variant': rules.variant.value}\n"
        "status = 'pending' if state.variant is Variant.BACKGAMMON else 'skipped'\n"
        "game = GAMES[state.variant]\n"
    )
    assert variant_decisions(sample) == {
        "sample.py: imports Variant",
        "sample.py:3 Variant",
        "sample.py:3 .variant",
        "sample.py:4 .variant",
    }


def test_the_import_check_notices_a_rating_rule(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from gammon.rating import rate\nimport gammon.standing\n")
    assert imported_modules(sample) == {"gammon.rating", "gammon.standing"}


def test_refusals_are_raised_not_returned_to_be_told_apart() -> None:
    """One refusal type (bot.core.refusal.Refusal, answered by the dispatcher): no service
    hands back "a result or a list of refusal messages" that its callers test with
    isinstance."""
    root = GAMMON.parent
    offenders = {
        f"{source.relative_to(root)}:{node.lineno}"
        for source in sorted((root / "bot" / "core").rglob("*.py"))
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
        and isinstance(node.args[1], ast.Name)
        and node.args[1].id == "list"
    }
    assert offenders == set()


FEATURES = ("bot.core.match", "bot.core.chouette", "bot.core.computer", "bot.core.info")


def test_the_texts_and_the_runtime_know_no_feature() -> None:
    """bot/core/text and bot/core/runtime serve every feature (matches, chouettes, the
    computer, what is read about matches) and import none of them, nor the composition root."""
    forbidden = (*FEATURES, "bot.core.service", "bot.core.scheduler", "bot.core.dispatch")
    assert _importers("bot/core/text", forbidden) == set()
    assert _importers("bot/core/runtime", forbidden) == set()
