"""mypy (strict, pyproject's config) over the four packages: `umpire.engine`,
`umpire.events`, `umpire.server` and `umpire.clients`.

The import package `umpire` is assembled by the install (setup.py maps umpire.engine to
engine/ and so on) through an import hook that mypy does not run, so this builds the same
layout as a tree of symbolic links in a temporary folder and points mypy at it.
Run by hand: `python -m tests.support.typecheck`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FOLDERS = ("engine", "events", "server", "clients")
CHECKED = ("umpire.engine", "umpire.events", "umpire.server", "umpire.clients")


def mypy() -> subprocess.CompletedProcess[str]:
    """Run mypy over the checked packages; the completed process, output captured."""
    with tempfile.TemporaryDirectory(prefix="umpire-typecheck-") as root:
        package = Path(root) / "umpire"
        package.mkdir()
        for folder in FOLDERS:
            (package / folder).symlink_to(REPO / folder, target_is_directory=True)
        targets = [arg for name in CHECKED for arg in ("-p", name)]
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"), *targets],
            cwd=REPO,
            env={**os.environ, "MYPYPATH": root},
            capture_output=True,
            text=True,
            timeout=600,
        )


if __name__ == "__main__":
    result = mypy()
    print(result.stdout, end="")
    sys.exit(result.returncode)
