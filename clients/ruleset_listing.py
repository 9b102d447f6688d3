"""What the gateway lists of its rulesets, for `umpire watch` and `play` to say events as
`umpire log` does: a ruleset's capitals (`GET /rulesets.json`, docs/protocol.md), so
that a type reads "SAM set up", not "Sam set up" (events/rules_words.py takes the words a
ruleset writes in capitals from its title and labels, which the listing carries); and
the seeds' titles and headings (`GET /citations.json`, the browser table's), so that a
citation reads "Downtown solo rules 3.1.2 (SAM Setup Procedure)", not the seed's file
name (events/citation_words.py).

Display only, so it never stops a command: a gateway that does not answer, answers
otherwise or lists no such ruleset gives nothing, and the text is said without it. The
connection is checked as the websocket's is (clients/gateway_owner.py): on this host,
only a gateway of this account (or one trusted) is asked.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import Collection
from typing import Any
from urllib.parse import urlsplit

from umpire.clients.gateway_owner import GatewayNotYours, check_gateway_owner
from umpire.events.citation_words import SeedNames
from umpire.events.rules_words import acronyms

RULESETS_PATH = "/rulesets.json"
CITATIONS_PATH = "/citations.json"
# The ruleset listing carries every ruleset's setup schema: a few hundred KiB today.
MAX_LISTING_BYTES = 16 * 1024 * 1024
TIMEOUT_SECONDS = 5.0
_UNREAD = (OSError, TimeoutError, ValueError, GatewayNotYours, ssl.SSLError)


class Listing:
    """One gateway's listings, each read once (`url`: its websocket URL)."""

    def __init__(self, url: str, trusted: Collection[int], trusted_at: Collection[str]) -> None:
        self.url, self.trusted, self.trusted_at = url, trusted, trusted_at
        self._capitals: dict[str, frozenset[str]] = {}
        self._names: SeedNames | None = None
        self._rulesets: Any = None
        self._rulesets_read = False

    async def capitals(self, ruleset: str) -> frozenset[str]:
        """The words `ruleset` writes in capitals; none where they cannot be read."""
        if ruleset not in self._capitals:
            self._capitals[ruleset] = _capitals(await self._listed(), ruleset)
        return self._capitals[ruleset]

    async def labels(self, ruleset: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
        """`ruleset`'s view in its words (engine/kit/labels.py): each field's label and its
        coded values' names; none where they cannot be read (the keys are said in words)."""
        entry = _entry(await self._listed(), ruleset)
        labels, values = entry.get("labels"), entry.get("value_labels")
        if not isinstance(labels, dict) or not isinstance(values, dict):
            return {}, {}
        return (
            {str(k): str(v) for k, v in labels.items() if isinstance(v, str)},
            {
                str(k): {str(raw): name for raw, name in named.items() if isinstance(name, str)}
                for k, named in values.items()
                if isinstance(named, dict)
            },
        )

    async def _listed(self) -> Any:
        """/rulesets.json, read once."""
        if not self._rulesets_read:
            self._rulesets = await self._read(RULESETS_PATH)
            self._rulesets_read = True
        return self._rulesets

    async def names(self) -> SeedNames:
        """Each seed's title and headings by its file name; none where they cannot be read."""
        if self._names is None:
            self._names = _seed_names(await self._read(CITATIONS_PATH))
        return self._names

    async def _read(self, path: str) -> Any:
        try:
            body = await asyncio.wait_for(self._get(path), TIMEOUT_SECONDS)
            return json.loads(body)
        except _UNREAD:
            return None

    async def _get(self, path: str) -> bytes:
        """`path`'s body, read over a connection of its own (HTTP/1.1, closed after)."""
        parts = urlsplit(self.url)
        secure = parts.scheme == "wss"
        host = parts.hostname or "127.0.0.1"
        port = parts.port or (443 if secure else 80)
        context = ssl.create_default_context() if secure else None
        reader, writer = await asyncio.open_connection(host, port, ssl=context)
        try:
            check_gateway_owner(writer.get_extra_info("sockname"),
                                writer.get_extra_info("peername"), self.url, self.trusted,
                                self.trusted_at)  # fmt: skip
            named = f"[{host}]" if ":" in host else host
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: {named}:{port}\r\n"
                "Accept: application/json\r\nConnection: close\r\n\r\n".encode("ascii")
            )
            await writer.drain()
            response = b""
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
            raise ValueError(f"the gateway did not answer {path}")
        if b"transfer-encoding: chunked" in head.lower():
            raise ValueError("a chunked answer is not read here")
        return body


def _entry(listing: Any, ruleset: str) -> dict[str, Any]:
    """`ruleset`'s entry of /rulesets.json; {} where it lists none."""
    for entry in listing if isinstance(listing, list) else ():
        if isinstance(entry, dict) and entry.get("name") == ruleset:
            return entry
    return {}


def _capitals(listing: Any, ruleset: str) -> frozenset[str]:
    entry = _entry(listing, ruleset)
    labels, values = entry.get("labels"), entry.get("value_labels")
    if isinstance(labels, dict) and isinstance(values, dict):
        return acronyms(str(entry.get("title", "")), labels, values)
    return frozenset()


def _seed_names(listing: Any) -> SeedNames:
    """/citations.json ({file: {title, headings}}) as SeedNames; what is not text, left out."""
    names: SeedNames = {}
    for seed, entry in (listing if isinstance(listing, dict) else {}).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("title"), str):
            continue
        headings = entry.get("headings")
        if not isinstance(headings, dict):
            headings = {}
        names[str(seed)] = (
            entry["title"],
            {str(k): v for k, v in headings.items() if isinstance(v, str)},
        )
    return names
