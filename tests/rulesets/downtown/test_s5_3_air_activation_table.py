"""5.3 DRV Air Activation Table: D1-D16 against the seed, the D10-D13 reconstruction, and
the invariants (Dummy then profiles tile 01-100; 2x/3x/4x ranges tile 01-100)."""

from __future__ import annotations

import itertools

import pytest

from tests.rulesets.downtown.setups import SEED
from umpire.engine.errors import RuleError
from umpire.engine.rulesets.downtown.tables import air_activation as table
from umpire.testing.support.seeds import seed_text


def _text() -> str:
    text = seed_text(SEED)
    return text[text.index("DRV Air Activation Table") : text.index("SAM Tables")]


def _r(rng: table.Range | None) -> str:
    return "–" if rng is None else f"{rng.lo:02d}-{rng.hi:02d}{rng.note}"


def _line(row: table.ProfileRow) -> str:
    if row.star:
        return f"{_r(row.profile)}\t*\t*\t*\t{row.aircraft}"
    return "\t".join([_r(row.profile), _r(row.x2), _r(row.x3), _r(row.x4), row.aircraft])


def test_all_sixteen_scenarios() -> None:
    assert [s.scenario for s in table.SCENARIOS] == [f"D{i}" for i in range(1, 17)]


@pytest.mark.parametrize("scn", table.SCENARIOS, ids=lambda s: s.scenario)
def test_profile_rows_are_printed_lines(scn: table.Scenario) -> None:
    """Every profile row is a line of the printed table (D7/D8 read with 4x 26-50 for the
    printed 25-50, README)."""
    text = _text()
    for row in scn.rows:
        line = _line(row)
        if scn.scenario in ("D7", "D8") and row.aircraft == "MiG17F":
            line = line.replace("26-50", "25-50")
        assert line in text, (scn.scenario, line)


@pytest.mark.parametrize("scn", table.SCENARIOS, ids=lambda s: s.scenario)
def test_flights_and_dummy_are_printed(scn: table.Scenario) -> None:
    """Printed scenarios carry their own label's Flights and Dummy #; D11 and D12 take the
    values printed one line down, D13 those of D14 and D16 (README)."""
    text = _text()
    cell = f"{scn.flights}\t{_r(scn.dummy)}"
    if scn.source.startswith("reconstructed") and scn.scenario != "D10":
        borrowed = {"D11": "D12", "D12": "D13", "D13": "D14"}[scn.scenario]
        assert f"{borrowed}\t{cell}" in text
    else:
        assert f"{scn.scenario}\t{cell}" in text


def test_reconstruction_of_d10_to_d13() -> None:
    """The misaligned rows, as reconstructed (README 'DRV Air Activation Table D10-D13')."""
    d10, d11, d12, d13 = (table.BY_ID[f"D{i}"] for i in range(10, 14))
    assert (d10.flights, d10.dummy.hi, len(d10.rows), d10.rows[-1].aircraft) == (
        6,
        57,
        4,
        "MiG21MF",
    )
    assert (d11.flights, d11.dummy.hi, [r.profile.lo for r in d11.rows]) == (2, 53, [54, 73, 82])
    assert (d12.flights, d12.dummy.hi, [r.profile.lo for r in d12.rows]) == (
        8,
        63,
        [64, 74, 80, 90],
    )
    assert (d13.flights, d13.dummy.hi, d13.rows[0].star) == (4, 35, True)


@pytest.mark.parametrize("scn", table.SCENARIOS, ids=lambda s: s.scenario)
def test_dummy_and_profile_ranges_tile_1_to_100(scn: table.Scenario) -> None:
    """Invariant: profiles start right after the Dummy range and together tile 01-100."""
    ranges = [scn.dummy, *(r.profile for r in scn.rows)]
    assert ranges[0].lo == 1 and ranges[-1].hi == 100
    for a, b in itertools.pairwise(ranges):
        assert b.lo == a.hi + 1, (scn.scenario, a, b)


@pytest.mark.parametrize("scn", table.SCENARIOS, ids=lambda s: s.scenario)
def test_visual_id_ranges_tile_1_to_100(scn: table.Scenario) -> None:
    """Invariant: the 2x/3x/4x ranges of a scenario tile 01-100 ('*' scenarios: one MiG-21MF
    on every roll)."""
    if all(r.star for r in scn.rows):
        assert all(table.visual_id(scn, roll).count == 1 for roll in (1, 50, 100))
        return
    ranges = sorted((rng.lo, rng.hi) for r in scn.rows for rng in (r.x2, r.x3, r.x4) if rng)
    covered = [n for lo, hi in ranges for n in range(lo, hi + 1)]
    assert covered == list(range(1, 101)), scn.scenario


def test_lookups_and_notes() -> None:
    """Dummy #, profile column, 2x/3x/4x with £ and †, a profile flight off its row."""
    d6 = table.BY_ID["D6"]
    assert table.is_dummy(d6, 48) and not table.is_dummy(d6, 49)
    assert table.profile_for(d6, 79) is not None and table.profile_for(d6, 79).aircraft == "MiG21PF"  # type: ignore[union-attr]
    assert table.visual_id(d6, 20).note == "£" and table.visual_id(d6, 20).count == 2
    assert table.visual_id(d6, 45).note == "†" and table.visual_id(d6, 45).count == 4
    off_row = table.visual_id(table.BY_ID["D4"], 5, profile="MiG21PF")
    assert (off_row.count, off_row.aircraft) == (2, "MiG21PF")
    on_row = table.visual_id(table.BY_ID["D4"], 65, profile="MiG21PF")
    assert (on_row.count, on_row.aircraft) == (3, "MiG21PF")


def test_unknown_scenario_is_a_rule_error() -> None:
    with pytest.raises(RuleError, match="not in the DRV Air Activation Table") as info:
        table.scenario("D17")
    assert "5.3" in info.value.rule
