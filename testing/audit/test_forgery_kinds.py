"""Issue #30 items 2 (part) and 3: forgeries that every verifier passed, over an export of
every ruleset (an ended game: `short_game`).

- a hidden roll published with a plain SHA-256 digest (`committed: false`), which a
  player could test guesses against before the reveal;
- an event re-sealed as envelope version 1 after version-2 events;
- a log cut short (or ended without its final reveal): a prefix, never "OK"; with the
  header still calling it complete, a failure.

Both `umpire audit --file` and `verifier/verify_export.py` must say so.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from umpire.events.plurals import counted
from umpire.testing.support.forgery import Cli, read_lines, reseal, write_lines
from umpire.testing.support.forgery_kinds import (
    NotApplicable,
    bind_in_waived_game,
    cut,
    half,
    readable_roll_number,
    secret_with_plain_digest,
    uncommitted_hidden_roll,
    version_1_after_version_2,
)
from umpire.testing.support.short_games import every_ruleset, short_game
from umpire.testing.support.verifier import after_headline

VERIFIER = Path(__file__).resolve().parents[2] / "verifier" / "verify_export.py"
Records = list[dict[str, Any]]


def _verify(path: Path) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(path)], capture_output=True, text=True,
        timeout=120, cwd=path.parent,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def _both(cli: Cli, header: dict[str, Any], records: Records, name: str) -> tuple[str, str]:
    """The verifier's and `umpire audit --file`'s output on the forged file."""
    path = write_lines(cli.tmp / f"{name}.jsonl", header, records)
    code, verified = _verify(path)
    # The log alone, as the verifier is run: not the receipts this machine kept.
    audited = cli("audit", "--file", str(path), "--no-receipts")
    return f"{code} {after_headline(verified)}", (
        f"{audited.code} {after_headline(audited.out)}{audited.err}"
    )


def _export(cli: Cli, ruleset: str) -> tuple[dict[str, Any], Records]:
    header, records = read_lines(cli.export(short_game(cli, ruleset)))
    assert header["complete"] is True
    return header, records


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_an_uncommitted_hidden_roll_fails_every_verifier(cli: Cli, ruleset: str) -> None:
    header, records = _export(cli, ruleset)
    index = uncommitted_hidden_roll(header, records)  # guesses could be tested
    reseal(header, records, index)
    assert records[index]["committed"] is False
    verified, audited = _both(cli, header, records, "uncommitted")
    seq = index + 1
    assert verified.startswith("1 ") and f"FAILED at seq {seq}: a hidden roll" in verified
    assert audited.startswith("1 ") and f"at seq {seq} (uncommitted_secret)" in audited


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_a_version_1_envelope_after_version_2_fails_every_verifier(cli: Cli, ruleset: str) -> None:
    header, records = _export(cli, ruleset)
    index = version_1_after_version_2(header, records)
    reseal(header, records, index)
    verified, audited = _both(cli, header, records, "downgrade")
    seq = index + 1
    assert verified.startswith("1 ") and f"FAILED at seq {seq}: envelope version 1" in verified
    assert audited.startswith("1 ") and f"at seq {seq} (hash_chain)" in audited
    assert "never goes back" in " ".join(audited.split())


@pytest.mark.parametrize("ruleset", every_ruleset())
@pytest.mark.parametrize("where", ["final reveal", "half"])
def test_a_cut_log_is_a_prefix_never_ok(cli: Cli, ruleset: str, where: str) -> None:
    header, records = _export(cli, ruleset)
    if where == "final reveal":
        assert records[-1]["type"] == "SeedRevealed"
        keep = len(records) - 1  # ended without its final reveal
    else:  # at a batch boundary before the middle
        keep = half(records)
    cut(header, records, keep)
    # The header still says complete: the cut is found.
    verified, audited = _both(cli, header, records, "cut-complete")
    assert verified.startswith("1 ") and f"FAILED at seq {keep}: the header says" in verified
    assert audited.startswith("1 ") and "the header says the game is complete" in " ".join(
        audited.split()
    )
    # A forger who also sets complete to false gets a prefix, never "OK".
    header["complete"] = False
    verified, audited = _both(cli, header, records, "cut-prefix")
    note = f"prefix of {counted(keep, 'event')}, not a finished game"
    assert verified.startswith(f"0 PREFIX: {note}"), verified
    assert audited.startswith("0 PREFIX: ") and note in " ".join(audited.split()), audited


@pytest.mark.parametrize("ruleset", ["counter", "downtown"])
def test_a_whole_game_is_ok_and_complete(cli: Cli, ruleset: str) -> None:
    header, records = _export(cli, ruleset)
    verified, audited = _both(cli, header, records, "whole")
    assert verified.startswith("0 OK: "), verified
    assert audited.startswith("0 OK: "), audited


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_the_header_states_every_event_types_secrecy_class(cli: Cli, ruleset: str) -> None:
    header, records = _export(cli, ruleset)
    classes = header["secrecy"]
    assert classes["DiceRolled"] == "hidden_roll"
    assert {r["type"] for r in records} <= set(classes)
    assert set(classes.values()) <= {"public", "hidden_roll", "secret", "secret_when",
                                     "ruleset_code"}  # fmt: skip
    for record in records:  # what the server committed is what the classes say
        kind = classes[record["type"]]
        if kind == "secret" or (kind == "hidden_roll" and record["payload"]["hidden"]):
            assert record["committed"], record
        if kind == "public":
            assert not record["committed"], record


@pytest.mark.parametrize("ruleset", every_ruleset())
def test_a_secret_event_published_with_a_plain_digest_fails_every_verifier(
    cli: Cli, ruleset: str
) -> None:
    header, records = _export(cli, ruleset)
    try:
        index = secret_with_plain_digest(header, records)
    except NotApplicable:
        pytest.skip(f"{ruleset}'s short game holds no always-secret event")
    reseal(header, records, index)
    verified, audited = _both(cli, header, records, "plain-secret")
    seq = index + 1
    assert verified.startswith("1 ") and f"FAILED at seq {seq}: a secret event" in verified
    assert audited.startswith("1 ") and f"at seq {seq} (uncommitted_secret)" in audited


def test_a_header_with_other_secrecy_classes_fails_the_audit(cli: Cli) -> None:
    header, records = _export(cli, "counter")
    relaxed = {tag: "public" for tag in header["secrecy"]}
    header["secrecy"] = relaxed
    _, audited = _both(cli, header, records, "relaxed")
    assert audited.startswith("1 ") and "secrecy classes" in audited


def test_a_client_seed_bound_in_a_waived_game_fails_every_verifier(cli: Cli) -> None:
    """docs/audit.md section 7: a game that waived client entropy takes no client seed in
    any epoch (every epoch's client seed is ""), so a ClientSeedBound in it is forged."""
    header, records = _export(cli, "counter")
    assert records[0]["payload"]["client_entropy"] == "waived"
    reseal(header, records, bind_in_waived_game(header, records))
    verified, audited = _both(cli, header, records, "waived-bind")
    assert verified.startswith("1 ") and "FAILED at seq 2: a client seed bound" in verified
    assert audited.startswith("1 ") and "at seq 2 (client_seed)" in audited


@pytest.mark.parametrize("case", ["1.0 for 1", "true for 1"])
def test_the_readable_payload_is_compared_by_type_as_well_as_value(cli: Cli, case: str) -> None:
    """docs/audit.md section 1, "compared as data": the readable copy of the integer 1 is
    1, not 1.0 nor true (Python's == takes both for 1). The hashed bytes are left as they
    are: only the readable copy lies."""
    header, records = _export(cli, "counter")
    index = readable_roll_number(records, 1.0 if case == "1.0 for 1" else True)
    path = cli.tmp / "typed.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [header, *records]) + "\n")
    code, out = _verify(path)
    assert code == 1 and f"FAILED at seq {index + 1}: the readable payload differs" in out, out
