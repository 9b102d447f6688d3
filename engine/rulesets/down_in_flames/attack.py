"""3 and 4: attack cards resolved by the odds system (fighters, light bombers) or by damage
points (medium, heavy bombers); 3.2.10 aggregation; 5.5 Fuel Tank; 6 the D12 system;
7 rockets; 10.12, 10.13 special firing rules; 10.15 ammunition; 3.3, 4.1.9 defensive fire."""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.decision import Candidate
from umpire.engine.dice import DiceSpec, d6, d12
from umpire.engine.errors import RuleError
from umpire.engine.kit.citation import rule_number
from umpire.engine.rulesets.down_in_flames.commands import (
    Attack,
    NegateAttack,
    ResolveDefensiveFire,
)
from umpire.engine.rulesets.down_in_flames.damage import (
    bomber_damage,
    bomber_result,
    fighter_damage,
    fighter_result,
)
from umpire.engine.rulesets.down_in_flames.events import (
    AmmunitionChecked,
    AttackCardPlayed,
    AttackNegated,
    AttackResolved,
    CardsDiscarded,
)
from umpire.engine.rulesets.down_in_flames.labels import LABELS
from umpire.engine.rulesets.down_in_flames.performance import (
    burst_row,
    bursts_available,
    check_can_spend,
    wingman_draw,
)
from umpire.engine.rulesets.down_in_flames.pilot import (
    CRACK_SHOT,
    QUALITY,
    Allows,
    pilot_may,
    reveal,
    settle,
)
from umpire.engine.rulesets.down_in_flames.rocket_attack import check_rockets, rocket_attack
from umpire.engine.rulesets.down_in_flames.state import (
    Plane,
    State,
    find_plane,
    owner_of,
    pilot_known,
    position_key,
)
from umpire.engine.rulesets.down_in_flames.tables import bomber as bomber_table
from umpire.engine.rulesets.down_in_flames.tables import odds as odds_table
from umpire.engine.rulesets.down_in_flames.terms import (
    RULE_TURN,
    AircraftClass,
    Card,
    Characteristic,
    CombatDie,
    DefensiveFireKind,
    Outcome,
    PilotQuality,
    Position,
    Station,
    cite,
    cite_all,
)
from umpire.engine.rulesets.down_in_flames.turn import DownInFlamesTurn
from umpire.events.plurals import counted
from umpire.events.types import DiceRolled

GUNNER_HIT_VALUE = 8  # 3.3
TURRET_HIT_VALUE = 8  # 4.1.9
HURRICANE_HEAVY_HIT_VALUE = 16  # 10.12
BEAUFIGHTER_MAX_HITS = 2  # 10.13
FUEL_TANK_HITS = 4  # 5.5


def card_hits(state: State, attacker: Plane, target: Plane, card: Card, hits: int) -> int:
    """5.5 a Fuel Tank card is a 4-hit card against a Fighter or Light Bomber; 10.13 a
    Beaufighter IF never scores more than 2 hits per card."""
    if card is Card.FUEL_TANK and not state.card_of(target).aircraft_class.is_formation_bomber:
        hits = FUEL_TANK_HITS
    if state.card_of(attacker).has(Characteristic.BEAUFIGHTER_IF_FIRING):
        hits = min(hits, BEAUFIGHTER_MAX_HITS)
    return hits


def hit_value(state: State, attacker: Plane, reduced: bool, heavy: bool) -> tuple[int, bool]:
    """(Hit Value used, whether it is the left-hand value of a two-value card) (3, 10.12,
    10.15)."""
    card = state.card_of(attacker)
    if heavy:
        return HURRICANE_HEAVY_HIT_VALUE, False
    if card.reduced_hit_value is not None and (reduced or attacker.ammo_depleted):
        return card.reduced_hit_value, False
    return card.hit_value, card.reduced_hit_value is not None


def _die(state: State) -> tuple[DiceSpec, int]:
    return (d6(), 6) if state.combat_die is CombatDie.D6 else (d12(), 12)


def _check_attack(state: State, command: Attack) -> tuple[Plane, Plane]:
    rule = cite("3.2")
    attacker = find_plane(state, command.attacker, rule)
    target = find_plane(state, command.target, rule)
    if target.side is attacker.side:
        raise RuleError(f"{attacker.id} may not attack {target.id}: same side", rule=rule)
    moving = state.active_side
    if attacker.side is not moving:
        # 1: the base game's turn, which the seed keeps: attack cards are played in a
        # side's own move, and the other side answers with response cards (2.6 sets a
        # VERTICAL ROLL "played as a response card" against one "played as an attack
        # card"; 2.6.5 has the Element that played "the last IN MY SIGHTS or OUT OF THE
        # SUN card" be the one an Element playing a response follows).
        now = (
            f"side {moving.value} is moving: only side {moving.value}'s aircraft play attack "
            f"cards now, and side {attacker.side.value} answers with response cards"
            if moving is not None
            else "no side is moving: a side plays attack cards in its own move (BeginTurn)"
        )
        raise RuleError(
            f"{attacker.id} (side {attacker.side.value}) may not play an attack card: {now}",
            rule=RULE_TURN,
        )
    if not command.card.is_attack:
        raise RuleError(
            f"{LABELS.words('card', command.card)} is not an attack card (IN MY SIGHTS, "
            "OUT OF THE SUN or Fuel Tank)",
            rule=rule,
        )
    if position_key(attacker.id, target.id) not in state.positions:
        raise RuleError(
            f"{attacker.id} has no position on {target.id}: set its base-game position "
            "(Neutral, Advantaged or Tailing) before attacking",
            rule=cite("3.1"),
        )
    for other in sorted(state.pending):
        held = state.pending[other]
        if other != attacker.id or held.target != target.id:
            raise RuleError(
                f"{other} is aggregating hits against {held.target}: aggregated cards must be "
                "played one immediately after the other",
                rule=cite("3.2.10"),
            )
    if command.card is Card.FUEL_TANK and (command.aggregate or attacker.id in state.pending):
        # 3.2.10 aggregates "hits from separate In My Sights or Out of Sun cards"; 5.5
        # counts a Fuel Tank as a 4 hit card, played on its own (README ledger 3.2.10).
        raise RuleError(
            "only IN MY SIGHTS and OUT OF THE SUN cards are aggregated (3.2.10): a Fuel Tank "
            "card is resolved on its own",
            rule=cite("3.2.10"),
        )
    return attacker, target


def _check_weapons(state: State, attacker: Plane, command: Attack) -> None:
    """10.15 out of ammunition; 10.12 Hurricane IIC heavy fire."""
    card = state.card_of(attacker)
    if command.reduced_hv and card.reduced_hit_value is None:
        raise RuleError(
            f"{card.name} has a single Hit Value; there is no right-hand value to elect",
            rule=cite("10.15"),
        )
    used, _ = hit_value(state, attacker, command.reduced_hv, command.heavy_fire)
    if used == 0 and not command.rockets:
        raise RuleError(
            f"{attacker.id} is out of ammunition: its right-hand Hit Value is 0", rule=cite("10.15")
        )
    if command.heavy_fire and not (
        card.has(Characteristic.HURRICANE_IIC_FIRING) and attacker.station is Station.LEADER
    ):
        raise RuleError(
            "only a Hurricane IIC Leader may fire at Hit Value 16 (a Wingman always uses 8)",
            rule=cite("10.12"),
        )


def _bursts_allowed(state: State, attacker: Plane, target: Plane, command: Attack) -> Allows:
    """3.1 a Leader's bursts per turn (9.1.1 a recruit's one fewer, 9.1.9 a crack shot's one
    more); 4.1.1 a Wingman's attack cards against bombers within its Offense rating (9.1.2,
    9.1.4, 9.1.7): whether a pilot allows this attack."""
    bomber = state.card_of(target).aircraft_class.is_formation_bomber
    if attacker.station is Station.WINGMAN:
        return lambda p: not bomber or attacker.attack_cards_played + 1 <= wingman_draw(state, p)[0]
    position = state.positions[position_key(attacker.id, target.id)]
    shift = command.bomber_burst_modifier if bomber else 0

    def allowed(p: Plane) -> bool:
        return (
            attacker.bursts_used + command.bursts <= bursts_available(state, p, position)[0] + shift
        )

    return allowed


def _bursts_refusal(state: State, attacker: Plane, target: Plane, command: Attack) -> str:
    """Why the attack is refused or void, naming the Offense rating only where the player
    knows the pilot (9.1.11: the rating would show its quality)."""
    if attacker.station is Station.WINGMAN:
        if not pilot_known(state, attacker, QUALITY):
            return (
                f"Wingman {attacker.id} has played {attacker.attack_cards_played} IN MY "
                "SIGHTS / OUT OF THE SUN cards this turn, as many as its Offense rating "
                "allows (4.1.1; the rating depends on its pilot, secret until revealed, "
                "9.1.11)"
            )
        offense, _ = wingman_draw(state, attacker)
        return (
            f"Wingman {attacker.id} has played {attacker.attack_cards_played} IN MY SIGHTS / "
            f"OUT OF THE SUN cards this turn; its Offense rating is {offense}"
        )
    position = state.positions[position_key(attacker.id, target.id)]
    budget = ""
    if pilot_known(state, attacker, QUALITY) and pilot_known(state, attacker, CRACK_SHOT):
        budget = f" ({_burst_budget(state, attacker, position)})"
    return (
        f"{attacker.id} ({position.value}) has used {attacker.bursts_used} of its bursts this "
        f"turn{budget} and cannot use {command.bursts} more"
    )


def _burst_budget(state: State, attacker: Plane, position: Position) -> str:
    """A known pilot's bursts this turn in words: the sight's row at the position and the
    pilot's changes, each with its rule (3.1-3.1.2, 10.8-10.10, 9.1.1, 9.1.9), so that a
    refusal says where the number comes from (a recruit's Neutral 0 is 9.1.1's, not a
    simple sight's)."""
    row = burst_row(state, attacker)
    rules = rule_number(row.rule)
    parts = [f"{row.at(position)} from its sight ({rules})"]
    if attacker.pilot_quality is PilotQuality.RECRUIT:
        parts.append("1 fewer for a recruit (9.1.1)")
    if attacker.crack_shot:
        parts.append("1 more for a crack shot (9.1.9)")
    have = bursts_available(state, attacker, position)[0]
    return f"{have} a turn: " + ", ".join(parts)


def _no_bursts_rule(state: State, attacker: Plane, position: Position) -> str:
    """The rule that leaves a known pilot no burst at all: 9.1.1 where the sight gives one
    and the recruit's change takes it, else the sight's own rule (3.1.1 for a simple
    sight)."""
    if burst_row(state, attacker).at(position) > 0:
        return cite("9.1.1")
    return cite("3.1.1")


def _check_bursts(state: State, attacker: Plane, target: Plane, command: Attack) -> bool | None:
    """Refuse an attack that no pilot the attacker may have allows (`_bursts_allowed`),
    naming no number that a hidden pilot decides (9.1.11); None when only the hidden pilot
    can tell (decide_attack settles it after every other check), else True."""
    verdict = pilot_may(state, attacker, _bursts_allowed(state, attacker, target, command))
    if verdict is not False:
        return verdict
    message = _bursts_refusal(state, attacker, target, command)
    if attacker.station is Station.WINGMAN:
        raise RuleError(message, rule=cite("4.1.1"))
    position = state.positions[position_key(attacker.id, target.id)]
    have = bursts_available(state, attacker, position)[0]
    known = pilot_known(state, attacker, QUALITY) and pilot_known(state, attacker, CRACK_SHOT)
    # No bursts at all is named (3.1.1 or 9.1.1) only where no hidden pilot decides it.
    no_bursts = have == 0 and known
    raise RuleError(
        message, rule=_no_bursts_rule(state, attacker, position) if no_bursts else cite("3.1")
    )


def _crack_shot_shows(
    turn: DownInFlamesTurn, state: State, attacker: Plane, target: Plane, command: Attack
) -> None:
    """9.1.9: a crack shot shows itself when only it allows the bursts."""
    if attacker.station is Station.WINGMAN:
        return
    position = state.positions[position_key(attacker.id, target.id)]
    without_crack = bursts_available(state, attacker, position)[1]
    if state.card_of(target).aircraft_class.is_formation_bomber:
        without_crack += command.bomber_burst_modifier
    if attacker.bursts_used + command.bursts > without_crack:
        reveal(turn, attacker, CRACK_SHOT)


def decide_attack(turn: DownInFlamesTurn, command: Attack) -> None:
    """3.2.1-3.2.10, 4.1, 5.5, 7.1.2: a successful attack card. Every step reads the state
    the command started from."""
    state = turn.state
    attacker, target = _check_attack(state, command)
    _check_weapons(state, attacker, command)
    if command.rockets:
        check_rockets(state, attacker, target, command)
    verdict = _check_bursts(state, attacker, target, command)
    events: list[Struct] = []
    held = state.pending.get(attacker.id)
    reduced = held.reduced_hv if held else command.reduced_hv
    heavy = held.heavy_fire if held else command.heavy_fire
    spend = 2 if command.heavy_fire and held is None else 1
    check_can_spend(
        state, attacker, spend, cite("3.2"), f"play {LABELS.words('card', command.card)}"
    )
    hits = 0 if command.rockets else card_hits(state, attacker, target, command.card, command.hits)
    if hits < 1 and not command.rockets:
        raise RuleError("an attack card scores at least 1 hit", rule=cite("3.2.1"))
    # Every refusal above is public; a hidden pilot's bursts or Offense rating settle the
    # attack now (9.1.11: revealed, and void beyond them).
    if verdict is None:
        allowed = _bursts_allowed(state, attacker, target, command)
        why = _bursts_refusal(state, attacker, target, command)
        rule = cite("4.1.1") if attacker.station is Station.WINGMAN else cite("3.1")
        if not settle(turn, attacker, allowed, "Attack", why, rule):
            return
    _crack_shot_shows(turn, state, attacker, target, command)
    if command.rockets:
        turn.emit_all(events)
        rocket_attack(turn, state, attacker, target, command)
        return
    if command.heavy_fire and held is None:
        events.append(
            CardsDiscarded(
                aircraft=attacker.id,
                count=1,
                rule=cite("10.12"),
                reason="Hurricane IIC fires at Hit Value 16",
            )
        )
    events.append(
        AttackCardPlayed(
            attacker=attacker.id,
            target=target.id,
            card=command.card,
            hits=hits,
            bursts=command.bursts,
            aggregate=command.aggregate,
            reduced_hv=reduced,
            heavy_fire=heavy,
            rule=cite("3.2.10") if command.aggregate or held else cite("3.2.1"),
        )
    )
    turn.emit_all(events)
    if command.aggregate:
        return
    total_hits = hits + (held.hits if held else 0)
    bursts = command.bursts + (held.bursts if held else 0)
    hv, left_hand = hit_value(state, attacker, reduced, heavy)
    if state.card_of(target).aircraft_class.is_formation_bomber:
        first = resolve_bomber(turn, state, attacker, target, total_hits, hv)
    else:
        first = resolve_odds(turn, state, attacker, target, total_hits, hv, cite("3.2"))
    if left_hand and state.ammunition_rule:
        if first is None:  # 4.1.10: always roll to check for ammunition depletion
            spec, _ = _die(state)
            first = turn.roll(
                spec,
                purpose="ammunition check",
                rule=cite("4.1.10"),
                owner=owner_of(state, attacker.side),
            )
        ammunition(turn, state, attacker, first, bursts)


def resolve_odds(
    turn: DownInFlamesTurn,
    state: State,
    shooter: Plane,
    target: Plane,
    hits: int,
    hv: int,
    rule: str,
    system: str = "odds",
) -> DiceRolled:
    """3.2.1-3.2.8 (D6) or 6.1.1-6.1.5 (D12): 3.2.1 the hits, 3.2.2 times the Hit Value,
    3.2.3 divided by the Defense give the odds; one die decides. Emits the rolls, the
    AttackResolved and its damage; returns the first roll. `state` is the one the attack
    started from."""
    defense = state.card_of(target).defense
    total = hits * hv
    col = odds_table.column(state.combat_die, total, defense)
    spec, _ = _die(state)
    first = turn.roll(
        spec,
        purpose=f"odds {col.name} against {target.id}",
        rule=col.rule,
        owner=owner_of(state, shooter.side),
    )
    rolls: list[DiceRolled] = [first]
    second = None
    if first.total in col.reroll_on:
        second = turn.roll(
            spec,
            purpose=f"odds {col.name}: roll again on a 1",
            rule=col.rule,
            owner=owner_of(state, shooter.side),
        )
        rolls.append(second)
    raw = odds_table.outcome(col, first.total, second.total if second else None)
    dice_used = tuple(r.roll for r in rolls)
    result = fighter_result(target, raw)
    faces = ", ".join(str(r.total) for r in rolls)
    candidates = (
        Candidate(
            option="shot down",
            chosen=raw is Outcome.SHOT_DOWN,
            reason=f"first roll in {list(col.shot_down)}, or after a reroll in "
            f"{list(col.reroll_shot_down)}",
        ),
        Candidate(
            option="damaged",
            chosen=raw is Outcome.DAMAGED,
            reason=f"first roll in {list(col.damaged)}, or after a reroll in "
            f"{list(col.reroll_damaged)}",
        ),
        Candidate(option="no effect", chosen=raw is Outcome.NO_EFFECT, reason="any other roll"),
    )
    resolved = AttackResolved(
        attacker=shooter.id,
        target=target.id,
        system=f"{system} {state.combat_die.value}",
        hits=hits,
        hit_value=hv,
        total_hv=total,
        defense=defense,
        column=col.name,
        result=result,
        rule=cite_all(rule, col.rule),
        dice=dice_used,
        candidates=candidates,
        explanation=f"{counted(hits, 'hit')} x HV {hv} = {total} against defense {defense}: odds "
        f"column {col.name}; rolled {faces}: {raw.value.replace('_', ' ')}"
        # 5.4: the table's "damaged" shoots down an aircraft already damaged; say so where
        # the result is stated, or the line contradicts its own result field.
        + ("" if result is raw else f"; {target.id} was already damaged: shot down (5.4)"),
    )
    turn.emit(resolved)
    fighter_damage(turn, target, raw, col.rule, dice_used)
    return first


def resolve_bomber(
    turn: DownInFlamesTurn, state: State, attacker: Plane, target: Plane, hits: int, hv: int
) -> DiceRolled | None:
    """4.1.2-4.1.7, 6.1.7: every 8 Hit Value points score 1 damage point; left-over points
    may score one more on a roll. Emits the roll, the AttackResolved and its damage; returns
    the roll (None: no die rolled)."""
    total = hits * hv
    points, leftover = bomber_table.split(total)
    row = bomber_table.leftover_row(state.combat_die, leftover)
    rolls: list[DiceRolled] = []
    extra = 0
    if row.scores_on:
        spec, _ = _die(state)
        roll = turn.roll(
            spec,
            purpose=f"{leftover} left-over Hit Value points",
            rule=row.rule,
            owner=owner_of(state, attacker.side),
        )
        rolls.append(roll)
        extra = 1 if roll.total <= row.scores_on else 0
    dice_used = tuple(r.roll for r in rolls)
    result = bomber_result(state, target, points + extra)
    defense = state.card_of(target).defense
    leftover_text = (
        f"{leftover} left over score on {row.scores_on} or less: rolled {rolls[0].total}, "
        f"{'scores' if extra else 'misses'}"
        if rolls
        else f"{leftover} left over: no roll"
    )
    resolved = AttackResolved(
        attacker=attacker.id,
        target=target.id,
        system=f"bomber {state.combat_die.value}",
        hits=hits,
        hit_value=hv,
        total_hv=total,
        defense=defense,
        column="",
        result=result,
        damage_points=points + extra,
        rule=cite_all(cite("4.1.3"), row.rule),
        dice=dice_used,
        candidates=_leftover_candidates(row.scores_on, leftover, bool(rolls), bool(extra)),
        explanation=f"{counted(hits, 'hit')} x HV {hv} = {total}: "
        f"{counted(points, 'damage point')} from "
        f"multiples of 8; {leftover_text}; "
        f"{_bomber_standing(target, target.damage_points + points + extra, defense, result)}",
    )
    turn.emit(resolved)
    bomber_damage(turn, state, target, points + extra, dice_used)
    return rolls[0] if rolls else None


def _leftover_candidates(
    scores_on: int, leftover: int, rolled: bool, scored: bool
) -> tuple[Candidate, ...]:
    """4.1.7, 6.1.7: whether the left-over Hit Value points score a damage point; with
    too few left over for the table (below 4 on the D6, 2 on the D12) no die is rolled, and
    the one candidate says so (not two rejected ones)."""
    if not rolled:
        return (
            Candidate(
                option="no left-over roll",
                chosen=True,
                reason=f"{leftover} left over: too few to roll for",
            ),
        )
    return (
        Candidate(
            option="left-over point scores", chosen=scored, reason=f"roll at most {scores_on}"
        ),
        Candidate(
            option="left-over point misses", chosen=not scored, reason=f"roll above {scores_on}"
        ),
    )


def _bomber_standing(target: Plane, points: int, defense: int, result: Outcome) -> str:
    """4.1.4-4.1.6 in words: where the attack leaves the bomber's damage points."""
    where = f"{target.id} has {points} of its defense {defense}"
    if result is Outcome.SHOT_DOWN:
        return f"{where}: shot down (4.1.6)"
    if result is Outcome.DAMAGED:
        return f"{where}: half or more, damaged (4.1.4)"
    if target.damaged:
        return f"{where}: damaged already, shot down at {defense} (4.1.6)"
    return f"{where}: damaged at half, {(defense + 1) // 2} (4.1.4)"


def ammunition(
    turn: DownInFlamesTurn, state: State, attacker: Plane, first: DiceRolled, bursts: int
) -> None:
    """10.15: after an attack at the left-hand Hit Value whose die shows 1 (D12: 1 or 2),
    a D6 at most the attack's bursts depletes the ammunition; 9.1.9 crack shots are exempt."""
    face = first.total
    trigger = face == 1 if state.combat_die is CombatDie.D6 else face <= 2
    if not trigger:
        return
    if attacker.crack_shot:
        reveal(turn, attacker, CRACK_SHOT)
        return
    roll = turn.roll(
        d6(),
        purpose=f"ammunition depletion of {attacker.id}",
        rule=cite("10.15"),
        owner=owner_of(state, attacker.side),
    )
    depleted = roll.total <= bursts
    turn.emit(
        AmmunitionChecked(
            aircraft=attacker.id,
            depleted=depleted,
            rule=cite("10.15"),
            dice=(first.roll, roll.roll),
            candidates=(
                Candidate(option="depleted", chosen=depleted, reason=f"roll at most {bursts}"),
                Candidate(
                    option="not depleted", chosen=not depleted, reason=f"roll above {bursts}"
                ),
            ),
            explanation=f"the attack die showed {face}; ammunition roll {roll.total} against "
            f"{counted(bursts, 'burst')}: "
            f"{'right-hand Hit Value from now on' if depleted else 'no change'}",
        )
    )


def decide_negate(turn: DownInFlamesTurn, command: NegateAttack) -> None:
    """3.2.10: if any card of an aggregated attack is negated, the entire attack is negated
    (the negated card leaves the Leader's hand)."""
    rule = cite("3.2.10")
    held = turn.state.pending.get(command.attacker)
    if held is None:
        raise RuleError(f"{command.attacker} has no aggregated attack to negate", rule=rule)
    turn.emit(
        AttackNegated(attacker=held.attacker, target=held.target, cards=held.cards + 1, rule=rule)
    )


def decide_defensive_fire(turn: DownInFlamesTurn, command: ResolveDefensiveFire) -> None:
    """3.3 gunner fire and 4.1.9 turret defense fire: Hit Value 8 in the odds system."""
    state = turn.state
    rule = cite("3.3") if command.kind is DefensiveFireKind.GUNNER else cite("4.1.9")
    shooter = find_plane(state, command.shooter, rule)
    target = find_plane(state, command.target, rule)
    card = state.card_of(shooter)
    if command.kind is DefensiveFireKind.TURRET and not card.aircraft_class.is_formation_bomber:
        raise RuleError(f"{shooter.id} is not a Medium or Heavy Bomber with turrets", rule=rule)
    if command.kind is DefensiveFireKind.GUNNER and not (
        card.has(Characteristic.GUNNER) or card.aircraft_class is AircraftClass.LIGHT_BOMBER
    ):
        raise RuleError(f"{shooter.id} has no gunner", rule=rule)
    if target.side is shooter.side or state.card_of(target).aircraft_class.is_formation_bomber:
        raise RuleError(f"{target.id} is not an enemy Fighter or Light Bomber", rule=rule)
    _check_defending(state, shooter, command.kind)
    _check_not_rocket_attack(state, target)
    hv = GUNNER_HIT_VALUE if command.kind is DefensiveFireKind.GUNNER else TURRET_HIT_VALUE
    resolve_odds(turn, state, shooter, target, command.hits, hv, rule, system=command.kind.value)


def _check_not_rocket_attack(state: State, target: Plane) -> None:
    """7.1.2: "The attacking fighter is not subject to counter-fire": gunner or turret fire
    answers an attacker's latest attack card in the move, and while that card is its
    rocket attack there is none to answer (README ledger row 7.1.2)."""
    if target.id in state.rocket_attackers():
        raise RuleError(
            f"{target.id}'s latest attack card is its rocket attack, and a rocket-attacking "
            "fighter is not subject to counter-fire (7.1.2); gunners or turrets may answer "
            "its next attack card",
            rule=cite("7.1.2"),
        )


def _check_defending(state: State, shooter: Plane, kind: DefensiveFireKind) -> None:
    """4.1.9 "Turret defense fire", 3.3 gunner fire: the fire of aircraft being attacked, at
    their attackers, so in the other side's move (1: the base game's turn, in which the
    moving side plays the attack cards). Between moves, or in the shooter's own move,
    there is no attack for it to answer."""
    moving = state.active_side
    if moving is not None and shooter.side is not moving:
        return
    guns = "turrets" if kind is DefensiveFireKind.TURRET else "gunners"
    now = (
        f"it is side {moving.value}'s own move, in which side {moving.value} attacks"
        if moving is not None
        else "no side is moving"
    )
    raise RuleError(
        f"{shooter.id}'s {guns} fire in defence, at the aircraft attacking it in the other "
        f"side's move (4.1.9, 3.3): {now}",
        rule=RULE_TURN,
    )
