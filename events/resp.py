"""Commands packed in RESP by hand: the append paths' one write per call or batch.

redis-py's `pack_command` encodes every argument through its `Encoder` (about 40% of the
store's CPU per command in the closed-loop profile, README "Gateway CPU per command");
the appends pack their own bytes with these and hand them to a redis-py connection's
`send_packed_command`, reading the replies with redis-py's parser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from redis.exceptions import ResponseError


def _bytes(value: Any) -> bytes:
    """One argument as redis-py encodes it: str as UTF-8, int in decimal, bytes as they are."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, int) and not isinstance(value, bool):
        return b"%d" % value
    raise TypeError(f"an append argument must be bytes, str or int, not {type(value)}")


def bulks(*args: Any) -> bytes:
    """`args` as RESP bulk strings, without the array header (see `pack`)."""
    out = []
    for value in args:
        kind = type(value)  # the exact types first: a call per argument cost 2.5x
        if kind is str:
            value = value.encode()
        elif kind is int:
            value = b"%d" % value
        elif kind is not bytes:
            value = _bytes(value)
        out.append(b"$%d\r\n%b\r\n" % (len(value), value))
    return b"".join(out)


def pack(*args: Any) -> bytes:
    """One command in RESP: an array of bulk strings."""
    return b"*%d\r\n" % len(args) + bulks(*args)


async def exchange_on(
    connection: Any, packed: bytes, count: int, sent: Callable[[], None] | None = None
) -> list[Any]:
    """Write `packed` on a redis-py connection and read its `count` replies, an error
    reply in its place; `sent` is called once the write is out. Any other failure (the
    connection, a timeout, a cancellation) disconnects the connection in redis-py, so no
    half-read reply is left for its next user."""
    await connection.send_packed_command(packed)
    if sent is not None:
        sent()
    replies: list[Any] = []
    for _ in range(count):
        try:
            replies.append(await connection.read_response())
        except ResponseError as exc:
            replies.append(exc)
    return replies
