"""The gateway fixtures of tests/server, for the access tests."""

from tests.server.conftest import gateway, ws_url  # noqa: F401
