"""Tests are not libraries (issue #27, item 4): no module under tests/ or bench/ imports a
test module (`test_*.py`) or a `conftest.py`; what tests share lives in support modules,
`tests/support/<noun>.py` or a ruleset's `tests/rulesets/<name>/setups.py`, and only those
are imported from `tests`. The benchmarks import nothing of `tests`, not even by name in a
string (`python -m tests...`, a ruleset path): what a benchmark and a test share lives in
bench/. The cross-ruleset tests shipped with umpire (testing/, `umpire.testing`) import
nothing of `tests` either: a ruleset package runs them without umpire's checkout, and what
they share with umpire's own tests lives in `umpire.testing.support`.

Every import counts: at module level or in a function, absolute or relative, and a
module imported as a name (`from <package> import test_y`).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from tests.support.project_modules import REPO

SUPPORT = re.compile(r"^tests(\.support(\.\w+)?|\.rulesets\.\w+\.setups)?$")


def _name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every module an import in `tree` may load: for `from a import
    b`, both `a` and `a.b` (b may be a module)."""
    package = _name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package[: len(package) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def _is_module(name: str) -> bool:
    """Whether `name` is a module of this repository (a file; a package is its folder)."""
    return REPO.joinpath(*name.split(".")).with_suffix(".py").exists()


def offences(path: Path, source: str) -> list[str]:
    """What in one module's source breaks the layout, as "path:line why"."""
    tree = ast.parse(source, str(path))
    where = path.relative_to(REPO)
    in_bench = where.parts[0] == "bench"
    shipped = where.parts[0] == "testing"
    found = []
    for line, name in imported(path, tree):
        last = name.rsplit(".", 1)[-1]
        if (last.startswith("test_") or last == "conftest") and _is_module(name):
            found.append(f"{where}:{line} imports the test module {name}")
        elif in_bench and (name == "tests" or name.startswith("tests.")):
            found.append(f"{where}:{line} (a benchmark) imports {name}")
        elif shipped and (name == "tests" or name.startswith("tests.")):
            found.append(f"{where}:{line} (umpire.testing, shipped) imports {name}")
        elif name.startswith("tests.") and _is_module(name) and not SUPPORT.match(name):
            found.append(f"{where}:{line} imports {name}, which is not a support module")
    if in_bench:
        for node in ast.walk(tree):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and re.match(r"^tests[.:]\w", text):
                found.append(f"{where}:{node.lineno} (a benchmark) names {node.value!r}")
    return sorted(set(found))


def _sources() -> Iterator[Path]:
    for folder in ("tests", "bench", "testing"):
        yield from sorted((REPO / folder).rglob("*.py"))


def test_no_module_imports_a_test_module_and_the_bench_imports_no_tests() -> None:
    found = [o for path in _sources() for o in offences(path, path.read_text(encoding="utf-8"))]
    assert found == [], "tests are not libraries:\n" + "\n".join(found)


def test_the_check_sees_each_kind_of_offence() -> None:
    """The rules above on made-up sources (a check that finds nothing must be able to)."""
    test_module = REPO / "tests" / "access" / "test_new.py"
    bench_module = REPO / "bench" / "new.py"
    t = "tests"  # spelled apart, so that a grep for imports of tests finds only real ones
    cases = {
        (test_module, f"from {t}.server.test_gateway_http import x"): "test module",
        (test_module, f"from {t}.rulesets.nightfighter import test_random_play"): "test module",
        (test_module, f"def f():\n    from {t}.audit.test_grammar import x"): "test mod",
        (test_module, "from .test_operator import x"): "test module",
        (test_module, f"import {t}.conftest"): "test module tests.conftest",
        (test_module, f"from {t}.audit.skewed_ruleset import RULESET"): "not a support",
        (bench_module, f"from {t}.support.peer import Peer"): "a benchmark",
        (bench_module, f"X = ['-m', '{t}.support.hostile_load']"): "a benchmark",
        (REPO / "testing" / "new.py", f"from {t}.support.peer import Peer"): "shipped",
    }
    for (path, source), why in cases.items():
        found = offences(path, source)
        assert any(why in line for line in found), (source, found)
    allowed = [
        f"from {t}.support.peer import Peer",
        f"from {t}.support import typecheck",
        f"from {t}.rulesets.downtown.setups import SETUP",
        "from bench.cluster import LocalCluster",
    ]
    for source in allowed:
        assert offences(test_module, source) == [], source
