"""The store's state shared from the parent of `umpire serve --workers N` with its
workers (server/store_status.py), as plain file operations."""

from __future__ import annotations

from pathlib import Path

from umpire.server.store_status import StoreStatus


def test_a_published_cause_is_read_until_the_store_runs_again(tmp_path: Path) -> None:
    parent, worker = StoreStatus(tmp_path), StoreStatus(tmp_path)
    assert worker.cause() is None  # nothing published: the store runs
    parent.publish("store restarting, attempt 2")
    assert worker.cause() == "store restarting, attempt 2"
    parent.publish(None)
    assert worker.cause() is None
    assert [p.name for p in tmp_path.iterdir()] == ["store.status"]  # no temporary left


def test_an_unwritable_directory_costs_no_crash(tmp_path: Path) -> None:
    status = StoreStatus(tmp_path / "gone")
    status.publish("store restarting, attempt 1")
    assert status.cause() is None
