"""docs/operations.md stays true: every setting's environment variable and default, and
every close code the gateway uses, are documented."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.events import wire
from umpire.server.config import ENV, Settings

DOC = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
ROWS = {line.split("|")[1].strip(): line for line in DOC.splitlines() if line.startswith("| `")}


@pytest.mark.parametrize("field", sorted(ENV))
def test_every_setting_is_documented_with_its_default(field: str) -> None:
    variable = f"`{ENV[field]}`"
    assert variable in ROWS, f"{ENV[field]} is not in the settings table"
    info = Settings.model_fields[field]
    default = info.get_default(call_default_factory=False)
    if isinstance(default, bool):
        assert f"`{str(default).lower()}`" in ROWS[variable]
    elif isinstance(default, int | float) and not isinstance(default, bool):
        assert f"`{default:g}`" in ROWS[variable], (field, default)
    elif isinstance(default, str):
        assert f"`{default}`" in ROWS[variable], (field, default)


@pytest.mark.parametrize("name", [n for n in dir(wire) if n.startswith("CLOSE_")])
def test_every_close_code_is_documented(name: str) -> None:
    code = getattr(wire, name)
    assert f"| {code} |" in DOC, f"close code {code} ({name}) is not in docs/operations.md"
