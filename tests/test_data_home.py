"""The suite writes nothing into the data folder of whoever runs it, and asks no speed of
the machine. A command run without --data-dir keeps its store and receipts
(`<data dir>/receipts/GAME.jsonl`) in the default data folder, which the suite points at a
temporary folder of its own (umpire.testing.fixtures); hypothesis runs without its
per-example deadline there."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from umpire.server.config import default_data_dir


def test_the_default_data_dir_is_the_runs_own_temporary_folder() -> None:
    home_data = Path.home() / ".local" / "share"
    assert not default_data_dir().is_relative_to(home_data), default_data_dir()
    assert Path(os.environ["XDG_DATA_HOME"]).is_relative_to(tempfile.gettempdir())


def test_hypothesis_runs_without_a_deadline_in_the_suite() -> None:
    # A per-example deadline measures the machine; a loaded run failed one (issue #27).
    from hypothesis import HealthCheck, settings

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
