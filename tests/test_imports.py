"""The project's modules import each other one way: no import cycle among the modules of
engine/, events/, server/, clients/ and verifier/, and no function-local import of a project
module (one hides a cycle instead of removing it). Imports under `if TYPE_CHECKING:` are for
the type checker only and do not count. The four folders are one import package,
`umpire.engine` and so on (setup.py): nothing imports them by their folder names, which
would load a second copy of a module from the working directory.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.support.project_modules import FOLDERS, REPO, SOURCES, modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(
    tree: ast.AST, local: bool = False
) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Each import statement, with whether it sits inside a function; TYPE_CHECKING blocks
    are skipped."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from (pair for child in node.orelse for pair in _imports_of(child, local))
            continue
        yield from _imports_of(node, local)


def _imports_of(node: ast.AST, local: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node, local
        return
    inside = local or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
    yield from _imports(node, inside)


def targets(name: str, path: Path, node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The project modules one import statement of module `name` loads by name."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    base = node.module or ""
    if node.level:
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    out = set()
    for alias in node.names:
        if f"{base}.{alias.name}" in known:
            out.add(f"{base}.{alias.name}")
        elif base in known:
            out.add(base)
    return out


def graph() -> tuple[dict[str, set[str]], list[str]]:
    """Module-level import edges between project modules, and every function-local import
    of a project module (as "module:line imports target")."""
    found = modules()
    known = set(found)
    edges: dict[str, set[str]] = {name: set() for name in found}
    local: list[str] = []
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, inside in _imports(tree):
            for target in targets(name, path, node, known):
                if inside:
                    local.append(f"{name}:{node.lineno} imports {target}")
                elif target != name:
                    edges[name].add(target)
    return edges, local


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle() -> None:
    found = cycles(graph()[0])
    assert found == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_function_local_import_of_a_project_module() -> None:
    local = graph()[1]
    assert local == [], "function-local imports:\n" + "\n".join(local)


def folder_imports(tree: ast.AST) -> list[int]:
    """The lines of `tree` that import engine, events, server or clients by folder name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] in FOLDERS for name in names):
            found.append(node.lineno)
    return found


def test_nothing_imports_a_folder_by_its_name_instead_of_the_umpire_package() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line}"
        for source in SOURCES
        for path in sorted((REPO / source).rglob("*.py"))
        for line in folder_imports(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    ]
    assert found == [], "import by folder name, write umpire.<folder>:\n" + "\n".join(found)


def test_the_folder_import_check_sees_every_form() -> None:
    tree = ast.parse(
        "import engine\nimport server.cli as c\nfrom events.wire import x\n"
        "from umpire.engine import dice\nfrom . import y\nimport enginex\n"
    )
    assert folder_imports(tree) == [1, 2, 3]


def test_the_checker_finds_a_cycle_and_a_local_import() -> None:
    """The checker itself, on a made-up graph and module."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    tree = ast.parse("import os\ndef f():\n    from umpire.engine import dice\n")
    found = [
        (t, inside)
        for node, inside in _imports(tree)
        for t in targets("x", REPO / "x.py", node, {"umpire.engine", "umpire.engine.dice"})
    ]
    assert found == [("umpire.engine.dice", True)]


# Layers (docs/architecture.md "Imports point one way"): the packages each layer may import
# besides its own. Any other edge fails, wherever the import sits (module level, inside a
# function, under TYPE_CHECKING: a type-only import still ties a layer to another's code).
ALLOWED = {
    "events": set(),
    "engine": {"events"},
    "server": {"engine", "events"},
    "clients": {"events"},
    # The cross-ruleset tests shipped with umpire drive every layer, but never umpire's own
    # tests/ (a ruleset package runs them without umpire's checkout).
    "testing": {"engine", "events", "server", "clients"},
    "verifier": set(),  # the independent verifier reads an export with no code of umpire
}
# The deliberate lazy imports: a module's module-level tables of "module:attr" (or
# "module") strings that it loads with importlib.import_module only when needed, so that a
# command pays for what it uses (docs/architecture.md "A CLI that starts at once"). Their
# entries count as that module's imports, for the layers and for cycles alike.
LAZY_TABLES = {"umpire.server.cli": ("COMMANDS", "RUNNER"), "umpire.clients": ("LAZY",)}


def layer(module: str) -> str:
    """The layer of a project module: `umpire.server.cli` -> server, `verifier.x` -> verifier."""
    parts = module.split(".")
    return parts[1] if parts[0] == "umpire" and len(parts) > 1 else parts[0]


def lazy_imports(tree: ast.Module, tables: tuple[str, ...]) -> set[str]:
    """The modules that the module-level tables named `tables` of a module name."""
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        else:
            continue
        if node.value is None or not set(names) & set(tables):
            continue
        value = ast.literal_eval(node.value)
        entries = value.values() if isinstance(value, dict) else [value]
        found |= {str(entry).partition(":")[0] for entry in entries}
    return found


def imports_of(name: str, path: Path, tree: ast.Module, known: set[str]) -> set[str]:
    """Every project module that module `name` imports, anywhere in it or through its lazy
    tables."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found |= targets(name, path, node, known)
    found |= lazy_imports(tree, LAZY_TABLES.get(name, ()))
    return found - {name}


def all_imports() -> dict[str, set[str]]:
    """`imports_of` for every project module."""
    found = modules()
    known = set(found)
    return {
        name: imports_of(name, path, ast.parse(path.read_text(encoding="utf-8")), known)
        for name, path in found.items()
    }


def layer_violations(imports: dict[str, set[str]]) -> list[str]:
    """Each import that crosses into a layer its module's layer may not import."""
    return sorted(
        f"{module} ({layer(module)}) imports {target} ({layer(target)})"
        for module, found in imports.items()
        for target in found
        if layer(target) != layer(module) and layer(target) not in ALLOWED[layer(module)]
    )


def test_each_layer_imports_only_the_layers_it_may() -> None:
    """engine -> events; server -> engine, events; clients -> events; events and the
    verifier import no other layer. The client commands reach `umpire` through an entry
    point (clients/commands.py), the store's protocols live in events/."""
    found = layer_violations(all_imports())
    assert found == [], "imports across the layers:\n" + "\n".join(found)


def test_no_import_cycle_through_the_lazy_tables() -> None:
    """The lazy tables hide their imports from `graph()`: a cycle through them fails too."""
    edges, _ = graph()
    for name, found in all_imports().items():
        if name in LAZY_TABLES:
            edges[name] |= found
    found_cycles = cycles(edges)
    assert found_cycles == [], "cycles:\n" + "\n".join(" -> ".join(c) for c in found_cycles)


def test_the_lazy_tables_name_modules_that_exist() -> None:
    found = modules()
    for name, tables in LAZY_TABLES.items():
        named = lazy_imports(ast.parse(found[name].read_text(encoding="utf-8")), tables)
        assert named, f"{name} has no table {tables}: update LAZY_TABLES"
        assert named <= set(found), f"{name}'s tables name no module: {named - set(found)}"


def test_the_layer_check_sees_every_form_of_an_edge() -> None:
    """The checker itself, on made-up modules: an edge counts at module level, inside a
    function, under TYPE_CHECKING and through a lazy table."""
    known = {"umpire.server.x", "umpire.clients.cli", "umpire.engine.dice", "verifier.v",
             "umpire.events.codec", "umpire.server.cli", "umpire.engine.y"}  # fmt: skip
    sources = {
        "umpire.server.x": "from umpire.engine import dice\n"
        "if TYPE_CHECKING:\n    from umpire.clients.cli import play\n",
        "verifier.v": "def f():\n    import umpire.events.codec\n",
        "umpire.engine.y": "from ..server import x\n",
        "umpire.server.cli": "COMMANDS = {'watch': 'umpire.clients.cli:cmd_watch'}\n",
    }
    imports = {
        name: imports_of(name, REPO / "engine" / "y.py", ast.parse(text), known)
        for name, text in sources.items()
    }
    assert layer_violations(imports) == [
        "umpire.engine.y (engine) imports umpire.server.x (server)",
        "umpire.server.cli (server) imports umpire.clients.cli (clients)",
        "umpire.server.x (server) imports umpire.clients.cli (clients)",
        "verifier.v (verifier) imports umpire.events.codec (events)",
    ]
