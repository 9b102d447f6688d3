"""engine/ does no I/O: every engine module imports with redis, asyncio, sockets, time and
random blocked (STYLE.md habit 1). msgspec is imported first: its own use of datetime is not
engine's."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

BLOCKED = ["redis", "asyncio", "socket", "time", "random", "uuid", "websockets", "datetime"]


def test_engine_imports_with_io_modules_blocked() -> None:
    script = textwrap.dedent(
        f"""
        import importlib, pkgutil, sys
        import msgspec, msgspec.json, msgspec.msgpack, msgspec.structs  # third-party, allowed
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {BLOCKED!r}:
                    raise ImportError("engine must not import " + name)
                return None
        for name in list(sys.modules):
            if name.split(".")[0] in {BLOCKED!r}:
                del sys.modules[name]
        sys.meta_path.insert(0, Block())
        from umpire import engine
        count = 0
        for mod in pkgutil.walk_packages(engine.__path__, "umpire.engine."):
            importlib.import_module(mod.name)
            count += 1
        print(count)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert int(out.stdout.strip()) >= 10


FORBIDDEN = re.compile(
    r"^\s*(import (random|time|uuid|datetime|secrets)\b"
    r"|from (random|time|uuid|datetime|secrets) import)"
    r"|\b(time\.time|datetime\.now|uuid\.uuid4|random\.(random|randint|choice|shuffle))\(",
    re.MULTILINE,
)


def test_engine_source_has_no_clock_or_global_random() -> None:
    offenders = []
    for path in sorted((REPO / "engine").rglob("*.py")):
        for match in FORBIDDEN.finditer(path.read_text()):
            offenders.append(f"{path.relative_to(REPO)}: {match.group(0).strip()}")
    assert offenders == []
