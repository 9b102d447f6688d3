"""7.1.2, 7.1.3: air-to-air rocket attacks against Heavy Bombers."""

from __future__ import annotations

from umpire.engine.decision import Candidate
from umpire.engine.dice import d6
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.down_in_flames.commands import Attack
from umpire.engine.rulesets.down_in_flames.damage import bomber_damage
from umpire.engine.rulesets.down_in_flames.events import AttackCardPlayed, AttackResolved
from umpire.engine.rulesets.down_in_flames.state import Plane, State, owner_of
from umpire.engine.rulesets.down_in_flames.tables.rocket import RocketRow, rocket_row
from umpire.engine.rulesets.down_in_flames.terms import AircraftClass, Card, Outcome, cite, cite_all
from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn


def check_rockets(state: State, attacker: Plane, target: Plane, command: Attack) -> RocketRow:
    """7.1.1, 7.1.2: a carrier with its rockets, one card, a Heavy Bomber target."""
    rule = cite("7.1.2")
    row = rocket_row(attacker.aircraft)
    if not state.rockets_rule or row is None or not attacker.rockets:
        raise RuleError(
            f"{attacker.id} carries no air-to-air rockets (or has made its one rocket attack)",
            rule=rule,
        )
    if state.card_of(target).aircraft_class is not AircraftClass.HEAVY_BOMBER:
        raise RuleError("rocket attacks are made against Heavy Bomber targets", rule=rule)
    if command.aggregate or command.card is Card.FUEL_TANK:
        raise RuleError("a rocket attack is one IN MY SIGHTS or OUT OF THE SUN card", rule=rule)
    assert row is not None
    return row


def rocket_attack(
    turn: DownInFlamesTurn, state: State, attacker: Plane, target: Plane, command: Attack
) -> None:
    """7.1.2, 7.1.3: one rocket attack per game against a Heavy Bomber; a hit destroys it.
    The card is played, then the die rolled (the log's order); `state` is the one the
    attack started from."""
    row = check_rockets(state, attacker, target, command)
    rule = cite("7.1.2")
    turn.emit(
        AttackCardPlayed(
            attacker=attacker.id,
            target=target.id,
            card=command.card,
            hits=0,
            bursts=command.bursts,
            aggregate=False,
            rule=rule,
        )
    )
    roll = turn.roll(
        d6(),
        purpose=f"rocket attack on {target.id}",
        rule=row.rule,
        owner=owner_of(state, attacker.side),
    )
    hit = roll.total <= row.hits_on
    resolved = AttackResolved(
        attacker=attacker.id,
        target=target.id,
        system="rocket",
        hits=0,
        hit_value=0,
        total_hv=0,
        defense=state.card_of(target).defense,
        column="",
        result=Outcome.SHOT_DOWN if hit else Outcome.NO_EFFECT,
        rockets=True,
        rule=cite_all(rule, row.rule),
        dice=(roll.roll,),
        candidates=(
            Candidate(option="destroyed", chosen=hit, reason=f"D6 at most {row.hits_on}"),
            Candidate(option="missed", chosen=not hit, reason=f"D6 above {row.hits_on}"),
        ),
        explanation=f"{attacker.aircraft} rocket attack hits on {row.hits_on} or less: rolled "
        f"{roll.total}, {'the bomber is destroyed' if hit else 'a miss'}",
    )
    turn.emit(resolved)
    if hit:
        bomber_damage(turn, state, target, state.card_of(target).defense, (roll.roll,))
