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


def test_no_class_of_storage_or_the_front_ends_grows_past_300_lines() -> None:
    """The core's limit holds for storage and the front-ends too: the chouette's repository
    was once 648 lines (every concern of a session in one class), the match's 486 and the
    Discord poster 340; each is now parts with one concern, composed."""
    root = GAMMON.parent
    packages = ("storage", "bot/discord_app", "bot/telegram_app", "bot/console_app", "bot/web")
    sources = [source for package in packages for source in sorted((root / package).rglob("*.py"))]
    assert len(sources) >= 60
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
    """The web pages read matches through bot.core.info.page_reads (the board page through
    bot.core.info.board_reads), never storage or the core's other parts; the board page acts
    only as a player's request through the chat front-ends' port (requests and tokens), after
    bot.core.page_access has proved who the player is."""
    root = GAMMON.parent
    allowed_core = {
        "bot.core.text.i18n",
        "bot.core.info.page_reads",
        "bot.core.info.board_reads",
        "bot.core.info.replays",
        "bot.core.text.texts",
        "bot.core.text.player_text",
        "bot.core.ports",
        "bot.core.model",
        "bot.core.tokens",
        "bot.core.page_access.denied",
        "bot.core.page_access.player_keys",
        "bot.core.page_access.telegram_init",
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


def package_imports(core: Path) -> dict[str, set[str]]:
    """Which packages of the core each package imports (a package: a folder right under
    ``core``; imports inside functions and under ``TYPE_CHECKING`` count too)."""
    dotted = ".".join(core.relative_to(core.parent.parent).parts)
    packages = {
        folder.name for folder in core.iterdir() if folder.is_dir() and any(folder.glob("*.py"))
    }
    graph: dict[str, set[str]] = {package: set() for package in packages}
    for package in packages:
        for source in sorted((core / package).rglob("*.py")):
            for name in imported_modules(source):
                parts = name.split(".")
                if name.startswith(dotted + ".") and len(parts) > 2 and parts[2] in packages:
                    graph[package].add(parts[2])
        graph[package].discard(package)
    return graph


def package_cycles(core: Path) -> set[str]:
    """Every package of the core that can reach itself through the others' imports, with the
    way back: ``"match -> computer -> match"``."""
    graph = package_imports(core)
    cycles = set()
    for start in sorted(graph):
        paths = [[start, after] for after in sorted(graph[start])]
        seen: set[str] = set()
        while paths:
            path = paths.pop(0)
            if path[-1] == start:
                cycles.add(" -> ".join(path))
                break
            if path[-1] in seen:
                continue
            seen.add(path[-1])
            paths += [[*path, after] for after in sorted(graph[path[-1]])]
    return cycles


def test_the_packages_of_the_core_import_each_other_one_way_only() -> None:
    """The core's packages form layers: the computer and the chouette play matches, the info
    pages read all three, and none of them is imported back (match once imported computer
    and info, which imported match). Where a lower package needs a higher one's service, it
    declares a protocol and the composition root hands the service in."""
    core = GAMMON.parent / "bot" / "core"
    assert len(package_imports(core)) >= 6
    assert package_cycles(core) == set()


def test_the_cycle_check_notices_a_cycle_through_a_third_package(tmp_path: Path) -> None:
    core = tmp_path / "bot" / "core"
    for package, imports in {
        "match": "from bot.core.info.pages import Pages\n",
        "info": "def later() -> None:\n    from bot.core.computer.engine import run\n",
        "computer": "import bot.core.match.driver\n",
        "text": "from bot.core import model\n",
    }.items():
        (core / package).mkdir(parents=True)
        (core / package / "module.py").write_text(imports)
    assert package_cycles(core) == {
        "computer -> match -> info -> computer",
        "info -> computer -> match -> info",
        "match -> info -> computer -> match",
    }


# --- the composition root and the ports (issue 38, point 4) --------------------------------

ROOT = GAMMON.parent
SERVICE = ROOT / "bot" / "core" / "service.py"


def _core_class(source: Path) -> ast.ClassDef:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Core")


def public_surface(core: ast.ClassDef) -> set[str]:
    """The public methods and properties of the core class, and the public attributes its
    methods set on ``self``."""
    names = {
        node.name
        for node in core.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("_")
    }
    for node in ast.walk(core):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and not target.attr.startswith("_")
            ):
                names.add(target.attr)
    return names


CORE_SURFACE = {
    "ports",  # the other consumers' ports and the repositories (bot.core.bootstrap.Ports)
    "delivery",
    "inbox",
    "clock",
    "handle",
    "idle",
    "register_bot",
    "register_admins",
    "register_threads",
    "suggest_moves",
    "accept_challenge_link",
}


def test_the_core_is_a_thin_facade_of_ports() -> None:
    """The core once built every service in a 139-line constructor and left 35 public
    attributes for the clock, the web server and tests to reach into; the composition root
    (bot.core.bootstrap) builds them now, and the core shows the chat front-ends' port and,
    as ``ports``, the others'."""
    core = _core_class(SERVICE)
    assert public_surface(core) == CORE_SURFACE
    init = next(n for n in core.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    assert init.end_lineno is not None
    assert init.end_lineno - init.lineno + 1 <= 30


def test_the_surface_check_sees_attributes_set_on_self(tmp_path: Path) -> None:
    sample = tmp_path / "service.py"
    sample.write_text(
        "class Core:\n"
        "    def __init__(self) -> None:\n"
        "        self.matches = 1\n"
        "        self._kept = 2\n"
        "        self.ports: int = 3\n"
        "    def handle(self) -> None: ...\n"
    )
    assert public_surface(_core_class(sample)) == {"matches", "ports", "handle"}


ADAPTERS = ("bot/discord_app", "bot/telegram_app", "bot/web")
COMPOSITION = ("bot.core.service", "bot.core.bootstrap", "bot.core.scheduler", "bot.core.dispatch")


def test_front_ends_are_given_ports_not_the_core() -> None:
    """The chat adapters, the console's chat and the web pages are handed a port
    (bot.core.ports, the pages' read model); only the programs (bot.hosting, the console's
    main) build a core and hand its ports out."""
    offenders = {entry for package in ADAPTERS for entry in _importers(package, COMPOSITION)}
    console = {
        f"{source.relative_to(ROOT)}: {name}"
        for source in sorted((ROOT / "bot" / "console_app").glob("*.py"))
        if source.name != "main.py"
        for name in imported_modules(source)
        if name in COMPOSITION
    }
    assert offenders | console == set()
    builders = {
        str(source.relative_to(ROOT))
        for source in sorted((ROOT / "bot").rglob("*.py"))
        if "bot.core.service" in imported_modules(source)
    }
    assert builders == {"bot/hosting.py", "bot/console_app/main.py"}


def test_only_the_core_class_uses_the_composition_root() -> None:
    """Nothing in the core reaches back into the core class (the pages' read model and the
    clock once took it whole), and only the core class calls the composition root."""
    core_modules = sorted((ROOT / "bot" / "core").rglob("*.py"))
    assert {
        str(source.relative_to(ROOT))
        for source in core_modules
        if "bot.core.service" in imported_modules(source)
    } == set()
    assert {
        str(source.relative_to(ROOT))
        for source in core_modules
        if "bot.core.bootstrap" in imported_modules(source)
    } == {"bot/core/service.py"}


def _core_modules() -> set[str]:
    """The names of bot.core's sub-packages and modules (``bot.core.computer`` is a package,
    not the core's attribute)."""
    return {path.stem for path in (ROOT / "bot" / "core").iterdir() if path.name != "__init__.py"}


def reaching_into_the_core(source: Path, allowed: set[str], modules: set[str]) -> set[str]:
    """Where ``source`` reads an attribute of a core (a name ``core`` or an attribute
    ``.core``) that is not in ``allowed``; ``bot.core.<module>`` chains are modules."""
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or node.attr in allowed:
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id == "core":
            found.add(f"{source.name}:{node.lineno} core.{node.attr}")
        elif isinstance(owner, ast.Attribute) and owner.attr == "core":
            root = owner.value
            if isinstance(root, ast.Name) and root.id == "bot" and node.attr in modules:
                continue
            found.add(f"{source.name}:{node.lineno} .core.{node.attr}")
    return found


def test_tests_reach_state_through_ports_and_repositories() -> None:
    """Tests and benchmarks once used ``core.matches`` 106 times: they read and set up state
    through the repositories (``core.ports.repositories``, ``room.stores``) and the other
    ports, as the front-ends do, never through a service the core happens to hold."""
    allowed = CORE_SURFACE | {"setdefault"}  # a dict named core
    modules = _core_modules()
    sources = sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "benchmarks").rglob("*.py"))
    assert len(sources) >= 100
    offenders = {
        entry
        for source in sources
        if source.name != "test_layering.py"
        for entry in reaching_into_the_core(source, allowed, modules)
    }
    assert offenders == set()


def test_the_reach_check_notices_a_core_attribute(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "a = core.matches.load(1)\n"
        "b = room.core.ports.repositories.matches\n"
        "c = bot.core.users\n"
        "d = bot.core.model.Message\n"
        "e = await core.handle(request)\n"
    )
    assert reaching_into_the_core(sample, {"ports", "handle"}, {"model"}) == {
        "sample.py:1 core.matches",
        "sample.py:3 .core.users",
    }
