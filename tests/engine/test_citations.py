"""Citations read as the rulebook (engine/citations.py): the seed's title and the heading
of the rule, on display only; the checked-in headings are the seeds' own."""

from __future__ import annotations

import json

import pytest

from tests.support import rule_titles as extractor
from umpire.engine import registry
from umpire.engine.citations import readable, rule_titles


@pytest.mark.parametrize("name", registry.shipped())
def test_the_checked_in_headings_are_the_seeds(name: str) -> None:
    expected = extractor.expected()[name]
    assert rule_titles(registry.get(name)) == expected, (
        "rule_titles.json is stale: run UMPIRE_SEEDS_DIR=… python -m tests.support.rule_titles"
    )


def test_the_viewers_copy_is_current() -> None:
    shipped = json.loads(extractor.VIEWER_DATA.read_text())
    assert shipped == extractor.viewer_data(), (
        "clients/web/citations.json is stale: run python -m tests.support.rule_titles"
    )


@pytest.mark.parametrize(
    ("citation", "shown"),
    [
        ("000_842c81c5c58bc2f6.txt 3.2.1", "Downtown solo rules 3.2.1 (SAM Activation Check)"),
        # A citation that names its table already is not told it twice.
        ("000_842c81c5c58bc2f6.txt 2.1.2 AAA Generation Table, row 6",
         "Downtown solo rules 2.1.2 AAA Generation Table, row 6"),
        ("004_c3eb2ad371d7bb6a.txt S5.3",
         "Nightfighter solitaire rules S5.3 (Moderate Uncertainty)"),
        ("004_c3eb2ad371d7bb6a.txt S14.0", "Nightfighter solitaire rules S14.0 (Searchlights)"),
        # The nearest heading above an unheaded rule.
        ("002_c21c1b1d0b6ff92b.txt 7.1.3",
         "Down in Flames supplemental rules 7.1.3 (Optional: Air to Air Rockets)"),
        ("003_368c69a730e6e14a.txt 5.3.1",
         "Conflict of Heroes Solo Expansion rules summary 5.3.1 (AI Low Risk Move)"),
        ("001_989a2f850da69b66.txt Long Burst", "Age of Dogfights solo rules Long Burst"),
        ("a; 000_842c81c5c58bc2f6.txt 5.3; b",
         "a; Downtown solo rules 5.3 (DRV Air Activation Table); b"),
        ("test-counter R2", "test-counter R2"),
    ],
)  # fmt: skip
def test_citations_read_as_the_rulebook(citation: str, shown: str) -> None:
    assert readable(citation) == shown


def test_the_terminal_shows_the_rulebook_and_the_log_keeps_the_file(
    monkeypatch: pytest.MonkeyPatch, redis_server, prefix: str, capsys
) -> None:
    from umpire.server.cli import main

    monkeypatch.setenv("REDIS_URL", redis_server.url)
    monkeypatch.setenv("UMPIRE_PREFIX", prefix)
    main(["new", "downtown", "--json"])
    game = json.loads(capsys.readouterr().out)["game_id"]
    main(["send", game, '{"type": "DeployGroundUnits"}'])
    sent = " ".join(capsys.readouterr().out.split())
    assert "Downtown solo rules 2.1.4 (DRV Ground Unit Deployment Phase)" in sent
    assert "000_842c81c5c58bc2f6.txt" not in sent
    main(["log", game, "--json"])
    logged = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rules = [str(r["payload"].get("rule", "")) for r in logged if r["payload"]]
    assert any(rule.startswith("000_842c81c5c58bc2f6.txt") for rule in rules)
