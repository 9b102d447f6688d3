"""docs/operations.md's snippet for reaching the embedded store with `valkey-cli`, run as
written (on a real `umpire serve`): it answers PONG, and the password is in no process's
command line, which every local user can read in /proc. The snippet used to pass it with
`--pass "$PASS"`, right under the sentence that says passwords never are."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from tests.support.embedded_site import environment, start_serve, stop
from tests.support.processes import REPO
from umpire.server.data_dir import read_passwords

DOC = REPO / "docs" / "operations.md"


def _snippet() -> str:
    text = DOC.read_text()
    start = text.index("To use the store with `valkey-cli` or another tool")
    match = re.search(r"```sh\n(.*?)```", text[start:], re.S)
    assert match, "the valkey-cli snippet is gone from docs/operations.md"
    # The snippet's `.venv/bin/python` is the interpreter running this suite.
    return match.group(1).replace(".venv/bin/python", sys.executable)


def _valkey_cli_command_line(deadline: float) -> str | None:
    """The command line of a running valkey-cli, as another local user's `ps` sees it."""
    while time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if argv and argv[0].endswith(b"valkey-cli"):
                return b" ".join(argv).decode(errors="replace")
        time.sleep(0.01)
    return None


def test_the_documented_valkey_cli_snippet_answers_and_hides_the_password(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    serve, _ = start_serve(data_dir)
    try:
        passwords = read_passwords(data_dir)
        assert passwords is not None
        snippet = _snippet()
        result = subprocess.run(
            ["bash", "-c", snippet], env=environment(data_dir), cwd=REPO,
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert result.returncode == 0 and result.stdout.strip() == "PONG", result
        # Again with a command that blocks for 3 s, so the process can be looked at.
        blocking = snippet.replace("--user umpire ping", "--user umpire blpop nokey 3")
        assert blocking != snippet, "the snippet no longer ends in `--user umpire ping`"
        running = subprocess.Popen(
            ["bash", "-c", blocking], env=environment(data_dir), cwd=REPO,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        try:
            seen = _valkey_cli_command_line(time.monotonic() + 10)
        finally:
            running.communicate(timeout=20)
        assert seen is not None, "valkey-cli was never seen running"
        assert passwords.gateway not in seen, "the password is on valkey-cli's command line"
    finally:
        stop(serve)
