"""A module of the checkout under test, by its folder path, before or after the rename.

`bench/profile.py` and `bench/instructions.py` run against another checkout (`--repo
DIR`, with DIR's interpreter) to compare commits. Since the one import package the
project's modules are `umpire.server.embedded` and so on; an older checkout names them by
their folders (`server.embedded`). `project("server.embedded")` imports whichever that
checkout has.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


def project(name: str) -> ModuleType:
    """The checkout's module `name` (a folder path such as "engine.dice")."""
    try:
        return importlib.import_module(f"umpire.{name}")
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != "umpire":
            raise  # a missing dependency of the module, not the package's name
        return importlib.import_module(name)


def cli_module() -> str:
    """The module `python -m ... serve` runs in the checkout."""
    return "umpire.server.cli" if _has("umpire.server.cli") else "server.cli"


def _has(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False
