"""bench/mypyc_build.py builds with mypyc in a copy of the tree: the compiled module is the
one the copy imports, and the checkout gains no compiled file (a C compiler is needed)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench import mypyc_build

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="no C compiler")


def test_a_compiled_module_is_imported_from_the_copy_and_the_checkout_stays_pure(
    tmp_path: Path,
) -> None:
    root = mypyc_build.copy_tree(tmp_path / "tree")
    mypyc_build.compile_set(root, ["engine/kit/turn.py"])
    probe = "import umpire.engine.kit.turn as m; print(m.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = Path(done.stdout.strip())
    assert loaded.parent == root / "umpire" / "engine" / "kit"
    assert loaded.suffix == ".so"
    for folder in mypyc_build.FOLDERS:
        assert not list((mypyc_build.REPO / folder).rglob("*.so")), folder
