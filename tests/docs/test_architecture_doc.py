"""docs/architecture.md says what exists: its module map names every module of events/,
engine/, server/, clients/ and bench/ and nothing else, and its Redis layout (with
docs/scale-out.md's key table) every key events/redis_keys.py makes."""

from __future__ import annotations

import re

import pytest

from tests.support.doc_text import read, section, table_rows, ticked
from tests.support.project_modules import REPO
from umpire.events import redis_keys

MAPPED = ("events", "engine", "server", "clients", "bench")


def mapped_names(package: str) -> set[str]:
    """The names in the first column of the module tables under "## <package>/ ..."."""
    text = read("architecture.md")
    match = re.search(rf"^## {package}/.*$", text, re.M)
    assert match, f"docs/architecture.md has no section for {package}/"
    body = section(text, match.group(0)[3:])
    return {name for row in table_rows(body) for name in ticked(row[0])} - {"module"}


@pytest.mark.parametrize("package", MAPPED)
def test_the_architecture_map_names_every_module_of_a_package(package: str) -> None:
    named = mapped_names(package)
    folder = REPO / package
    modules = {
        path.name + ("/" if path.is_dir() else "")
        for path in folder.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py")
        or (path.is_dir() and not path.name.startswith(("_", ".")))
    }
    missing = sorted(modules - named)
    assert not missing, f"docs/architecture.md's {package}/ table does not name {missing}"
    gone = sorted(name for name in named if not (folder / name).exists())
    assert not gone, f"docs/architecture.md's {package}/ table names what is not there: {gone}"


def test_the_key_layouts_name_every_key_umpire_writes() -> None:
    keys = redis_keys.game_keys("GAME")
    suffixes = {getattr(keys, name).removeprefix("umpire:{GAME}") for name in keys.__annotations__}
    others = {
        redis_keys.games_index_key(),
        redis_keys.receipt_keys_key(),
        redis_keys.revocations_channel(),
    }
    text = read("architecture.md")
    layout = text[text.index("**Redis layout.**") :].split("\n\n", 1)[0]
    for suffix in sorted(suffixes):  # `umpire:{G}:events`, then `:meta`, ...
        said = f"`umpire:{{G}}{suffix}`" in layout or f"`{suffix}`" in layout
        assert said, f"docs/architecture.md's Redis layout does not name `{suffix}`"
    for name in sorted(others):
        said = f"`{name}`" in text or f"`{name.replace('umpire:', '<prefix>:')}`" in text
        assert said, f"docs/architecture.md does not name `{name}`"
    table = section(read("scale-out.md"), "Key layout and slots")
    listed = {ticked(row[0])[0] for row in table_rows(table) if ticked(row[0])}
    wanted = {f"umpire:{{GAME}}{suffix}" for suffix in suffixes} | others
    assert listed == wanted, "docs/scale-out.md's key table and events/redis_keys.py"
