"""The gateway process's garbage collector: tuned thresholds, frozen start-up objects, and
its pauses on /metrics (server/collector.py says why)."""

from __future__ import annotations

import gc
import re
import signal

import pytest

from tests.support.processes import start_gateway
from tests.support.waiting import until
from umpire.server import collector
from umpire.server.app import Running
from umpire.server.config import SettingsError, from_env
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import http_get


def _metric(body: str, name: str, generation: int) -> float:
    match = re.search(rf'^{name}{{generation="{generation}"}} (\S+)$', body, re.M)
    assert match, f"{name} generation {generation} missing from /metrics"
    return float(match.group(1))


async def test_metrics_report_every_collection_and_its_pause(gateway: Running) -> None:
    _, before = await http_get(gateway.port, "/metrics")
    gc.collect()
    gc.collect()
    _, after = await http_get(gateway.port, "/metrics")
    full = _metric(after, "umpire_gc_collections_total", 2)
    assert full >= _metric(before, "umpire_gc_collections_total", 2) + 2
    assert _metric(after, "umpire_gc_pause_seconds_total", 2) > 0
    longest = _metric(after, "umpire_gc_pause_longest_seconds", 2)
    assert 0 < longest <= _metric(after, "umpire_gc_pause_seconds_total", 2)
    assert _metric(after, "umpire_gc_threshold", 0) == gc.get_threshold()[0]


def test_tune_sets_the_thresholds_and_freezes_start_up_objects() -> None:
    original = gc.get_threshold()
    try:
        collector.tune((12_345, 7, 9))
        assert gc.get_threshold() == (12_345, 7, 9)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*original)


def test_thresholds_come_from_the_environment_and_are_checked() -> None:
    assert from_env({}).gc_thresholds == (700, 10, 100)
    assert from_env({"UMPIRE_GC_THRESHOLDS": "700, 10, 10"}).gc_thresholds == (700, 10, 10)
    with pytest.raises(SettingsError, match=r"UMPIRE_GC_THRESHOLDS.*greater than or equal to 100"):
        from_env({"UMPIRE_GC_THRESHOLDS": "5,10,10"})
    with pytest.raises(SettingsError, match="UMPIRE_GC_THRESHOLDS"):
        from_env({"UMPIRE_GC_THRESHOLDS": "700,ten,10"})


def test_thresholds_of_the_wrong_shape_are_refused_saying_what_they_must_be() -> None:
    # Fails without the fix: two numbers were refused as "UMPIRE_GC_THRESHOLDS: Field
    # required", which names neither the missing item nor what the setting holds.
    for given, item in (("700,10", "item 3: Field required"), ("700,10,0", "item 3: Input")):
        with pytest.raises(SettingsError) as refused:
            from_env({"UMPIRE_GC_THRESHOLDS": given})
        message = str(refused.value)
        assert f"UMPIRE_GC_THRESHOLDS {item}" in message, message
        assert "UMPIRE_GC_THRESHOLDS must be three whole numbers, comma-separated" in message


async def test_umpire_serve_runs_with_the_configured_thresholds(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    process, port = start_gateway(redis_server.url, prefix, UMPIRE_GC_THRESHOLDS="4321,11,13")
    try:

        async def metrics() -> str | None:  # tuned right after the port opens
            _, body = await http_get(port, "/metrics")
            return body if _metric(body, "umpire_gc_threshold", 0) == 4321 else None

        body = await until(metrics, what="umpire_gc_threshold 4321 in /metrics")
        assert [_metric(body, "umpire_gc_threshold", g) for g in range(3)] == [4321, 11, 13]
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
