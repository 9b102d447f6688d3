"""Is a mypyc build of the command path worth it? Instructions per command, pure and compiled.

`python bench/mypyc_build.py [--sets none,engine,events,server,all] [--closed-loop]`
copies this checkout's packages into a temporary folder laid out as the installed import
package (`umpire/engine`, `umpire/events`, ...), compiles one set of the hot modules there
with mypyc (the `mypy` of the test extra ships it; a C compiler and the Python headers are
needed), and counts the instructions per command of that copy with valgrind:
`bench/command_path.py` (one command in flight, from the frame's text to the reply) and,
with `--closed-loop`, `bench/profile.py --instructions` (one gateway, 20 games, a closed
loop over real websockets). The copy is put first on PYTHONPATH for the count, so every
child (the gateway, valgrind's) imports the copy's modules, compiled where a `.so` lies
beside the `.py`. Set `none` is the same copy uncompiled: the pure-Python figure.

Nothing is ever built into the checkout: mypyc writes its `.so` files and its `build/`
folder inside the copy, which is removed at the end, or kept at `--keep DIR` (a folder
outside the checkout) to run tests against the compiled build: `UMPIRE_SEEDS_DIR=<the
rule documents> PYTHONPATH=DIR .venv/bin/python -m pytest -q -m "not integration" -p
no:randomly` (the copy has no seed documents beside it).

The sets are issue #44's hot path as a cProfile of `bench/profile.py --ruleset downtown`
names it, less the modules mypyc cannot compile as they are (`LEFT_OUT`, with why). The
answer this measured is in docs/benchmarks.md, "2026-11-29, sixth session: a mypyc build,
measured".
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The folders setup.py maps into the import package `umpire`.
FOLDERS = ("engine", "events", "server", "clients", "testing")
DOWNTOWN = "engine/rulesets/downtown"

# The hot modules of the command path (cProfile of the closed loop, Downtown's RollDice).
HOT = {
    "engine": (
        "engine/handling.py", "engine/game.py", "engine/dice.py", "engine/kit/*.py",
        f"{DOWNTOWN}/*.py",
    ),
    "events": (
        "events/redis_store.py", "events/append_batch.py", "events/resp.py",
        "events/recorder.py", "events/codec.py", "events/receipt_signature.py",
    ),
    "server": (
        "server/connection.py", "server/driver.py", "server/session.py", "server/games.py",
        "server/commands.py", "server/command_handling.py", "server/rules_pool.py",
        "server/receipt_batch.py", "server/view_digests.py", "server/game_seeds.py",
        "server/framing.py",
    ),
}  # fmt: skip

# What mypyc (mypy 2.4) refuses or breaks, found by building: each stays pure Python.
LEFT_OUT = {
    "events/redis_store.py": "async generators (the store's tail and read) are unimplemented",
    "server/commands.py": (
        "a mixin of Session: it reads attributes the host class defines, which mypy rejects "
        "(attr-defined), and a native class has one base, not four"
    ),
    "server/game_seeds.py": "a mixin of Games, as commands.py is of Session",
    "server/driver.py": (
        "one variable holds a CommandResult, then a (Ruleset, Game), then a signer: mypy "
        "rejects it, and compiled code would raise TypeError at the second assignment"
    ),
    "engine/kit/turn.py": (
        "Turn is the base of every ruleset's turn, most of them interpreted (the other rulesets, "
        "a ruleset package's): compiled, it is a native class and their classes fail "
        '("interpreted classes cannot inherit from compiled")'
    ),
    f"{DOWNTOWN}/turn.py": (
        "DowntownTurn's base, the kit's Turn, stays interpreted, and a compiled class "
        "cannot take an interpreted base with __slots__"
    ),
    f"{DOWNTOWN}/decide.py": (
        'its tests build states with phase="movement", a str where State.phase is a Phase: '
        "equal in Python, a TypeError in the compiled _need"
    ),
    f"{DOWNTOWN}/raid_end.py": "reads State.phase as decide.py does (the same TypeError)",
    "server/rules_pool.py": (
        "_Collections subclasses threading.local: compiled, it is a native class laid over "
        "that C type, and reading its attribute from interpreted code crashes the process "
        "(a segmentation fault)"
    ),
    f"{DOWNTOWN}/terms.py": (
        "its enums' docstrings are the JSON Schema's descriptions (docs/schemas, the actions' "
        'schemas a client is sent): compiled, an enum\'s __doc__ reads "mypyc filler docstring"'
    ),
    "engine/kit/seed_table.py": (
        "a frozen dataclass that is Generic: compiled, its class fails at import "
        "(\"attribute '__dict__' of 'type' objects is not writable\")"
    ),
}
# What no module may hold to be compiled, found by reading its source (`unfit`).
CLASS_KEYWORDS = (
    "a class with keyword arguments (a msgspec Struct's frozen=, tag=, kw_only=, "
    "omit_defaults=): mypyc drops them silently, so the compiled Struct is mutable, untagged "
    "and encodes its defaults (other bytes, other hashes)"
)
FIELD_FACTORY = (
    "a class attribute msgspec.field(default_factory=...): compiled, the class body checks "
    "the Field against the annotated type and raises TypeError at import"
)
SETS = ("none", "engine", "events", "server", "all")


class BuildRefused(Exception):
    """A build asked of a folder it must not write into, or a set that is not one."""


def modules(name: str) -> list[str]:
    """The files (relative to the checkout) that set `name` compiles, less LEFT_OUT."""
    if name not in SETS:
        raise BuildRefused(f"unknown set {name!r}: the sets are {', '.join(SETS)}")
    groups = list(HOT) if name == "all" else [] if name == "none" else [name]
    found: list[str] = []
    for group in groups:
        for pattern in HOT[group]:
            found += sorted(str(p.relative_to(REPO)) for p in REPO.glob(pattern))
    return [f for f in found if unfit(f) is None]


def unfit(path: str) -> str | None:
    """Why mypyc cannot compile the checkout's module `path` as it is, or None."""
    if path in LEFT_OUT:
        return LEFT_OUT[path]
    tree = ast.parse((REPO / path).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.keywords:
            return CLASS_KEYWORDS
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                value = getattr(statement, "value", None)
                if isinstance(value, ast.Call) and any(
                    k.arg == "default_factory" for k in value.keywords
                ):
                    return FIELD_FACTORY
    return None


def _refuse_into(root: Path) -> None:
    """Refuse a build folder inside the checkout (its .so files would shadow the sources of
    the pure-Python default) or one that holds anything already."""
    if root.resolve().is_relative_to(REPO):
        raise BuildRefused(f"{root} is inside the checkout {REPO}: build into another folder")
    if root.exists() and any(root.iterdir()):
        raise BuildRefused(f"{root} is not empty: build into a new or empty folder")


def copy_tree(root: Path) -> Path:
    """The checkout's packages copied to `root/umpire/...` (the installed layout), with an
    `__init__.py` so that mypy names each module as the install does (umpire.engine.dice)."""
    _refuse_into(root)
    package = root / "umpire"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for folder in FOLDERS:
        shutil.copytree(
            REPO / folder, package / folder, ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
    # What the tests read beside the packages (the published schemas, the verifier), so
    # that a test run against the copy finds them where the checkout has them.
    for extra in ("docs/schemas", "verifier"):
        shutil.copytree(REPO / extra, package / extra, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def compile_set(root: Path, files: list[str]) -> None:
    """mypyc over `files` of the copy at `root`; the .so files land beside their sources."""
    if not files:
        return
    targets = [f"umpire/{f}" for f in files]
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *targets], cwd=root, capture_output=True, text=True
    )
    if done.returncode != 0:
        errors = [line for line in done.stdout.splitlines() if ": error:" in line]
        raise RuntimeError("mypyc failed:\n" + "\n".join(errors or [done.stderr[-2000:]]))


def _figure(root: Path, argv: list[str]) -> str:
    """The last line a bench script printed, run against the copy at `root`."""
    # One string hash seed for every count: dicts and sets then lay out alike in each run,
    # so two builds differ by their code, not by their hash randomisation.
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [sys.executable, *argv], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1]


def measure(root: Path, closed_loop: bool, calls: int) -> dict[str, str]:
    """The copy's instructions per command: the command path, and the closed loop."""
    found = {
        "command_path": _figure(root, [str(REPO / "bench/command_path.py"), "--repo", str(root),
                                       "--ruleset", "downtown", "--calls", str(calls)]),
    }  # fmt: skip
    if closed_loop:
        found["closed_loop"] = _figure(
            root, [str(REPO / "bench/profile.py"), "--instructions", "--ruleset", "downtown"]
        )
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sets", default=",".join(SETS), help=f"of {', '.join(SETS)}")
    parser.add_argument("--closed-loop", action="store_true", help="also bench/profile.py")
    parser.add_argument("--calls", type=int, default=1000, help="bench/command_path.py's")
    parser.add_argument("--keep", type=Path, default=None, help="build the last set here, kept")
    parser.add_argument("--build-only", action="store_true", help="with --keep: no figures")
    args = parser.parse_args(argv)
    try:
        sets = [(name, modules(name)) for name in args.sets.split(",")]
        if args.keep is not None:
            _refuse_into(args.keep.resolve())
    except BuildRefused as exc:
        print(exc, file=sys.stderr)
        return 2
    for index, (name, files) in enumerate(sets):
        print(f"set {name}: {len(files)} modules compiled", flush=True)
        keep = args.keep is not None and index == len(sets) - 1
        root = args.keep.resolve() if keep else Path(tempfile.mkdtemp(prefix="umpire-mypyc-"))
        try:
            copy_tree(root)
            compile_set(root, files)
            if args.build_only:
                continue
            for figure, line in measure(root, args.closed_loop, args.calls).items():
                print(f"  {figure}: {line.split(': ', 1)[-1]}", flush=True)
        finally:
            if not keep:
                shutil.rmtree(root, ignore_errors=True)
    hot = [
        str(p.relative_to(REPO))
        for g in HOT.values()
        for pattern in g
        for p in sorted(REPO.glob(pattern))
    ]
    for path in hot:
        why = unfit(path)
        if why is not None:
            print(f"left out {path}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
