"""On a full disk the store stays readable and writes get a typed `store_full`
(server/disk_watch.py), recovering by themselves when space returns.

On main, with `appendfsync always`, Valkey exited on a short AOF write, reads went down
with writes, it restarted in a loop until space returned, and the `store_unavailable`
clients got named the server's socket path. Here the gateway stops accepting writes
before that, at a free-space watermark (UMPIRE_STORE_MIN_FREE_MB): tested by setting the
watermark above the free space, never by filling the real disk; and, where a small
tmpfs can be mounted, by filling that one and emptying it again."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.embedded_site import run_cli, start_serve, stop
from umpire.testing.support.peer import Peer

BOUND = 20.0  # seconds: far past the watch's one-second look


def _command(gid: str, command_id: str) -> dict[str, Any]:
    return {"type": "command", "game_id": gid, "command_id": command_id,
            "command": {"type": "Add", "amount": 1}}  # fmt: skip


def _refused_full(reply: dict[str, Any]) -> None:
    assert reply["type"] == "error" and reply["code"] == "store_full", reply
    assert "/" not in reply["message"], reply  # no server path, nor any figure of the disk


async def _reads_work(url: str, gid: str, spectator: str, head: int) -> None:
    reader = await Peer.open(url)
    await reader.ok({"type": "auth", "credential": spectator})
    view = await reader.ok({"type": "view", "game_id": gid})
    assert view["seq"] == head
    await reader.ok({"type": "subscribe", "game_id": gid, "from_seq": 0})
    await reader.wait_for(lambda f: f["type"] == "event" and f["seq"] == head, BOUND)
    assert [e["seq"] for e in reader.events(gid)] == list(range(1, head + 1))
    await reader.close()


async def test_under_the_watermark_writes_get_store_full_and_reads_are_served(
    tmp_path: Path,
) -> None:
    data_dir = tmp_path / "data"
    serve, port = start_serve(data_dir)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        player = await Peer.open(url)
        created = await player.ok({"type": "create", "ruleset": "counter", "setup": {},
                                   "client_entropy": "waived"})  # fmt: skip
        gid = created["game_id"]
        head = (await player.ok(_command(gid, "before")))["seqs"][-1]
        await player.close()
    finally:
        stop(serve)
    # The same data directory served with a watermark above any disk's free space.
    serve, port = start_serve(data_dir, UMPIRE_STORE_MIN_FREE_MB=str(2**40))
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        player = await Peer.open(url)
        await player.ok({"type": "auth", "credential": created["player_credential"]})
        _refused_full(await player.request(_command(gid, "while-full")))
        _refused_full(await player.request({"type": "create", "ruleset": "counter",
                                            "setup": {}, "client_entropy": "waived"}))  # fmt: skip
        await _reads_work(url, gid, created["spectator_credential"], head)
        await player.close()
    finally:
        output = stop(serve)
    assert "writes are refused with store_full" in output, output
    # Nothing was written: the refused command is not in the log.
    serve, port = start_serve(data_dir)
    try:
        reader = await Peer.open(f"ws://127.0.0.1:{port}/ws")
        await reader.ok({"type": "auth", "credential": created["spectator_credential"]})
        assert (await reader.ok({"type": "view", "game_id": gid}))["seq"] == head
        await reader.close()
    finally:
        stop(serve)


@pytest.fixture
def small_disk() -> Iterator[Path]:
    """A 64 MB tmpfs of this test's own (skips where it cannot be mounted)."""
    mount = shutil.which("mount")
    if os.geteuid() != 0 or mount is None:
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    where = Path(tempfile.mkdtemp(prefix="umpire-disk-"))
    made = subprocess.run([mount, "-t", "tmpfs", "-o", "size=64m,mode=0755", "tmpfs", str(where)],
                          capture_output=True, text=True)  # fmt: skip
    if made.returncode != 0:
        where.rmdir()
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)
        where.rmdir()


async def test_a_disk_filled_and_emptied_refuses_writes_then_accepts_them_again(
    small_disk: Path,
) -> None:
    data_dir = small_disk / "data"
    serve, port = start_serve(data_dir, UMPIRE_STORE_MIN_FREE_MB="24")
    url = f"ws://127.0.0.1:{port}/ws"
    ballast = small_disk / "ballast"
    try:
        player = await Peer.open(url)
        created = await player.ok({"type": "create", "ruleset": "counter", "setup": {},
                                   "client_entropy": "waived"})  # fmt: skip
        gid = created["game_id"]
        head = (await player.ok(_command(gid, "c0")))["seqs"][-1]
        free = os.statvfs(small_disk).f_bavail * os.statvfs(small_disk).f_frsize
        with ballast.open("wb") as out:  # leave 8 MB: under the watermark, not yet full
            out.write(b"\0" * (free - 8 * 2**20))
        async with asyncio.timeout(BOUND):
            while True:
                reply = await player.request(_command(gid, "c1"))
                if reply["type"] == "error":
                    break
                head = reply["seqs"][-1]  # accepted before the watch looked again
                await asyncio.sleep(0.2)
        _refused_full(reply)
        await _reads_work(url, gid, created["spectator_credential"], head)

        ballast.unlink()  # space is back: writes are accepted again, by themselves
        async with asyncio.timeout(BOUND):
            while True:
                reply = await player.request(_command(gid, "c1"))
                if reply["type"] == "accepted":
                    break
                _refused_full(reply)
                await asyncio.sleep(0.2)
        await player.close()
    finally:
        ballast.unlink(missing_ok=True)
        output = stop(serve)
    assert "writes are refused with store_full" in output, output
    assert "has space again: writes are accepted" in output, output


def test_the_cli_refuses_its_writes_under_the_watermark_too(tmp_path: Path) -> None:
    """`umpire new`, `send` and the others write straight to the embedded store: under the
    watermark they are refused with store_full as the gateway's are, and nothing is
    written; reads (`state`) go on."""
    data_dir = tmp_path / "data"
    code, out, err = run_cli(data_dir, "new", "counter", "--waive-client-entropy")
    assert code == 0, err
    gid = out.split("created game ", 1)[1].split()[0]
    full = {"UMPIRE_STORE_MIN_FREE_MB": str(2**40)}
    code, _, err = run_cli(data_dir, "send", gid, '{"type": "Add", "amount": 1}', **full)
    assert code == 2 and "store_full" in err and "/" not in err.split("store_full", 1)[1], err
    code, _, err = run_cli(data_dir, "new", "counter", **full)
    assert code == 2 and "store_full" in err, err
    code, out, err = run_cli(data_dir, "state", gid, "--json", **full)
    assert code == 0, err
    assert '"seq": 1' in out or '"seq":1' in out, out  # the refused send wrote nothing
