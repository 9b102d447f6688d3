"""docker-compose.yml and the Dockerfile read against the code, since no test can run
Docker here: every setting they name is one umpire reads, with a value it takes; the
published ports are the ones the gateways listen on; the image holds every folder the
server imports and the extra it installs; and the balancer of the cluster profile passes a
Host that lets the viewer's websocket through the gateway's Origin check."""

from __future__ import annotations

import asyncio
import re
import tomllib

from tests.support.processes import REPO, start_gateway
from umpire.server.config import ENV, from_env
from umpire.server.embedded import EmbeddedRedis

COMPOSE = (REPO / "docker-compose.yml").read_text()
DOCKERFILE = (REPO / "Dockerfile").read_text()


def environments() -> list[dict[str, str]]:
    """Each service's `environment:` block as a dict (comments dropped; the file's own
    YAML kept simple enough to read by its indentation)."""
    blocks = []
    for found in re.finditer(r"\n( +)environment:\n((?:\1  .*\n)+)", COMPOSE):
        pairs = {}
        for line in found.group(2).splitlines():
            key, colon, value = line.strip().partition(":")
            if colon and not key.startswith("#"):
                pairs[key] = value.strip().strip('"')
        blocks.append(pairs)
    return blocks


def test_every_setting_named_is_one_umpire_reads_with_a_value_it_takes() -> None:
    named = set(re.findall(r"\b(?:UMPIRE_[A-Z_]+|REDIS_URL)\b", COMPOSE + DOCKERFILE))
    assert named, "no setting named"
    unknown = named - set(ENV.values()) - {"UMPIRE_CREDENTIAL"}
    assert not unknown, f"docker-compose.yml names settings umpire does not read: {unknown}"
    blocks = environments()
    assert len(blocks) == 2, blocks  # the gateway, and the cluster profile's gateways
    for block in blocks:
        assert block and set(block) <= set(ENV.values()), block
        settings = from_env(block)  # raises, naming the setting, on a value it refuses
        assert settings.redis_url == block["REDIS_URL"]
        published = re.findall(r'"127\.0\.0\.1:(\d+):(\d+)"', COMPOSE)
        assert str(settings.port) in {inner for _, inner in published}, published
        assert f"EXPOSE {settings.port}" in DOCKERFILE


def test_the_image_holds_what_the_server_imports_and_its_extra() -> None:
    copied = set(re.findall(r"^COPY (\S+) \1$", DOCKERFILE, re.M))
    # The folders setup.py maps to umpire's subpackages, but the cross-ruleset tests.
    folders = re.search(r"FOLDERS = \(([^)]*)\)", (REPO / "setup.py").read_text())
    assert folders is not None
    needed = set(re.findall(r'"(\w+)"', folders.group(1))) - {"testing"}
    assert needed <= copied, needed - copied
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    installed = re.search(r"pip install [^\n]*'\.\[(\w+)\]'", DOCKERFILE)
    assert installed is not None and installed.group(1) in extras["optional-dependencies"]
    assert 'CMD ["umpire", "serve"]' in DOCKERFILE and "umpire" in extras["scripts"]
    healthz = re.findall(r"http://127\.0\.0\.1:(\d+)/healthz", COMPOSE)
    assert healthz and all(port == "8765" for port in healthz), healthz


async def handshake(port: int, host: str, origin: str) -> str:
    """The status line a websocket handshake to the gateway gets, with these headers."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    await writer.drain()
    status = (await reader.readline()).decode()
    writer.close()
    return status


async def test_the_balancers_host_lets_the_viewers_websocket_through(
    redis_server: EmbeddedRedis, prefix: str
) -> None:
    # Fails without the fix: the balancer passed nginx's `$host`, the name without its
    # port ("localhost"), so the viewer's `Origin: http://localhost:8780` matched no Host
    # and every websocket through the balancer was refused (403).
    balancer = COMPOSE.split("server {", 1)[1]
    # (compose writes nginx's `$` as `$$`)
    passed = re.search(r"proxy_set_header Host \$(\$\w+);", balancer)
    published = re.search(r'"127\.0\.0\.1:(\d+):\d+"  # plain HTTP too', COMPOSE)
    assert passed is not None and published is not None
    public = f"localhost:{published.group(1)}"  # what the browser opened
    # What nginx sends for each (its docs: $host is the name without the port,
    # $http_host the request's Host header as the browser sent it).
    sends = {"$host": "localhost", "$http_host": public}
    gateway, port = start_gateway(redis_server.url, prefix)
    try:
        status = await handshake(port, sends[passed.group(1)], f"http://{public}")
    finally:
        gateway.terminate()
        gateway.wait(20)
    assert status.startswith("HTTP/1.1 101"), (passed.group(1), status)
