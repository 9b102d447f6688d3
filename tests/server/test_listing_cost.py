"""GET /rulesets.json costs the gateway the listing once, not once a request.

The listing (server/http.py `ruleset_listing`: every installed ruleset's setup schema,
scenarios, readings and labels, ~70 KB) was made again for every GET, on the event loop,
and an HTTP request is charged to no budget (docs/operations.md, "Admission"): ~21 ms of
the loop a request on the machine this was found on, so any client (another local
account, a page's fetch) looping GETs held the loop from every player, and `umpire watch`
and `play` now read it too. Now it is made once for the rulesets installed and served as
those bytes. A real gateway over real HTTP; the work is counted, not timed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import umpire.server.http as http_module
from umpire.server.app import Running
from umpire.testing.support.gateways import http_get

REQUESTS = 12


async def test_the_ruleset_listing_is_made_once_for_many_requests(
    gateway: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []
    schema = http_module.setup_schema

    def counted(ruleset: Any) -> Any:
        made.append(ruleset.name)
        return schema(ruleset)

    monkeypatch.setattr(http_module, "setup_schema", counted)
    first = await http_get(gateway.port, "/rulesets.json")
    answers = await asyncio.gather(
        *(http_get(gateway.port, "/rulesets.json") for _ in range(REQUESTS))
    )
    assert first[0] == 200 and all(answer == first for answer in answers)
    # Each ruleset's schema at most once (none, if an earlier request in this process made
    # the listing already): on main, once per ruleset and request.
    assert len(made) == len(set(made)), f"{len(made)} schemas made for {REQUESTS + 1} GETs"
