"""Cost-aware admission as plain code (server/admission.py): no sockets, a clock passed in."""

from __future__ import annotations

import pytest

from umpire.server.admission import (
    Admission,
    Bucket,
    Budgets,
    Connections,
    catch_up_cost,
    client_key,
    listing_cost,
    replay_cost,
    worker_share,
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


class TestClients:
    """Each local account is its own client on loopback; N workers share a budget."""

    def test_a_local_account_is_a_client_apart_from_its_address(self) -> None:
        assert client_key("127.0.0.1", 1001) == "uid 1001"
        assert client_key("127.0.0.1", 0) == "uid 0"
        assert client_key("192.0.2.7", None) == "192.0.2.7"
        assert client_key("127.0.0.1", None) == "127.0.0.1"  # the socket was not found

    def test_one_clients_connections_leave_anothers_room(self) -> None:
        connections = Connections(3)
        assert all(connections.admit("uid 1001") for _ in range(3))
        assert not connections.admit("uid 1001")
        assert connections.refusal("uid 1001") == (
            "at most 3 connections per local account (uid 1001)"
        )
        assert connections.admit("uid 0")  # the owner is not locked out
        connections.release("uid 1001")
        assert connections.admit("uid 1001")
        for _ in range(3):
            connections.release("uid 1001")
        assert connections.open == {"uid 0": 1}

    def test_each_of_n_workers_holds_its_share_of_the_budgets(self) -> None:
        budgets = Budgets(address_rate=1000, address_burst=5000, creates_per_minute=60,
                          create_burst=100, connection_rate=200, connection_burst=2000)  # fmt: skip
        half = budgets.share(2)
        assert (half.address_rate, half.address_burst) == (500, 2500)
        assert (half.creates_per_minute, half.create_burst) == (30, 50)
        # A connection lives on one worker: its own budget is whole.
        assert (half.connection_rate, half.connection_burst) == (200, 2000)
        assert budgets.share(1) == budgets
        two = Connections(1000, workers=2)
        assert two.limit == 500
        assert (
            two.refusal("192.0.2.7")
        ) == "at most 1000 connections per address (500 on each of 2 workers)"
        assert worker_share(1000, 3) * 3 <= 1000  # never more than the total
        assert worker_share(1, 8) == 1
