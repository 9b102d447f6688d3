"""A ruleset's words as the gateway lists them (`GET /rulesets.json`, docs/protocol.md), for
`umpire watch` and `play` to name event types as `umpire log` does ("SAM set up", not "Sam
set up": events/rules_words.py takes the words a ruleset writes in capitals from its
title and labels, which the listing carries).

Display only, so it never stops a command: a gateway that does not answer, answers
otherwise or lists no such ruleset gives no capitals, and the types are said without
them. The connection is checked as the websocket's is (clients/gateway_owner.py): on
this host, only a gateway of this account (or one trusted) is asked.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import Collection
from urllib.parse import urlsplit

from umpire.clients.gateway_owner import GatewayNotYours, check_gateway_owner
from umpire.events.rules_words import acronyms

LISTING_PATH = "/rulesets.json"
# The listing carries every ruleset's setup schema: a few hundred KiB today.
MAX_LISTING_BYTES = 16 * 1024 * 1024
TIMEOUT_SECONDS = 5.0


async def ruleset_capitals(
    url: str, ruleset: str, trusted: Collection[int], trusted_at: Collection[str]
) -> frozenset[str]:
    """The words `ruleset` writes in capitals, from the listing of the gateway at `url`
    (its websocket URL); none where it cannot be read."""
    try:
        body = await asyncio.wait_for(_listing(url, trusted, trusted_at), TIMEOUT_SECONDS)
        listing = json.loads(body)
    except (OSError, TimeoutError, ValueError, GatewayNotYours, ssl.SSLError):
        return frozenset()
    for entry in listing if isinstance(listing, list) else ():
        if isinstance(entry, dict) and entry.get("name") == ruleset:
            labels, values = entry.get("labels"), entry.get("value_labels")
            if not isinstance(labels, dict) or not isinstance(values, dict):
                return frozenset()
            return acronyms(str(entry.get("title", "")), labels, values)
    return frozenset()


async def _listing(url: str, trusted: Collection[int], trusted_at: Collection[str]) -> bytes:
    """The listing's body, read over a connection of its own (HTTP/1.1, closed after)."""
    parts = urlsplit(url)
    secure = parts.scheme == "wss"
    host = parts.hostname or "127.0.0.1"
    port = parts.port or (443 if secure else 80)
    context = ssl.create_default_context() if secure else None
    reader, writer = await asyncio.open_connection(host, port, ssl=context)
    try:
        check_gateway_owner(writer.get_extra_info("sockname"), writer.get_extra_info("peername"),
                            url, trusted, trusted_at)  # fmt: skip
        named = f"[{host}]" if ":" in host else host
        writer.write(
            f"GET {LISTING_PATH} HTTP/1.1\r\nHost: {named}:{port}\r\n"
            "Accept: application/json\r\nConnection: close\r\n\r\n".encode("ascii")
        )
        await writer.drain()
        response = await reader.read(MAX_LISTING_BYTES + 1)
        while len(response) <= MAX_LISTING_BYTES:
            more = await reader.read(MAX_LISTING_BYTES + 1 - len(response))
            if not more:
                break
            response += more
    finally:
        writer.close()
    head, _, body = response.partition(b"\r\n\r\n")
    status = head.split(b"\r\n", 1)[0].split()
    if len(status) < 2 or status[1] != b"200" or len(response) > MAX_LISTING_BYTES:
        raise ValueError("the gateway did not list its rulesets")
    if b"transfer-encoding: chunked" in head.lower():
        raise ValueError("a chunked listing is not read here")
    return body
