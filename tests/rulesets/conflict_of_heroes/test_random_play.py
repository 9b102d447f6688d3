"""Random play: whole games of random legal commands with server dice, checking that every
command either is refused with a RuleError or decides cleanly, that the fold is
deterministic and that the view is plain data (003_368c69a730e6e14a.txt)."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from tests.rulesets.conflict_of_heroes.setups import random_command
from umpire.engine.dice import ServerDice
from umpire.engine.errors import RuleError
from umpire.engine.handling import parse_command
from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes import RULESET
from umpire.engine.rulesets.conflict_of_heroes.setup import Setup, initial_state
from umpire.engine.rulesets.conflict_of_heroes.terms import Side


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_play(seed: int) -> None:
    """120 random commands: no crash, deterministic fold, JSON-able views, the deck's cards
    conserved, no AI stacking, a Command card always left (7.3)."""
    rng = random.Random(seed)
    s = initial_state(Setup())
    rolls = 0
    decided = 0
    ended = False
    for _ in range(120):
        cmd = random_command(rng, s)
        dice = ServerDice(seed.to_bytes(32, "big"), f"fuzz{seed}", rolls)
        try:
            events = RULESET.decide(s, parse_command(RULESET, cmd), dice)
        except RuleError:
            continue
        decided += 1
        rolls += len(dice.rolled)
        once, twice = s, s
        for e in events:
            once = RULESET.evolve(once, e)
        for e in events:
            twice = RULESET.evolve(twice, e)
        assert msgspec.msgpack.encode(once) == msgspec.msgpack.encode(twice)
        s = once
        json.dumps(RULESET.view(s, Role.PLAYER))
        # every card is in exactly one of deck, discards, removed; AIs never stack (5.3.1)
        assert sorted((*s.deck, *s.discards, *s.removed)) == [c.number for c in s.cards]
        ai_hexes = [u.hex for u in s.units if u.side is Side.AI and u.in_play and not u.destroyed]
        assert len(ai_hexes) == len(set(ai_hexes))
        assert any(s.card(c).colour == "blue" for c in (*s.deck, *s.discards))
        if any(type(e).__name__ == "GameEnded" for e in events):
            ended = True  # the mission is over (README "End of the mission")
            break
    assert decided > 25 or ended
