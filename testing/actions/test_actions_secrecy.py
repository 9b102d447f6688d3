"""The legal actions leak no secret: two games that differ only in what the player may
not see list the same actions, at every step of a game (attacking the narrowing, not
grepping for names)."""

from __future__ import annotations

import random

import msgspec

from umpire.engine import registry
from umpire.engine.actions import legal_actions
from umpire.engine.dice import ServerDice
from umpire.engine.errors import RuleError
from umpire.engine.game import parse_setup
from umpire.engine.handling import parse_command
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames.terms import PilotQuality, Side
from umpire.testing.support.drivers import start_setup
from umpire.testing.support.schema_sampler import sample


def _actions(ruleset: object, state: object) -> bytes:
    return msgspec.json.encode(legal_actions(ruleset, state, Role.PLAYER, ended=False))  # type: ignore[arg-type]


def _flip_pilots(state: object) -> object:
    """The same dogfight with every opposing pilot's secrets changed (9.1.11)."""
    planes = {
        k: msgspec.structs.replace(
            p,
            pilot_quality=PilotQuality.RECRUIT
            if p.pilot_quality is PilotQuality.ACE
            else PilotQuality.ACE,
            crack_shot=not p.crack_shot,
            keen_eyesight=not p.keen_eyesight,
        )
        if p.side is Side.B and not p.revealed
        else p
        for k, p in state.aircraft.items()  # type: ignore[attr-defined]
    }
    return msgspec.structs.replace(state, aircraft=planes)  # type: ignore[type-var]


def _flip_drv(state: object) -> object:
    """The same raid with the DRV's hidden pool and counts changed."""
    return msgspec.structs.replace(
        state,  # type: ignore[type-var]
        aaa_pool=("heavy",) * 5,
        hidden_sams=7,
        hidden_fire_cans=3,
    )


def _walk(name: str, flip: object, steps: int, seed: int) -> None:
    ruleset = registry.get(name)
    state = ruleset.initial_state(parse_setup(ruleset, start_setup(name)))
    rng = random.Random(seed)
    rolls = 0
    for _ in range(steps):
        assert _actions(ruleset, state) == _actions(ruleset, flip(state)), state  # type: ignore[operator]
        listed = legal_actions(ruleset, state, Role.PLAYER, ended=False)[:-2]
        action = rng.choice(listed)
        dice = ServerDice(b"\x05" * 32, "secrecy", rolls)
        try:
            events = ruleset.decide(state, parse_command(ruleset, sample(action.schema, rng)), dice)
        except RuleError:
            continue
        rolls += len(dice.rolled)
        for event in events:
            state = ruleset.evolve(state, event)


def test_down_in_flames_actions_do_not_depend_on_opposing_pilots() -> None:
    _walk("down_in_flames", _flip_pilots, 300, 11)


def test_downtown_actions_do_not_depend_on_the_drv_s_hidden_units() -> None:
    _walk("downtown", _flip_drv, 200, 12)
