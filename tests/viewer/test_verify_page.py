"""The browser verifier (issue #30 item 6): /verify, a static page under the viewer's
policy, verifies an export with WebCrypto and says what verifier/verify_export.py says,
word for word, on real exports of every ruleset (their commands with nonces, and without)
and on every forgery kind of the suite (those of tests/audit from the same support modules),
with and without the player's receipts (issue #30 item 1). Each file goes in through the
page's file inputs, as a person would choose it. A saved copy of the page works from
file:// with the network off."""

from __future__ import annotations

import asyncio
import copy
import json
import shutil
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import wait_for
from tests.support.downtown_amendment import amended_game, export_files
from tests.support.receipt_breaks import BREAKS, Break, check_audit, check_verifier
from tests.support.receipts import (
    audit_verdict,
    conflicting,
    fabricated,
    forged_batches,
    marked,
    older_proofs,
    one_by_one,
    receipts_of,
    revealed_midway,
    unblinded,
)
from tests.support.verify_page import (
    bound_counter_files,
    dispute_files,
    ended_counter_files,
    every_ruleset_files,
    make_cli,
    malformed_files,
    nonce_files,
    page_receipts,
    page_verdict,
    python_verdict,
    revealed_counter_files,
    running_counter_files,
    same_verdict,
    takeback_files,
    two_epoch_files,
)
from umpire.clients import UmpireClient
from umpire.clients.receipts import ReceiptFiles
from umpire.server.app import Running
from umpire.server.embedded import EmbeddedRedis
from umpire.server.games import Games
from umpire.server.http import CONTENT_SECURITY_POLICY
from umpire.testing.support.forgery import Cli, read_lines, write_lines
from umpire.testing.support.forgery_kinds import rewritten_game
from umpire.testing.support.short_games import every_ruleset
from umpire.testing.support.verifier import verify_with

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
PAGE_FILES = ("verify.html", "verify.js", "receipt_check.js", "verify.css")
DISAGREED = Path(__file__).resolve().parents[2] / "test-artifacts" / "viewer" / "verify"


@pytest.fixture
def cli(
    monkeypatch: pytest.MonkeyPatch,
    redis_server: EmbeddedRedis,
    prefix: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> Cli:
    return make_cli(monkeypatch, redis_server, prefix, capsys, tmp_path)


@pytest.fixture
async def verifier(browser: Any, viewer_gateway: Running) -> AsyncIterator[Any]:
    """The page at /verify, every request it makes recorded in `page.requested`."""
    page = await browser.new_page()
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.requested = requested
    await page.goto(f"http://127.0.0.1:{viewer_gateway.port}/verify")
    await wait_for(page, "document.body.dataset.ready === '1'")
    try:
        yield page
    finally:
        await page.close()


# Forgeries verify_export.py passes on some games (docs/audit.md section 6, "What the
# audit can and cannot detect"): the last roll deleted, re-hashed (no later roll is
# renumbered: only `umpire audit`, re-running the rules, sees the batch short of it), and
# the player's own roll relabelled as hand-entered with its command (issue #30 break 2:
# only receipts show it). Both verifiers must still agree on them.
RULES_ONLY = {"deleted roll, chain re-hashed", "server roll and its command relabelled"}


async def _disagreements(page: Any, files: dict[str, Path]) -> list[str]:
    """Each file verified by both; the ones where they differ, with both verdicts. An
    honest export ("honest", "... counter") must pass verify_export.py, every forgery but
    RULES_ONLY ones fail it or be a prefix (a forgery that passes compares little)."""
    out = []
    for name, path in files.items():
        python = await asyncio.to_thread(python_verdict, path)
        browser = await page_verdict(page, path)
        if not same_verdict(python, browser):
            out.append(f"{name}: verify_export.py {python!r}, page {browser!r}")
            DISAGREED.mkdir(parents=True, exist_ok=True)  # kept to look at (gitignored)
            shutil.copy(path, DISAGREED / path.name)
        if name == "honest" or name.endswith(" counter"):  # an honest export
            assert python[0] == 0, (name, python)
        elif python[1].startswith("OK: "):
            assert name in RULES_ONLY, (name, python)
    return out


async def test_verify_is_a_static_page_under_the_viewers_policy(
    verifier: Any, viewer_gateway: Running
) -> None:
    url = f"http://127.0.0.1:{viewer_gateway.port}/verify"
    with await asyncio.to_thread(urllib.request.urlopen, url) as response:
        headers, body = response.headers, response.read().decode()
    assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert body == (WEB / "verify.html").read_text()
    # no third-party script, style or anything else: every reference is a file beside it
    for name in PAGE_FILES:
        text = (WEB / name).read_text()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name
        assert "import(" not in text and "eval(" not in text and "new Function" not in text
    origin = f"http://127.0.0.1:{viewer_gateway.port}/"
    assert verifier.requested and all(u.startswith(origin) for u in verifier.requested)
    assert await verifier.inner_text("#headline") == "no file chosen yet"


@pytest.mark.parametrize("ruleset", every_ruleset())
async def test_the_page_agrees_with_verify_export_on_every_ruleset_and_forgery(
    verifier: Any, cli: Cli, ruleset: str, artifacts: Path
) -> None:
    files = await asyncio.to_thread(every_ruleset_files, cli, ruleset)
    assert len(files) > 20
    assert await _disagreements(verifier, files) == []
    # the honest game, without receipts: "consistent, not anchored: N events, M rolls" in
    # amber, never "verified" (issue #42 item 6), and the verifier's own line
    await page_verdict(verifier, files["honest"])
    assert await verifier.get_attribute("#verdict", "data-state") == "consistent"
    events = len(files["honest"].read_text().splitlines()) - 1
    headline = await verifier.inner_text("#headline")
    assert headline.startswith(f"consistent, not anchored: {events} events, "), headline
    assert headline.endswith(" rolls")
    # a prefix is named as one, never "verified"
    await page_verdict(verifier, files["cut before the final reveal, called a prefix"])
    assert await verifier.get_attribute("#verdict", "data-state") == "prefix"
    assert await verifier.inner_text("#headline") == (
        f"consistent, not anchored: prefix of {events - 1} events, not a finished game"
    )
    # a forgery: the first failing seq, and what differs
    code, line = await page_verdict(verifier, files["changed server face, chain re-hashed"])
    assert code == 1 and await verifier.get_attribute("#verdict", "data-state") == "failed"
    seq = await verifier.get_attribute("#verdict", "data-seq")
    assert line.startswith(f"FAILED at seq {seq}: server roll ") and "its key gives" in line
    await verifier.screenshot(path=str(artifacts / f"verify-{ruleset}-failed.png"), full_page=True)


async def test_the_page_agrees_on_the_suites_counter_forgeries(verifier: Any, cli: Cli) -> None:
    """test_verifier.py's tampers (as edited and re-hashed), grammar and system-batch
    forgeries and relabelled rolls, test_takeback_audit.py's forged takebacks, and
    test_nonce_forgery.py's game (its commands' nonces) with its nonce changed or dropped."""
    files: dict[str, Path] = {}
    for make in (ended_counter_files, revealed_counter_files, bound_counter_files,
                 takeback_files, running_counter_files, nonce_files):  # fmt: skip
        files.update(await asyncio.to_thread(make, cli))
    assert await _disagreements(verifier, files) == []


async def test_the_page_agrees_on_disputes(verifier: Any, cli: Cli) -> None:
    """A disputed, found and upheld game verifies on both, sealed or not, and so does an
    amended one; a ruling by a spectator, an amend ruling without its amended line, a
    finding moved off its dispute, a dispute of a recorded command, a dispute after the
    seal, a re-applied roll with other faces (of a first or a second amended line), a
    dispute of a seq an amendment superseded, a GameAmended naming other superseded seqs
    or another count of re-applied commands, and a finding whose answer (same, the parting
    seq) the amended line shows false fail on both, with the same words (issue 40). A
    game sealed over a spectator's open dispute, beside the player's dispute of the same
    seq, verifies on both; relabelled the player's, or with the player's left open under
    the seal, it fails both."""
    files = await asyncio.to_thread(dispute_files, cli)
    assert await _disagreements(verifier, files) == []
    for name in (
        "disputed counter",
        "sealed counter",
        "amended counter",
        "amended, taken back counter",
        "amended twice counter",
        "amended behind counter",
        "spectator's open dispute sealed counter",
    ):
        assert (await page_verdict(verifier, files[name]))[0] == 0, name
    for name in ("ruling by a spectator", "amend ruling", "finding moved", "not a decision",
                 "after the seal", "amended roll", "amended range",
                 "amend without its marker", "second amended roll",
                 "dispute of a superseded seq", "amended finding answer",
                 "amended finding parting seq", "amended count",
                 "finding not well formed", "spectator's dispute as the player's",
                 "sealed over the player's dispute"):  # fmt: skip
        assert (await page_verdict(verifier, files[name]))[0] == 1, name


async def test_the_page_verifies_a_downtown_amendment_and_fails_its_forgeries(
    verifier: Any, cli: Cli, games: Games
) -> None:
    """Downtown's amendment under `doubles_reading` (tests/support/downtown_amendment.py):
    played out and exported, it passes the page as it passes `umpire audit` and
    verify_export.py (tests/disputes/test_downtown_amendment.py); the finding moved off its
    dispute, a re-applied roll with other faces and a GameAmended naming other superseded
    seqs fail the page, with verify_export.py's words (issue 40 acceptance)."""
    amended = await amended_game(games)
    files = await asyncio.to_thread(export_files, cli, amended)
    assert await _disagreements(verifier, files) == []
    for name, path in files.items():
        code, line = await page_verdict(verifier, path)
        assert code == (0 if name == "honest" else 1), (name, line)


async def test_the_page_reads_a_file_as_verify_export_does(verifier: Any, cli: Cli) -> None:
    """Empty, cut to its header, another format, not JSON, not UTF-8, a byte-order mark,
    CRLF, payload bytes that do not decode, a float for an integer, a header's count as
    text or missing, a missing key: the same verdict (exit 2 where Python cannot read it)."""
    files = await asyncio.to_thread(malformed_files, cli)
    bad = []
    for name, path in files.items():
        python = await asyncio.to_thread(python_verdict, path)
        browser = await page_verdict(verifier, path)
        if not same_verdict(python, browser):
            bad.append(f"{name}: verify_export.py {python!r}, page {browser!r}")
    assert bad == []


@pytest.mark.parametrize("ruleset", ["downtown", "counter"])
async def test_the_page_agrees_across_seed_epochs(verifier: Any, cli: Cli, ruleset: str) -> None:
    """A mid-game reveal (the ruleset's secrets in play still sealed) and a game that goes
    on in epoch 1 to its end."""
    files = await asyncio.to_thread(two_epoch_files, cli, ruleset)
    assert await _disagreements(verifier, files) == []
    await page_verdict(verifier, files[f"{ruleset} two epochs counter"])
    assert await verifier.get_attribute("#verdict", "data-state") == "consistent"
    assert "2 revealed seeds match their commitments" in await verifier.inner_text("#line")


async def test_the_kept_commitment_catches_a_rewritten_log(verifier: Any, cli: Cli) -> None:
    path, kept, own = await asyncio.to_thread(rewritten_game, cli)
    for commitment in (kept, own, "", "xyz"):
        python = await asyncio.to_thread(python_verdict, path, commitment)
        browser = await page_verdict(verifier, path, commitment)
        if commitment == "xyz":  # refused before the file is read, by both
            assert python[0] == browser[0] == 2 and "64 lowercase hex digits" in browser[1]
            continue
        assert python == browser, commitment
    code, line = await page_verdict(verifier, path, kept)
    assert code == 1 and line.startswith("FAILED at seq 1: ") and "rewritten" in line
    # The same file dropped on the page, then verified again against the log's own
    # commitment with the button.
    runs = int(await verifier.evaluate("Number(document.body.dataset.runs)"))
    dropped = await verifier.evaluate_handle(
        "(text) => { const dt = new DataTransfer();"
        " dt.items.add(new File([text], 'dropped.jsonl')); return dt; }",
        path.read_text(),
    )
    await verifier.dispatch_event("#drop", "drop", {"dataTransfer": dropped})
    await wait_for(verifier, f"Number(document.body.dataset.runs) > {runs}")
    assert (await verifier.inner_text("#line")).startswith("FAILED at seq 1: ")
    assert await verifier.inner_text("#file-name") == "file: dropped.jsonl"
    await verifier.fill("#commitment", own)
    await verifier.click("#verify-form button[type=submit]")
    await wait_for(verifier, f"Number(document.body.dataset.runs) > {runs + 1}")
    assert await verifier.get_attribute("#verdict", "data-state") == "prefix"
    assert "the seed commitment is the one given" in await verifier.inner_text("#line")


def _breaks(cli: Cli, ruleset: str) -> tuple[Path, Path, dict[str, tuple[Path, Break]]]:
    """`revealed_midway` of `ruleset` exported, its receipts, and each break of it as a
    file with what the verifiers must say of it."""
    game = revealed_midway(cli, ruleset)
    receipts = receipts_of(cli, game)
    honest = cli.export(game)
    header, records = read_lines(honest)
    forged: dict[str, tuple[Path, Break]] = {}
    for n, (name, make) in enumerate(BREAKS.items()):
        h, r = copy.deepcopy(header), copy.deepcopy(records)
        expected = make(h, r, receipts)
        forged[name] = (write_lines(cli.tmp / f"{ruleset}-break-{n}.jsonl", h, r), expected)
    return honest, receipts, forged


def _receipt_cases(cli: Cli) -> tuple[Path, Path, dict[str, str]]:
    """An export of `revealed_midway`, its receipts, and receipts files that are damaged,
    empty, not receipts, or of another game (and one with CRLF line ends, which stands)."""
    game = revealed_midway(cli, "counter")
    receipts = receipts_of(cli, game)
    path = cli.export(game)
    other = receipts_of(cli, revealed_midway(cli, "counter"))
    lines = receipts.read_text().splitlines()
    damaged = [lines[0], json.dumps({"kind": "receipt", "reply": "accepted", "head_seq": 0})]
    receipt = next(line for line in lines if '"receipt"' in line)
    floated = dict(json.loads(receipt), head_seq=1.0)
    cases = {
        "damaged": "\n".join(damaged) + "\n",
        "empty": "",
        "an export": path.read_text(),
        "a float head_seq": "\n".join([lines[0], json.dumps(floated)]) + "\n",
        "not JSON": lines[0] + "\nnot json\n",
        "CRLF and blank lines": "\r\n\r\n".join(lines) + "\r\n",
        "another game's": other.read_text(),
    }
    return path, receipts, cases


@pytest.mark.parametrize("ruleset", every_ruleset())
async def test_every_verifier_fails_each_break_given_the_players_receipts(
    verifier: Any, cli: Cli, ruleset: str
) -> None:
    """Issue #30's acceptance, for all three verifiers over a game of every ruleset with a
    mid-game reveal: each forgery kind of breaks 1 to 4 (tests/support/receipt_breaks.py)
    fails `umpire audit --file`, verify_export.py and the page at its seq given the
    player's receipts (`umpire receipts GAME`); without them, each says what it could not
    check ("not anchored"), a cut log is a prefix, a downgrade fails on its own. The page
    says verify_export.py's line word for word, in one browser session."""
    honest, receipts, forged = await asyncio.to_thread(_breaks, cli, ruleset)
    events = len(read_lines(honest)[1])
    verdicts: dict[tuple[str, bool], tuple[int, str]] = {}
    for given in (receipts, None):  # all with the receipts, then all without
        for name, path in [("honest", honest), *((k, v[0]) for k, v in forged.items())]:
            python = await asyncio.to_thread(python_verdict, path, "", given)
            browser = await page_verdict(verifier, path, "", given)
            assert same_verdict(python, browser), (name, python, browser)
            verdicts[name, given is not None] = browser
    code, line = verdicts["honest", True]
    assert code == 0 and line.startswith("OK: "), line
    assert f"agree, up to seq {events}" in line and "anchored by nothing" not in line
    assert "not anchored: no receipts given" in verdicts["honest", False][1]
    for name, (path, expected) in forged.items():
        check_verifier(expected, verdicts[name, False], verdicts[name, True])
        audited = [await asyncio.to_thread(audit_verdict, cli, path, given)
                   for given in (None, receipts)]  # fmt: skip
        check_audit(expected, audited[0], audited[1])


async def test_the_page_takes_receipts_as_verify_export_does(verifier: Any, cli: Cli) -> None:
    """A receipts file that is damaged, empty, not a receipts file, or of another game: the
    same verdict (exit 2, the same words); a receipts file dropped on the page is read,
    and forgotten with the button."""
    path, receipts, cases = await asyncio.to_thread(_receipt_cases, cli)
    for n, (name, text) in enumerate(cases.items()):
        given = cli.tmp / f"receipts-{n}.jsonl"
        given.write_text(text)
        python = await asyncio.to_thread(python_verdict, path, "", given)
        browser = await page_verdict(verifier, path, "", given)
        assert same_verdict(python, browser), (name, python, browser)
        if name == "CRLF and blank lines":
            assert python[0] == 0 and "anchored: " in python[1], python
        else:
            assert python[0] == 2 and python[1].startswith("FAILED at seq 0: the receipts"), python
    assert await verifier.get_attribute("#verdict", "data-state") == "receipts"
    # Dropped on the page: read, and the export verified again against them.
    await page_receipts(verifier, None)
    loads = int(await verifier.evaluate("Number(document.body.dataset.receiptsLoads)"))
    dropped = await verifier.evaluate_handle(
        "(text) => { const dt = new DataTransfer();"
        " dt.items.add(new File([text], 'mine.receipts.jsonl')); return dt; }",
        receipts.read_text(),
    )
    await verifier.dispatch_event("#receipts-drop", "drop", {"dataTransfer": dropped})
    await wait_for(verifier, f"Number(document.body.dataset.receiptsLoads) > {loads}")
    assert await verifier.inner_text("#receipts-name") == "receipts: mine.receipts.jsonl"
    assert (await verifier.inner_text("#line")) == (
        await asyncio.to_thread(python_verdict, path, "", receipts)
    )[1]
    await page_receipts(verifier, None)
    assert "not anchored: no receipts given" in await verifier.inner_text("#line")


def _signed_cases(cli: Cli) -> tuple[Path, Path, dict[str, Path], dict[str, Path]]:
    """An export of `revealed_midway`, its receipts; receipts files with a fabricated line
    and with a conflicting signed one; a proof of that conflict and doctored copies."""
    game = revealed_midway(cli, "counter")
    receipts = receipts_of(cli, game)
    path = cli.export(game)
    both = conflicting(cli, game, receipts)
    # A version 2 file (receipts signed one by one) anchors as before; a batch receipt with
    # a forged proof, index or size, or its root signed by another key, is not signed.
    given = {"fabricated": fabricated(receipts), "conflicting": both,
             "one by one": one_by_one(cli, receipts),
             "unblinded": unblinded(cli, game, receipts),
             "marked by the client": marked(receipts)}  # fmt: skip
    given |= {f"batch: {name}": path
              for name, path in forged_batches(cli, game, receipts).items()}  # fmt: skip
    proof = cli.tmp / "proof.json"
    assert cli("proof", "--receipts", str(both), "-o", str(proof)).code == 0
    record = json.loads(proof.read_text())
    first, second = record["receipts"]
    proofs = {"proof": proof}
    # Proofs of the older formats (receipts signed before blinds, before batches): proofs.
    for name, older in older_proofs(cli, record).items():
        proofs[name] = cli.tmp / f"proof-{len(proofs)}.json"
        proofs[name].write_text(json.dumps(older))
    for name, doctored in {
        "a head hash changed": record | {"receipts": [first, second | {"head_hash": "00" * 32}]},
        "another key": record | {"public_key": "11" * 32},
        "one receipt twice": record | {"receipts": [first, first]},
        "a proof element changed": record
        | {"receipts": [first, second | {"proof": ["00" * 32, *second["proof"][1:]]}]},
        "another leaf index": record | {"receipts": [first, second | {"leaf_index": 0}]},
        "another tree size": record | {"receipts": [first, second | {"tree_size": 4}]},
        "batch receipts as version 1": record | {"format": "umpire-equivocation/1"},
        "blinded receipts as version 2": record | {"format": "umpire-equivocation/2"},
        "a blind changed": record
        | {"receipts": [first, second | {"blind": second["blind"][::-1]}]},
    }.items():
        proofs[name] = cli.tmp / f"proof-{len(proofs)}.json"
        proofs[name].write_text(json.dumps(doctored))
    return path, receipts, given, proofs


async def test_the_page_checks_signatures_and_proofs_as_verify_export_does(
    verifier: Any, cli: Cli
) -> None:
    """Issue #42 items 1 and 6 in the page: with its receipts the honest export is
    "verified" (green); without, "consistent, not anchored" (amber); a fabricated line is
    reported as not signed and the export still verifies; a conflicting signed line is
    "equivocation proven"; a proof dropped on the page is checked on its own, and a
    doctored one is not a proof. Every line is verify_export.py's, word for word."""
    path, receipts, given, proofs = await asyncio.to_thread(_signed_cases, cli)
    code, _ = await page_verdict(verifier, path, "", receipts)
    assert code == 0 and await verifier.get_attribute("#verdict", "data-state") == "ok"
    assert (await verifier.inner_text("#headline")).startswith("verified: ")
    code, _ = await page_verdict(verifier, path, "", None)
    assert code == 0 and await verifier.get_attribute("#verdict", "data-state") == "consistent"
    assert (await verifier.inner_text("#headline")).startswith("consistent, not anchored: ")
    for name, receipts_file in given.items():
        python = await asyncio.to_thread(python_verdict, path, "", receipts_file)
        browser = await page_verdict(verifier, path, "", receipts_file)
        assert python == browser, (name, python, browser)
        if name in ("one by one", "unblinded"):
            assert browser[0] == 0 and "not signed" not in browser[1], browser
            assert (await verifier.inner_text("#headline")).startswith("verified: ")
        elif name in ("fabricated", "marked by the client") or (
            name.startswith("batch: ") and name != "batch: signed"
        ):
            assert browser[0] == 0 and "not signed by the game's key" in browser[1], name
            assert (await verifier.inner_text("#headline")).startswith("verified: ")
        else:
            assert browser[0] == 1 and "equivocation proven" in browser[1], browser
    await page_receipts(verifier, None)
    for name, proof in proofs.items():
        python = await asyncio.to_thread(verify_with, path, "--proof", str(proof))
        browser = await page_verdict(verifier, proof)
        assert (python[0], python[1].strip()) == browser, (name, python, browser)
        state = await verifier.get_attribute("#verdict", "data-state")
        if name.startswith("proof"):
            assert browser[0] == 0 and browser[1].startswith("equivocation proven: ")
            assert state == "proven"
        else:
            assert browser[0] == 1 and browser[1].startswith("NOT A PROOF: "), (name, browser)
            assert state == "not-proof"


async def test_a_saved_copy_verifies_from_file_with_the_network_off(
    browser: Any, cli: Cli, tmp_path: Path
) -> None:
    saved = tmp_path / "saved"
    saved.mkdir()
    for name in PAGE_FILES:
        shutil.copy(WEB / name, saved / name)
    files = await asyncio.to_thread(every_ruleset_files, cli, "counter")
    context = await browser.new_context(offline=True)
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    page = await context.new_page()
    try:
        await page.goto((saved / "verify.html").as_uri())
        await wait_for(page, "document.body.dataset.ready === '1'")
        assert await page.evaluate("window.isSecureContext && !!crypto.subtle")
        chosen = {name: files[name] for name in list(files)[:8]}
        assert await _disagreements(page, chosen) == []
        await page_verdict(page, files["honest"])
        assert await page.get_attribute("#verdict", "data-state") == "consistent"
    finally:
        await context.close()
    assert requested and all(url.startswith("file://") for url in requested), requested


async def test_the_page_counts_signed_state_receipts_as_verify_export_does(
    verifier: Any, cli: Cli, viewer_gateway: Running
) -> None:
    """docs/audit.md 8.4: the receipts of `state` frames (a `view` reply, a pushed state)
    are signed; a Python client's receipts of a game played through the gateway anchor the
    export in the page and in verify_export.py alike, every state line counted and none
    reported unsigned; a state line with its state hash changed is not signed by the
    game's key in both, word for word."""
    files = ReceiptFiles(cli.tmp / "kept")
    async with UmpireClient(f"ws://127.0.0.1:{viewer_gateway.port}/ws", receipts=files) as client:
        created = await client.create("counter", {"target": 1000})
        gid = created.game_id
        await client.send(gid, {"type": "Add", "amount": 2})
        await client.view(gid)
        await client.view(gid)
    kept = files.path(gid)
    header, *lines = kept.read_text().splitlines()
    states = [n for n, line in enumerate(lines) if json.loads(line).get("reply") == "state"]
    receipts = [line for line in lines if json.loads(line)["kind"] == "receipt"]
    assert len(states) == 2
    path = await asyncio.to_thread(cli.export, gid, "--operator")
    python = await asyncio.to_thread(python_verdict, path, "", kept)
    browser = await page_verdict(verifier, path, "", kept)
    assert python == browser, (python, browser)
    assert f"anchored: {len(receipts)} signed receipts" in browser[1], browser
    assert "not signed" not in browser[1], browser
    changed = json.loads(lines[states[-1]]) | {"state_hash": "0" * 64}
    doctored = cli.tmp / "doctored-state.jsonl"
    doctored.write_text("\n".join([header, *lines[:-1], json.dumps(changed)]) + "\n")
    assert states[-1] == len(lines) - 1
    python = await asyncio.to_thread(python_verdict, path, "", doctored)
    browser = await page_verdict(verifier, path, "", doctored)
    assert python == browser, (python, browser)
    said = f"1 receipt is not signed by the game's key (lines {len(lines) + 1})"
    assert browser[0] == 0 and said in browser[1], browser
