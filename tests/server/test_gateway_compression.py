"""Per-message deflate is off unless configured: a frame encoded once for every
subscriber is not compressed again per connection (docs/operations.md)."""

from __future__ import annotations

import msgspec
import pytest
import websockets

from umpire.server.app import running_gateway
from umpire.server.config import SettingsError, from_env
from umpire.server.embedded import EmbeddedRedis
from umpire.testing.support.gateways import gateway_settings


@pytest.mark.parametrize(("setting", "negotiated"), [(None, False), ("deflate", True)])
async def test_deflate_is_negotiated_only_when_configured(
    redis_server: EmbeddedRedis, prefix: str, setting: str | None, negotiated: bool
) -> None:
    overrides = {"ws_compression": setting} if setting else {}
    async with running_gateway(gateway_settings(prefix, **overrides), redis_server.url) as run:
        url = f"ws://127.0.0.1:{run.port}/ws"
        async with websockets.connect(url) as ws:  # offers permessage-deflate, as browsers do
            assert ws.response is not None
            extensions = ws.response.headers.get("Sec-WebSocket-Extensions", "")
            assert ("permessage-deflate" in extensions) is negotiated
            welcome = msgspec.json.decode(await ws.recv())
            assert welcome["type"] == "welcome"


def test_the_setting_comes_from_the_environment_and_is_checked() -> None:
    assert from_env({}).ws_compression == "off"
    assert from_env({"UMPIRE_WS_COMPRESSION": "deflate"}).ws_compression == "deflate"
    with pytest.raises(SettingsError, match=r"UMPIRE_WS_COMPRESSION: Input should be 'off' or"):
        from_env({"UMPIRE_WS_COMPRESSION": "gzip"})
