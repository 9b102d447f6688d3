"""The Redis Streams store against the store contract, plus Redis-specific behaviour."""

from __future__ import annotations

from tests.support.store_contract import StoreContract


class TestRedisStoreContract(StoreContract):
    """Runs every contract test on a real Valkey started by the suite."""
