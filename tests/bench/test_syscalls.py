"""bench/syscalls.py: it reads strace's lines as the report counts them (what a descriptor
is, bytes moved, a wait or a turn with work ready), counts the loop's turns in a server it
starts without touching the product, and prints umpire beside the floor (strace itself is
not needed here: `--no-strace`)."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from bench import syscalls

ROOT = Path(__file__).resolve().parents[2]
PORT = 40509


def _call(line: str, role: str = "worker", own: frozenset[str] = frozenset()) -> syscalls.Call:
    call = syscalls.parse_line(line, PORT, role, set(own))
    assert call is not None, line
    return call


def test_a_line_names_the_descriptor_it_touches() -> None:
    ack = '14<TCP:[127.0.0.1:40509->127.0.0.1:58992]>, "\\201~"..., 550, 0, NULL, 0) = 550'
    assert _call("sendto(" + ack) == ("sendto", "client", 550, False)
    store = 'recvfrom(12<UNIX-STREAM:[10620729->10620730]>, ""..., 262144, 0, NULL, NULL) = 21'
    assert _call(store) == ("recvfrom", "store", 21, False)
    # The same unix socket whose other end this process holds: the loop's self-pipe.
    assert _call(store, own=frozenset({"10620730"}))[1] == "self-pipe"
    # In Valkey a unix socket is a worker's connection.
    assert _call(store, role="valkey")[1] == "client"
    heads = 'write(13</tmp/x/data/store-heads.log>, "H g 608"..., 98) = 98'
    assert _call(heads) == ("write", "file", 98, False)
    assert _call("getpid()          = 8911") == ("getpid", "", 8911, False)


def test_an_epoll_wait_with_no_timeout_is_a_turn_with_work_ready() -> None:
    ready = "epoll_wait(5<anon_inode:[eventpoll]>, [], 6, 0) = 0"
    waited = "epoll_wait(5<anon_inode:[eventpoll]>, [{events=EPOLLIN, data={u32=12}}], 6, 42) = 1"
    counts = syscalls.tally([_call(ready), _call(waited), _call(ready)])
    assert counts["epoll_wait"] == 3
    assert counts["epoll_wait (no wait)"] == 2
    assert counts["epoll_wait waited"] == 1
    assert counts["epoll_wait:epoll"] == 3


def test_bytes_are_added_up_by_what_they_went_to() -> None:
    lines = [
        'sendto(12<UNIX-STREAM:[1->2]>, "*23"..., 1849, 0, NULL, 0) = 1849',
        'recvfrom(12<UNIX-STREAM:[1->2]>, "*2"..., 262144, 0, NULL, NULL) = 21',
        'sendto(14<TCP:[127.0.0.1:40509->127.0.0.1:5]>, ""..., 550, 0, NULL, 0) = 550',
        'recvfrom(14<TCP:[127.0.0.1:40509->127.0.0.1:5]>, ""..., 65536, 0, NULL, NULL) = -1 '
        "EAGAIN (Resource temporarily unavailable)",
    ]
    counts = syscalls.tally([_call(line) for line in lines])
    assert counts["bytes out:store"] == 1849
    assert counts["bytes in:store"] == 21
    assert counts["bytes out:client"] == 550
    assert "bytes in:client" not in counts  # a failed read moved nothing
    assert counts["calls"] == 4


def test_what_is_not_a_finished_call_is_skipped() -> None:
    for line in ("--- SIGUSR2 {si_signo=SIGUSR2} ---", "+++ exited with 0 +++",
                 "epoll_wait(5<anon_inode:[eventpoll]>,  <unfinished ...>"):  # fmt: skip
        assert syscalls.parse_line(line, PORT, "worker", set()) is None


def test_a_server_is_counted_without_strace(tmp_path: Path) -> None:
    """The floor (the quicker of the two to start): its loop's turns are counted by the
    bench's sitecustomize, in the worker that served the moves."""
    args = argparse.Namespace(
        moves=30, traced_moves=30, workers=1, fsync="everysec", idle_seconds=0.1,
        no_strace=True, handles=False, umpire="",
    )  # fmt: skip
    figures = syscalls.measure("floor", args)
    assert figures["loop turns: worker (served)"] >= 2  # the command in, the append back
    assert figures["p50 ms (untraced)"] > 0


def test_the_command_line_prints_umpire_beside_the_floor() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.syscalls", "--no-strace", "--moves", "20",
         "--workers", "1"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    header, *rows = done.stdout.splitlines()
    assert header.split()[-2:] == ["umpire", "floor"]
    turns = next(row for row in rows if row.startswith("loop turns: worker (served)"))
    assert len(turns.split()) == 4 + 2  # the name's four words, then a figure a server
