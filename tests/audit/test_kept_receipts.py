"""`umpire audit` checks the receipts this machine kept, without being told (docs/audit.md
8.1): a game played through the command line, its log forged in the store (a roll
relabelled as the player's, the chain re-sealed: the log holds together), fails
`umpire audit GAME` with no flag, which says which receipts file it read and how many
receipts; an export of it fails `umpire audit --file` by the export's game id; with
`--no-receipts` neither consults them and the forgery passes, as it does for anyone
without the receipts.
"""

from __future__ import annotations

import json

from tests.support.receipt_breaks import command_of
from tests.support.receipts import revealed_midway
from umpire.server.receipts_file import receipts_path
from umpire.testing.support.forgery import Cli, read_lines, reseal, rewrite_stream, write_lines

FAILED = 1


def test_audit_checks_the_receipts_this_machine_kept_unless_told_not_to(cli: Cli) -> None:
    game = revealed_midway(cli, "counter")
    kept = receipts_path(cli.tmp / "data", game)
    kinds = [json.loads(line)["kind"] for line in kept.read_text().splitlines()[1:]]
    said = (
        f"the {kinds.count('receipt')} receipts and {kinds.count('commitment')} commitments "
        f"this machine kept of game {game} ({kept})"
    )
    header, records = read_lines(cli.export(game, "--operator"))
    index = max(i for i, r in enumerate(records) if r["type"] == "DiceRolled")
    records[index]["payload"]["by"] = "player"  # the server's roll, now the player's own
    records[command_of(records, index)]["payload"]["manual_dice"] = True
    reseal(header, records, command_of(records, index))
    rewrite_stream(cli.redis_url, cli.prefix, game, header, records)
    export = write_lines(cli.tmp / "forged.jsonl", header, records)
    for source in ([game], ["--file", str(export)]):
        audited = cli("audit", *source)
        assert audited.code == FAILED, audited
        assert "(receipt)" in audited.out and "receipt on line" in audited.out, audited
        assert said in audited.err and "--no-receipts" in audited.err, audited.err
        bare = cli("audit", *source, "--no-receipts")
        assert bare.code == 0 and "not anchored: no receipts given" in bare.out, bare
        assert "this machine kept" not in bare.err, bare.err


def test_a_damaged_kept_receipts_file_is_said_with_the_way_around_it(cli: Cli) -> None:
    game = cli.new("counter", {"target": 40})
    cli.send(game, {"type": "Push"})
    kept = receipts_path(cli.tmp / "data", game)
    kept.write_text(kept.read_text() + '{"kind": "receipt", "head_seq": 0}\n')
    refused = cli("audit", game)
    # The error is wrapped at the terminal's width, a long path too: read it unwrapped.
    assert refused.code == 2 and str(kept) in "".join(refused.err.split()), refused
    assert "--no-receipts audits the log without them" in refused.err, refused.err
    assert cli("audit", game, "--no-receipts").code == 0


def test_a_symlink_in_place_of_the_kept_file_is_neither_read_nor_written(cli: Cli) -> None:
    game = cli.new("counter", {"target": 40})
    kept = receipts_path(cli.tmp / "data", game)
    elsewhere = cli.tmp / "elsewhere.jsonl"
    elsewhere.write_text(kept.read_text())  # a whole receipts file, of this very game
    kept.unlink()
    kept.symlink_to(elsewhere)
    shown = cli("receipts", game)
    assert shown.code != 0 and "is a symbolic link" in " ".join(shown.err.split()), shown
    assert shown.out == "", shown
    before = elsewhere.read_text()
    sent = cli("send", game, '{"type": "Push"}')
    assert sent.code == 0, sent
    assert "the receipt was not kept" in sent.err and "symbolic link" in sent.err, sent.err
    assert elsewhere.read_text() == before
    audited = cli("audit", game)
    assert audited.code != 0 and "is a symbolic link" in " ".join(audited.err.split()), audited


def test_a_game_without_kept_receipts_is_told_which_commands_keep_them(cli: Cli) -> None:
    # Fails without the fix: the refusal named umpire new, bind, send, takeback and reveal,
    # but not umpire play, whose receipts go to the same folder.
    shown = cli("receipts", "g0123456789abcdef")
    assert shown.code == 2 and "error (no_receipts)" in shown.err, shown.err
    assert "umpire new, bind, send, takeback and reveal, and by umpire play" in shown.err
