"""An error of the command line is one line that names its kind once: `error
(unknown_scenario): ...`, and a plain error `error: ...`, not `error (error): ...`."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.testing.support.forgery import Cli


def test_a_plain_error_is_not_named_error_twice(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fails without the fix: "error (error): --setup 'my-dogfight.toml': cannot read the
    # file (No such file or directory)", the README's set-up example before its file exists.
    monkeypatch.chdir(tmp_path)
    result = cli("new", "down_in_flames", "--setup", "my-dogfight.toml")
    err = " ".join(result.err.split())
    assert result.code == 2 and err.startswith("error: --setup 'my-dogfight.toml'"), err
    typed = cli("new", "down_in_flames", "--scenario", "nope")
    assert typed.code == 2 and typed.err.startswith("error (unknown_scenario): "), typed.err
