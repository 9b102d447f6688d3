"""One shape for every ruleset under engine/rulesets/ (issue #31 item 3), checked on the
source (AST) so that it stays: one name per idea across the five rulesets.

- a `<Name>Turn` subclass of the kit's Turn in the ruleset's own `turn.py`;
- every parameter that holds it is named `turn` (not `led`, `ctx`, `j`);
- no class named `Turn` inside a ruleset (it would shadow the kit's);
- no helper that returns a list of events (the old `(state, ..., dice) -> list` shape):
  procedures emit through the turn;
- every event through `emit`: nothing appends to a turn's `events` directly; every roll
  through `turn.roll` (nothing calls `dice.roll`), and no procedure makes a Turn of its
  own (the kit's `decide` makes the one Turn of a command);
- tables in the ruleset's `tables/` package (no top-level `*_table.py`), and a printed
  table's `SeedTable` is built there and nowhere else (Conflict of Heroes has no table);
- every citation through `cite()`: the seed's file name is written once, as `SEED`, and
  never formatted or concatenated into a citation by hand.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

RULESETS = Path(__file__).resolve().parents[2] / "engine" / "rulesets"
PACKAGES = sorted(p for p in RULESETS.iterdir() if (p / "__init__.py").is_file())
SEED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
OLD_NAMES = {"led", "ctx", "j"}


def _modules(package: Path) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(package.rglob("*.py")):
        yield path, ast.parse(path.read_text(), filename=str(path))


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(RULESETS)}:{getattr(node, 'lineno', 0)}"


def _turn_class(package: Path) -> str:
    return "".join(part.capitalize() for part in package.name.split("_")) + "Turn"


def _functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _args(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    a = fn.args
    return [*a.posonlyargs, *a.args, *a.kwonlyargs]


def test_the_rulesets_are_found() -> None:
    assert {p.name for p in PACKAGES} >= {
        "age_of_dogfights", "conflict_of_heroes", "down_in_flames", "downtown", "nightfighter",
    }  # fmt: skip


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_turn_subclass_lives_in_turn_py(package: Path) -> None:
    """Each ruleset's `<Name>Turn(Turn[State])` is defined in its own turn.py."""
    name = _turn_class(package)
    path = package / "turn.py"
    assert path.is_file(), f"{package.name} has no turn.py"
    tree = ast.parse(path.read_text())
    found = [
        node
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and node.name == name
        and any(
            isinstance(base, ast.Subscript)
            and isinstance(base.value, ast.Name)
            and base.value.id == "Turn"
            for base in node.bases
        )
    ]
    assert found, f"{package.name}/turn.py defines no class {name}(Turn[...])"


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_the_turn_parameter_is_named_turn(package: Path) -> None:
    """A parameter annotated with the ruleset's Turn is `turn`; no `led`, `ctx` or `j`."""
    name = _turn_class(package)
    wrong = []
    for path, tree in _modules(package):
        for fn in _functions(tree):
            for arg in _args(fn):
                note = ast.unparse(arg.annotation) if arg.annotation else ""
                holds_turn = note == name or note.startswith("Turn[")
                if (holds_turn and arg.arg != "turn") or arg.arg in OLD_NAMES:
                    wrong.append(f"{_where(path, fn)} {fn.name}({arg.arg}: {note})")
    assert wrong == []


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_class_named_turn(package: Path) -> None:
    """No enum or class of a ruleset is named `Turn` (the kit's Turn is the only one)."""
    found = [
        _where(path, node)
        for path, tree in _modules(package)
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and node.name == "Turn"
    ]
    assert found == []


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_no_helper_returns_a_list_of_events(package: Path) -> None:
    """Procedures emit through the turn: no function returns a `list[Struct]` of events,
    alone or beside a result (`decide` is the kit's, engine/kit/decider.py)."""
    found = []
    for path, tree in _modules(package):
        for fn in _functions(tree):
            note = ast.unparse(fn.returns) if fn.returns else ""
            if "list[Struct" in note:
                found.append(f"{_where(path, fn)} {fn.name} -> {note}")
    assert found == []


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_every_event_goes_through_emit(package: Path) -> None:
    """Nothing appends to, extends or assigns a turn's `events` past `emit`."""
    found = []
    for path, tree in _modules(package):
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend", "insert")
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "events"
            ):
                found.append(_where(path, node))
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AugAssign)
                else []
            )
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "events":
                    found.append(_where(path, node))
    assert found == []


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_every_roll_goes_through_the_turn(package: Path) -> None:
    """No `dice.roll(...)` or `turn.dice.roll(...)`: `turn.roll` emits each roll as it is
    made; and no `<Name>Turn(...)` outside turn.py: one Turn per command, the kit's."""
    name = _turn_class(package)
    found = []
    for path, tree in _modules(package):
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "roll"
                and (
                    (isinstance(func.value, ast.Name) and func.value.id == "dice")
                    or (isinstance(func.value, ast.Attribute) and func.value.attr == "dice")
                )
            ):
                found.append(f"{_where(path, node)} {ast.unparse(func)}")
            if isinstance(func, ast.Name) and func.id == name and path.name != "turn.py":
                found.append(f"{_where(path, node)} {name}(...)")
    assert found == []


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_tables_live_in_the_tables_package(package: Path) -> None:
    """A `tables/` package holds the ruleset's tables: no `*_table.py` or `tables.py`
    beside it, and every SeedTable is built inside it."""
    stray = [
        p.name
        for p in package.glob("*.py")
        if p.name.endswith("_table.py") or p.name == "tables.py"
    ]
    assert stray == []
    outside = [
        _where(path, node)
        for path, tree in _modules(package)
        if "tables" not in path.relative_to(package).parts
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name | ast.Subscript)
        and ast.unparse(node.func).startswith("SeedTable")
    ]
    assert outside == []


def _cites_seed_by_hand(node: ast.AST) -> bool:
    """An f-string or `+` that puts the SEED name into a string."""

    def is_seed(value: ast.AST) -> bool:
        return (isinstance(value, ast.Name) and value.id == "SEED") or (
            isinstance(value, ast.Attribute) and value.attr == "SEED"
        )

    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(part, ast.FormattedValue) and is_seed(part.value) for part in node.values
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_seed(node.left) or is_seed(node.right)
    return False


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: p.name)
def test_every_citation_goes_through_cite(package: Path) -> None:
    """The seed's file name is written once (`SEED = "..."`) and cited only by `cite()`."""
    found = []
    for path, tree in _modules(package):
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        seed_assignments = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["SEED"]
        }
        for node in ast.walk(tree):
            if _cites_seed_by_hand(node):
                found.append(f"{_where(path, node)} {ast.unparse(node)[:60]}")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and SEED_FILE.search(node.value)
                and id(node) not in docstrings | seed_assignments
            ):
                found.append(f"{_where(path, node)} {node.value[:60]!r}")
    assert found == []
