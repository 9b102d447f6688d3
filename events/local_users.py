"""Which local account holds the other end of a loopback TCP connection.

On loopback every account of the machine connects from the same address, so counting
connections and budgets per address would let one account's idle connections lock out
every other (issue 43). The kernel knows the owner of each socket: /proc/net/tcp and
/proc/net/tcp6 list every TCP socket of this network namespace with its local and remote
address and the uid that created it. The peer's socket is the entry whose local end is
our connection's remote end and whose remote end is our local end; its uid column is the
local account on the other side.

Reading those tables costs time in proportion to every TCP socket of the machine (two
per loopback connection), once per accepted connection: with ten thousand connections
open that is megabytes of text per accept. So the kernel is asked first for the one
socket, by its address and ports, through NETLINK_SOCK_DIAG (what `ss` uses; no
privilege needed), whose answer carries the same uid; the tables are the fallback
where netlink is not there.

`diag_request`, `diag_uid` and `owner_in` are plain code (tests/server/test_local_users.py
drives them with bytes and text), and so is `own_host_ends`; `owner_of` is the one I/O
function, which `peer_uid` (the gateway's, of a client) calls.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from pathlib import Path

TABLES = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))
# Columns of a /proc/net/tcp line: sl, local_address, rem_address, st, tx:rx, tr:when,
# retrnsmt, uid, timeout, inode, ...
_UID_COLUMN = 7


def _plain(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """`host` as an address without its IPv4-mapped form or zone, or None if it is none."""
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def loopback_host(host: str) -> str | None:
    """`host` as a loopback address without its IPv4-mapped form, or None when it is
    not a loopback address (then the peer is counted by its address)."""
    address = _plain(host)
    return str(address) if address is not None and address.is_loopback else None


def _hex_address(host: str) -> str:
    """`host` as the kernel prints it in /proc/net/tcp{,6}: each 32-bit word of the
    address in the machine's byte order, in upper-case hex."""
    packed = ipaddress.ip_address(host).packed
    words = [packed[i : i + 4] for i in range(0, len(packed), 4)]
    if sys.byteorder == "little":
        words = [word[::-1] for word in words]
    return "".join(word.hex().upper() for word in words)


def _endpoint(host: str, port: int) -> str:
    return f"{_hex_address(host)}:{port:04X}"


def owner_in(table: str, peer: tuple[str, int], ours: tuple[str, int]) -> int | None:
    """The uid of the socket in `table` (the text of /proc/net/tcp or tcp6) whose local
    end is `peer` and remote end `ours`, or None when the table has no such socket."""
    needle = f" {_endpoint(*peer)} {_endpoint(*ours)} "
    at = table.find(needle)
    if at < 0:
        return None
    start, end = table.rfind("\n", 0, at) + 1, table.find("\n", at)
    fields = table[start : end if end >= 0 else len(table)].split()
    try:
        return int(fields[_UID_COLUMN])
    except (IndexError, ValueError):
        return None


# linux/netlink.h, linux/sock_diag.h, linux/inet_diag.h
NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLM_F_REQUEST = 1
NLMSG_ERROR = 2
_HEADER = struct.Struct("=IHHII")  # nlmsghdr: length, type, flags, seq, pid
# inet_diag_req_v2: family, protocol, ext, pad, states; then inet_diag_sockid: source
# and destination ports (network order), the two addresses (16 bytes each), interface,
# cookie (INET_DIAG_NOCOOKIE: look the socket up by its addresses alone).
_REQUEST = struct.Struct("=BBBxI2s2s16s16sI8s")
_NO_COOKIE = b"\xff" * 8
# inet_diag_msg: family, state, timer, retrans, the 48-byte id, expires, rqueue, wqueue,
# uid, inode.
_MESSAGE = struct.Struct("=BBBB48sIIIII")


def diag_request(local: tuple[str, int], remote: tuple[str, int], seq: int = 1) -> bytes:
    """The netlink request for the TCP socket whose local end is `local` and remote end
    `remote` (both of one family)."""
    address = ipaddress.ip_address(local[0])
    family = socket.AF_INET if address.version == 4 else socket.AF_INET6
    body = _REQUEST.pack(
        family,
        socket.IPPROTO_TCP,
        0,
        0xFFFFFFFF,  # any state
        local[1].to_bytes(2, "big"),
        remote[1].to_bytes(2, "big"),
        address.packed.ljust(16, b"\0"),
        ipaddress.ip_address(remote[0]).packed.ljust(16, b"\0"),
        0,
        _NO_COOKIE,
    )
    return _HEADER.pack(_HEADER.size + len(body), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, seq, 0) + body


def diag_uid(answer: bytes) -> int | None:
    """The uid in the kernel's answer to `diag_request`; None for an error (no such
    socket) or an answer too short to hold one."""
    if len(answer) < _HEADER.size + _MESSAGE.size:
        return None
    _, kind, _, _, _ = _HEADER.unpack_from(answer)
    if kind != SOCK_DIAG_BY_FAMILY:
        return None
    fields = _MESSAGE.unpack_from(answer, _HEADER.size)
    uid: int = fields[8]
    return uid


def _ask_kernel(local: tuple[str, int], remote: tuple[str, int]) -> int | None:
    """The uid of one socket by netlink, or None (not found, or no netlink)."""
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG) as sock:
            sock.settimeout(1.0)
            sock.send(diag_request(local, remote))
            return diag_uid(sock.recv(8192))
    except (OSError, AttributeError):  # AttributeError: a platform without AF_NETLINK
        return None


def _both_forms(host: str) -> list[str]:
    """An IPv4 loopback address as the tcp table and the tcp6 table (IPv4-mapped) name it."""
    address = ipaddress.ip_address(host)
    if isinstance(address, ipaddress.IPv4Address):
        return [host, f"::ffff:{host}"]
    return [host]


def peer_uid(ours: tuple[str, int], peer: tuple[str, int]) -> int | None:
    """The uid of the local account holding the other end of the loopback TCP connection
    whose local end is `ours` and remote end `peer`; None if either end is not loopback
    or the socket is not found (it closed meanwhile, or /proc is not there)."""
    our_host, peer_host = loopback_host(ours[0]), loopback_host(peer[0])
    if our_host is None or peer_host is None:
        return None
    return owner_of((our_host, ours[1]), (peer_host, peer[1]))


def own_host_ends(
    ours: tuple[str, int], peer: tuple[str, int]
) -> tuple[tuple[str, int], tuple[str, int]] | None:
    """For a client: the two ends of its connection as plain addresses when the peer is
    on this host, so that `owner_of` can ask who holds it; None when it is another
    host's (the network's business: TLS). On this host means loopback, or this host's
    own address on its network (the kernel carries such a connection over loopback, so
    both ends have that one address): another local account may listen on that address
    and port as on 127.0.0.1, while the owner's gateway is down or on loopback alone."""
    our_host, peer_host = loopback_host(ours[0]), loopback_host(peer[0])
    if our_host is not None and peer_host is not None:
        return (our_host, ours[1]), (peer_host, peer[1])
    if our_host is not None:
        return None  # loopback to an address that is not: no local account holds it
    here, there = _plain(ours[0]), _plain(peer[0])
    if here is None or here != there:
        return None  # another host's
    return (str(here), ours[1]), (str(there), peer[1])


def owner_of(ours: tuple[str, int], peer: tuple[str, int]) -> int | None:
    """The uid of the socket of this host whose local end is `peer` and remote end
    `ours` (plain addresses), or None when the kernel cannot name it: no
    NETLINK_SOCK_DIAG answer and no /proc/net/tcp{,6} entry (a platform or sandbox
    without them, the socket closed meanwhile). A client takes None as unchecked,
    never as allowed (clients/gateway_owner.py)."""
    our_host, peer_host = ours[0], peer[0]
    # The peer's socket is of the family its owner made: IPv4 plain, or IPv6 (where an
    # IPv4 address is in its mapped form).
    for our_form, peer_form in zip(_both_forms(our_host), _both_forms(peer_host), strict=False):
        uid = _ask_kernel((peer_form, peer[1]), (our_form, ours[1]))
        if uid is not None:
            return uid
    for path in TABLES:
        try:
            text = path.read_text()
        except OSError:
            continue
        # A dual-stack socket names an IPv4 peer in its mapped form in tcp6.
        for our_form in _both_forms(our_host):
            for peer_form in _both_forms(peer_host):
                uid = owner_in(text, (peer_form, peer[1]), (our_form, ours[1]))
                if uid is not None:
                    return uid
    return None
