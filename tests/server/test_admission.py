"""Cost-aware admission as plain code (server/admission.py): no sockets, a clock passed in."""

from __future__ import annotations

import pytest

from umpire.server.admission import (
    Admission,
    Bucket,
    Budgets,
    catch_up_cost,
    listing_cost,
    replay_cost,
)


class TestCosts:
    def test_work_sets_the_cost(self) -> None:
        assert replay_cost(0) == 2  # a cached answer: the game loaded, one event read
        assert replay_cost(6000) == 6002  # the whole log read and folded
        assert listing_cost(1000) == 1001  # one pipelined read per game

    def test_a_catch_up_is_charged_by_its_work(self) -> None:
        # On main a page of 25 streamed events cost 2 units (1 per 10 events, a fifth of
        # the measured work).
        assert catch_up_cost(25) == 13  # half a unit an event, rounded up
        assert catch_up_cost(1) == 1
        assert catch_up_cost(3952) == 1976  # the 6,000-event game outside the window


class TestBucket:
    def test_refills_at_its_rate_up_to_its_capacity(self) -> None:
        bucket = Bucket(10, 5, now=0.0)
        assert bucket.can_pay(10, 0.0)
        bucket.pay(10)
        assert not bucket.can_pay(1, 0.1)
        assert bucket.wait(5, 0.1) == pytest.approx(0.9)
        assert bucket.can_pay(5, 1.0)
        assert bucket.refill(100.0) == 10

    def test_a_cost_above_capacity_needs_a_full_bucket_and_leaves_debt(self) -> None:
        bucket = Bucket(10, 10, now=0.0)
        assert bucket.can_pay(500, 0.0)
        bucket.pay(500)
        assert bucket.tokens == -490
        assert not bucket.can_pay(1, 10.0)  # 49 s of debt left
        assert bucket.can_pay(1, 49.2)


class TestAdmission:
    def budgets(self) -> Budgets:
        return Budgets(connection_rate=10, connection_burst=100, address_rate=20,
                       address_burst=150, creates_per_minute=60, create_burst=2)  # fmt: skip

    def test_the_connection_pays_first_then_the_address(self) -> None:
        admission = Admission(self.budgets())
        first = admission.connection_bucket(0.0)
        assert admission.charge(first, "10.0.0.1", "view_at", 100, 0.0) is None
        refused = admission.charge(first, "10.0.0.1", "view_at", 100, 0.0)
        assert refused is not None and refused.scope == "connection"
        assert refused.retry_after == pytest.approx(10.0)
        # A second connection from the same address finds the address's budget spent.
        second = admission.connection_bucket(0.0)
        refused = admission.charge(second, "10.0.0.1", "view_at", 100, 0.0)
        assert refused is not None and refused.scope == "address"
        assert "address" in refused.message() and "100 units" in refused.message()
        # Another address is not affected, and a refusal charged nothing.
        assert admission.charge(second, "10.0.0.2", "view_at", 100, 0.0) is None
        assert admission.charged["view_at"] == 200
        assert admission.refused == {"connection": 1, "address": 1}

    def test_creates_are_limited_per_address(self) -> None:
        admission = Admission(self.budgets())
        assert admission.charge_create("a", 0.0) is None
        assert admission.charge_create("a", 0.0) is None
        refused = admission.charge_create("a", 0.0)
        assert refused is not None and refused.scope == "creates"
        assert refused.retry_after == pytest.approx(1.0)
        assert admission.charge_create("b", 0.0) is None
        assert admission.charge_create("a", 1.0) is None

    def test_idle_addresses_are_forgotten(self) -> None:
        admission = Admission(self.budgets())
        bucket = admission.connection_bucket(0.0)
        admission.charge(bucket, "a", "x", 10, 0.0)
        admission.charge(bucket, "b", "x", 10, 0.0)
        admission.forget_idle(0.1, active={"a"})
        assert set(admission.addresses) == {"a", "b"}  # b still owes
        admission.forget_idle(10.0, active={"a"})
        assert set(admission.addresses) == {"a"}


def test_paced_work_waits_instead_of_being_refused() -> None:
    admission = Admission(Budgets(connection_rate=10, connection_burst=20,
                                  address_rate=100, address_burst=100))  # fmt: skip
    bucket = admission.connection_bucket(0.0)
    assert admission.pay_or_wait(bucket, "a", "catch_up", 20, 0.0) == 0.0
    assert admission.pay_or_wait(bucket, "a", "catch_up", 10, 0.0) == pytest.approx(1.0)
    assert admission.pay_or_wait(bucket, "a", "catch_up", 10, 1.0) == 0.0
    assert admission.refused == {} and admission.charged["catch_up"] == 30
