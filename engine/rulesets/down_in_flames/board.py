"""The diagram clients draw (engine/map_view.py `Diagram`), read from a role's view.

There is no map in Down in Flames: the engagement is the altitude of each element (2: in
2,000-foot levels), the position of each attacker on its target (3.1: neutral,
advantaged, tailing) and each aircraft's state (damage, hand, formation). The diagram
puts every element at its level in its side's lane, each aircraft of it with its station
and state, and draws each position as a link from attacker to target. A pilot's quality
is shown only as the view gives it ("unknown" where 9.1.11 keeps it secret).
"""

from __future__ import annotations

from typing import Any

from umpire.engine.map_view import Diagram, DiagramAircraft, DiagramBand, DiagramLink
from umpire.engine.rulesets.down_in_flames.terms import Position

LOWEST = 1
SHOWN_ABOVE = 2  # levels drawn above the highest element (room to climb)


def _state(p: dict[str, Any]) -> tuple[str, ...]:
    words = [str(p["aircraft"]), str(p["station"])]
    if "hand" in p:  # a Leader's (README I13)
        words.append(f"hand {p['hand']}")
    words.append(f"pilot {p['pilot']['quality']}")
    flags = (
        ("shot down", p["shot_down"]),
        ("damaged", p["damaged"]),
        ("out of formation", not p.get("in_formation", True)),
        ("no ammunition", p["ammo_depleted"]),
    )
    words += [name for name, on in flags if on]
    if p.get("damage_points"):
        words.append(f"{p['damage_points']} damage points")
    return tuple(words)


def board(view: Any) -> Diagram:
    """The engagement of a Down in Flames view (the pilots as that role may know them)."""
    planes = view["aircraft"]
    levels = [e["altitude"] for e in view["elements"].values() if e["altitude"]]
    top = max([*levels, LOWEST]) + SHOWN_ABOVE
    aircraft = tuple(
        DiagramAircraft(
            id=key,
            side=p["side"],
            lane=f"side {p['side']}",
            label=key if p["element"] == p["side"] else f"{key} ({p['element']})",
            level=None if p["shot_down"] or not p["altitude"] else p["altitude"],
            state=_state(p),
            out=bool(p["shot_down"]),
        )
        for key, p in planes.items()
    )
    links = tuple(
        DiagramLink(source=attacker, target=target, label=str(position))
        for key, position in view["positions"].items()
        for attacker, target in [key.split(">", 1)]
        if position != Position.NEUTRAL.value
    )
    player = ", ".join(view["player_sides"]) or "none"
    return Diagram(
        title=f"Move {view['move']}; your side: {player}",
        bands=tuple(
            DiagramBand(low=level, high=level, label=f"level {level}")
            for level in range(LOWEST, top + 1)
        ),
        lanes=tuple(sorted({f"side {p['side']}" for p in planes.values()})),
        aircraft=aircraft,
        links=links,
        player_sides=tuple(view["player_sides"]),
    )
