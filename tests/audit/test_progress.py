"""Long command-line work draws a rich progress bar on stderr; short work draws none."""

from __future__ import annotations

import io

from rich.console import Console

from umpire.server.progress import PROGRESS_FROM, progress_bar


def test_a_long_log_gets_a_bar_that_reaches_its_total() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)
    with progress_bar("auditing", PROGRESS_FROM * 2, console) as advance:
        assert advance is not None
        for done in range(0, PROGRESS_FROM * 2 + 1, PROGRESS_FROM // 2):
            advance(done)
    drawn = out.getvalue()
    assert "auditing" in drawn and f"{PROGRESS_FROM * 2}/{PROGRESS_FROM * 2}" in drawn


def test_a_short_log_gets_no_bar() -> None:
    out = io.StringIO()
    with progress_bar("auditing", PROGRESS_FROM - 1, Console(file=out)) as advance:
        assert advance is None
    assert out.getvalue() == ""
