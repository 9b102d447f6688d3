"""Cost-aware admission: what a message costs, and whether its sender can pay (sans-I/O).

Counting messages treats a `view` that replays six thousand events like a `view` of the
head. Here every message has a cost in units of about one cheap message's work (~50 µs
of the gateway's CPU): 1 for most, more for a replay that must read and fold old events,
a listing over many games, a catch-up from the stream, a create. The cost is charged to
two token buckets, the connection's and its client's (all connections of one client
share it), and a message either side cannot pay is refused with `over_budget` (the
connection stays; `details.retry_after` says when it could pay). Creates are limited
apart, per client, since each one writes to the log forever.

A client is its address, except on loopback, where every account of the machine has the
same address: there a client is the local account holding the other end (its uid, found
by events/local_users.py), so one account's connections and spending never lock out
another's (`client_key`). The open connections per client are counted here too
(`Connections`). With `umpire serve --workers N` each worker holds 1/N of every client
budget (`Budgets.share`), so the N workers together give the documented budget.

A cost larger than a bucket holds is admitted when that bucket is full and leaves it in
debt, so an honest large request succeeds once and then waits its turn.

Everything here is plain code over a clock value passed in: tests drive it without
sockets (tests/server/test_admission.py).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

from umpire.events.errors import UmpireError

# Costs, in units (docs/operations.md, "Admission"). Measured on the reference machine:
# a cheap message ~50 µs; reading and folding one old event ~65 µs; listing one game
# (one pipelined HGET, parsed by redis-py) ~60 µs.
MESSAGE_COST = 1
CREATE_COST = 20
CACHED_REPLAY_COST = 2
REPLAY_EVENTS_PER_UNIT = 1
LISTED_GAMES_PER_UNIT = 1
# A catch-up's event read from the stream, decoded, encoded and sent: 26-37 µs of the
# gateway's CPU against 60-80 µs for a cheap message on the same machine (an 1,900-event
# catch-up through a gateway process, its CPU time from /proc, 2-core box, Nov 2026), so
# about half a unit: 2 events make a unit (it was 10, a fifth of the work).
STREAMED_EVENTS_PER_UNIT = 2


# A command's rules (decide) are charged by the CPU time they took beyond FREE_WORK_SECONDS,
# measured in the thread or process that ran them (server/rules_pool.py WorkMeter), at one
# unit per WORK_UNIT_SECONDS: an ordinary command (well under 5 ms) costs its message's
# unit as before, while the largest Conflict of Heroes AI turn the bounds allow (~0.13 s)
# costs ~2,500 units, so a client that asks for one after another waits its turn. The free
# share is the rules pool's threshold for a worker process (the two mark "costly" alike).
WORK_UNIT_SECONDS = 50e-6
FREE_WORK_SECONDS = 0.005


def work_cost(seconds: float) -> int:
    """The units a command's measured rules work costs beyond its message's unit."""
    return max(0, math.ceil((seconds - FREE_WORK_SECONDS) / WORK_UNIT_SECONDS))


def replay_cost(events: int) -> int:
    """A `view` with `at_seq` that must read and fold `events` events (a cached answer
    still loads the game and reads one event to check it)."""
    return CACHED_REPLAY_COST + math.ceil(events / REPLAY_EVENTS_PER_UNIT)


def dispute_check_cost(head: int) -> int:
    """A `dispute` or `rule` on a log of `head` events, before any line is re-made: the
    whole log read, decoded and checked. All a refused one costs (a bad seq, a claim or
    reading the rules refuse, an open dispute): the re-makes are charged only once they
    are made (`remake_cost`)."""
    return replay_cost(head)


def remake_cost(events: int, seconds: float) -> int:
    """The re-making of a dispute's lines (`events` events folded, as played and under
    the claim, or an amending ruling's line), which took `seconds` of CPU where it ran:
    each event as a replay's, or the CPU at one unit per WORK_UNIT_SECONDS where that is
    more (a re-made line runs `decide` again on every command, and one AI turn of a large
    game takes ~0.1 s, far more than a fold's ~65 us an event)."""
    return max(math.ceil(events / REPLAY_EVENTS_PER_UNIT), math.ceil(seconds / WORK_UNIT_SECONDS))


def listing_cost(games: int) -> int:
    """A `list_games` over `games` games."""
    return MESSAGE_COST + games // LISTED_GAMES_PER_UNIT


def catch_up_cost(events: int) -> int:
    """A page of `events` events a catch-up reads from the stream (paced, not refused:
    a resuming client always gets its events, at the pace its budgets allow)."""
    return max(1, math.ceil(events / STREAMED_EVENTS_PER_UNIT))


class Bucket:
    """A token bucket: holds up to `capacity` units, refilled at `rate` a second."""

    __slots__ = ("capacity", "rate", "stamp", "tokens")

    def __init__(self, capacity: float, rate: float, now: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.stamp = now

    def refill(self, now: float) -> float:
        """The tokens held at `now`."""
        if now > self.stamp:
            tokens = self.tokens + (now - self.stamp) * self.rate
            self.tokens = tokens if tokens < self.capacity else self.capacity  # min, inline
            self.stamp = now
        return self.tokens

    def can_pay(self, cost: float, now: float) -> bool:
        """Whether `cost` is admitted now (a cost above capacity needs a full bucket)."""
        return self.refill(now) >= min(cost, self.capacity)

    def wait(self, cost: float, now: float) -> float:
        """Seconds until `cost` would be admitted."""
        missing = min(cost, self.capacity) - self.refill(now)
        return max(0.0, missing / self.rate)

    def pay(self, cost: float) -> None:
        """Take `cost` (after `can_pay`); may leave the bucket in debt."""
        self.tokens -= cost

    def full(self, now: float) -> bool:
        """Whether the bucket is full (an idle address's bucket can be forgotten)."""
        return self.refill(now) >= self.capacity


def client_key(address: str, uid: int | None) -> str:
    """The client whose budgets a connection spends: `uid <n>` for a loopback peer whose
    local account is known, else its address."""
    return address if uid is None else f"uid {uid}"


def worker_share(total: int, workers: int) -> int:
    """One worker's share of a count that `workers` workers together may not pass (at
    least 1, so a client is never refused everywhere)."""
    return max(1, total // workers)


@dataclass(frozen=True)
class Budgets:
    """The operator's budgets (server/config.py settings). The `address_*` budgets and
    the creates are a client's (an address, or a local account on loopback)."""

    connection_rate: float = 200.0
    connection_burst: float = 2000.0
    address_rate: float = 1000.0
    address_burst: float = 5000.0
    creates_per_minute: float = 60.0
    create_burst: float = 100.0

    def share(self, workers: int) -> Budgets:
        """One of `workers` workers' share of the client budgets: the kernel spreads a
        client's connections over the workers, and each worker holds its buckets alone,
        so each holds 1/N of every client budget and N of them together give the
        documented one. A connection's own budget is whole: it lives on one worker."""
        if workers <= 1:
            return self
        return replace(
            self,
            address_rate=self.address_rate / workers,
            address_burst=max(1.0, self.address_burst / workers),
            creates_per_minute=self.creates_per_minute / workers,
            create_burst=max(1.0, self.create_burst / workers),
        )


@dataclass(frozen=True)
class Refusal:
    """Why a message was not admitted: which budget, its cost, when it could be paid."""

    scope: str  # "connection", "address" or "creates"
    cost: int
    retry_after: float

    def message(self) -> str:
        """The refusal in words, for the `over_budget` error."""
        what = {
            "connection": "this connection's cost budget",
            "address": (
                "your client's cost budget (shared by all connections from your address, "
                "or on this machine's loopback by all of your local account's)"
            ),
            "creates": "the creates allowed your client (your address or local account)",
        }[self.scope]
        return (
            f"over budget: this request costs {self.cost} units, more than {what} holds "
            f"now; retry in {self.retry_after:.2f} s (docs/operations.md, Admission)"
        )


class Admission:
    """The buckets of one gateway: one per connection (held by the connection), one per
    address with connections or debt, and one create bucket per address."""

    def __init__(self, budgets: Budgets) -> None:
        self.budgets = budgets
        self.addresses: dict[str, Bucket] = {}
        self.creates: dict[str, Bucket] = {}
        self.charged: Counter[str] = Counter()  # units admitted, by message kind
        self.refused: Counter[str] = Counter()  # refusals, by scope
        self.paced: Counter[str] = Counter()  # waits for budget (never refused), by kind
        # The clients with a dispute or ruling in flight: a re-make is charged once made
        # (its CPU is not known before), so a client's next one waits for it and then
        # pays its debt, rather than one a connection starting at once, each on a full
        # bucket (server/commands.py `_dispute`).
        self.disputing: set[str] = set()

    def connection_bucket(self, now: float) -> Bucket:
        """A new connection's bucket."""
        b = self.budgets
        return Bucket(b.connection_burst, b.connection_rate, now)

    def _address(self, address: str, now: float) -> Bucket:
        bucket = self.addresses.get(address)
        if bucket is None:
            b = self.budgets
            bucket = self.addresses[address] = Bucket(b.address_burst, b.address_rate, now)
        return bucket

    def charge(
        self, connection: Bucket, address: str, kind: str, cost: int, now: float
    ) -> Refusal | None:
        """Charge `cost` to the connection and its address; None if admitted (both paid),
        else the refusal (neither paid)."""
        shared = self.addresses.get(address) or self._address(address, now)
        # Straight-line on the admitted path: every message of every client comes here. A
        # cost the bucket holds is the common case (`can_pay` decides the others).
        if (cost <= connection.refill(now) or connection.can_pay(cost, now)) and (
            cost <= shared.refill(now) or shared.can_pay(cost, now)
        ):
            connection.tokens -= cost
            shared.tokens -= cost
            self.charged[kind] += cost
            return None
        scope, bucket = (
            ("connection", connection) if not connection.can_pay(cost, now) else ("address", shared)
        )
        self.refused[scope] += 1
        return Refusal(scope, cost, bucket.wait(cost, now))

    def charge_work(
        self, connection: Bucket, address: str, kind: str, cost: int, now: float
    ) -> None:
        """Charge work already done (a command's measured rules work) to the connection
        and its address, into debt if need be: the sender's next messages wait until the
        buckets have refilled, so the work one client makes the gateway do is its own
        budget's, whatever a single command costs."""
        if cost <= 0:
            return
        shared = self._address(address, now)
        connection.refill(now)
        shared.refill(now)
        connection.pay(cost)
        shared.pay(cost)
        self.charged[kind] += cost

    def pay_or_wait(
        self, connection: Bucket, address: str, kind: str, cost: int, now: float
    ) -> float:
        """For work that is paced rather than refused (a catch-up's next page): pay
        `cost` from both buckets and return 0, or return the seconds to wait first."""
        shared = self.addresses.get(address) or self._address(address, now)
        # Straight-line when both hold the cost (a player's every command comes here);
        # `wait` decides the others.
        if cost <= connection.refill(now) and cost <= shared.refill(now):
            connection.tokens -= cost
            shared.tokens -= cost
            self.charged[kind] += cost
            return 0.0
        wait = max(connection.wait(cost, now), shared.wait(cost, now))
        if wait > 0:
            return wait
        connection.pay(cost)
        shared.pay(cost)
        self.charged[kind] += cost
        return 0.0

    def charge_create(self, address: str, now: float) -> Refusal | None:
        """Count one create against its address's create budget; None if admitted."""
        bucket = self.creates.get(address)
        if bucket is None:
            b = self.budgets
            rate = b.creates_per_minute / 60.0
            bucket = self.creates[address] = Bucket(b.create_burst, rate, now)
        if not bucket.can_pay(1, now):
            self.refused["creates"] += 1
            return Refusal("creates", 1, bucket.wait(1, now))
        bucket.pay(1)
        return None

    def forget_idle(self, now: float, active: set[str] | None = None) -> None:
        """Drop the buckets of addresses that are full again and have no connection (so
        memory does not grow with every address ever seen)."""
        keep = active or set()
        for table in (self.addresses, self.creates):
            for address in [a for a, b in table.items() if a not in keep and b.full(now)]:
                del table[address]


class Connections:
    """The open connections of each client of one gateway, against the budget's limit."""

    def __init__(self, total: int, workers: int = 1) -> None:
        self.total = total  # the documented limit, for all the workers together
        self.workers = workers
        self.limit = worker_share(total, workers)  # this worker's share
        self.open: dict[str, int] = {}

    def admit(self, client: str) -> bool:
        """Count one more connection of `client`, or False (nothing counted) when it
        already holds the limit."""
        held = self.open.get(client, 0)
        if held >= self.limit:
            return False
        self.open[client] = held + 1
        return True

    def release(self, client: str) -> None:
        """One connection of `client` closed."""
        left = self.open.get(client, 1) - 1
        if left > 0:
            self.open[client] = left
        else:
            self.open.pop(client, None)

    def refusal(self, client: str) -> str:
        """The close reason for a connection over the limit (at most 123 bytes)."""
        who = f"local account ({client})" if client.startswith("uid ") else "address"
        split = f" ({self.limit} on each of {self.workers} workers)" if self.workers > 1 else ""
        return f"at most {self.total} connections per {who}{split}"


class OverBudget(UmpireError):
    """A request its sender's budget cannot pay now (the connection stays)."""

    code = "over_budget"

    @classmethod
    def of(cls, refusal: Refusal) -> OverBudget:
        """The error for a refusal, with its scope, cost and retry_after in details."""
        return cls(
            refusal.message(),
            scope=refusal.scope,
            cost=refusal.cost,
            retry_after=round(refusal.retry_after, 3),
        )


class TooManyGrants(UmpireError):
    """A connection already holds credentials for as many games as it may."""

    code = "too_many_grants"


class TooManySubscriptions(UmpireError):
    """A connection already follows as many games as it may (its code was the generic
    `error`, which a client could not tell from any other refusal)."""

    code = "too_many_subscriptions"
