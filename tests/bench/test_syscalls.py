"""bench/syscalls.py: it reads strace's lines as the report counts them (what a descriptor
is, bytes moved, a wait or a turn with work ready). tests/bench/test_syscalls_run.py runs
it against the servers."""

from __future__ import annotations

from bench import syscalls

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
