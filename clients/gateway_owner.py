"""Whose gateway a client reached on this machine, before it sends a credential there.

A gateway's port on loopback belongs to whoever listens on it first. Another local account
that listens there while the owner's `umpire serve` is down (or restarting, or on another
port) hears the first message of every client that connects: `umpire play` and `umpire
watch` sent their `auth`, the player's credential inside, to it, and it could play the
owner's game from then on (red team, 2026-11-29). So on loopback the Python client asks
the kernel which account holds the other end of its connection (events/local_users.py,
as the gateway does for its clients) and goes no further, sending nothing, unless it is
this account, root, or an account named in `UMPIRE_GATEWAY_UIDS` (a gateway run by a
service account of its own). A gateway on another host is the network's business (TLS,
docs/operations.md).
"""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Any

from umpire.events.errors import UmpireError
from umpire.events.local_users import own_host_peer_uid

ENV = "UMPIRE_GATEWAY_UIDS"


class GatewayNotYours(UmpireError):
    """The gateway reached on loopback is another local account's."""

    code = "gateway_not_yours"


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


def check_gateway_owner(ours: Any, peer: Any, url: str, trusted: Collection[int]) -> None:
    """Refuse (GatewayNotYours) a connection from `ours` to `peer` (socket addresses) on
    loopback or to this host's own address, whose other end another local account holds,
    unless `trusted` names it."""
    if not ours or not peer:
        return
    uid = own_host_peer_uid((ours[0], ours[1]), (peer[0], peer[1]))
    if uid is None or uid in (os.geteuid(), 0) or uid in trusted:
        return
    raise GatewayNotYours(
        f"the gateway at {url} is run by another local account (uid {uid}), not by you: "
        f"whoever listens there first hears your credential, so nothing was sent. Start "
        f"your own umpire serve, or, if that account runs it for you, set {ENV}={uid}",
        uid=uid,
    )
