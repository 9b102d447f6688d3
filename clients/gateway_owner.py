"""Whose gateway a client reached on this machine, before it sends a credential there.

A gateway's port on loopback belongs to whoever listens on it first. Another local account
that listens there while the owner's `umpire serve` is down (or restarting, or on another
port) hears the first message of every client that connects: `umpire play` and `umpire
watch` sent their `auth`, the player's credential inside, to it, and it could play the
owner's game from then on (red team, 2026-11-29). So on loopback (and on this host's own
address) the Python client asks the kernel which account holds the other end of its
connection (events/local_users.py, as the gateway does for its clients) and goes no
further, sending nothing, unless it is this account, root, or an account named in
`UMPIRE_GATEWAY_UIDS` (a gateway run by a service account of its own).

Where the kernel cannot say (no NETLINK_SOCK_DIAG and no /proc/net/tcp entry: a sandbox,
a platform without them), the client sent its credential all the same, so a squatter
there heard it (red team, left open). It now stops there too (`GatewayOwnerUnknown`),
unless the user trusts that address deliberately: `UMPIRE_TRUST_GATEWAY_AT` names it
(`host:port`, as in the URL or as connected to). A gateway on another host is the
network's business (TLS, docs/operations.md): no check applies to it.

`judge` is the decision, plain code; `check_gateway_owner` asks the kernel for it.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Any
from urllib.parse import urlsplit

from umpire.events.errors import UmpireError
from umpire.events.local_users import own_host_ends, owner_of

ENV = "UMPIRE_GATEWAY_UIDS"
TRUST_ENV = "UMPIRE_TRUST_GATEWAY_AT"


class GatewayNotYours(UmpireError):
    """The gateway reached on loopback is another local account's."""

    code = "gateway_not_yours"


class GatewayOwnerUnknown(GatewayNotYours):
    """The gateway reached on this host is of an account the kernel could not name, so
    it is not shown to be this user's: refused as one that is not (nothing sent)."""

    code = "gateway_owner_unknown"


def trusted_uids(environ: dict[str, str] | None = None) -> frozenset[int]:
    """The accounts besides this one and root whose gateway a client may talk to
    (`UMPIRE_GATEWAY_UIDS`: uids, comma-separated)."""
    text = (os.environ if environ is None else environ).get(ENV, "")
    try:
        return frozenset(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise GatewayNotYours(
            f"{ENV} must list uids separated by commas, not {text!r}", setting=ENV
        ) from None


def trusted_addresses(environ: dict[str, str] | None = None) -> frozenset[str]:
    """The gateway addresses a client talks to although the kernel cannot name their
    owner (`UMPIRE_TRUST_GATEWAY_AT`: `host:port`, comma-separated; IPv6 in brackets)."""
    text = (os.environ if environ is None else environ).get(TRUST_ENV, "")
    found = frozenset(part.strip().lower() for part in text.split(",") if part.strip())
    for address in found:
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise GatewayNotYours(
                f"{TRUST_ENV} must list gateway addresses as host:port separated by "
                f"commas (e.g. 127.0.0.1:8765, [::1]:8765), not {address!r}",
                setting=TRUST_ENV,
            )
    return found


def _names(url: str, peer: tuple[str, int]) -> tuple[str, str]:
    """The gateway's address as the URL names it and as connected to (`host:port`)."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "wss" else 80)
    host = parts.hostname or ""
    named = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    at = f"[{peer[0]}]:{peer[1]}" if ":" in peer[0] else f"{peer[0]}:{peer[1]}"
    return named.lower(), at.lower()


def judge(
    uid: int | None,
    url: str,
    peer: tuple[str, int],
    trusted: Collection[int],
    trusted_at: Collection[str],
) -> None:
    """Whether a client may send to the gateway at `url` (connected to `peer`, an
    address of this host) whose socket the kernel says `uid` holds (None: it could not
    say). Returns if this account, root or a `trusted` account holds it, or, unnamed,
    if `trusted_at` names the address; raises GatewayNotYours or GatewayOwnerUnknown."""
    if uid is None:
        named, at = _names(url, peer)
        if named in trusted_at or at in trusted_at:
            return
        raise GatewayOwnerUnknown(
            f"the owner of the gateway at {url} ({at}) could not be checked: the kernel "
            f"named no account for it (no NETLINK_SOCK_DIAG answer, no /proc/net/tcp "
            f"entry), and another local account may be listening there to hear your "
            f"credential, so nothing was sent. If you know this gateway is yours (or run "
            f"for you), trust its address deliberately: set {TRUST_ENV}={named}",
            address=at,
        )
    if uid in (os.geteuid(), 0) or uid in trusted:
        return
    raise GatewayNotYours(
        f"the gateway at {url} is run by another local account (uid {uid}), not by you: "
        f"whoever listens there first hears your credential, so nothing was sent. Start "
        f"your own umpire serve, or, if that account runs it for you, set {ENV}={uid}",
        uid=uid,
    )


def check_gateway_owner(
    ours: Any,
    peer: Any,
    url: str,
    trusted: Collection[int],
    trusted_at: Collection[str] = frozenset(),
) -> None:
    """Refuse (GatewayNotYours, GatewayOwnerUnknown) a connection from `ours` to `peer`
    (socket addresses) on loopback or to this host's own address, unless `judge` allows
    the account the kernel names for its other end. A peer on another host passes."""
    if not ours or not peer:
        # The transport could not name its ends (the peer reset it as it opened): who
        # holds the other end is not known, so nothing is sent (a reconnect tries again).
        raise GatewayOwnerUnknown(
            f"the gateway at {url} could not be checked: the connection has no address "
            "(it was reset as it opened), so nothing was sent; try again"
        )
    ends = own_host_ends((ours[0], ours[1]), (peer[0], peer[1]))
    if ends is None:
        return  # another host's: the network's business (TLS)
    judge(owner_of(*ends), url, ends[1], trusted, trusted_at)
