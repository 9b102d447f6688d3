"""`umpire readings RULESET` says where each reading is argued: the ruleset's own README,
not "README.md", which a newcomer opens at the top of the project and finds nothing in."""

from __future__ import annotations

from umpire.testing.support.forgery import Cli


def test_each_reading_names_the_rulesets_readme(cli: Cli) -> None:
    # Fails without the fix: "argued in README.md, Ledger of readings: 3.3.1".
    listed = cli("readings", "downtown")
    assert listed.code == 0, listed.err
    argued = [line.strip() for line in listed.out.splitlines() if "argued in" in line]
    assert argued, listed.out
    assert all(line.startswith("argued in the downtown ruleset's README.md") for line in argued)
