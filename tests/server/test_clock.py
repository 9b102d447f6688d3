"""The envelope clock (server/clock.py): the kept second gives the same text as datetime."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime, timedelta

from umpire.server.clock import iso_of_ms, utc_now_iso

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _reference(ms: int) -> str:
    stamp = EPOCH + timedelta(milliseconds=ms)
    return stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def test_iso_of_ms_is_datetime_isoformat() -> None:
    rng = random.Random(7)
    now = time.time_ns() // 1_000_000
    # Runs within one second (the kept text reused), across seconds, days, years and a
    # leap day, in order and out of order (the kept second replaced and replaced back).
    cases = [now + i for i in range(-1500, 1500, 7)]
    cases += [0, 999, 1000, 951_782_399_999, 951_782_400_000, 4_102_444_800_000 - 1]
    cases += [rng.randrange(0, 4_102_444_800_000) for _ in range(2000)]
    for ms in cases:
        assert iso_of_ms(ms) == _reference(ms), ms


def test_utc_now_iso_is_now() -> None:
    before = datetime.now(UTC)
    text = utc_now_iso()
    after = datetime.now(UTC)
    stamp = datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert text.endswith("Z") and len(text) == len("2026-11-24T01:00:00.000Z")
    assert before - timedelta(milliseconds=1) <= stamp <= after
