"""Differential: twin games that differ only in a secret look the same to a player and a
spectator, through every channel, until the rules make the difference public (issues #16,
#32 and #42): event frames, views, legal actions with their texts and schemas, the answer
to every probe (refused or accepted, and what an accepted one would write) and to every
command. The machinery, and what it normalises and why: testing/support/twin_differential.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from umpire.engine import registry
from umpire.testing.support.drivers import rulesets
from umpire.testing.support.planted_leak import planted
from umpire.testing.support.twin_differential import check


@pytest.mark.parametrize("name", rulesets())
async def test_hidden_values_do_not_show_until_the_rules_publish_them(
    redis_server: Any, prefix: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await check(redis_server.url, prefix, name, monkeypatch)


@pytest.mark.parametrize("leak", [True, False])
async def test_the_differential_catches_a_leak_in_an_action_s_text(
    redis_server: Any, prefix: str, leak: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game whose draw reads "Draw against the bot (it holds 5)" fails the differential
    on that text; the same game without it passes (testing/support/planted_leak.py)."""
    ruleset = planted(leak=leak)
    monkeypatch.setitem(registry._loaded, ruleset.name, ruleset)
    if not leak:
        await check(redis_server.url, prefix, ruleset.name, monkeypatch)
        return
    with pytest.raises(AssertionError, match=r"legal actions differ(.|\n)*it holds \d"):
        await check(redis_server.url, prefix, ruleset.name, monkeypatch)


@pytest.mark.parametrize("leak", [True, False])
async def test_the_differential_catches_a_leak_in_the_next_step_flag(
    redis_server: Any, prefix: str, leak: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that marks its draw as the next step only while the bot's card is odd fails
    the differential on the flag (`Action.next`), its texts honest; marked by nothing
    secret, it passes."""
    ruleset = planted(leak=leak, by_next=True)
    monkeypatch.setitem(registry._loaded, ruleset.name, ruleset)
    if not leak:
        await check(redis_server.url, prefix, ruleset.name, monkeypatch)
        return
    with pytest.raises(AssertionError, match=r'legal actions differ(.|\n)*"next":true'):
        await check(redis_server.url, prefix, ruleset.name, monkeypatch)
