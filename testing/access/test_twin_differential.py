"""Differential: twin games that differ only in a secret look the same to a player and a
spectator, through every channel, until the rules make the difference public (issues #16,
#32 and #42): event frames, views, legal actions with their texts and schemas, the answer
to every probe (refused or accepted, and what an accepted one would write) and to every
command. The machinery, and what it normalises and why: testing/support/twin_differential.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from umpire.testing.support.drivers import rulesets
from umpire.testing.support.twin_differential import check


@pytest.mark.parametrize("name", rulesets())
async def test_twins_look_the_same_until_the_rules_publish_the_difference(
    redis_server: Any, prefix: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await check(redis_server.url, prefix, name, monkeypatch)
