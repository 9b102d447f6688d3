"""Random play: whole games of random legal commands with server dice, checking that every
command either is refused with a RuleError or decides cleanly, that the fold is
deterministic and that the view is plain data (003_368c69a730e6e14a.txt)."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from umpire.engine.dice import ServerDice
from umpire.engine.errors import RuleError
from umpire.engine.handling import parse_command
from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes import RULESET
from umpire.engine.rulesets.conflict_of_heroes.setup import Setup, initial_state
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.rulesets.conflict_of_heroes.terms import Side


def _command(rng: random.Random, s: State) -> dict[str, Any]:
    units = [u for u in s.units if not u.destroyed]
    mine = [u.id for u in units if u.side is Side.PLAYER] or ["P-RIFLE-1"]
    pick = rng.random()
    if pick < 0.45:
        return {"type": "TakeAiTurn"}
    if pick < 0.6:
        return {
            "type": "UnitAction",
            "units": rng.sample(mine, rng.randint(1, len(mine))),
            "action": rng.choice(["fire", "move", "rally"]),
            "ap": rng.randint(1, 5),
            "caps": rng.randint(0, 1),
        }
    if pick < 0.68:
        return {
            "type": "CommandAction",
            "units": [rng.choice(mine)],
            "action": "fire",
            "caps": rng.randint(1, 2),
        }
    if pick < 0.75:
        return {"type": "Stall", "unit": rng.choice(["", *mine])}
    if pick < 0.88:
        return {"type": "Pass"}
    if pick < 0.92 and units:
        return {"type": "ReportHit", "unit": rng.choice(units).id, "hit": rng.random() < 0.5}
    if pick < 0.95 and units:
        return {"type": "ReportDestroyed", "unit": rng.choice(units).id}
    u = rng.choice(units) if units else None
    if u is None:
        return {"type": "Pass"}
    return {
        "type": "ReportPosition",
        "unit": u.id,
        "facing": rng.randint(0, 5),
        "hex": f"{rng.randint(1, 12):02d}{rng.randint(1, 10):02d}",
    }


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
        cmd = _command(rng, s)
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
