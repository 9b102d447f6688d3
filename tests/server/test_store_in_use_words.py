"""`umpire store check` (and repair, restore) while `umpire serve` holds the data
directory: the refusal says to stop it, not a second serve's advice."""

from __future__ import annotations

from pathlib import Path

import pytest

from umpire.server.cli import main
from umpire.server.data_dir import DataDirLock


@pytest.mark.parametrize("command", [["check"], ["repair"], ["restore", "backup-dir"]])
def test_a_store_command_on_a_served_directory_says_stop_serve(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Fails without the fix: "... one umpire serve per data directory; stop that one, or
    # give this one another --data-dir (UMPIRE_DATA_DIR) or a REDIS_URL. The store's files
    # are checked ...": another --data-dir or a REDIS_URL checks nothing of this store.
    data_dir = tmp_path / "data"
    serving = DataDirLock(data_dir, "serve")
    assert serving.try_acquire()
    (tmp_path / "backup-dir").mkdir()
    try:
        code = main(["--data-dir", str(data_dir), "store", *command])
    finally:
        serving.release()
    err = " ".join(capsys.readouterr().err.split())
    assert code == 2, err
    assert "is in use by process" in err and "(umpire serve)" in err, err
    assert "stop umpire serve first" in err, err
    assert "--data-dir" not in err and "REDIS_URL" not in err, err
