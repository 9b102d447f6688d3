"""The registry finds rulesets through the `umpire.rulesets` entry points: sorted by name,
loaded on first use, and a broken or doubly named plug-in is a clear error."""

from __future__ import annotations

from importlib import metadata
from importlib.metadata import EntryPoint

import pytest

from umpire.engine import registry
from umpire.engine.errors import BrokenRuleset


def _points(monkeypatch: pytest.MonkeyPatch, *pairs: tuple[str, str]) -> None:
    points = [EntryPoint(name, value, registry.GROUP) for name, value in pairs]
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    monkeypatch.setattr(registry, "_loaded", {})


def test_the_example_package_is_found_by_its_entry_point() -> None:
    """Nothing in umpire names the counter: its own package declares it (fails without the
    entry point in examples/umpire-counter/pyproject.toml)."""
    point = registry.installed()["counter"]
    assert point.value == "umpire_counter:RULESET"
    assert point.dist is not None and point.dist.name == "umpire-counter"
    assert "counter" not in registry.shipped()
    assert registry.shipped() == [
        "age_of_dogfights", "conflict_of_heroes", "down_in_flames", "downtown", "nightfighter"
    ]  # fmt: skip


def test_rulesets_are_listed_sorted_whatever_the_install_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _points(
        monkeypatch,
        ("zulu", "umpire_counter:RULESET"),
        ("counter", "umpire_counter:RULESET"),
        ("counter", "umpire_counter:RULESET"),  # one install seen twice on the path
    )
    assert registry.available() == ["counter", "zulu"]
    assert registry.get("counter").name == "counter"


def test_two_rulesets_of_one_name_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _points(monkeypatch, ("counter", "umpire_counter:RULESET"), ("counter", "other:RULESET"))
    with pytest.raises(BrokenRuleset) as info:
        registry.available()
    assert "two installed rulesets are named 'counter'" in info.value.message
    assert "other:RULESET" in info.value.message and "uninstall one" in info.value.message


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("no_such_module_anywhere:RULESET", "could not be loaded"),
        ("umpire_counter:Setup", "not a Ruleset"),
        ("umpire.engine.rulesets.downtown:RULESET", "calls itself 'downtown'"),
    ],
)
def test_a_broken_plugin_names_itself(
    monkeypatch: pytest.MonkeyPatch, value: str, says: str
) -> None:
    _points(monkeypatch, ("broken", value))
    with pytest.raises(BrokenRuleset) as info:
        registry.get("broken")
    assert says in info.value.message and value in info.value.message
    assert info.value.code == "broken_ruleset"


def test_the_installed_metadata_is_read_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection's welcome lists the rulesets; a metadata scan costs milliseconds,
    so it is made once (fails if `entry_points` scans on every call)."""
    scans: list[str] = []
    real = metadata.entry_points

    def counting(**kwargs: str) -> object:
        scans.append(kwargs["group"])
        return real(**kwargs)

    registry.entry_points.cache_clear()
    monkeypatch.setattr(metadata, "entry_points", counting)
    try:
        for _ in range(3):
            assert "counter" in registry.available()
        assert scans == [registry.GROUP]
    finally:
        registry.entry_points.cache_clear()
