"""docs/security.md's quoted HTTP headers are server/http.py's."""

from __future__ import annotations

import re

from tests.support.doc_text import read
from umpire.server.http import CONTENT_SECURITY_POLICY, SECURITY_HEADERS


def test_the_content_security_policy_is_the_one_served() -> None:
    text = " ".join(read("security.md").split())
    said = re.search(r"`Content-Security-Policy: ([^`]+)`", text)
    assert said, "docs/security.md no longer quotes the Content-Security-Policy"
    assert said.group(1) == CONTENT_SECURITY_POLICY
    for name, value in SECURITY_HEADERS[1:]:
        assert f"`{name}: {value}`" in text, f"docs/security.md does not say `{name}: {value}`"
