"""A rich progress bar on stderr for command-line work over long logs."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

# Below this many events a log is processed in well under a second: no bar.
PROGRESS_FROM = 2000


@contextlib.contextmanager
def progress_bar(
    description: str, total: int, console: Console
) -> Iterator[Callable[[int], None] | None]:
    """Yield a callback `advance_to(done)` drawing a bar, or None for short work."""
    if total < PROGRESS_FROM:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)

        def advance_to(done: int) -> None:
            bar.update(task, completed=done)

        yield advance_to
