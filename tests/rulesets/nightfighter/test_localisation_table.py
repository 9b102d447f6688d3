"""S5.2/S5.3 localisation diagrams: the reconstructed cells against the seed's sentences."""

from __future__ import annotations

import re

import pytest

from tests.rulesets.nightfighter.setups import low_hex, make_setup, moderate_hex
from umpire.engine.hexgrid import Hex
from umpire.engine.rulesets.nightfighter.tables.localisation import (
    LOW,
    MODERATE,
    low_cell,
    moderate_cell,
    offset_for_heading,
)
from umpire.testing.support.seeds import seed_text

SEED = "004_c3eb2ad371d7bb6a.txt"


def test_diagrams_have_the_stated_sizes_and_cover_the_radius() -> None:
    """S5.2: six hexes (the counter's and five adjacent); S5.3: eighteen within two hexes."""
    assert len(LOW.cells) == 6 and len({c.offset for c in LOW.cells}) == 6
    assert len(MODERATE.cells) == 18 and len({c.offset for c in MODERATE.cells}) == 18

    def dist(o: tuple[int, int]) -> int:
        q, r = o
        return max(abs(q), abs(r), abs(q + r))

    assert (0, 0) in {c.offset for c in LOW.cells} | {c.offset for c in MODERATE.cells}
    assert all(dist(c.offset) <= 1 for c in LOW.cells)
    assert all(dist(c.offset) <= 2 for c in MODERATE.cells)
    assert dist(LOW.omitted) == 1 and dist(MODERATE.omitted) == 2
    assert LOW.omitted not in {c.offset for c in LOW.cells}


def test_every_cell_label_the_seed_names_exists_and_cites_evidence() -> None:
    """Every 'b/p-p' label in the seed is a moderate cell; every cell carries evidence."""
    text = seed_text(SEED)
    named = set(re.findall(r"\b([1-6]/[1-6]-[1-6])\b", text))
    labels = {c.label for c in MODERATE.cells}
    assert named and named <= labels
    assert all(len(c.evidence) > 20 for c in (*LOW.cells, *MODERATE.cells))


def test_dice_map_to_cells_in_reading_order() -> None:
    """S5.3: blue die before the slash, purple after; S5.2: one die."""
    assert moderate_cell(2, 5).label == "2/5-6"
    assert moderate_cell(3, 2).label == "3/1-2"
    assert moderate_cell(6, 6).label == "6/5-6"
    assert [low_cell(n).label for n in range(1, 7)] == ["1", "2", "3", "4", "5", "6"]
    with pytest.raises(ValueError):
        moderate_cell(0, 1)


@pytest.mark.parametrize(
    ("centre", "label", "expected", "sentence"),
    [
        ("1009", "2/5-6", "0910", "the purple die roll of 5 point to hex 0910"),
        ("1006", "2/3-4", "0906", "purple die roll of 3 point to hex\n\n0906"),
        ("1015", "4/5-6", "1114", "localisation rolls of 4 and 5 point to hex 1114"),
        ("0912", "2/3-4", "0811", "localisation roll of 2 and 4 points to hex 0811"),
        ("1021", "6/1-2", "1220", "localisation roll of 6 and 2 points to hex 1220"),
        ("1515", "2/3-4", "1414", "localisation rolls of 2 and 4 which would place it in hex 1414"),
        ("1115", "3/3-4", "1114", "If you rolled 3 and 4, you would have to roll again"),
        ("1115", "6/3-4", "1315", "moved to this hex (1315)"),
        ("1115", "5/1-2", "1214", "no fix is obtained since the hex (1214)"),
    ],
)  # fmt: skip
def test_moderate_cells_fixed_by_the_example_of_play(
    centre: str, label: str, expected: str, sentence: str
) -> None:
    """Each map example: counter hex, dice and the hex the seed says they point to."""
    assert moderate_hex(make_setup(), centre, label) == expected
    assert sentence in seed_text(SEED)  # provenance, last: it skips without the document


@pytest.mark.parametrize(
    ("centre", "label", "expected", "sentence"),
    [
        ("0917", "2", "0817", "localisation roll of 2 (hex 0817)"),
        ("0917", "4", "0918", "failed to find the Lancaster in hex 0918"),
        ("0917", "1", "0816", "second roll of 1, the bomber is moved to hex 0816"),
        ("1223", "6", "1324", "localisation roll of 6 points to hex 1324"),
        ("1521", "2", "1421", "shifted to hex 1421 on a roll of 2"),
        ("0914", "4", "0915", "roll the 4 now needed to fix the second Lancaster in hex 0915"),
        ("1421", "3", "1421", "roll of 3 the other Lancaster is coned in its existing hex"),
    ],
)  # fmt: skip
def test_low_cells_fixed_by_the_example_of_play(
    centre: str, label: str, expected: str, sentence: str
) -> None:
    assert low_hex(make_setup(), centre, label) == expected
    assert sentence in seed_text(SEED)  # provenance, last: it skips without the document


def test_s53_shift_example_area_round_2_34() -> None:
    """S5.3: 'On a die roll of 1, the counter would shift to the hex marked 2/3-4 ... its
    uncertainty area would now cover only 1/1-2, 1/3-4, 2/3-4, 2/5-6, 3/3-4 and 3/5-6.'"""
    setup = make_setup()
    centre = "1010"
    new = low_hex(setup, centre, "1")
    assert new == moderate_hex(setup, centre, "2/3-4")
    low_area = {low_hex(setup, new, c.label) for c in LOW.cells}
    stated = {"1/1-2", "1/3-4", "2/3-4", "2/5-6", "3/3-4", "3/5-6"}
    assert low_area == {moderate_hex(setup, centre, label) for label in stated}


def test_heading_turns_the_diagram() -> None:
    """A bomber flying north sees the diagram turned half a turn."""
    assert offset_for_heading((0, 1), 3) == (0, 1)
    assert offset_for_heading((0, 1), 0) == (0, -1)
    assert offset_for_heading((-1, 0), 0) == (1, 0)
    assert Hex.parse("1010")  # sanity of the label helper


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(
    col=st.integers(3, 16),
    row=st.integers(3, 25),
    heading=st.integers(0, 5),
    level=st.sampled_from(["low", "moderate"]),
)
def test_area_is_the_diagram_turned_with_the_heading(
    col: int, row: int, heading: int, level: str
) -> None:
    """S5.2/S5.3: for any counter hex and heading the area has 6 or 18 distinct hexes, all
    within one or two hexes, the counter's own hex included, the omitted hex behind it."""
    from tests.rulesets.nightfighter.setups import counter
    from umpire.engine.rulesets.nightfighter.geometry import area_cells, distance, off_grid

    setup = make_setup()
    label = f"{col:02d}{row:02d}"
    c = msgspec_replace(counter("B-1", label, level), heading=heading)
    cells = area_cells(setup, c)
    hexes = [h for _, h in cells]
    radius = 1 if level == "low" else 2
    assert len(set(hexes)) == len(hexes) == (6 if level == "low" else 18)
    assert label in hexes
    assert all(distance(setup, label, h) <= radius for h in hexes)
    behind = off_grid(setup).neighbour(Hex.parse(label), (heading + 3) % 6)
    if level == "low":
        assert behind.label not in hexes
    else:
        two_behind = off_grid(setup).neighbour(behind, (heading + 3) % 6)
        assert behind.label in hexes and two_behind.label not in hexes


def msgspec_replace(obj, **changes):  # type: ignore[no-untyped-def]
    import msgspec

    return msgspec.structs.replace(obj, **changes)
