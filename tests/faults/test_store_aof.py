"""The disk is part of the contract: a damaged append-only file is refused at start, and
`umpire store check` / `umpire store repair` (server/store_repair.py) say where, cut a
torn tail back to its last complete command and refuse any other cut, keeping a copy of
the original files; the head checkpoints name what a cut lost.

On main, 300 bytes cut off the AOF's tail were loaded cut short (Valkey's
`aof-load-truncated yes`): one acknowledged command was gone (head 42 -> 40), `serve`
warned nothing, and `umpire audit` said OK. A damaged middle was refused, but the advice
named `valkey-check-aof --fix`, which the embedded package does not install. Over real
`umpire serve`, CLI and Valkey processes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.embedded_site import incr_aof, run_cli, start_serve, stop, valkey_pids

OPERATOR = {"UMPIRE_OPERATOR_TOKEN": "aof-test-operator-token-0123"}


def _game(data_dir: Path, pushes: int) -> tuple[str, int]:
    """A game with `pushes` commands, through the CLI (its own Valkey, stopped after)."""
    code, out, err = run_cli(data_dir, "new", "counter", "--json", "--waive-client-entropy")
    assert code == 0, err
    gid = json.loads(out)["game_id"]
    for n in range(pushes):
        code, _, err = run_cli(
            data_dir, "send", gid, '{"type": "Add", "amount": 1}', "--command-id", f"c{n}"
        )
        assert code == 0, err
    return gid, _head(data_dir, gid)


def _head(data_dir: Path, gid: str) -> int:
    code, out, err = run_cli(data_dir, "log", gid, "--json", "--as", "referee", **OPERATOR)
    assert code == 0, err
    return max(json.loads(line)["seq"] for line in out.splitlines() if '"seq"' in line)


def _serve_refuses(data_dir: Path) -> str:
    """`umpire serve` on a damaged store: exit 2, one line; that line."""
    serve, _ = start_serve(data_dir, wait=False, COLUMNS="400")
    try:
        output = serve.communicate(timeout=60)[0].decode(errors="replace")
    finally:
        stop(serve)
    assert serve.returncode == 2, output
    assert "Traceback" not in output, output
    (line,) = [line for line in output.splitlines() if line.startswith("error")]
    assert valkey_pids(data_dir) == []
    return line


def test_a_torn_tail_is_refused_and_repaired_with_a_copy_kept(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    gid, head = _game(data_dir, 12)
    aof = incr_aof(data_dir)
    original = aof.read_bytes()
    aof.write_bytes(original[:-300])  # a torn write, as a full disk or a crash leaves
    torn = aof.read_bytes()

    line = _serve_refuses(data_dir)
    assert line.startswith("error (store_damaged): the embedded Valkey refused its append-only"), (
        line
    )
    assert "umpire store check" in line and "umpire store repair" in line, line
    assert "valkey-check-aof" not in line, line  # not a tool the package installs

    code, out, _ = run_cli(data_dir, "store", "check")
    assert code == 1, out
    assert f"damaged: {aof.name}: {len(torn)} bytes, the last" in out, out

    code, out, err = run_cli(data_dir, "store", "repair")
    assert code == 0, out + err
    assert "repaired:" in out and "the original files are kept in" in out, out
    (backup,) = (data_dir / "redis").glob("aof-backup-*")
    assert (backup / aof.name).read_bytes() == torn  # the originals, byte for byte
    assert torn.startswith(aof.read_bytes()) and len(aof.read_bytes()) < len(torn)

    # The store serves again; the command being written is gone, and the head checkpoint
    # names it: the repair, every later check and the audit say which seqs were lost.
    after = _head(data_dir, gid)
    assert after < head
    lost = f"game {gid} lost seqs {after + 1} to {head}"
    assert lost in out, out
    code, out, _ = run_cli(data_dir, "store", "check")
    assert code == 1 and lost in out and "damaged:" not in out, out
    code, out, err = run_cli(data_dir, "audit", gid, **OPERATOR)
    assert code == 1 and lost in out, out + err


def test_a_damaged_middle_is_refused_with_advice_the_project_ships(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    gid, _ = _game(data_dir, 4)
    aof = incr_aof(data_dir)
    whole = aof.read_bytes()
    # Inside the game's first appended event (the file opens with other records: the
    # receipt keys, the games index), so that the damaged step is one the salvage names.
    at = whole.index(b"XADD")
    aof.write_bytes(whole[:at] + b"GARBAGE" + whole[at:])
    line = _serve_refuses(data_dir)
    assert line.startswith("error (store_damaged):"), line
    assert "Bad file format" in line and "umpire store repair" in line, line
    assert "valkey-check-aof" not in line, line
    # Not a torn tail: repair refuses to cut, naming what a cut would lose.
    code, out, _ = run_cli(data_dir, "store", "repair")
    assert code == 1 and "refused" in out and f"would lose: game {gid} seqs" in out, out
    assert not list((data_dir / "redis").glob("aof-backup-*"))
    code, out, _ = run_cli(data_dir, "store", "repair", "--salvage")
    assert code == 0, out
    (backup,) = (data_dir / "redis").glob("aof-backup-*")
    assert (backup / aof.name).read_bytes() == whole[:at] + b"GARBAGE" + whole[at:]
    assert f"lost: game {gid} lost seq" in out, out
    shutil.rmtree(backup)


def test_the_store_is_not_checked_under_a_running_serve(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    serve, _ = start_serve(data_dir)
    try:
        code, _, err = run_cli(data_dir, "store", "check", COLUMNS="400")
    finally:
        stop(serve)
    assert code == 2 and "Traceback" not in err, err
    assert "error (data_dir_in_use)" in err and "stop umpire serve first" in err, err
