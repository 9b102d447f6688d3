"""2.1.2 AAA Generation Table: AAA Points x die roll -> purchased L/M/H concentrations.

Printed rows are 1-10 and 14 AAA points; columns are die rolls 1..8 and 9-10 (one d10,
2.1.1). Interpretation (README "AAA points 11-13"): every printed cell costs exactly its
row's points at L=1, M=2, H=4, so 11, 12 and 13 points buy the row-10 cell plus the row-1,
row-2 or row-3 cell of the same die roll (cost-preserving, same column).
"""

from __future__ import annotations

from msgspec import Struct

from umpire.engine.errors import RuleError
from umpire.engine.kit.seed_table import Band, SeedTable
from umpire.engine.rulesets.downtown.terms import Density, cite

CITATION = cite("2.1.2 AAA Generation Table")
COLUMNS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9-10")
COST: dict[Density, int] = {Density.LIGHT: 1, Density.MEDIUM: 2, Density.HEAVY: 4}

ROWS: dict[int, tuple[str, ...]] = {
    1: ("1L", "1L", "1L", "1L", "1L", "1L", "1L", "1L", "1L"),
    2: ("1M", "1M", "2L", "2L", "2L", "2L", "2L", "2L", "2L"),
    3: ("1M, 1L", "1M, 1L", "1M, 1L", "3L", "3L", "3L", "3L", "3L", "3L"),
    4: ("1H", "2M", "2M", "1M, 2L", "1M, 2L", "1M, 2L", "1M, 2L", "1M, 2L", "4L"),
    5: ("1H, 1L", "2M, 1L", "2M, 1L", "1M, 3L", "1M, 3L", "1M, 3L", "1M, 3L", "1M, 3L", "1M, 3L"),
    6: ("1H, 1M", "1H, 2L", "3M", "3M", "2M, 2L", "2M, 2L", "1M, 4L", "1M, 4L", "1M, 4L"),
    7: (
        "1H, 1M, 1L",
        "1H, 1M, 1L",
        "1H, 3L",
        "3M, 1L",
        "3M, 1L",
        "2M, 3L",
        "2M, 3L",
        "2M, 3L",
        "1M, 5L",
    ),
    8: ("1H, 2M", "1H, 2M", "1H, 1M, 2L", "1H, 4L", "4M", "3M, 2L", "3M, 2L", "3M, 2L", "2M, 4L"),
    9: (
        "2H, 1L",
        "1H, 2M, 1L",
        "1H, 1M, 3L",
        "1H, 1M, 3L",
        "4M, 1L",
        "4M, 1L",
        "3M, 3L",
        "3M, 3L",
        "2M, 5L",
    ),
    10: (
        "2H, 2L",
        "1H, 3M",
        "1H, 2M, 2L",
        "5M",
        "1H, 1M, 4L",
        "1H, 1M, 4L",
        "4M, 2L",
        "4M, 2L",
        "3M, 4L",
    ),
    14: (
        "2H, 2M, 2L",
        "1H, 4M, 2L",
        "1H, 3M, 4L",
        "1H, 3M, 4L",
        "6M, 2L",
        "6M, 2L",
        "5M, 4L",
        "5M, 4L",
        "4M, 6L",
    ),
}

MIN_POINTS, MAX_POINTS = 1, 14

# The printed rows as a kit seed table: one row per printed AAA Points value, one column per
# d10 column heading (11-13 points are not printed: see `lookup`).
TABLE: SeedTable[tuple[str, ...]] = SeedTable(
    citation=CITATION,
    bands=tuple(Band(points, points, cells) for points, cells in ROWS.items()),
    name="AAA Generation Table",
    columns=COLUMNS,
)


class AaaPurchase(Struct, frozen=True, kw_only=True):
    """A table result: the cell(s) read and the concentrations bought, heaviest first."""

    points: int
    roll: int
    column: str
    cells: tuple[str, ...]
    densities: tuple[Density, ...]
    row: str


def parse_cell(cell: str) -> tuple[Density, ...]:
    """'1H, 1M, 2L' -> (H, M, L, L). Raises ValueError on anything else."""
    out: list[Density] = []
    for part in cell.split(","):
        part = part.strip()
        count, letter = int(part[:-1]), Density(part[-1])
        out.extend([letter] * count)
    order = {Density.HEAVY: 0, Density.MEDIUM: 1, Density.LIGHT: 2}
    return tuple(sorted(out, key=lambda d: order[d]))


def cost(densities: tuple[Density, ...]) -> int:
    """AAA points a set of concentrations costs (L=1, M=2, H=4; every printed cell obeys it)."""
    return sum(COST[d] for d in densities)


def column_of(roll: int) -> int:
    """The column index of a d10 roll: 1..8 are their own, 9 and 10 share '9-10'."""
    if not 1 <= roll <= 10:
        raise ValueError(f"AAA generation roll {roll} is not 1..10")
    return min(roll, 9) - 1


def lookup(points: int, roll: int) -> AaaPurchase:
    """2.1.2: the concentrations `points` AAA Points buy on a d10 `roll`."""
    if not MIN_POINTS <= points <= MAX_POINTS:
        raise RuleError(
            f"AAA Points must be {MIN_POINTS}..{MAX_POINTS}, not {points}", rule=CITATION
        )
    col = column_of(roll)
    if points in ROWS:
        read = TABLE.lookup(points, COLUMNS[col])
        cells: tuple[str, ...] = (read.value,)
        row = read.citation
    else:  # 11-13: row 10 plus row (points - 10), same column (README)
        cells = (ROWS[10][col], ROWS[points - 10][col])
        row = (
            f"{CITATION}, rows 10 + {points - 10} (interpretation for {points} points),"
            f" column {COLUMNS[col]}"
        )
    densities = parse_cell(", ".join(cells))
    return AaaPurchase(
        points=points, roll=roll, column=COLUMNS[col], cells=cells, densities=densities, row=row
    )
