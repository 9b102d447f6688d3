"""The AOF scanner (server/aof_records.py): damage anywhere in a step marks that step
alone; every complete step after it is found again; a changed value is found too.

The file is built as the append script's effects are written by Valkey: MULTI, SELECT,
the dedupe entry (HSETNX, before the XADDs: events/redis_store.py `_APPEND_GAME`; files
written before that hold an HSET after them), the XADDs of sealed events, the head, EXEC;
and the games index as a command of its own."""

from __future__ import annotations

import msgspec
import pytest

from umpire.events.envelope import GENESIS_HASH, encode_envelope, seal
from umpire.events.resp import pack
from umpire.server.aof_records import scan

GAMES = ("gaaaaaaaaaaaaaaa1", "gbbbbbbbbbbbbbbb2")


def _aof(
    steps: int = 6, dedupe: str = "HSETNX"
) -> tuple[bytes, list[tuple[int, int, set[tuple[str, int]]]]]:
    """An AOF of `steps` two-event steps over two games, and each step's (start, end,
    events); each step's dedupe entry written by `dedupe` (HSETNX first, or HSET last)."""
    out = [pack("ZADD", "umpire:games", "NX", 0, GAMES[0])]
    spans = []
    last = {game: (0, GENESIS_HASH) for game in GAMES}
    for n in range(steps):
        game = GAMES[n % 2]
        seq, link = last[game]
        step = [pack("MULTI"), pack("SELECT", 0)]
        events = set()
        for offset in (1, 2):
            env = seal(game_id=game, seq=seq + offset, type="counter.Added", version=1,
                       payload=msgspec.msgpack.encode({"amount": offset}), command_id=f"c{n}",
                       recorded_at="2026-11-29T00:00:00.000Z", prev_hash=link)  # fmt: skip
            link = env.hash
            step.append(pack("XADD", f"umpire:{{{game}}}:events", f"{seq + offset}-0", "e",
                             encode_envelope(env)))  # fmt: skip
            events.add((game, seq + offset))
        entry = pack(dedupe, f"umpire:{{{game}}}:commands", f"c{n}", f"{seq + 1}:{seq + 2}:{link}")
        if dedupe == "HSETNX":
            step.insert(2, entry)
        step += [pack("HSET", f"umpire:{{{game}}}:meta", "version", seq + 2, "last_hash", link)]
        step += [entry] if dedupe == "HSET" else []
        step.append(pack("EXEC"))
        last[game] = (seq + 2, link)
        start = sum(map(len, out))
        out += step
        spans.append((start, sum(map(len, out)), events))
    return b"".join(out), spans


def test_a_whole_file_is_every_step_intact_and_nothing_else() -> None:
    data, spans = _aof()
    records = scan(data)
    assert not any(r.damaged for r in records)
    assert b"".join(data[r.start : r.end] for r in records) == data
    assert [(r.start, r.end) for r in records if r.events] == [(a, b) for a, b, _ in spans]


def test_sixteen_bad_bytes_anywhere_in_a_step_damage_that_step_alone() -> None:
    data, spans = _aof()
    start, end, events = spans[2]
    for at in range(start, end - 16, 7):
        damaged = data[:at] + b"\xff" * 16 + data[at + 16 :]
        records = scan(damaged)
        bad = [r for r in records if r.damaged]
        assert len(bad) == 1 and (bad[0].start, bad[0].end) == (start, end), at
        assert set(bad[0].events) <= events, at
        kept = {e for r in records if not r.damaged for e in r.events}
        assert kept == {e for _, _, held in spans for e in held} - events, at


def test_a_changed_byte_inside_a_stored_event_is_found_though_the_framing_holds() -> None:
    data, spans = _aof()
    start, end, events = spans[3]
    at = data.index(b"amount", start) + 2
    changed = data[:at] + b"X" + data[at + 1 :]
    (bad,) = [r for r in scan(changed) if r.damaged]
    assert (bad.start, bad.end) == (start, end)
    game, seq = min(events)
    assert f"game {game} seq {seq}" in bad.why


@pytest.mark.parametrize("dedupe", ["HSETNX", "HSET"])
def test_a_dedupe_entry_that_names_other_events_is_found(dedupe: str) -> None:
    """The append script writes the dedupe entry with HSETNX before the events (files
    written before, with HSET after them): either way it is checked against them."""
    data, spans = _aof(dedupe=dedupe)
    assert not any(r.damaged for r in scan(data))
    start, end, _ = spans[3]
    at = data.index(b":commands", start)
    at = data.index(b"\r\n", data.index(b"\r\n", at + 11) + 2) + 2  # the entry's length line
    at = data.index(b"\r\n", at) + 2  # the entry's first byte: its first seq
    changed = data[:at] + b"9" + data[at + 1 :]
    (bad,) = [r for r in scan(changed) if r.damaged]
    assert (bad.start, bad.end) == (start, end) and "dedupe entry" in bad.why


def test_a_torn_tail_is_the_last_step_to_the_end_of_the_file() -> None:
    data, spans = _aof()
    torn = data[:-40]
    records = scan(torn)
    assert [r.damaged for r in records][-1] and records[-1].end == len(torn)
    assert sum(r.damaged for r in records) == 1
    assert records[-1].start == spans[-1][0]


def test_a_damaged_record_that_held_no_event_is_named_by_the_keys_it_still_shows() -> None:
    """A credential or a receipt key is lost as surely as an event: the scanner names it
    (`game g1's credentials`, `the receipt keys`), not only its bytes."""
    data, _ = _aof(2)
    credential = pack("HSET", f"umpire:{{{GAMES[1]}}}:credentials", "d" * 64, "player")
    receipt_key = pack("HSET", "umpire:receipt-keys", "k1", "ab" * 32, "current", "k1")
    for record_bytes, words in (
        (credential, f"game {GAMES[1]}'s credentials"),
        (receipt_key, "the receipt keys"),
    ):
        at = len(data) + len(record_bytes) - 2  # its framing's last CRLF, not its key
        whole = data + record_bytes + pack("ZADD", "umpire:games", "NX", 0, GAMES[1])
        damaged = whole[:at] + b"\xff\xff" + whole[at + 2 :]
        (bad,) = [r for r in scan(damaged) if r.damaged]
        assert bad.events == [] and bad.keys == [words], (words, bad)
