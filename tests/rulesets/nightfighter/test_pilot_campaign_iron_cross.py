"""Pilot Campaign (004_c3eb2ad371d7bb6a.txt): the lite campaign's end-of-May draw is a
minor victory with the Iron Cross 1st Class, and an award once made stays made (README
ledger, "Pilot Campaign, the Iron Cross"; ruleset v5).

The v4 logs in data/ were recorded by the v4 code (commit "two pilot campaign logs
recorded under v4") and are read from their exports, as a player would bring them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec import Struct

from tests.rulesets.nightfighter.setups import make_setup, named, run
from umpire.engine.audit import audit
from umpire.engine.game import codec_for, fold, state_hash
from umpire.engine.roles import Role
from umpire.engine.rulesets.nightfighter import RULESET
from umpire.engine.rulesets.nightfighter.campaign import WEEKS
from umpire.engine.rulesets.nightfighter.evolve import initial_state
from umpire.engine.rulesets.nightfighter.state import State
from umpire.engine.rulesets.nightfighter.view import view
from umpire.events.envelope import Envelope
from umpire.events.export import line_to_envelope

DATA = Path(__file__).resolve().parent / "data"
# Audited under whatever version is current (v6 since the S14.0 zone reading).
V4_NOTE = f"made under nightfighter v4; audited under v{RULESET.version}"


def _weeks(kind: str, award_weeks: tuple[int, ...], points: int = 0) -> tuple[State, list[Struct]]:
    """A pilot campaign played to the end of May 1943 with only EndCampaignWeek: the Iron
    Cross reported in `award_weeks`, `points` scored in week 1. Returns the end state and
    every CampaignWeekEnded."""
    state = initial_state(make_setup(campaign=kind))
    ended: list[Struct] = []
    for week in range(1, WEEKS + 1):
        state, events = run(
            state, "EndCampaignWeek", [],
            iron_cross_first_class=week in award_weeks, points=points if week == 1 else 0,
        )  # fmt: skip
        ended.append(named(events, "CampaignWeekEnded"))
    return state, ended


def _campaign_view(state: State) -> dict[str, Any]:
    data: dict[str, Any] = view(state, Role.PLAYER)["campaign"]
    return data


def test_iron_cross_awarded_in_an_early_week_and_not_the_last_is_a_minor_victory() -> None:
    """An award reported in week 12 only still counts at the end of May 1943."""
    state, ended = _weeks("lite", (12,))
    assert state.campaign is not None
    assert state.campaign.result == "draw (minor victory)"
    week_12 = ended[11]
    assert "Iron Cross 1st Class awarded" in week_12.explanation  # type: ignore[attr-defined]
    assert week_12.iron_cross_first_class is True  # type: ignore[attr-defined]
    assert "Iron Cross 1st Class held" in ended[-1].explanation  # type: ignore[attr-defined]
    assert _campaign_view(state)["iron_cross_first_class"] is True


def test_iron_cross_is_kept_by_the_state_from_the_week_it_is_reported() -> None:
    state = initial_state(make_setup(campaign="lite"))
    state, _ = run(state, "EndCampaignWeek", [])
    assert _campaign_view(state)["iron_cross_first_class"] is False
    state, _ = run(state, "EndCampaignWeek", [], iron_cross_first_class=True)
    state, events = run(state, "EndCampaignWeek", [])
    # The later week reports nothing and records nothing; the campaign keeps the award.
    assert "iron_cross_first_class" not in msgspec.to_builtins(named(events, "CampaignWeekEnded"))
    assert _campaign_view(state)["iron_cross_first_class"] is True
    state, events = run(state, "EndCampaignWeek", [], iron_cross_first_class=True)
    assert "Iron Cross 1st Class already held" in named(events, "CampaignWeekEnded").explanation


def test_iron_cross_never_awarded_is_a_minor_defeat() -> None:
    state, ended = _weeks("lite", ())
    assert state.campaign is not None
    assert state.campaign.result == "draw (minor defeat)"
    assert _campaign_view(state)["iron_cross_first_class"] is False
    # A week that reports no award encodes as under v4: the field is left out.
    assert all("iron_cross_first_class" not in msgspec.to_builtins(e) for e in ended)


def test_iron_cross_in_the_last_week_alone_is_a_minor_victory() -> None:
    state, ended = _weeks("lite", (WEEKS,))
    assert state.campaign is not None and state.campaign.result == "draw (minor victory)"
    assert "Iron Cross 1st Class awarded" in ended[-1].explanation  # type: ignore[attr-defined]


@pytest.mark.parametrize(("points", "result"), [(8, "draw (minor victory)"),
                                                (7, "draw (minor defeat)")])  # fmt: skip
def test_seasoned_draw_goes_by_kills_whatever_the_iron_cross(points: int, result: str) -> None:
    """The seasoned variant's draw is a minor victory with 16+ kills (8 at the start): the
    kept award is recorded but does not decide it."""
    state, _ = _weeks("seasoned", (12,), points=points)
    assert state.campaign is not None and state.campaign.result == result
    assert _campaign_view(state)["iron_cross_first_class"] is True


def _v4_log(name: str) -> list[Envelope]:
    """A v4 export read back: each payload's readable JSON must re-encode to its bytes."""
    codec = codec_for(RULESET)
    lines = (DATA / name).read_text().splitlines()
    return [line_to_envelope(json.loads(line), codec) for line in lines]


# The fold of each v4 log under v4 (the code before v5): a log replays to what it recorded.
V4_NO_AWARD = "e4e9b2d6aafbc2b9aa64ca0e1bd839c8ad8040f52f76aff1fb915d2f2caea3f1"
V4_AWARD_WEEK_12 = "98203c2cc8f83e2fbd8d23daf585a6e3655f3b3dba75e67f9ca64e45a4e480e9"


def test_a_v4_log_without_the_award_audits_with_the_version_note() -> None:
    """Its export imports (every payload re-encodes to its v4 bytes), it folds to its v4
    state hash, and every decision is re-made as logged."""
    envelopes = _v4_log("pilot_campaign_v4_no_award.jsonl")
    game = fold(envelopes, None, RULESET)
    assert game is not None and state_hash(game) == V4_NO_AWARD
    report = audit(envelopes)
    assert report.ok, report.failure
    assert any(V4_NOTE in line for line in report.pending)


def test_a_v4_log_with_the_award_names_its_week_as_the_corrected_decision() -> None:
    """Under v5 the week that reported the award records it, so the re-decided week differs
    from the v4 log there; the audit names that week and says the log is v4."""
    envelopes = _v4_log("pilot_campaign_v4_award_week_12.jsonl")
    game = fold(envelopes, None, RULESET)
    assert game is not None and state_hash(game) == V4_AWARD_WEEK_12
    assert game.state.campaign.result == "draw (minor defeat)"  # the verdict it logged
    report = audit(envelopes)
    assert not report.ok and report.failure is not None
    assert report.failure.check == "decision"
    assert "week 12 ends" in report.failure.expected
    assert "Iron Cross 1st Class awarded" in report.failure.expected
    assert any(V4_NOTE in line for line in report.pending)
