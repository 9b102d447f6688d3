"""Contract: every installed ruleset's declared readings (engine/kit/reading.py) are real
switches. Each names a setup field whose default is the declared default and which takes
every declared alternative; its rule cites the ruleset's rules document; its README section
exists; and every alternative changes a decision in a reachable state: a driven game is
played under the ruleset's test set-up (or the set-up fields and commands of the reading's
declared probe), then re-made under the alternative from its first
command on with the dice it recorded (engine/disputes.py `remake`, as a dispute's finding
re-makes it), and the two lines must part somewhere.
"""

from __future__ import annotations

import msgspec
import pytest

from umpire.engine import registry
from umpire.engine.game import parse_setup
from umpire.engine.kit.reading import Reading, probe_of, value_text, with_value
from umpire.testing.support.citations import unresolved
from umpire.testing.support.drivers import driven_setup, rulesets
from umpire.testing.support.readings import parting, played

READINGS = [(name, r) for name in rulesets() for r in registry.get(name).readings]
# Driven games tried per alternative before the check gives up. A reading that parts only on
# one exact roll (Downtown 3.2.1: an unmodified roll equal to the BSAN) can take a dozen.
SEEDS = range(16)


def _id(case: tuple[str, Reading]) -> str:
    return f"{case[0]}-{case[1].name}"


@pytest.mark.parametrize("case", READINGS, ids=[_id(c) for c in READINGS])
def test_a_reading_is_a_setup_switch_with_its_declared_default(case: tuple[str, Reading]) -> None:
    name, reading = case
    ruleset = registry.get(name)
    fields = {f.name: f for f in msgspec.structs.fields(ruleset.setup_type)}
    assert reading.name in fields, f"{name}: no setup field {reading.name!r}"
    default = msgspec.to_builtins(fields[reading.name].default)
    assert default == reading.default, f"{name}.{reading.name}: setup default {default!r}"
    setup = driven_setup(name)
    for value in reading.alternatives:
        parsed = parse_setup(ruleset, with_value(setup, reading, value))
        assert msgspec.to_builtins(getattr(parsed, reading.name)) == value
    assert unresolved(name, reading.rule) is None, unresolved(name, reading.rule)
    section = reading.readme.split(": ", 1)[-1]
    assert section in _readme(name), f"{name}: README has no {section!r}"


def _readme(name: str) -> str:
    ruleset = registry.get(name)
    package = __import__(ruleset.data_package, fromlist=["__file__"])
    path = package.__file__.rsplit("/", 1)[0] + "/README.md"
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_every_shipped_ruleset_declares_a_reading() -> None:
    names = {name for name, _ in READINGS}
    for name in ("age_of_dogfights", "conflict_of_heroes", "down_in_flames", "downtown",
                 "nightfighter"):  # fmt: skip
        assert name in names, f"{name} declares no reading"


@pytest.mark.parametrize("case", READINGS, ids=[_id(c) for c in READINGS])
def test_every_alternative_changes_a_decision_in_a_reachable_state(
    case: tuple[str, Reading],
) -> None:
    name, reading = case
    setup, script = probe_of(reading, driven_setup(name))
    for value in reading.alternatives:
        found = None
        for seed in SEEDS:
            log = played(name, setup, seed=seed, script=script)
            found = parting(name, log, reading, value_text(value))
            if found is not None:
                break
        assert found is not None, (
            f"{name}: {reading.name}={value_text(value)} changed no decision in {len(SEEDS)} "
            "driven games"
        )
