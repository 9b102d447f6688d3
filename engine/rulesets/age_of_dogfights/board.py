"""The diagram clients draw (engine/map_view.py `Diagram`), read from a role's view.

The board of the base game (geometry.py: a triangular lattice of points, odd rows shifted
half a step east) seen from above, with the mission zones, every aircraft at its point
with its heading; and beside it the altitude stand: one band per level from 1 to the
model's highest level, each aircraft at its level in its side's lane, with its attitude
and what the umpire keeps (ammunition, jams, damage, retreat). An aircraft that has left
the board or is lost is listed as out, with no point and no level.
"""

from __future__ import annotations

from typing import Any

from umpire.engine.map_view import (
    Diagram,
    DiagramAircraft,
    DiagramBand,
    DiagramField,
    DiagramZone,
)
from umpire.engine.rulesets.age_of_dogfights.geometry import Heading

# Degrees clockwise from north of each lattice heading (rows run east-west).
DEGREES: dict[str, int] = {
    Heading.E.value: 90,
    Heading.NE.value: 30,
    Heading.NW.value: 330,
    Heading.W.value: 270,
    Heading.SW.value: 210,
    Heading.SE.value: 150,
}


def _state(p: dict[str, Any]) -> tuple[str, ...]:
    words = [str(p["aircraft_type"]), str(p["attitude"])]
    if p["side"] == "bot":
        words.append(
            f"ammo {p['ammo_nose']}" + (f"+{p['ammo_dorsal']}" if p["ammo_dorsal"] else "")
        )
    # Each aircraft carries its own side's fields only (view.py): a player's report, or
    # what the umpire keeps for a bot.
    flags = (
        ("damaged", p.get("damaged") or bool(p.get("damage"))),
        ("jammed", p.get("jammed") or p.get("pilot_guns_jammed")),
        ("guns damaged", p.get("guns_damaged")),
        ("retreating", p.get("retreating")),
        ("mission done", p.get("mission_done")),
    )
    words += [name for name, on in flags if on]
    if p["out"]:
        words.append(str(p["out"]))
    return tuple(words)


def board(view: Any) -> Diagram:
    """The engagement of an Age of Dogfights view (every role sees the same)."""
    model = view["model"]
    aircraft = tuple(
        DiagramAircraft(
            id=p["id"],
            side=p["side"],
            lane=p["side"],
            label=p["id"],
            level=None if p["out"] else p["level"],
            point=None if p["out"] else (p["position"][0], p["position"][1]),
            heading=None if p["out"] else DEGREES[p["heading"]],
            state=_state(p),
            out=bool(p["out"]),
        )
        for p in view["planes"]
    )
    return Diagram(
        title=f"Round {view['round']}, {view['phase']}",
        bands=tuple(
            DiagramBand(low=level, high=level, label=f"L{level}")
            for level in range(1, model["max_level"] + 1)
        ),
        lanes=("player", "bot"),
        player_sides=("player",),
        aircraft=aircraft,
        field=DiagramField(width=model["width"], height=model["height"]),
        zones=tuple(
            DiagramZone(
                label=z["name"], point=(z["position"][0], z["position"][1]), radius=z["radius"]
            )
            for z in view["zones"]
        ),
    )
