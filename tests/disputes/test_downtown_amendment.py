"""Downtown's amendment end to end (issue 40 acceptance), on a reading whose disputed
decision rests on public values only: 4 (last paragraph) `doubles_reading`
(tests/support/downtown_amendment.py tells the story). The finding names the double's seq
at once; the amended game plays on to the raid's natural end; its export passes
`umpire audit` and verifier/verify_export.py (the /verify page: tests/viewer/
test_verify_page.py), and a forged finding or amended line fails both."""

from __future__ import annotations

import asyncio

from tests.support.downtown_amendment import (
    CLAIMED,
    READING,
    amended_game,
    ended_by_its_rules,
    export_files,
)
from umpire.engine import registry
from umpire.engine.audit import audit
from umpire.engine.disputes import codec_decoded
from umpire.events.types import CommandRecorded, DisputeRuled
from umpire.server.games import Games
from umpire.testing.support.forgery import Cli
from umpire.testing.support.verifier import verify


async def test_a_double_disputed_under_a_and_b_is_amended_played_out_and_verified(
    games: Games, cli: Cli
) -> None:
    amended = await amended_game(games)
    finding = amended.finding
    assert finding.parts_at == amended.disputed and not finding.same
    assert '"random_event":true' in finding.as_played
    assert '"random_event":false' in finding.under_reading
    envelopes = await games.store.read(amended.game_id)
    decoded = codec_decoded(registry.get("downtown"), envelopes)
    ruling = decoded[amended.ruled - 1]
    assert isinstance(ruling, DisputeRuled) and ruling.ruling == "amend"
    marker = amended.marker
    assert (marker.reading, marker.value) == (READING, CLAIMED)
    assert marker.parts_from == amended.disputed - 2  # the RollDrvAttack's CommandRecorded
    assert isinstance(decoded[marker.parts_from - 1], CommandRecorded)
    assert ended_by_its_rules(decoded)
    assert audit(envelopes).ok

    files = await asyncio.to_thread(export_files, cli, amended)
    # Each forgery fails both where it was made, for what was forged (the page says what
    # verify_export.py says: tests/viewer/test_verify_page.py).
    finding, marker_seq = amended.dispute + 1, amended.ruled + 1
    why = {
        "downtown finding moved": (f"seq {finding}", "no open dispute", "which is no dispute"),
        # A re-applied roll changed: the amended line no longer parts where the finding says
        # (the roll's seq, before the decision); `umpire audit` re-makes the roll.
        "downtown amended roll": (f"seq {marker_seq}", "re-applied by the amendment",
                                  f"parts from the superseded line at seq {amended.disputed - 1}"),
        "downtown amended range": (f"seq {marker_seq}", "is not the one the log before the "
                                   "ruling", "superseded_to"),
        # The finding's answer altered: `umpire audit` re-makes the finding; the independent
        # verifiers see the amended line part elsewhere than the finding says.
        "downtown finding same": (f"seq {marker_seq}", "is not the one the log makes",
                                  f"parts from the superseded line at seq {amended.disputed}"),
        "downtown finding parting seq": (f"seq {marker_seq}", "is not the one the log makes",
                                         "parts from the superseded line at seq "
                                         f"{amended.disputed}"),
    }  # fmt: skip
    for name, path in files.items():
        audited = await asyncio.to_thread(cli, "audit", "--file", str(path))
        code, out = await asyncio.to_thread(verify, path)
        if name == "honest":
            assert audited.code == 0, audited.out + audited.err
            assert code == 0, out
            assert "1 dispute, 1 finding" in out and "1 amendment" in out
            continue
        at, audit_words, verify_words = why[name]
        assert audited.code != 0 and audit_words in audited.out, (name, audited.out)
        assert code != 0 and verify_words in out and f"FAILED at {at}" in out, (name, out)
