"""Every ruleset's README keeps a ledger of readings (issue 21): a table "seed location | what
the text says | readings | our choice | why | switch", and a line naming the setup fields that
are scenario data, not readings.

How a switch is recognised: every top-level field of the ruleset's setup type is either named
(in backticks) in the ledger's "switch" column -- an interpretation switch, or a base-game
value the seed does not state -- or listed on the "Setup fields that are scenario data, not
readings:" line. A field named `*_reading`, or typed by an enum named `*Reading`, is a switch by
convention and must be in the switch column. The set of fields comes from the setup type, so
a new field fails here until the README says which it is; a switch column naming a field the
setup does not have fails too. Rulesets are every package under engine/rulesets (no list).
"""

from __future__ import annotations

import enum
import pkgutil
import re
import typing
from importlib import import_module
from pathlib import Path

import msgspec
import pytest

from umpire.engine import rulesets
from umpire.engine.ruleset import Ruleset

HEADER = "| seed location | what the text says | readings | our choice | why | switch |"
SCENARIO_LINE = "Setup fields that are scenario data, not readings:"
PACKAGES = sorted(m.name for m in pkgutil.iter_modules(rulesets.__path__) if m.ispkg)


def _ruleset(name: str) -> Ruleset[typing.Any]:
    ruleset = import_module(f"umpire.engine.rulesets.{name}").RULESET
    assert isinstance(ruleset, Ruleset)
    return ruleset


def _readme(name: str) -> str:
    return (Path(rulesets.__path__[0]) / name / "README.md").read_text(encoding="utf-8")


def ledger_rows(readme: str) -> list[list[str]]:
    """The cells of every row of the ledger table (the header's table)."""
    lines = readme.splitlines()
    start = lines.index(HEADER)
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        rows.append(cells)
    return rows


def switch_names(readme: str) -> set[str]:
    """The setup fields named in the ledger's switch column."""
    return {n for row in ledger_rows(readme) for n in re.findall(r"`([a-z_0-9]+)`", row[-1])}


def scenario_names(readme: str) -> set[str]:
    """The setup fields declared scenario data (the line may wrap onto following lines)."""
    start = readme.index(SCENARIO_LINE)
    end = readme.find("\n\n", start)
    return set(re.findall(r"`([a-z_0-9]+)`", readme[start : end if end >= 0 else None]))


def _is_switch_by_convention(field: msgspec.structs.FieldInfo) -> bool:
    kind = field.type
    if typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    named = isinstance(kind, type) and issubclass(kind, enum.Enum)
    return field.name.endswith("_reading") or (named and kind.__name__.endswith("Reading"))


def test_every_ruleset_package_is_checked() -> None:
    assert {"downtown", "down_in_flames", "nightfighter", "conflict_of_heroes",
            "age_of_dogfights"} <= set(PACKAGES)  # fmt: skip


@pytest.mark.parametrize("name", PACKAGES)
def test_the_ledger_has_its_columns_and_rows(name: str) -> None:
    readme = _readme(name)
    assert HEADER in readme, f"{name}: README.md has no ledger table"
    rows = ledger_rows(readme)
    assert rows, f"{name}: the ledger is empty"
    for row in rows:
        assert len(row) == 6 and all(row), f"{name}: a ledger row needs six cells: {row}"


@pytest.mark.parametrize("name", PACKAGES)
def test_every_setup_field_is_a_ledger_switch_or_scenario_data(name: str) -> None:
    """Fails when a setup field (a new switch above all) is in neither place."""
    readme = _readme(name)
    fields = msgspec.structs.fields(_ruleset(name).setup_type)
    names = {f.name for f in fields}
    switches, scenario = switch_names(readme), scenario_names(readme)
    unclassified = sorted(names - switches - scenario)
    assert not unclassified, (
        f"{name}: setup fields {unclassified} are neither named in the README ledger's switch "
        f"column nor listed as scenario data"
    )
    assert not (switches & scenario), f"{name}: {sorted(switches & scenario)} listed twice"
    assert not (switches - names), f"{name}: the ledger names unknown fields {switches - names}"
    assert not (scenario - names), f"{name}: scenario data names unknown fields {scenario - names}"
    conventional = {f.name for f in fields if _is_switch_by_convention(f)}
    assert conventional <= switches, (
        f"{name}: reading switches {sorted(conventional - switches)} have no ledger row"
    )


def test_a_new_switch_without_a_row_fails() -> None:
    """The check itself: a setup type with one more `*_reading` field than the ledger names."""
    readme = _readme("downtown")
    setup = _ruleset("downtown").setup_type
    extra = msgspec.defstruct(
        "Setup", [("extra_reading", str, "a")], bases=(setup,), kw_only=True, frozen=True
    )
    names = {f.name for f in msgspec.structs.fields(extra)}
    missing = names - switch_names(readme) - scenario_names(readme)
    assert missing == {"extra_reading"}
    field = next(f for f in msgspec.structs.fields(extra) if f.name == "extra_reading")
    assert _is_switch_by_convention(field)


def test_downtown_switches_have_rows() -> None:
    """The switches this branch added (issue 21, issue 19 item 8) are named by their rows."""
    switches = switch_names(_readme("downtown"))
    assert {"acq_phase_reading", "distance_tiers_reading", "doubles_reading",
            "sam_missiles", "sam_salvo"} <= switches  # fmt: skip
    assert "gyro_reading" in switch_names(_readme("down_in_flames"))
