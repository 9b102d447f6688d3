"""DRV Air Activation Table (5.3): scenarios D1-D16 with Flights, Dummy #, profiles and the
2x/3x/4x visual identification ranges, with the £, † and * notes.

Two corrections to the printed text are recorded in the README and marked here:
- D10-D13 are misaligned in the text; they are reconstructed from the table's invariants
  (`RECONSTRUCTED`).
- D7 and D8 print 3x "11-25" and 4x "25-50" for the MiG17F row; 25 cannot be in both, so 4x
  reads 26-50 (`CORRECTED`).
"""

from __future__ import annotations

import re

from msgspec import Struct

from umpire.engine.errors import RuleError
from umpire.engine.rulesets.downtown.terms import cite

CITATION = cite("5.3 DRV Air Activation Table")
NO_MORE_FLIGHTS = "†"  # no more flights can be activated in this scenario
ONE_MORE_VID = "£"  # only one more flight may be visually identified
SINGLE_MIG21MF = "*"  # the flight generated is always one MiG-21MF


class Range(Struct, frozen=True, kw_only=True):
    """A percentile range lo..hi (01..100) with its printed note ('', '£' or '†')."""

    lo: int
    hi: int
    note: str = ""

    def holds(self, roll: int) -> bool:
        """Whether a d100 reading falls in the range."""
        return self.lo <= roll <= self.hi


class ProfileRow(Struct, frozen=True, kw_only=True):
    """One aircraft type row: its profile range and 2x/3x/4x ranges (None: printed '–')."""

    aircraft: str
    profile: Range
    x2: Range | None
    x3: Range | None
    x4: Range | None
    star: bool = False


class Scenario(Struct, frozen=True, kw_only=True):
    """One scenario's rows."""

    scenario: str
    flights: int
    dummy: Range
    rows: tuple[ProfileRow, ...]
    source: str = "printed"


def _r(text: str) -> Range | None:
    if text in ("–", "-"):
        return None
    m = re.fullmatch(r"(\d+)-(\d+)([£†]?)", text)
    if m is None:
        raise ValueError(f"bad range {text!r}")
    return Range(lo=int(m[1]), hi=int(m[2]), note=m[3])


def _row(line: str) -> ProfileRow:
    profile, x2, x3, x4, aircraft = line.split()
    prof = _r(profile)
    assert prof is not None
    if x2 == SINGLE_MIG21MF:
        return ProfileRow(aircraft=aircraft, profile=prof, x2=None, x3=None, x4=None, star=True)
    return ProfileRow(aircraft=aircraft, profile=prof, x2=_r(x2), x3=_r(x3), x4=_r(x4))


def _s(name: str, flights: int, dummy: str, *rows: str, source: str = "printed") -> Scenario:
    d = _r(dummy)
    assert d is not None
    return Scenario(
        scenario=name, flights=flights, dummy=d, rows=tuple(_row(r) for r in rows), source=source
    )


SCENARIOS: tuple[Scenario, ...] = (
    _s("D1", 4, "01-54", "55-100 01-20 21-50 51-100 MiG17F"),
    _s("D2", 4, "01-69£", "70-100 01-20 – 21-100† MiG17F"),
    _s("D3", 4, "01-41", "42-81 01-14 15-34 35-68 MiG17F", "82-100 69-84 85-94 95-100 MiG21F-13"),
    _s(
        "D4",
        6,
        "01-57",
        "58-74 01-08 09-20 21-40 MiG17F",
        "75-80 41-60 61-72 73-80 MiG21PF",
        "81-100 81-90 91-96 97-100 MiG21F-13",
    ),
    _s(
        "D5",
        6,
        "01-59",
        "60-76 01-08 09-20 21-40 MiG17F",
        "77-92 41-60 61-72 73-80 MiG21PF",
        "93-100 81-90 91-96 97-100 MiG21F-13",
    ),
    _s("D6", 4, "01-48", "49-78 01-38£ – 39-48† MiG17F", "79-100 49-100† – – MiG21PF"),
    _s(
        "D7",
        6,
        "01-34",
        "35-67 01-10 11-25 26-50 MiG17F",
        "68-100 51-75 76-90 91-100 MiG21PF",
        source="corrected: 4x 25-50 printed, read 26-50",
    ),
    _s(
        "D8",
        6,
        "01-58",
        "59-79 01-10 11-25 26-50 MiG17F",
        "80-100 51-75 76-90 91-100 MiG21PF",
        source="corrected: 4x 25-50 printed, read 26-50",
    ),
    _s(
        "D9",
        6,
        "01-58",
        "59-75 01-08 09-20 21-40 MiG17F",
        "76-83 41-50 51-56 57-60 MiG21F-13",
        "84-100 61-80 81-92 93-100 MiG21PF",
    ),
    _s(
        "D10",
        6,
        "01-57",
        "58-69 01-06 07-14 15-29 MiG17F",
        "70-75 30-32 33-36 37-43 MiG19S",
        "76-88 44-60 61-66 67-71 MiG21PFM",
        "89-100 72-86 87-94 95-100 MiG21MF",
        source="reconstructed: 4th profile row printed on the D11 line",
    ),
    _s(
        "D11",
        2,
        "01-53",
        "54-72 01-08£ – 09-40† MiG17F",
        "73-81 41-44† 45-60† – MiG19S",
        "82-100 61-100† – – MiG21PFM",
        source="reconstructed: Flights 2 and Dummy 01-53 printed on the D12 line",
    ),
    _s(
        "D12",
        8,
        "01-63",
        "64-73 01-06 07-14 15-29 MiG17F",
        "74-79 30-32 33-36 37-43 MiG19S",
        "80-89 44-60 61-66 67-71 MiG21PFM",
        "90-100 72-86 87-94 95-100 MiG21MF",
        source="reconstructed: Flights 8 and Dummy 01-63 printed on the D13 line",
    ),
    _s(
        "D13",
        4,
        "01-35",
        "36-100 * * * MiG21MF",
        source="reconstructed: the unlabelled '36-100 * MiG21MF' line; Flights 4 and Dummy 01-35"
        " as D14 and D16, which print the same profile row",
    ),
    _s("D14", 4, "01-35", "36-100 * * * MiG21MF"),
    _s("D15", 4, "01-72", "73-100 01-50 51-80 81-100 MiG21MF"),
    _s("D16", 4, "01-35", "36-100 * * * MiG21MF"),
)

BY_ID: dict[str, Scenario] = {s.scenario: s for s in SCENARIOS}


def scenario(scenario_id: str) -> Scenario:
    """The table rows of a scenario id, or RuleError naming 5.3."""
    found = BY_ID.get(scenario_id)
    if found is None:
        raise RuleError(
            f"scenario {scenario_id!r} is not in the DRV Air Activation Table "
            f"(D1-D16: {', '.join(BY_ID)})",
            rule=CITATION,
        )
    return found


def is_dummy(scn: Scenario, roll: int) -> bool:
    """Whether a percentile roll falls in the scenario's Dummy # range."""
    return scn.dummy.holds(roll)


def profile_for(scn: Scenario, roll: int) -> ProfileRow | None:
    """The profile row a percentile roll gives (None when the roll is in the Dummy range)."""
    for row in scn.rows:
        if row.profile.holds(roll):
            return row
    return None


class VisualId(Struct, frozen=True, kw_only=True):
    """5.6.2 result: aircraft count and type, and the note in the rolled range."""

    count: int
    aircraft: str
    note: str
    row: str


def visual_id(scn: Scenario, roll: int, profile: str = "") -> VisualId:
    """5.6.2: count and type of a percentile roll; a profile flight off its row gets 2 of its
    own type; '*' scenarios always give one MiG-21MF."""
    if all(r.star for r in scn.rows):
        return VisualId(
            count=1, aircraft="MiG21MF", note=SINGLE_MIG21MF, row=f"{CITATION} {scn.scenario} *"
        )
    for row in scn.rows:
        for count, rng in ((2, row.x2), (3, row.x3), (4, row.x4)):
            if rng is not None and rng.holds(roll):
                if profile and row.aircraft != profile:
                    return VisualId(
                        count=2,
                        aircraft=profile,
                        note=rng.note,
                        row=f"{CITATION} {scn.scenario} profile {profile}",
                    )
                return VisualId(
                    count=count,
                    aircraft=row.aircraft,
                    note=rng.note,
                    row=f"{CITATION} {scn.scenario} {row.aircraft} {count}x",
                )
    raise ValueError(f"{scn.scenario}: roll {roll} in no visual ID range")
