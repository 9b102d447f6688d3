"""Helpers for tests that speak the wire protocol on a raw websocket."""

from __future__ import annotations

from typing import Any

import msgspec


def text(message: dict[str, Any]) -> str:
    """A message as a JSON text frame (bytes would go out as a binary frame)."""
    return msgspec.json.encode(message).decode()
