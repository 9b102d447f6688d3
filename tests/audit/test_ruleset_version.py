"""A log made under an older version of a ruleset's rules says so when it is audited.

Downtown and Down in Flames went to v2 with the rules corrections of issues #19 and #21
(their READMEs' ledgers): a v1 log that reached a corrected decision no longer re-makes it,
and the audit must say why rather than look like a forgery.
"""

from __future__ import annotations

import msgspec

from umpire.engine.audit import audit
from umpire.engine.game import codec_for
from umpire.engine.registry import get
from umpire.events.envelope import GENESIS_HASH, seal
from umpire.events.types import GameCreated


def _created(version: str) -> list:
    ruleset = get("downtown")
    created = GameCreated(
        game_id="gv1", ruleset="downtown", ruleset_version=version, setup={},
        seed_commitment="0" * 64, client_seed="x",
    )  # fmt: skip
    tag, ver, payload = codec_for(ruleset).encode(created)
    return [
        seal(game_id="gv1", seq=1, type=tag, version=ver, payload=payload, command_id="c",
             recorded_at="2026-01-01T00:00:00Z", prev_hash=GENESIS_HASH)
    ]  # fmt: skip


def test_the_corrected_rulesets_are_version_2() -> None:
    assert get("downtown").version == "9"  # v9: the US side's reports said as read off the map
    assert get("down_in_flames").version == "9"  # v9: no counter-fire at a rocket attack (7.1.2)


def test_an_older_rules_version_is_named_in_the_report() -> None:
    report = audit(_created("1"))
    assert report.ok, report.failure
    assert any("made under downtown v1; audited under v9" in line for line in report.pending)


def test_the_current_version_adds_no_note() -> None:
    report = audit(_created(get("downtown").version))
    assert report.ok, report.failure
    assert not any("made under" in line for line in report.pending)
    assert msgspec.json.encode(report)  # the report stays plain data
