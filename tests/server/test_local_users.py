"""Which local account holds the other end of a loopback connection (events/local_users.py),
as plain code: the kernel's answers and tables are given as bytes and text."""

from __future__ import annotations

import socket
import struct
import sys

from umpire.events.local_users import (
    NLM_F_REQUEST,
    SOCK_DIAG_BY_FAMILY,
    diag_request,
    diag_uid,
    loopback_host,
    owner_in,
)

# /proc/net/tcp as the kernel writes it: a listener on 127.0.0.1:8765, and both ends of
# one connection to it from port 50000 (the client's socket is uid 1001's, the server's 0).
TABLE = """\
  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:223D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 46065 1
   1: 0100007F:C350 0100007F:223D 01 00000000:00000000 00:00000000 00000000  1001        0 51234 1
   2: 0100007F:223D 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 51235 1
"""
# /proc/net/tcp6: the same on ::1.
TABLE6 = """\
  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:C350 00000000000000000000000001000000:223D 01 00000000:00000000 00:00000000 00000000  1002        0 61 1
"""  # noqa: E501


def test_the_peer_socket_is_the_one_whose_local_end_is_our_remote_end() -> None:
    if sys.byteorder != "little":  # the tables above are a little-endian machine's
        return
    assert owner_in(TABLE, ("127.0.0.1", 50000), ("127.0.0.1", 8765)) == 1001
    # Our own end is the mirror image: never taken for the peer's.
    assert owner_in(TABLE, ("127.0.0.1", 8765), ("127.0.0.1", 50000)) == 0
    assert owner_in(TABLE, ("127.0.0.1", 50001), ("127.0.0.1", 8765)) is None
    assert owner_in(TABLE6, ("::1", 50000), ("::1", 8765)) == 1002


def test_only_loopback_peers_are_looked_up() -> None:
    assert loopback_host("127.0.0.1") == "127.0.0.1"
    assert loopback_host("127.0.0.2") == "127.0.0.2"
    assert loopback_host("::1") == "::1"
    assert loopback_host("::ffff:127.0.0.1") == "127.0.0.1"  # a dual-stack socket's form
    assert loopback_host("192.0.2.7") is None
    assert loopback_host("::ffff:192.0.2.7") is None
    assert loopback_host("?") is None


def test_the_netlink_request_names_one_socket_by_its_ends() -> None:
    request = diag_request(("127.0.0.1", 50000), ("127.0.0.1", 8765), seq=7)
    length, kind, flags, seq, _ = struct.unpack_from("=IHHII", request)
    assert (length, kind, flags, seq) == (len(request), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, 7)
    family, protocol = request[16], request[17]
    assert (family, protocol) == (socket.AF_INET, socket.IPPROTO_TCP)
    sport, dport = request[24:26], request[26:28]
    assert (int.from_bytes(sport, "big"), int.from_bytes(dport, "big")) == (50000, 8765)
    assert request[28:32] == bytes([127, 0, 0, 1]) and request[44:48] == bytes([127, 0, 0, 1])
    assert request[-8:] == b"\xff" * 8  # no cookie: by the addresses alone


def test_the_uid_is_read_from_the_kernels_answer() -> None:
    body = struct.pack("=BBBB48sIIIII", socket.AF_INET, 1, 0, 0, b"\0" * 48, 0, 0, 0, 1001, 99)
    answer = struct.pack("=IHHII", 16 + len(body), SOCK_DIAG_BY_FAMILY, 0, 1, 0) + body
    assert diag_uid(answer) == 1001
    error = struct.pack("=IHHIIi", 36, 2, 0, 1, 0, -2) + b"\0" * 16  # NLMSG_ERROR, ENOENT
    assert diag_uid(error + b"\0" * 64) is None
    assert diag_uid(answer[:40]) is None
