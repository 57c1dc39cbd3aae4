"""pyproject.toml's dependencies and the code's imports agree.

A plain ``pip install -e .`` must bring every distribution whose modules the running bot
imports (a module that arrived only with the test tools once made ``gammonbot run`` fail
with ``ModuleNotFoundError`` on a plain install), and declare nothing it does not import; the
``test`` extra must bring what the tests import. Imports are read from the source (AST), and
each module is traced to the distributions that provide it in this environment.
"""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import sys
import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
RUNTIME_PACKAGES = ("gammon", "engine", "rendering", "storage", "bot")
OURS = {*RUNTIME_PACKAGES, "tests", "__future__"}
# Modules imported only when a setting asks for them, each inside ``try: ... except
# ImportError`` (the command line then says which extra to install), with that extra.
OPTIONAL = {"psycopg": "postgresql"}
_IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _guards_import_errors(node: ast.Try) -> bool:
    names: set[str] = set()
    for handler in node.handlers:
        caught = handler.type
        elements = caught.elts if isinstance(caught, ast.Tuple) else [caught]
        names.update(element.id for element in elements if isinstance(element, ast.Name))
    return bool(names & _IMPORT_ERRORS)


def _inside(nodes: Iterable[ast.stmt]) -> set[ast.AST]:
    return {inner for node in nodes for inner in ast.walk(node)}


def imports(source: Path, *, guarded: bool = False) -> set[str]:
    """The top-level names of the modules outside the standard library and this project
    that ``source`` imports when it runs: not under ``if TYPE_CHECKING:``; with ``guarded``
    only those inside a ``try`` that catches ImportError, else only those outside one."""
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    typing_only: set[ast.AST] = set()
    in_guard: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            typing_only |= _inside(node.body)
        elif isinstance(node, ast.Try) and _guards_import_errors(node):
            in_guard |= _inside(node.body)
    names: set[str] = set()
    for node in ast.walk(tree):
        if node in typing_only or (node in in_guard) is not guarded:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return {name for name in names if name not in OURS and name not in sys.stdlib_module_names}


def imports_of(packages: Iterable[str], *, guarded: bool = False) -> dict[str, set[str]]:
    """Each imported module, with the files (relative to the checkout) that import it."""
    found: dict[str, set[str]] = {}
    for package in packages:
        sources = sorted((ROOT / package).rglob("*.py"))
        assert sources, package
        for source in sources:
            for name in imports(source, guarded=guarded):
                found.setdefault(name, set()).add(str(source.relative_to(ROOT)))
    return found


@cache
def _providers() -> Mapping[str, list[str]]:
    return importlib.metadata.packages_distributions()


@cache
def distributions_of(module: str) -> frozenset[str]:
    """The distributions installed here that provide the top-level module ``module``,
    canonically named. Besides packages, a compiled module at the top level (bgsage ships
    ``bgbot_cpp``), which ``packages_distributions`` does not list."""
    names = set(_providers().get(module, ()))
    if not names:
        for distribution in importlib.metadata.distributions():
            for file in distribution.files or ():
                if len(file.parts) == 1 and inspect.getmodulename(file.name) == module:
                    names.add(distribution.metadata["Name"])
    return frozenset(canonicalize_name(name) for name in names)


def _project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project: dict[str, object] = tomllib.load(handle)["project"]
    return project


def declared(requirements: Iterable[str]) -> set[str]:
    """The distributions ``requirements`` name, canonically, with this project's own extras
    (``gammonbot[postgresql]``) replaced by what they hold."""
    project = _project()
    own = canonicalize_name(str(project["name"]))
    extras: dict[str, list[str]] = project["optional-dependencies"]  # type: ignore[assignment]
    names: set[str] = set()
    for text in requirements:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        if name == own:
            for extra in requirement.extras:
                names |= declared(extras[extra])
        else:
            names.add(name)
    return names


def runtime_requirements() -> set[str]:
    return declared(_project()["dependencies"])  # type: ignore[arg-type]


def extra_requirements(extra: str) -> set[str]:
    extras: dict[str, list[str]] = _project()["optional-dependencies"]  # type: ignore[assignment]
    return declared(extras[extra])


def undeclared(imported: dict[str, set[str]], allowed: set[str]) -> set[str]:
    """Each imported module that no distribution in ``allowed`` provides, with its files."""
    return {
        f"{module} ({', '.join(sorted(files))}; provided by "
        f"{', '.join(sorted(distributions_of(module))) or 'nothing installed'})"
        for module, files in imported.items()
        if not distributions_of(module) & allowed
    }


def test_a_plain_install_brings_every_module_the_bot_imports() -> None:
    imported = imports_of(RUNTIME_PACKAGES)
    assert {"babel", "sqlalchemy", "discord", "PIL", "bgsage"} <= imported.keys()
    assert not imported.keys() & OPTIONAL.keys(), "an optional driver imported unguarded"
    assert undeclared(imported, runtime_requirements()) == set()


def test_every_runtime_dependency_is_imported_by_the_bot() -> None:
    provided = {
        distribution
        for module in imports_of(RUNTIME_PACKAGES)
        for distribution in distributions_of(module)
    }
    assert runtime_requirements() - provided == set()


def test_optional_drivers_are_imported_guarded_and_come_with_their_extra() -> None:
    guarded = imports_of(RUNTIME_PACKAGES, guarded=True)
    assert guarded.keys() == OPTIONAL.keys()
    for module, extra in OPTIONAL.items():
        assert distributions_of(module) & extra_requirements(extra), (module, extra)
        assert not distributions_of(module) & runtime_requirements(), module


# Scripts that GNU Backgammon runs in its own Python (``gnubg -p``): their ``gnubg`` module is
# gnubg itself, installed by Debian's package, not by pip; ``gnubg_script_io`` is their shared
# part, a file next to them that the runner puts on gnubg's path.
INSIDE_GNUBG = {
    "tests/gnubg_cube_script.py",
    "tests/gnubg_analysis_script.py",
    "tests/gnubg_script_io.py",
}
INSIDE_GNUBG_MODULES = ("gnubg", "gnubg_script_io")


def test_the_test_extra_brings_every_module_the_tests_import() -> None:
    imported = imports_of(["tests"]) | imports_of(["tests"], guarded=True)
    for module in INSIDE_GNUBG_MODULES:
        if imported.get(module, set()) <= INSIDE_GNUBG:
            imported.pop(module, None)
    assert {"pytest", "hypothesis", "psycopg"} <= imported.keys()
    allowed = runtime_requirements() | extra_requirements("test")
    assert undeclared(imported, allowed) == set()


def test_the_developer_tools_are_no_runtime_dependency() -> None:
    assert {"ruff", "mypy"} <= extra_requirements("dev")
    assert not {"ruff", "mypy", "pytest", "hypothesis"} & runtime_requirements()
    assert extra_requirements("test") <= extra_requirements("dev")


def test_the_checker_notices_an_undeclared_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "import json\n"
        "from click import group\n"
        "from . import sibling\n"
        "if TYPE_CHECKING:\n"
        "    import selenium\n"
        "def later():\n"
        "    import hypothesis\n"
        "    try:\n"
        "        import psycopg\n"
        "    except ImportError:\n"
        "        pass\n",
        encoding="utf-8",
    )
    assert imports(sample) == {"click", "hypothesis"}
    assert imports(sample, guarded=True) == {"psycopg"}
    found = undeclared({"click": {"a.py"}, "hypothesis": {"b.py"}}, runtime_requirements())
    assert found == {"hypothesis (b.py; provided by hypothesis)"}
