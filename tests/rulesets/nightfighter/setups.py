"""The Nightfighter tests' set-ups, one module: build a state directly and run commands
through decide/evolve; scenario 4B as the example of play sets it up; the random-play
set-up and its command generator; `Play`, which drives one game through `games`.

Scenario 4B is read from the shipped data file (engine/rulesets/nightfighter/scenarios/4B.json,
`umpire new nightfighter --scenario 4B`). Its searchlight zones hold the hexes the example of
play puts in each zone (and leave out the ones it puts outside every active zone: 0914, 1114,
1327, 1414); the rest of the printed zones is not needed by the example.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec
from msgspec import Struct

from umpire.engine import scenarios
from umpire.engine.dice import Dice, ManualDice
from umpire.engine.game import codec_for
from umpire.engine.hexgrid import Hex
from umpire.engine.kit.fold import fold
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.decide import DISPATCH, decide
from umpire.engine.rulesets.nightfighter.evolve import evolve, initial_state
from umpire.engine.rulesets.nightfighter.geometry import shifted
from umpire.engine.rulesets.nightfighter.setup import Setup
from umpire.engine.rulesets.nightfighter.state import Counter, State
from umpire.engine.rulesets.nightfighter.tables.localisation import LOW, MODERATE
from umpire.engine.rulesets.nightfighter.terms import Phase, Status, Track, Uncertainty
from umpire.server.games import Games


def make_setup(**fields: Any) -> Setup:
    base: dict[str, Any] = {
        "radars": [{"name": "W", "search_value": 1}],
        "fighters": [{"id": "F1", "hex": "0120", "facing": 0}],
        "pace": "every_phase",  # a rule's test stays in its phase (README "Pace")
    }
    base.update(fields)
    return msgspec.convert(base, Setup)


def counter(
    id_: str, hex_label: str, level: str = "moderate", bomber: str = "", **fields: Any
) -> Counter:
    lvl = Uncertainty(level)
    track = Track.BENEATH if lvl is Uncertainty.LOW else Track.ABSENT
    return Counter(
        id=id_,
        bomber=bomber or id_.split("-")[0],
        status=fields.pop("status", Status.ON_MAP),
        level=lvl,
        hex=hex_label,
        track=Track(fields.pop("track", track)),
        **fields,
    )


def make_state(
    setup: Setup, counters: list[Counter], phase: Phase, fighter: tuple[str, int] | None = None
) -> State:
    state = initial_state(setup)
    state = msgspec.structs.replace(state, turn=1, phase=phase, counters=tuple(counters))
    if fighter is not None:
        fighters = tuple(
            msgspec.structs.replace(f, hex=fighter[0], facing=fighter[1]) for f in state.fighters
        )
        state = msgspec.structs.replace(state, fighters=fighters)
    return state


def command(tag: str, /, **fields: Any) -> Struct:
    target = next(t for t in DISPATCH.command_types if t.__struct_config__.tag == tag)
    return msgspec.convert({"type": tag, **fields}, target)


def run(
    state: State, tag: str, rolls: list[list[int]] | Dice, /, **fields: Any
) -> tuple[State, list[Struct]]:
    """decide + evolve one command; manual dice must all be used."""
    dice = rolls if not isinstance(rolls, list) else ManualDice(rolls, next_roll=0)
    events = decide(state, command(tag, **fields), dice)
    if isinstance(dice, ManualDice):
        dice.check_all_used()
    return fold(evolve, state, events), list(events)


def named(events: list[Struct], name: str) -> Any:
    found = [e for e in events if type(e).__name__ == name]
    assert found, f"no {name} in {[type(e).__name__ for e in events]}"
    return found[-1]


def low_hex(setup: Setup, centre: str, label: str, heading: int = 3) -> str:
    cell = next(c for c in LOW.cells if c.label == label)
    return shifted(setup, Hex.parse(centre), cell.offset, heading).label


def moderate_hex(setup: Setup, centre: str, label: str, heading: int = 3) -> str:
    cell = next(c for c in MODERATE.cells if c.label == label)
    return shifted(setup, Hex.parse(centre), cell.offset, heading).label


def setup_4b() -> dict[str, Any]:
    """Scenario 4B 'Henaja', May 1942, as in the example of play."""
    return dict(scenarios.scenario(RULESET, "4B").setup)


def setup_4b_phase_by_phase() -> dict[str, Any]:
    """Scenario 4B stopping in every phase (pace `every_phase`), as the example of play
    runs it: the scripted games send each phase's `EndPhase` themselves."""
    return {**setup_4b(), "pace": "every_phase"}


ZONES_4B: dict[str, list[str]] = {z["name"]: z["hexes"] for z in setup_4b()["zones"]}


def random_setup(seed: int) -> Any:
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


def random_options(state: State, rng: random.Random) -> list[dict[str, Any]]:
    if state.turn == 0:  # the opening: turn 1's bomber movement is the first step (v8)
        return [{"type": "MoveBombers"}]
    hexes = sorted(c.hex for c in state.counters if c.status is Status.ON_MAP)
    pick = (lambda: rng.choice(hexes)) if hexes else (lambda: "0101")
    # The state's own fighters: a driven game's set-up (Testing.setup) may fly F1 alone,
    # and a fighter it does not have would end the drive (StopIteration below).
    fighter = rng.choice([f.id for f in state.fighters])
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


class Play:
    """Drives one game through `games`, one command at a time."""

    def __init__(self, games: Games, gid: str) -> None:
        self.games, self.gid, self.n = games, gid, 0

    async def do(
        self, kind: str, rolls: list[list[int]] | None = None, /, **fields: Any
    ) -> list[Any]:
        self.n += 1
        before = await self.games.store.version(self.gid)
        await self.games.handle(
            self.gid, f"c{self.n}", {"type": kind, **fields}, manual_dice=rolls or []
        )
        envs = await self.games.store.read(self.gid, before + 1)
        codec = codec_for(RULESET)
        return [codec.decode(e.type, e.version, e.payload) for e in envs]

    async def state(self) -> State:
        _, game = await self.games.load(self.gid)
        return game.state  # type: ignore[no-any-return]

    async def phases(self, count: int) -> None:
        for _ in range(count):
            await self.do("EndPhase")


async def start_turn(
    p: Play,
    path: list[str],
    facing: int,
    accelerate: tuple[str, ...] = (),
    dice: list[list[int]] | None = None,
) -> None:
    """End the last turn's combat phase (none before turn 1: the game opens at its bomber
    movement), move the bombers, move the fighter, end movement."""
    if (await p.state()).phase is Phase.COMBAT:
        await p.do("EndPhase")
    await p.do("MoveBombers", dice, accelerate=list(accelerate))
    await p.do("MoveFighter", fighter="F1", path=path, facing=facing)
    await p.do("EndPhase")


def driver() -> tuple[dict[str, Any], Callable[[Any, random.Random], list[dict[str, Any]]]]:
    """(setup, propose) for gateway-level tests: the random-play set-up and its commands."""
    return msgspec.to_builtins(random_setup(1)), random_options
