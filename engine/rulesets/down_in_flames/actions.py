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

from umpire.engine.actions import Action, Schema, offer, offer_each, one_of
from umpire.engine.roles import Role
from umpire.engine.rulesets.down_in_flames import commands as cmd
from umpire.engine.rulesets.down_in_flames.altitude import start_limit
from umpire.engine.rulesets.down_in_flames.pilot import CRACK_SHOT, KEEN_EYESIGHT, QUALITY
from umpire.engine.rulesets.down_in_flames.state import Plane, State
from umpire.engine.rulesets.down_in_flames.terms import (
    AircraftClass,
    Card,
    Characteristic,
    PilotQuality,
    Side,
    Station,
    cite,
)

RULE_TURN = cite("1")
OTHER = {Side.A: Side.B, Side.B: Side.A}


def _flying(state: State, side: Side | None = None) -> list[Plane]:
    return [
        p
        for _, p in sorted(state.aircraft.items())
        if not p.shot_down and (side is None or p.side is side)
    ]


def _ids(planes: list[Plane]) -> Schema:
    return one_of(p.id for p in planes)


def _pilot_may(state: State, plane: Plane, known: bool) -> bool:
    """Whether the player may offer a pilot command for `plane`: for the player's own
    pilots when `known` holds; for an opposing pilot always (its pilot is secret)."""
    return known if plane.side in state.player_sides else True


def _pairs(
    state: State, first: str, second: str, keep: Callable[[Plane], bool] = lambda p: True
) -> list[dict[str, Schema]]:
    """Variants `{first: a plane of one side, second: a flying plane of the other}`."""
    out = []
    for side in Side:
        mine = [p for p in _flying(state, side) if keep(p)]
        theirs = _flying(state, OTHER[side])
        if mine and theirs:
            out.append({first: _ids(mine), second: _ids(theirs)})
    return out


def _before_start(state: State) -> list[Action]:
    sides = [s for s in Side if s not in state.thach_weave]
    out = [
        offer(cmd.RollStartingAltitude, cite("2.5"), "Roll a D20 for the starting altitude"),
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


def _has_gunner(state: State, plane: Plane) -> bool:
    card = state.card_of(plane)
    return (
        card.has(Characteristic.GUNNER)
        or card.aircraft_class is AircraftClass.LIGHT_BOMBER
        or card.aircraft_class.is_formation_bomber
    )


def _in_turn(state: State, side: Side) -> list[Action]:
    flying = _flying(state)
    attack_cards = one_of(c for c in Card if c.is_attack)
    other_cards = one_of(c for c in Card if not c.is_attack and c is not Card.VERTICAL_ROLL)
    out = [offer(cmd.EndTurn, cite("8.2"), f"End side {side.value}'s move", side=one_of([side]))]
    if state.pending:
        out.append(
            offer(
                cmd.NegateAttack,
                cite("3.2.10"),
                "A card of an aggregated attack was negated",
                attacker=one_of(sorted(state.pending)),
            )
        )
    attacks = _pairs(state, "attacker", "target")
    if attacks:
        out.append(
            offer_each(
                cmd.Attack,
                cite("3.2"),
                "An attack card succeeded",
                [{**v, "card": attack_cards} for v in attacks],
            )
        )
        out.append(offer_each(cmd.SetPosition, cite("3.1"), "Set a position after a card", attacks))
    fire = _pairs(state, "shooter", "target", lambda p: _has_gunner(state, p))
    if fire:
        out.append(
            offer_each(cmd.ResolveDefensiveFire, cite("3.3"), "Gunners or turrets fire", fire)
        )
    if flying:
        planes = _ids(flying)
        out.append(
            offer(
                cmd.PlayCard,
                cite("8.4.1"),
                "Play a non-attack card",
                aircraft=planes,
                card=other_cards,
                response_to={"anyOf": [other_cards, {"type": "null"}]},
                against={"anyOf": [planes, {"type": "null"}]},
            )
        )
        rolls = []
        for s in Side:
            enemies = sorted(e for e, el in state.elements.items() if el.side is not s)
            mine = _flying(state, s)
            if mine:
                followers = {"items": one_of(enemies)} if enemies else {"maxItems": 0}
                rolls.append({"aircraft": _ids(mine), "followers": followers})
        out.append(offer_each(cmd.PlayVerticalRoll, cite("2.6"), "Play a VERTICAL ROLL", rolls))
    divers = sorted(e for e, el in state.elements.items() if el.altitude > 1 and state.members(e))
    if divers:
        out.append(offer(cmd.Dive, cite("2.1"), "An Element dives", element=one_of(divers)))
    climbers = sorted(e for e in state.elements if state.members(e))
    if climbers:
        out.append(offer(cmd.Climb, cite("2.2"), "An Element climbs", element=one_of(climbers)))
    aces = [
        p
        for p in flying
        if p.station is Station.LEADER
        and _pilot_may(state, p, p.pilot_quality is PilotQuality.ACE and not p.ace_card_used)
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
                p.keen_eyesight and p.pilot_quality in (PilotQuality.REGULAR, PilotQuality.VETERAN),
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
        out.append(
            offer(
                cmd.ReportHand, cite("8.2"), "Report a Leader's hand size", aircraft=_ids(leaders)
            )
        )
        holding = [p for p in leaders if p.hand > 0]
        if holding:
            out.append(
                offer(
                    cmd.Discard,
                    cite("8.5"),
                    "A Leader discards cards",
                    aircraft=_ids(holding),
                    count={"maximum": max(p.hand for p in holding)},
                )
            )
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


def actions(state: State, role: Role) -> list[Action]:
    """The commands the players may report now, by the dogfight's stage."""
    if not any(e.altitude for e in state.elements.values()):
        return [*_before_start(state), *_any_time(state)]
    if state.active_side is None:
        sides = sorted({p.side for p in _flying(state)})
        turn = [offer(cmd.BeginTurn, RULE_TURN, "A side begins its move", side=one_of(sides))]
    else:
        turn = _in_turn(state, state.active_side)
    return [*turn, *_any_time(state)]
