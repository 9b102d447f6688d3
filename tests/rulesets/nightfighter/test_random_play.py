"""Random play (STYLE.md 9): whole games of random commands under server dice, checking
after every step the S5.4/S7.0/S5.1 invariants, a deterministic fold and no leak."""

from __future__ import annotations

import random
from collections import Counter as Tally
from typing import Any

import msgspec
import pytest

from tests.rulesets.nightfighter.build import command
from tests.rulesets.nightfighter.scenario import ZONES_4B
from umpire.engine.dice import ServerDice
from umpire.engine.errors import RuleError
from umpire.engine.kit.fold import fold
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.evolve import evolve, initial_state
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Track, Uncertainty


def _setup(seed: int) -> Any:
    return msgspec.convert(
        {
            "bombers": [{"id": f"B{i}", "turn": t} for i, t in enumerate((1, 3, 4, 4, 4, 7))],
            "radars": [{"name": "W", "search_value": 1}, {"name": "F", "search_value": 3}],
            "zones": [{"name": n, "hexes": h} for n, h in ZONES_4B.items()],
            "fighters": [{"id": "F1", "hex": "1010", "facing": 0, "ai_range": 4},
                         {"id": "F2", "hex": "0512", "facing": 0, "ai_arc": "wide",
                          "ai_range": 3}],
            "visibility": ("good", "moderate")[seed % 2],
            "contrails": seed == 2,
            "pace": "every_phase",  # random EndPhase commands pace the turn themselves
        },
        RULESET.setup_type,
    )  # fmt: skip


def _options(state: State, rng: random.Random) -> list[dict[str, Any]]:
    hexes = sorted(c.hex for c in state.counters if c.status is Status.ON_MAP)
    pick = (lambda: rng.choice(hexes)) if hexes else (lambda: "0101")
    fighter = rng.choice(["F1", "F2"])
    by_phase: dict[Phase, list[dict[str, Any]]] = {
        Phase.BOMBER_MOVEMENT: [{"type": "MoveBombers"}],
        Phase.FIGHTER_MOVEMENT: [],
        Phase.RADAR_SEARCH: [
            {"type": "PlaceRadarSearches", "searches": [{"radar": "W", "hex": pick()}]},
            {"type": "PlaceRadarSearches",
             "searches": [{"radar": "W", "hex": pick()}, {"radar": "F", "hex": pick()}]},
        ],
        Phase.AI_RADAR: [{"type": "SearchAI", "fighter": fighter, "hex": pick()}],
        Phase.SEARCHLIGHT: [{"type": "SearchSearchlight", "zone": z, "hex": h}
                            for z, zone in ZONES_4B.items() for h in hexes if h in zone],
        Phase.TALLY: [{"type": "AttemptTally", "fighter": fighter, "hex": pick(), "dice": 3,
                       "kind": rng.choice(["basic", "fixed"])}],
        Phase.COMBAT: [{"type": "Corkscrew", "fighter": fighter, "hex": pick(), "follow_dice": 2},
                       {"type": "RollBomberResponse", "fighter": fighter, "hex": pick()}],
    }  # fmt: skip
    f = next(x for x in state.fighters if x.id == fighter)
    if state.phase is Phase.FIGHTER_MOVEMENT and f.hex:
        from umpire.engine.hexgrid import Hex
        from umpire.engine.rulesets.nightfighter.geometry import grid_of

        grid = grid_of(state.setup)
        nxt = grid.neighbours(Hex.parse(f.hex))
        if nxt:
            step = rng.choice(nxt)
            by_phase[Phase.FIGHTER_MOVEMENT].append(
                {"type": "MoveFighter", "fighter": fighter, "path": [step.label],
                 "facing": rng.randrange(6)}
            )  # fmt: skip
    options = by_phase[state.phase]
    if options and rng.random() < 0.75:
        return options
    return [{"type": "EndPhase"}]


def _check(state: State) -> None:
    on_map = [c.hex for c in state.counters if c.status is Status.ON_MAP]
    assert len(on_map) == len(set(on_map)), "S7.0: two counters in one hex"
    highs = Tally(
        c.bomber for c in state.counters
        if c.level is Uncertainty.HIGH and c.status is not Status.REMOVED
    )  # fmt: skip
    assert all(n >= 2 for n in highs.values()), "S5.4: a lone high counter"
    for c in state.counters:
        if c.status is not Status.ON_MAP:
            continue
        fixed = bool(c.tallied_by or c.ai_fixed_by or c.searchlight or c.track is Track.ON_TOP)
        assert (c.level is Uncertainty.NONE) is fixed or c.certain, c
    assert "rolled_hex" not in str(RULESET.view(state, Role.PLAYER))


@pytest.mark.parametrize("seed", range(6))
def test_random_games(seed: int) -> None:
    rng = random.Random(seed)
    setup = _setup(seed)
    state = initial_state(setup)
    log: list[Any] = []
    rolls = 0
    steps = 0
    while state.turn <= 16 and steps < 3000:
        steps += 1
        wire = rng.choice(_options(state, rng))
        dice = ServerDice(b"\x07" * 32, f"random-{seed}", rolls)
        try:
            events = RULESET.decide(state, command(wire.pop("type"), **wire), dice)
        except RuleError:
            continue
        rolls += len(dice.rolled)
        log += events
        state = fold(evolve, state, events)
        _check(state)
    assert state.turn > 16
    assert fold(evolve, initial_state(setup), log) == state  # the fold is deterministic
