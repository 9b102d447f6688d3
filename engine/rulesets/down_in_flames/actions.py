"""The commands the players may report now (engine/actions.py), by the dogfight's stage.

Seed 002_c21c1b1d0b6ff92b.txt. Before the start: the starting altitude by roll or bids
(2.5) and the Thach Weave bid (10.11.3). Then the base game's turns (1): between turns a
side begins its move; during a move the moving side ends it (8.2-8.5), cards are played
(8.4.1, 2.1, 2.2, 2.6, 3.2, 3.3) and an aggregated attack may be negated (3.2.10). Hands
and the player's own pilot reveals may be reported at any time.

Only what the player knows narrows a field: aircraft still flying, sides, Elements and
their altitudes, hands, and the pilots of the player's own sides. An opposing pilot's
quality is secret (9.1.11), so the pilot commands list every opposing Leader.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from umpire.engine.actions import Action, Schema, as_next, offer, offer_each, one_of
from umpire.engine.errors import RuleError
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import commands as cmd
from umpire.engine.rulesets.down_in_flames.altitude import (
    LOWEST_LEVEL,
    change,
    climb_cost,
    engaged_with,
    start_limit,
)
from umpire.engine.rulesets.down_in_flames.attack import card_hits, hit_value
from umpire.engine.rulesets.down_in_flames.card_play import (
    AGILITY_CARDS,
    agility_allowed,
    counts_as_agility,
    hand_allowed,
    slow_target,
    weaves,
)
from umpire.engine.rulesets.down_in_flames.performance import (
    bursts_available,
    fewest_kept,
    wingman_draw,
)
from umpire.engine.rulesets.down_in_flames.pilot import (
    CRACK_SHOT,
    KEEN_EYESIGHT,
    QUALITY,
    pilot_may,
)
from umpire.engine.rulesets.down_in_flames.state import Plane, State, position_key
from umpire.engine.rulesets.down_in_flames.tables.rocket import rocket_row
from umpire.engine.rulesets.down_in_flames.terms import (
    RULE_TURN,
    AircraftClass,
    Card,
    Characteristic,
    DefensiveFireKind,
    Direction,
    PilotQuality,
    Position,
    Side,
    Station,
    cite,
)

OTHER = {Side.A: Side.B, Side.B: Side.A}


def _flying(state: State, side: Side | None = None) -> list[Plane]:
    return [
        p
        for _, p in sorted(state.aircraft.items())
        if not p.shot_down and (side is None or p.side is side)
    ]


def _ids(planes: list[Plane]) -> Schema:
    return one_of(p.id for p in planes)


def _pilot_may(state: State, plane: Plane, known: Callable[[Plane], bool]) -> bool:
    """Whether the player may offer a pilot command for `plane`: for the player's own
    pilots when `known` holds; for an opposing pilot always (its pilot is secret, and is
    not read: a dispute's blinded line, engine/poison.py, would wait on it)."""
    return known(plane) if plane.side in state.player_sides else True


def _pairs(
    state: State,
    first: str,
    second: str,
    keep: Callable[[Plane], bool] = lambda p: True,
    aim: Callable[[Plane], bool] = lambda p: True,
) -> list[dict[str, Schema]]:
    """Variants `{first: a plane of one side, second: a flying plane of the other}`
    (`keep` narrows the first, `aim` the second)."""
    out = []
    for side in Side:
        mine = [p for p in _flying(state, side) if keep(p)]
        theirs = [p for p in _flying(state, OTHER[side]) if aim(p)]
        if mine and theirs:
            out.append({first: _ids(mine), second: _ids(theirs)})
    return out


def _positions(state: State) -> list[dict[str, Schema]]:
    """SetPosition variants (3.1): each attacker, with the targets on which it holds one
    position (or none), and every position but that one, which would change nothing
    (issue 41 item 8). Positions are public (the view shows them)."""
    out = []
    for side in Side:
        theirs = _flying(state, OTHER[side])
        for attacker in _flying(state, side):
            held: dict[Position | None, list[str]] = {}
            for target in theirs:
                now = state.positions.get(position_key(attacker.id, target.id))
                held.setdefault(now, []).append(target.id)
            for now, targets in held.items():
                others: list[Schema] = [one_of(p for p in Position if p is not now)]
                if now is not None:
                    others.append({"type": "null"})  # none: the position is lifted
                out.append(
                    {"attacker": one_of([attacker.id]), "target": one_of(targets),
                     "position": {"anyOf": others}}
                )  # fmt: skip
    return out


def _before_start(state: State) -> list[Action]:
    # 10.11: only a side with 2 Elements of a Thach Weave type may bid (and only once).
    sides = [s for s in Side if s not in state.thach_weave and weaves(state, s)]
    roll = offer(cmd.RollStartingAltitude, cite("2.5"), "Roll a D20 for the starting altitude")
    out = [
        as_next(roll),  # 2.5: the roll, unless the players settle it by bids
        offer(
            cmd.BidStartingAltitude,
            cite("2.5"),
            "Settle the starting altitude by bids",
            bids={"items": {"properties": {"altitude": {"maximum": start_limit(state)}}}},
        ),
    ]
    if sides:
        out.append(
            offer(cmd.BidThachWeave, cite("10.11.3"), "Bid for the Thach Weave", side=one_of(sides))
        )
    return out


def _defending(state: State, kind: DefensiveFireKind) -> Callable[[Plane], bool]:
    """The aircraft of the side not moving that have `kind` of defensive fire."""
    return lambda p: _fires(state, p, kind) and p.side is not state.active_side


def _fires(state: State, plane: Plane, kind: DefensiveFireKind) -> bool:
    """Whether `plane` has `kind` of defensive fire: turrets (4.1.9) on a Medium or Heavy
    Bomber, a gunner (3.3) on a light bomber or a card with the gunner characteristic."""
    card = state.card_of(plane)
    if kind is DefensiveFireKind.TURRET:
        return card.aircraft_class.is_formation_bomber
    return card.has(Characteristic.GUNNER) or card.aircraft_class is AircraftClass.LIGHT_BOMBER


def _card_plays(state: State, plane: Plane, flying: list[Plane]) -> list[dict[str, Schema]]:
    """The PlayCard variants `plane` may send (card_play.decide_play_card): every
    non-attack card, but 8.4's Agility Cards only while some pilot the player may suppose
    allows one more (pilot_may: the hidden pilot settles the rest, 9.1.11), and 10.7's
    Slow Bank SCISSORS only in response to TIGHT TURN or against a slow target."""
    card = state.card_of(plane)
    quick = card.has(Characteristic.QUICK_BANK)
    agility_ok = pilot_may(state, plane, agility_allowed(plane, True, state)) is not False
    against_any: Schema = {"anyOf": [_ids(flying), {"type": "null"}]}
    cards = [c for c in Card if not c.is_attack and c is not Card.VERTICAL_ROLL]
    free = [c for c in cards if agility_ok or not counts_as_agility(plane, c, None, quick)]
    # ACE PILOT counts as an Agility Card in response to one (8.4.1).
    responses = cards if agility_ok else [c for c in cards if c not in AGILITY_CARDS]
    plain = [c for c in free if c is not Card.SCISSORS or not card.has(Characteristic.SLOW_BANK)]
    out: list[dict[str, Schema]] = []
    ident = one_of([plane.id])
    for played in plain:
        out.append(
            {
                "aircraft": ident,
                "card": one_of([played]),
                "response_to": {
                    "anyOf": [
                        one_of(responses if played is Card.ACE_PILOT else cards),
                        {"type": "null"},
                    ]
                },
                "against": against_any,
            }
        )
    if Card.SCISSORS in free and Card.SCISSORS not in plain:
        scissors = one_of([Card.SCISSORS])
        out.append(
            {"aircraft": ident, "card": scissors, "response_to": one_of([Card.TIGHT_TURN]),
             "against": against_any}
        )  # fmt: skip
        slow = [p.id for p in flying if slow_target(state, p)]
        if slow:
            out.append(
                {"aircraft": ident, "card": scissors,
                 "response_to": {"anyOf": [one_of(cards), {"type": "null"}]},
                 "against": one_of(slow)}
            )  # fmt: skip
    return out


def _in_turn(state: State, side: Side) -> list[Action]:
    flying = _flying(state)
    out: list[Action] = []
    if not state.pending and all(_hand_ok(state, p) for p in _flying(state, side)):
        text = f"End side {side.value}'s move"
        out.append(offer(cmd.EndTurn, cite("8.2"), text, side=one_of([side])))
    if state.pending:
        out.append(
            offer(
                cmd.NegateAttack,
                cite("3.2.10"),
                "A card of an aggregated attack was negated",
                attacker=one_of(sorted(state.pending)),
            )
        )
    attacks = _attacks(state, side)
    if attacks:
        out.append(offer_each(cmd.Attack, cite("3.2"), "An attack card succeeded", attacks))
    positions = _positions(state)
    if positions:
        text = "Set a position after a card"
        out.append(offer_each(cmd.SetPosition, cite("3.1"), text, positions))
    # 4.1.9, 3.3: defensive fire answers the moving side's attacks, so the side not moving
    # fires it, at the moving side's fighters and light bombers (attack._check_defending),
    # but not at one whose latest attack card is its rocket attack (7.1.2).
    # Each kind of fire is listed for the shooters that have it (turrets: 4.1.9's Medium
    # and Heavy Bombers; gunners: 3.3's), as decide_defensive_fire refuses the other.
    fire = [
        {**variant, "kind": one_of([kind])}
        for kind in DefensiveFireKind
        for variant in _pairs(
            state,
            "shooter",
            "target",
            _defending(state, kind),
            lambda p: (
                not state.card_of(p).aircraft_class.is_formation_bomber
                and p.id not in state.rocket_attackers()
            ),
        )
    ]
    if fire:
        out.append(
            offer_each(cmd.ResolveDefensiveFire, cite("3.3"), "Gunners or turrets fire", fire)
        )
    players = [p for p in flying if _can_spend(state, p, 1)]
    plays = [v for p in players for v in _card_plays(state, p, flying)]
    if plays:
        out.append(offer_each(cmd.PlayCard, cite("8.4.1"), "Play a non-attack card", plays))
    if flying:
        rolls = [v for p in flying for v in _vertical_rolls(state, p)]
        if rolls:
            text = "Play a VERTICAL ROLL"
            out.append(offer_each(cmd.PlayVerticalRoll, cite("2.6"), text, rolls))
    dives = _dives(state, side)
    if dives:
        out.append(offer_each(cmd.Dive, cite("2.1"), "An Element dives", dives))
    climbers = _climbers(state, side)
    if climbers:
        out.append(offer(cmd.Climb, cite("2.2"), "An Element climbs", element=one_of(climbers)))
    aces = [
        p
        for p in flying
        if p.station is Station.LEADER
        and _pilot_may(
            state, p, lambda p: p.pilot_quality is PilotQuality.ACE and not p.ace_card_used
        )
    ]
    if aces:
        out.append(
            offer(
                cmd.DeclareAcePilot, cite("9.1.8"), "Declare an ACE PILOT card", aircraft=_ids(aces)
            )
        )
    if state.turns_taken.get(side.value, 0) == 1:
        keen = [
            p
            for p in _flying(state, side)
            if p.station is Station.LEADER
            and not p.keen_eyesight_used
            and _pilot_may(
                state,
                p,
                lambda p: (
                    p.keen_eyesight
                    and p.pilot_quality in (PilotQuality.REGULAR, PilotQuality.VETERAN)
                ),
            )
        ]
        targets = _flying(state, OTHER[side])
        if keen and targets:
            out.append(
                offer(
                    cmd.UseKeenEyesight,
                    cite("9.1.10"),
                    "Start as if MANEUVERING was played",
                    aircraft=_ids(keen),
                    target=_ids(targets),
                )
            )
    return out


def _any_time(state: State) -> list[Action]:
    leaders = [p for p in _flying(state) if p.station is Station.LEADER]
    out: list[Action] = []
    if leaders:
        # 8.2: a hand reported at the size umpire holds changes nothing (issue 41 item 8).
        hands = [
            {"aircraft": one_of([p.id]), "cards": one_of([n for n in range(31) if n != p.hand])}
            for p in leaders
        ]
        out.append(offer_each(cmd.ReportHand, cite("8.2"), "Report a Leader's hand size", hands))
        discards = [
            {"aircraft": one_of([p.id]), "count": {"maximum": _spare(state, p)}}
            for p in leaders
            if _spare(state, p) >= 1
        ]
        if discards:
            out.append(offer_each(cmd.Discard, cite("8.5"), "A Leader discards cards", discards))
    every = (QUALITY, CRACK_SHOT, KEEN_EYESIGHT)
    hidden = [
        p
        for p in _flying(state)
        if p.side in state.player_sides and any(c not in p.revealed for c in every)
    ]
    if hidden:
        out.append(
            offer(
                cmd.RevealPilot,
                cite("9.1.11"),
                "Reveal your pilot's characteristics",
                aircraft=_ids(hidden),
            )
        )
    return out


def _spare(state: State, plane: Plane) -> int:
    """The cards a Leader may spend now: its hand above the 8.3 minimum."""
    return plane.hand - fewest_kept(state, plane)


def _can_spend(state: State, plane: Plane, count: int) -> bool:
    """performance.check_can_spend: Wingmen hold no hand; a Leader keeps its 8.3 minimum."""
    return plane.station is not Station.LEADER or _spare(state, plane) >= count


def _known(state: State, plane: Plane, characteristic: str) -> bool:
    """Whether the player may see a pilot's characteristic (9.1.11): its own sides', and
    what has been revealed. A narrowing reads nothing else: where it would, the bound is
    the one the best hidden pilot would have, and the rules accept what it lists and
    decide it on the hidden pilot (pilot.settle)."""
    return plane.side in state.player_sides or characteristic in plane.revealed


def _hand_ok(state: State, plane: Plane) -> bool:
    """8.2, 8.3, 8.5: a Leader's hand within the limits of some pilot it may have at the
    end of its side's turn (a hidden pilot settles it, pilot.settle)."""
    if plane.station is not Station.LEADER:
        return True
    return pilot_may(state, plane, hand_allowed(state, plane.hand)) is not False


def _moves(state: State, element: str, direction: Direction, extra: int = 0) -> bool:
    """Whether an Element may change altitude one level that way now (altitude.change)."""
    try:
        change(state, element, direction, 1, cite("2.6.3"), extra_cards=extra)
    except RuleError:
        return False
    return True


def _vertical_rolls(state: State, plane: Plane) -> list[dict[str, Schema]]:
    """2.6: PlayVerticalRoll variants for one aircraft that can spend a card (2.6.2):
    negated (nobody follows, 2.6.1), or per direction its Element can go, with the enemy
    Elements that may follow (engaged 2.6.4, or the last attack card's 2.6.5; 10.3 Slow
    Dive) and can go that way too. A climb counts as an Agility Card (8.4.1)."""
    if not _can_spend(state, plane, 1):
        return []
    # 8.4 judged on the pilots the player may think it has, as the rules judge it
    # (check_agility): the hidden pilot's own limit told which directions were listed.
    climbs = pilot_may(state, plane, agility_allowed(plane, True, state)) is not False
    directions = [d for d in Direction if d is not Direction.CLIMB or climbs]
    me = one_of([plane.id])
    # 2.6.3: as an attack card only in its side's own move (ledger row 1, 2.6); a response
    # card either side may play.
    as_played: dict[str, Schema] = (
        {} if plane.side is state.active_side else {"response": one_of([True])}
    )
    out: list[dict[str, Schema]] = []
    if directions:
        out.append(
            {"aircraft": me, "direction": one_of(directions), "negated": one_of([True]),
             "followers": {"maxItems": 0}, **as_played}
        )  # fmt: skip
    extra = 1 if plane.station is Station.LEADER else 0
    last = state.aircraft.get(state.last_attack_card_by)
    slow = state.card_of(plane).has(Characteristic.SLOW_DIVE)
    for direction in directions:
        if not _moves(state, plane.element, direction, extra):
            continue
        followers = [
            name
            for name, element in sorted(state.elements.items())
            if element.side is not plane.side
            and state.members(name)
            and (engaged_with(state, name, plane.element) or (last and last.element == name))
            and not (
                direction is Direction.DIVE
                and not slow
                and any(state.card_of(p).has(Characteristic.SLOW_DIVE) for p in state.members(name))
            )
            and _moves(state, name, direction)
        ]
        out.append(
            {"aircraft": me, "direction": one_of([direction]), "negated": one_of([False]),
             "followers": {"items": one_of(followers)} if followers else {"maxItems": 0},
             **as_played}
        )  # fmt: skip
    return out


def _dives(state: State, side: Side) -> list[dict[str, Schema]]:
    """2.1: the moving side's Elements still flying, each by the levels it can still dive."""
    out: list[dict[str, Schema]] = []
    for name, element in sorted(state.elements.items()):
        room = element.altitude - LOWEST_LEVEL
        if element.side is side and state.members(name) and room >= 1:
            out.append({"element": one_of([name]), "levels": {"maximum": min(2, room)}})
    return out


def _climbers(state: State, side: Side) -> list[str]:
    """2.2: the moving side's Elements below their ceiling whose Leader can pay the climb."""
    out = []
    for name, element in sorted(state.elements.items()):
        members = state.members(name)
        if element.side is not side or not members:
            continue
        ceiling = min(state.card_of(p).ceiling_level for p in members)
        leader = state.leader_of(name)
        pays = leader is None or _can_spend(state, leader, climb_cost(leader, state))
        if element.altitude + 1 <= ceiling and pays:
            out.append(name)
    return out


def _attacks(state: State, side: Side) -> list[dict[str, Schema]]:
    """3.2: Attack variants, per attacker of the moving side (1: attack cards are played
    in a side's own move, the other side answers with response cards) and
    target with a position set (3.1), the one aggregated attack under way first (3.2.10):
    the attack cards (a Fuel Tank not for a rocket attack, 7.1.2), the bursts left (3.1),
    the Hit Value elections its card has (10.12, 10.15) and a rocket attack where it
    carries them (7.1.2); a Wingman within its Offense rating against bombers (4.1.1)."""
    out: list[dict[str, Schema]] = []
    cards = [c for c in Card if c.is_attack]
    for attacker in _flying(state, side):
        for target in _flying(state, OTHER[attacker.side]):
            if position_key(attacker.id, target.id) not in state.positions:
                continue
            if any(a != attacker.id or h.target != target.id for a, h in state.pending.items()):
                continue
            out += _attack_variants(state, attacker, target, cards)
    return out


def _attack_variants(
    state: State, attacker: Plane, target: Plane, cards: list[Card]
) -> list[dict[str, Schema]]:
    card = state.card_of(attacker)
    bomber = state.card_of(target).aircraft_class.is_formation_bomber
    held = state.pending.get(attacker.id)
    pair = {"attacker": one_of([attacker.id]), "target": one_of([target.id])}
    if attacker.station is Station.WINGMAN:
        offense = wingman_draw(state, attacker)[0]
        if not _known(state, attacker, QUALITY):
            offense = max(
                wingman_draw(state, replace(attacker, pilot_quality=q))[0] for q in PilotQuality
            )
        if bomber and attacker.attack_cards_played + 1 > offense:
            return []
        modifiers: dict[str, Schema] = {"bomber_burst_modifier": {}}
        bursts: list[tuple[int, Schema]] = [(0, {})]
    else:
        position = state.positions[position_key(attacker.id, target.id)]
        best = attacker
        if not _known(state, attacker, QUALITY):
            best = replace(best, pilot_quality=PilotQuality.REGULAR)
        if not _known(state, attacker, CRACK_SHOT):
            best = replace(best, crack_shot=True)
        have = bursts_available(state, best, position)[0] - attacker.bursts_used
        shifts = range(-4, 5) if bomber else [0]
        bursts = [(m, {"maximum": have + m}) for m in shifts if have + m >= 0]
        modifiers = {}  # a Leader's bursts turn on it: one variant per modifier
    out: list[dict[str, Schema]] = []
    reduced = [False, True] if card.reduced_hit_value is not None else [False]
    heavy = [False]
    if card.has(Characteristic.HURRICANE_IIC_FIRING) and attacker.station is Station.LEADER:
        heavy.append(True)
    rockets_ok = (
        state.rockets_rule
        and rocket_row(attacker.aircraft) is not None
        and attacker.rockets
        and state.card_of(target).aircraft_class is AircraftClass.HEAVY_BOMBER
    )
    for rockets in [False, True] if rockets_ok else [False]:
        for hv in heavy:
            spend = 2 if hv and held is None else 1
            if not _can_spend(state, attacker, spend):
                continue
            elections = [r for r in reduced if rockets or hit_value(state, attacker, r, hv)[0] > 0]
            if not elections:
                continue
            usable = [
                c
                for c in cards
                if (not rockets or c is not Card.FUEL_TANK)
                and (rockets or card_hits(state, attacker, target, c, 10) >= 1)
            ]
            for shift, burst in bursts:
                variant: dict[str, Schema] = {
                    **pair,
                    "card": one_of(usable),
                    "bursts": burst,
                    "reduced_hv": one_of(elections),
                    "heavy_fire": one_of([hv]),
                    "rockets": one_of([rockets]),
                    "bomber_burst_modifier": modifiers.get(
                        "bomber_burst_modifier", one_of([shift])
                    ),
                    "hits": {"minimum": 1},
                }
                if rockets:
                    variant["aggregate"] = one_of([False])
                    out.append(variant)
                    continue
                # 3.2.10: IN MY SIGHTS and OUT OF THE SUN cards aggregate; a Fuel Tank is
                # played on its own, and not into an aggregation under way.
                alone = [c for c in usable if c is not Card.FUEL_TANK]
                if alone:
                    out.append({**variant, "card": one_of(alone)})
                if Card.FUEL_TANK in usable and held is None:
                    fuel = one_of([Card.FUEL_TANK])
                    out.append({**variant, "card": fuel, "aggregate": one_of([False])})
    return out


def actions(state: State, role: Role) -> list[Action]:
    """The commands the players may report now, by the dogfight's stage."""
    if not any(e.altitude for e in state.elements.values()):
        return [*_before_start(state), *_any_time(state)]
    if state.active_side is None:
        sides = sorted({p.side for p in _flying(state)})  # decide refuses a side with none
        text = "A side begins its move"
        turn = [as_next(offer(cmd.BeginTurn, RULE_TURN, text, side=one_of(sides)))]
    else:
        turn = _in_turn(state, state.active_side)
    return [*turn, *_any_time(state)]
