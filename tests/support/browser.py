"""Waiting on a page's state in a viewer test, under the viewer's Content-Security-Policy.

Playwright's `page.wait_for_function` compiles its predicate inside the page with
`new Function`, which the policy's `script-src 'self'` refuses (no eval) — as it should:
the viewer runs no string as code. `wait_for` asks the same question with
`page.evaluate` (the DevTools protocol's own evaluation, which the policy does not
govern) until it holds.
"""

from __future__ import annotations

import asyncio
from typing import Any

POLL = 0.05  # s between two looks at the page


async def wait_for(page: Any, expression: str, *, arg: Any = None, timeout: float = 30_000) -> Any:
    """Until `expression` (a JS expression, or a function of `arg`) is truthy in `page`;
    its value. TimeoutError naming the expression after `timeout` ms."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout / 1000
    while True:
        value = await page.evaluate(expression, arg)
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"not true in {timeout / 1000:.0f} s: {expression}")
        await asyncio.sleep(POLL)
