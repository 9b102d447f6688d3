"""Head checkpoints (server/head_checkpoints.py): the records, read back whatever a torn
write or another process left, and the batched writer (one write per loop turn)."""

from __future__ import annotations

from pathlib import Path

from umpire.server.head_checkpoints import (
    COMPACT_BYTES,
    HeadCheckpoints,
    Loss,
    append_records,
    checkpoint_path,
    counted_line,
    credentials_line,
    head_line,
    loss_line,
    parse,
    read_heads,
    rebase_line,
)


def test_a_game_head_is_its_highest_seq_whatever_the_order_of_the_lines() -> None:
    # Two workers' batches land in either order: the head is the highest seq.
    heads = parse(head_line("g1", 9, "h9") + head_line("g1", 7, "h7") + head_line("g2", 3, "x"))
    assert heads.heads == {"g1": (9, "h9"), "g2": (3, "x")}


def test_a_torn_or_changed_line_is_skipped_and_counted_never_misread() -> None:
    whole = head_line("g1", 41, "a" * 64)
    changed = whole.replace(b"41", b"14")
    heads = parse(head_line("g1", 5, "h5") + changed + whole[:20])
    assert heads.heads == {"g1": (5, "h5")} and heads.damaged_lines == 2


def test_a_rebase_resets_the_head_and_a_loss_stays_named() -> None:
    loss = Loss("g1", 41, 57, "restored from the backup b, made t")
    heads = parse(head_line("g1", 57, "h57") + loss_line(loss) + rebase_line("g1", 40, "h40"))
    assert heads.heads == {"g1": (40, "h40")}
    assert heads.losses_of("g1") == [loss]
    assert loss.describe() == "game g1 lost seqs 41 to 57 (restored from the backup b, made t)"
    # Acks after the rebase count again from the restored head.
    later = parse(rebase_line("g1", 40, "h40") + head_line("g1", 42, "h42"))
    assert later.heads == {"g1": (42, "h42")}


async def test_the_notes_of_one_loop_turn_are_one_write_and_resolve_once_on_disk(
    tmp_path: Path,
) -> None:
    checkpoints = HeadCheckpoints(tmp_path)
    try:
        turn = [checkpoints.note(f"g{n}", n + 1, f"h{n}") for n in range(50)]
        assert len({id(future) for future in turn}) == 1  # one batch, one future
        await turn[0]
        assert checkpoints.writes == 1
        assert read_heads(tmp_path).heads == {f"g{n}": (n + 1, f"h{n}") for n in range(50)}
        await checkpoints.note("g0", 2, "h0b")
        assert checkpoints.writes == 2 and read_heads(tmp_path).heads["g0"] == (2, "h0b")
    finally:
        checkpoints.close()


async def test_a_file_past_its_bound_is_compacted_to_one_line_a_game(tmp_path: Path) -> None:
    append_records(tmp_path, [loss_line(Loss("g0", 1, 2, "cut"))])
    append_records(tmp_path, [credentials_line("g0", 3, 4), credentials_line("g0", 2, 3)])
    append_records(tmp_path, [counted_line("g2", 2, 2, "2026-11-30T02:00:00Z")])
    line = head_line("g0", 1, "h" * 64)
    append_records(tmp_path, [line] * (COMPACT_BYTES // len(line) + 1))
    checkpoints = HeadCheckpoints(tmp_path)
    try:
        await checkpoints.note("g1", 3, "h3")
    finally:
        checkpoints.close()
    assert checkpoint_path(tmp_path).stat().st_size < 1000
    heads = read_heads(tmp_path)
    assert heads.heads == {"g0": (1, "h" * 64), "g1": (3, "h3")}
    assert [loss.game_id for loss in heads.losses] == ["g0"]
    # The latest change, and a baseline with its time, kept by the compaction.
    assert heads.credentials == {"g0": (3, 4), "g2": (2, 2)}
    assert heads.counted_since == {"g2": "2026-11-30T02:00:00Z"}


def test_a_baseline_counts_only_where_no_change_was_recorded_before() -> None:
    since = "2026-11-30T02:00:00Z"
    heads = parse(credentials_line("g1", 5, 2) + counted_line("g1", 1, 2, since)
                  + counted_line("g2", 2, 2, since) + credentials_line("g2", 3, 1))  # fmt: skip
    assert heads.credentials == {"g1": (5, 2), "g2": (3, 1)}
    assert heads.counted_since == {"g2": since}  # g1's counted before


async def test_an_append_over_seqs_an_acknowledged_head_covers_records_their_loss(
    tmp_path: Path,
) -> None:
    # Fails without the fix: nothing recorded, and once the new heads passed seq 21 the
    # checkpoints no longer knew that seqs 20 and 21 had been acknowledged.
    append_records(tmp_path, [head_line("g1", 21, "h21"), rebase_line("g2", 4, "h4")])
    checkpoints = HeadCheckpoints(tmp_path)
    try:
        await checkpoints.note("g2", 6, "h6", first=5)  # past the rebased head: no loss
        await checkpoints.note("g1", 20, "x20", first=20)  # the store had lost 20 and 21
        await checkpoints.note("g1", 23, "x23", first=21)  # named once
    finally:
        checkpoints.close()
    heads = read_heads(tmp_path)
    assert [(loss.game_id, loss.first, loss.last) for loss in heads.losses] == [("g1", 20, 21)]
    assert heads.heads == {"g1": (23, "x23"), "g2": (6, "h6")}
