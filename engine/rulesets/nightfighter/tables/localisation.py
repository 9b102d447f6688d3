"""S5.2, S5.3: the low and moderate uncertainty localisation diagrams, as data.

The two diagrams are pictures missing from the seed text. They are reconstructed here from
the rules' worked examples and the example of play; each cell carries the sentence(s) of
004_c3eb2ad371d7bb6a.txt that fix it (see README.md, "Localisation diagrams").

Coordinates are axial `(q, r)` offsets from the counter's hex for a bomber flying SOUTH (down
the map, as every bomber in the example of play does): `q` is the column offset (+ east),
`r` grows southwards, so N is (0, -1), NE (1, -1), SE (1, 0), S (0, 1), SW (-1, 1),
NW (-1, 0). `offset_for_heading` turns a cell for any other heading.

Reading order (fixed by the examples): cells are numbered column by column from west to
east, and top (north) to bottom within a column; the moderate diagram's 18 cells are the 19
hexes within two hexes of the counter less the hex two hexes directly behind it, (0, -2);
the low diagram's 6 cells are the counter's hex and its neighbours less the hex directly
behind it, (0, -1).
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.rulesets.nightfighter.terms import cite

Axial = tuple[int, int]

LOW_CITATION = cite("S5.2 low uncertainty diagram (reconstructed)")
MODERATE_CITATION = cite("S5.3 moderate uncertainty diagram (reconstructed)")


class Cell(Struct, frozen=True, kw_only=True):
    """One hex of a localisation diagram: its dice label, offset and the evidence for it."""

    label: str
    offset: Axial
    evidence: str


class Diagram(Struct, frozen=True, kw_only=True):
    """A localisation diagram: its cells in dice order and its citation."""

    name: str
    citation: str
    cells: tuple[Cell, ...]
    omitted: Axial
    omitted_evidence: str


LOW = Diagram(
    name="low",
    citation=LOW_CITATION,
    cells=(
        Cell(
            label="1",
            offset=(-1, 0),
            evidence=(
                "S5.3: 'On a die roll of 1, the counter would shift to the hex marked 2/3-4' "
                "(the NW neighbour of the moderate centre, see MODERATE 2/3-4)."
            ),
        ),
        Cell(
            label="2",
            offset=(-1, 1),
            evidence=(
                "S5.2 example: hex 2 is directly in front of hex 1 for a fighter with the "
                "bomber's heading; example of play turn 9 '0917 ... localisation roll of 2 "
                "(hex 0817)' and turn 12 '1521 ... shifted to hex 1421 on a roll of 2'."
            ),
        ),
        Cell(
            label="3",
            offset=(0, 0),
            evidence=(
                "S5.3: 'shift it directly back one hex on a roll of 3' (3 is the counter's own "
                "hex); S15.0 example 'same hex ... not a 3'; turn 12 'localisation roll of 3 ... "
                "coned in its existing hex'."
            ),
        ),
        Cell(
            label="4",
            offset=(0, 1),
            evidence=(
                "S5.5 example: a narrow-arc AI search from directly behind covers hexes 3 and 4; "
                "turn 8 'fails to roll the 4 now needed to fix ... in hex 0915' (counter 0914); "
                "turn 9 'initial roll of 4 ... hex 0918' (counter 0917)."
            ),
        ),
        Cell(
            label="5",
            offset=(1, -1),
            evidence=(
                "S10.0 example: from 'behind and to the left' of the counter (NE for a bomber "
                "flying south) 'On a score of 5, the bomber is shifted to the nightfighter's "
                "hex'; S5.5 example: 1 and 5 are adjacent to the hex directly behind."
            ),
        ),
        Cell(
            label="6",
            offset=(1, 0),
            evidence=(
                "Turn 8: 'the localisation roll of 6 points to hex 1324' (counter 1223, its SE "
                "neighbour); S5.5 example: 2 and 6 are not adjacent to the hex behind."
            ),
        ),
    ),
    omitted=(0, -1),
    omitted_evidence=(
        "S5.3 example: the low area round 2/3-4 holds 2/5-6 (its S neighbour) but not 2/1-2 "
        "(its N neighbour); S5.5 example: of a narrow-arc search from directly behind only "
        "hexes 3 and 4 fall in the area."
    ),
)


def _m(label: str, offset: Axial, evidence: str) -> Cell:
    return Cell(label=label, offset=offset, evidence=evidence)


_ORDER = "column-by-column reading order (see module docstring)"

MODERATE = Diagram(
    name="moderate",
    citation=MODERATE_CITATION,
    cells=(
        _m("1/1-2", (-2, 0), "S5.3 example: in the low area round 2/3-4 (its NW neighbour)."),
        _m("1/3-4", (-2, 1), "S5.3 example: in the low area round 2/3-4 (its SW neighbour)."),
        _m("1/5-6", (-2, 2), f"Only by the {_ORDER}: the last cell of the west column."),
        _m(
            "2/1-2",
            (-1, -1),
            "S5.3 example: with 2/3-4, 2/5-6 and 3/1-2 the 'four hexes directly in front' of "
            "a fighter 'just above 2/1-2'; excluded from the low area round 2/3-4 (N of it).",
        ),
        _m(
            "2/3-4",
            (-1, 0),
            "Turn 4: 'blue 2 purple 3 point to hex 0906' (counter 1006); turn 7 '2 and 4 ... "
            "hex 0811' (counter 0912); turn 10 '2 and 4 ... hex 1414' (counter 1515).",
        ),
        _m("2/5-6", (-1, 1), "Turn 3: 'blue 2 and purple 5 point to hex 0910' (counter 1009)."),
        _m(
            "3/1-2",
            (-1, 2),
            "S5.3 example: fourth hex of the column in front of the fighter; S5.4 example: "
            "'3/1-2' is at three hexes range from the hex directly behind the counter.",
        ),
        _m(
            "3/3-4",
            (0, -1),
            "S14.0 example: 'If you rolled 3 and 4 ... this hex (1114)' (counter 1115); "
            "S5.3 example: in the low area round 2/3-4 (its NE neighbour).",
        ),
        _m(
            "3/5-6",
            (0, 0),
            "S5.3 example: in the low area round 2/3-4 (its SE neighbour), i.e. the "
            "counter's own hex; S5.5: a fighter sitting on the counter misses '3/5-6, 4/1-2 or "
            "4/3-4' (the centre column from the counter forward).",
        ),
        _m("4/1-2", (0, 1), f"S5.5 (see 3/5-6) and the {_ORDER}."),
        _m("4/3-4", (0, 2), f"S5.5 (see 3/5-6) and the {_ORDER}."),
        _m("4/5-6", (1, -2), "Turn 5: 'localisation rolls of 4 and 5 point to hex 1114' (1015)."),
        _m("5/1-2", (1, -1), "S14.0 example: 'If the re-roll is 5 and 1 ... (1214)' (1115)."),
        _m("5/3-4", (1, 0), f"Only by the {_ORDER}."),
        _m("5/5-6", (1, 1), f"Only by the {_ORDER}."),
        _m("6/1-2", (2, -2), "Turn 7: 'localisation roll of 6 and 2 points to hex 1220' (1021)."),
        _m("6/3-4", (2, -1), "S14.0 example: 'If the re-roll is 6 and 3 ... (1315)' (1115)."),
        _m("6/5-6", (2, 0), f"Only by the {_ORDER}: the last cell of the east column."),
    ),
    omitted=(0, -2),
    omitted_evidence=(
        "3/1-2 ends the second column and 3/3-4 is the hex directly behind the counter "
        "(S14.0 example, 1114 from 1115), so the centre column starts one hex behind: the "
        "hex two behind is not in the diagram (19 hexes within two, less one, is 18)."
    ),
)


def low_cell(roll: int) -> Cell:
    """S5.2: the low-diagram cell of one die (1..6)."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a low uncertainty roll is 1..6, not {roll}")
    return LOW.cells[roll - 1]


def moderate_cell(blue: int, purple: int) -> Cell:
    """S5.3: the moderate-diagram cell of a blue and a purple die (each 1..6)."""
    if not (1 <= blue <= 6 and 1 <= purple <= 6):
        raise ValueError(f"blue and purple dice are 1..6, not {blue}/{purple}")
    return MODERATE.cells[(blue - 1) * 3 + (purple - 1) // 2]


def rotate(offset: Axial, steps: int) -> Axial:
    """An axial offset turned `steps` sixths of a turn clockwise."""
    q, r = offset
    x, y, z = q, -q - r, r
    for _ in range(steps % 6):
        x, y, z = -z, -x, -y
    return (x, z)


def offset_for_heading(offset: Axial, heading: int) -> Axial:
    """A diagram offset (drawn for a bomber flying south, direction 3) for `heading`."""
    return rotate(offset, heading - 3)
