"""The browser table's benchmark (bench/viewer_open.py) runs end to end in its quick mode
and prints every figure beside its goal: the 100-, 1,000- and 10,000-event games opened from
their links, the Age
of Dogfights FlyBots step, the over_budget refusals and the machine's load. No figure's
value is asserted (speed lives in bench/, printed beside its goal)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.viewer_open import chromium_path

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(900)
def test_the_quick_run_prints_its_figures_beside_their_goals() -> None:
    pytest.importorskip("playwright.async_api", reason="pip install -e '.[test]'")
    if chromium_path() is None:
        pytest.skip("no system Chromium: apt-get install chromium")
    done = subprocess.run(
        [sys.executable, "-m", "bench", "viewer_open", "--quick"],
        cwd=REPO,
        env={**os.environ, "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=840,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout)
    opened = figures["open_from_link"]
    assert set(opened) == {"100", "1000", "10000"}
    assert all(o["runs"] == 1 and o["median_s"] is not None for o in opened.values())
    flown = figures["fly_bots"]
    assert flown["runs"] == 1 and flown["events_per_batch"][0] > 1
    assert set(figures["over_budget_refused"]) == {"connection", "address", "creates"}
    assert isinstance(figures["over_budget_in_log"], int)
    assert len(figures["machine"]["load_before"]) == 3
    table = done.stderr
    for words in ("open a 1,001-event game from its link", "open a 10,001-event game",
                  "FlyBots", "over_budget refusals", "machine load", "< 1 s", "< 3 s",
                  "< 2 s"):  # fmt: skip
        assert words in table, table
