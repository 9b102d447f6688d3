"""The commands the player may send now (engine/actions.py), by whose turn it is.

Seed 003_368c69a730e6e14a.txt: on the player's turn one of an AP action (3.1), a CAP
action (3.2.2), a card action (3.3), a stall or a pass (3.0); on the AI's turn only
`TakeAiTurn` (4.0). Base-game results may be reported at any time (5.2, 5.3.1, 7.3, 4.0).
Units are narrowed to those that may act (fresh for APs), CAPs to those on the track,
APs to what a unit has, hexes to the passable map, named cards to those in the deck.
"""

from __future__ import annotations

from umpire.engine.actions import (
    Action,
    Schema,
    as_next,
    but_not,
    map_hexes,
    offer,
    offer_each,
    one_of,
)
from umpire.engine.roles import Role
from umpire.engine.rulesets.conflict_of_heroes.battlefield import active, ai_at, terrain
from umpire.engine.rulesets.conflict_of_heroes.commands import (
    CardAction,
    CommandAction,
    Pass,
    ReportCounters,
    ReportDestroyed,
    ReportHit,
    ReportPosition,
    Stall,
    TakeAiTurn,
    UnitAction,
)
from umpire.engine.rulesets.conflict_of_heroes.reports import restated
from umpire.engine.rulesets.conflict_of_heroes.state import State
from umpire.engine.rulesets.conflict_of_heroes.terms import Side, WhoseTurn, cite

# Groups are offered one variant per set of acting units up to this many units; beyond,
# each unit alone and all of them together (2^n variants would ride in every frame).
MAX_GROUP_SETS = 5


def _groups(ids: list[str]) -> list[list[str]]:
    """The sets of units that may act together (3.1: several units make a group action)."""
    if len(ids) > MAX_GROUP_SETS:
        return [[i] for i in ids] + [list(ids)]
    return [[i for n, i in enumerate(ids) if mask >> n & 1] for mask in range(1, 1 << len(ids))]


def _group(ids: list[str], hexes: Schema) -> dict[str, Schema]:
    """`units` exactly these units (each once, any order) and `moves` placing only them:
    only acting units may be placed (player_turn.placements)."""
    if not ids:
        return {"units": {"maxItems": 0}, "moves": {"maxItems": 0}}
    return {
        "units": {
            "items": one_of(ids), "minItems": len(ids), "maxItems": len(ids), "uniqueItems": True
        },
        "moves": {"items": {"properties": {"unit": one_of(ids), "hex": hexes}}},
    }  # fmt: skip


def _player_turn(state: State) -> list[Action]:
    mine = [u.id for u in active(state, Side.PLAYER)]
    fresh = [u.id for u in active(state, Side.PLAYER) if u.fresh]
    hexes = map_hexes(state.rules.grid, lambda label: not terrain(state, label).impassable)
    cards = {"items": one_of(sorted(state.deck))} if state.deck else {"maxItems": 0}
    caps = {"maximum": state.caps}
    out: list[Action] = []
    if fresh:
        out.append(
            offer_each(
                UnitAction,
                cite("3.1"),
                "Act with one or more fresh Units for APs",
                [
                    {**_group(g, hexes), "ap": {"maximum": state.rules.max_unit_aps},
                     "caps": caps, "cards": cards}
                    for g in _groups(fresh)
                ],
            )
        )  # fmt: skip
    if mine and state.caps >= 1:
        out.append(
            offer_each(
                CommandAction,
                cite("3.2.2"),
                "Act with one or more Units paying only CAPs",
                [{**_group(g, hexes), "caps": caps} for g in _groups(mine)],
            )
        )
    # 3.3: paid with CAPs only, any of the player's units (or none) may act; paid with
    # APs too, fresh ones (a group of fresh units takes either, in one case).
    aps = state.rules.max_unit_aps
    groups = _groups(mine)
    card_paid = [
        {**_group(g, hexes), "ap": {"maximum": aps} if g and set(g) <= set(fresh) else one_of([0])}
        for g in [[], *groups]
    ]
    card_paid += [  # beyond MAX_GROUP_SETS units the fresh units' groups are not all there
        {**_group(g, hexes), "ap": {"minimum": 1, "maximum": aps}}
        for g in _groups(fresh)
        if g not in groups
    ]
    out.append(
        offer_each(
            CardAction,
            cite("3.3"),
            "Play an Action Card paid with APs and/or CAPs",
            [{**v, "caps": caps, "cards": cards} for v in card_paid],
        )
    )
    stallers = [*([""] if state.caps >= 1 else []), *fresh]
    if stallers:
        out.append(
            offer(
                Stall,
                cite("3.0") + " Stall",
                "Stall: 1 AP of a fresh Unit, or 1 CAP",
                unit=one_of(stallers),
                cards=cards,
            )
        )
    out.append(offer(Pass, cite("3.0") + " Pass", "Pass: no action"))
    return out


def _counters(state: State) -> Action:
    """ReportCounters: a count that differs from the one umpire holds in one field or both
    (4.0); the same two counts again would change nothing (issue 41 item 8)."""
    counts = range(31)
    rumored = [n for n in counts if n != state.rumored_counters]
    arriving = [n for n in counts if n != state.reinforcements_this_round]
    text = "Report the Mission Track counters"
    cases = [{"rumored": one_of(rumored)}, {"reinforcements": one_of(arriving)}]
    return offer_each(ReportCounters, cite("4.0"), text, cases)


def _reports(state: State) -> list[Action]:
    counters = sorted(u.id for u in state.units if not u.destroyed)
    if not counters:
        return [_counters(state)]
    hexes = map_hexes(state.rules.grid, lambda label: not terrain(state, label).impassable)
    ids = one_of(counters)
    cards = {"items": one_of(sorted(state.deck))} if state.deck else {"maxItems": 0}
    hit = [u.id for u in state.units if not u.destroyed and u.hit]
    unhit = [u.id for u in state.units if not u.destroyed and not u.hit]
    hits = [
        {"unit": one_of(sorted(group)), "hit": one_of([not marked])}
        for group, marked in ((unhit, False), (hit, True))
        if group
    ]
    return [
        offer_each(ReportHit, cite("5.2"), "Report a hit marker placed or rallied off", hits),
        offer(ReportDestroyed, cite("7.3"), "Report a counter destroyed", unit=ids, cards=cards),
        # Not a counter where and as it stands: that changes nothing (issue 41 item 8).
        but_not(
            offer_each(
                ReportPosition,
                cite("5.3.1"),
                "Report a counter's hex and facing",
                _positions(state, hexes),
            ),
            [restated(u) for u in sorted(state.units, key=lambda u: u.id) if not u.destroyed],
        ),
        _counters(state),
    ]


def _positions(state: State, hexes: Schema) -> list[dict[str, Schema]]:
    """ReportPosition variants: any counter to a passable hex, out of play; in play, an AI
    not into a hex another AI holds (5.3.1: AIs will not stack)."""
    counters = sorted(u.id for u in state.units if not u.destroyed)
    out: list[dict[str, Schema]] = [
        {"unit": one_of(counters), "hex": hexes, "in_play": one_of([False])}
    ]
    players = sorted(u.id for u in state.units if not u.destroyed and u.side is Side.PLAYER)
    if players:
        out.append({"unit": one_of(players), "hex": hexes})
    for u in sorted(state.units, key=lambda u: u.id):
        if u.destroyed or u.side is not Side.AI:
            continue
        free = [h for h in hexes.get("enum", ()) if ai_at(state, h, but=u.id) is None]
        out.append({"unit": one_of([u.id]), "hex": one_of(free) if "enum" in hexes else hexes})
    return out


def actions(state: State, role: Role) -> list[Action]:
    """The player's commands now: their turn's actions or the AI turn, then reports."""
    if state.turn is WhoseTurn.AI:
        cards = {"items": one_of(sorted(state.deck))} if state.deck else {"maxItems": 0}
        text = "Take the AI's turn: draw an Order Card"
        turn = [as_next(offer(TakeAiTurn, cite("4.0"), text, cards=cards))]
    else:
        turn = _player_turn(state)
    return [*turn, *_reports(state)]
