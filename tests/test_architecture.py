"""The shape of the code: no import cycles between modules, imports only in the README's direction,
and no Python module or page script over 400 lines.

Every import counts, wherever it is written (top level, `if TYPE_CHECKING:`, inside a function):
a cycle hidden in a function or a type check is still two modules that cannot be read apart.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "tictactoe"
STATIC = PACKAGE / "server" / "static"
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ours that module `name` imports, anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")
                elif base in known:
                    found.add(base)
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(name, path, known) for name, path in known.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path (first module repeated at the end), or None."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack = [(start, iter(sorted(graph[start])))]
        path.append(start)
        on_path.add(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                return [*path[path.index(child) :], child]
            elif child not in done:
                stack.append((child, iter(sorted(graph[child]))))
                path.append(child)
                on_path.add(child)
    return None


def test_find_cycle_finds_a_cycle_and_accepts_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_imports_in_functions_and_type_checks() -> None:
    graph = import_graph()
    # `tictactoe.cli` imports its subcommands by name only; the server's app imports for real.
    assert "tictactoe.server.table.tables" in graph["tictactoe.server.app"]
    assert len(graph) > 50


def test_no_import_cycles() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=module_name)
def test_no_python_module_over_400_lines(path: Path) -> None:
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(SRC)} has {lines} lines"


@pytest.mark.parametrize("path", sorted(STATIC.rglob("*.js")), ids=lambda p: p.name)
def test_no_script_over_400_lines(path: Path) -> None:
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(SRC)} has {lines} lines"


# A table's decisions, pure like the rules library: no asyncio, no storage behind the records,
# no pub/sub, no web framework, no async functions (see server/table/decision.py).
PURE = ("decision", "commands", "events", "seats", "game", "rematch", "claim", "takeback", "clock")
PURE += ("resign", "draw", "reasons", "lobby")
PURE_MAY_IMPORT = {"__future__", "collections.abc", "dataclasses", "hmac", "typing", "tictactoe"}
RECORDS = {"GameRecord", "MoveRecord", "SeatRecord", "Side", "TableRecord", "TakenBack"}
RECORDS |= {"Mark", "MARKS"}


@pytest.mark.parametrize("name", PURE)
def test_a_tables_decisions_are_pure(name: str) -> None:
    path = PACKAGE / "server" / "table" / f"{name}.py"
    for node in ast.walk(ast.parse(path.read_text())):
        assert not isinstance(node, ast.AsyncFunctionDef | ast.Await), f"{name}: async code"
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name in PURE_MAY_IMPORT, f"{name} imports {alias.name}"
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module == "tictactoe.server.storage":
                names = {alias.name for alias in node.names}
                assert names <= RECORDS, f"{name} takes {names - RECORDS} from storage"
            elif module.startswith("tictactoe.server."):
                assert (
                    module.removeprefix("tictactoe.server.table.") in PURE
                ), f"{name} imports {module}"
            else:
                assert module in PURE_MAY_IMPORT, f"{name} imports {module}"


# The README's direction: rules ← engine ← server; inside the server, the ops leaf (and the
# settings) ← storage and pub/sub ← table ← web ← learning ← the edge ← app. A layer may import its
# own and the layers before it, never one after it; every import counts, also one inside a
# function (`imported` reads them all), so no lazy import escapes the check.
LAYERS = [
    ("tictactoe.rules",),
    ("tictactoe.engine",),
    ("tictactoe.server.ops", "tictactoe.server.settings"),
    ("tictactoe.server.storage", "tictactoe.server.pubsub"),
    ("tictactoe.server.table",),
    ("tictactoe.server.web",),
    ("tictactoe.server.learning",),
    ("tictactoe.server.edge",),
    ("tictactoe.server.app", "tictactoe.server.serve_command"),
    ("tictactoe.cli", "tictactoe.perft_command"),
]
# Package faces, each at the layer of what it re-exports.
FACES = {"tictactoe": 0, "tictactoe.server": 8}


def layer_of(module: str) -> int | None:
    if module in FACES:
        return FACES[module]
    for index, prefixes in enumerate(LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return index
    return None


def wrong_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} imports {target}"
        for module, imports in graph.items()
        for target in imports
        if (layer_of(target) or 0) > (layer_of(module) or 0)
    )


def test_every_module_has_a_layer() -> None:
    unplaced = [module for module in import_graph() if layer_of(module) is None]
    assert not unplaced, f"modules in no layer of the README's direction: {unplaced}"


def test_imports_follow_the_readmes_direction() -> None:
    wrong = wrong_imports(import_graph())
    assert not wrong, "against the README's direction:\n" + "\n".join(wrong)


def test_the_direction_check_sees_a_wrong_import() -> None:
    assert layer_of("tictactoe.server.table.actor") == 4
    assert layer_of("tictactoe.server.web.api") == 5
    assert layer_of("tictactoe.server.ops.metrics") < layer_of("tictactoe.server.table.actor")
    assert layer_of("tictactoe.server.edge.security") > layer_of("tictactoe.server.web.api")
    graph = {
        "tictactoe.server.ops.metrics": {"tictactoe.server.web.identity"},
        "tictactoe.server.web.api": {"tictactoe.server.table.actor"},
    }
    assert wrong_imports(graph) == [
        "tictactoe.server.ops.metrics imports tictactoe.server.web.identity"
    ]


def test_a_lazy_import_counts(tmp_path: Path) -> None:
    lazy = tmp_path / "security.py"
    lazy.write_text(
        "def page():\n    from tictactoe.server.web.error_pages import cross_site_page\n"
    )
    known = {"tictactoe.server.web.error_pages": lazy}
    found = imported("tictactoe.server.edge.security", lazy, known)
    assert found == {"tictactoe.server.web.error_pages"}


# Documents a docstring or comment points a reader to must be in the repository.
ROOT = SRC.parent
TEXTS = [
    path
    for folder in ("src", "tests", "bench", "scripts")
    for path in sorted((ROOT / folder).rglob("*"))
    if path.suffix in (".py", ".js", ".html")
    and "node_modules" not in path.parts
    and path != Path(__file__).resolve()  # this file's own examples
]


def cited_documents(text: str) -> set[str]:
    """The Markdown files a text names.

    >>> sorted(cited_documents("see CONTRACT.md, and `docs/messages.md`."))
    ['CONTRACT.md', 'docs/messages.md']
    """
    return set(re.findall(r"[\w./-]*\w\.md\b", text))


def test_every_document_cited_is_in_the_repository() -> None:
    present = {
        path.relative_to(ROOT).as_posix()
        for path in ROOT.rglob("*.md")
        if not {".venv", "node_modules", ".git"} & set(path.parts)
    }
    names = {Path(path).name for path in present}
    missing = sorted(
        f"{path.relative_to(ROOT)}: {cited}"
        for path in TEXTS
        for cited in cited_documents(path.read_text(errors="replace"))
        if (cited if "/" in cited else Path(cited).name) not in (present if "/" in cited else names)
    )
    assert not missing, "documents cited but not in the repository:\n" + "\n".join(missing)
