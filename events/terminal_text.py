"""Text that a player or client wrote, made safe to print on a terminal.

Player text (a roll's `purpose`, a command's fields, a client seed, a game's result) goes
into the log as written, and the log is printed by `umpire log`, `explain`, `replay`,
`audit`, `watch` and `play`. Printed raw, an escape sequence in it clears the operator's
screen, retitles the window or rewrites earlier lines, and rich markup in it (`[red]`,
`[link=...]`) would be interpreted. Every command prints such text through `shown` (or
`printable` where no markup is parsed), so it appears as inert characters, on a console
made by `terminal`, which never turns `:skull:` into an emoji.

It lives in events/ because both the server's commands and the clients' (which import
events only) print it.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from rich.markup import escape

# C0 controls (ESC, BEL, CR, backspace, newline...), DEL, C1 controls (U+009B is a
# one-character CSI on some terminals), the line and paragraph separators, and the
# bidirectional overrides and isolates that reorder what is shown ("Trojan Source").
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_UNSAFE_BUT_NEWLINE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, newlines: bool = False) -> str:
    """`text` with every control character shown as an escape (`\\x1b`, `\\u202e`).

    With `newlines`, line breaks are kept (for multi-line output the program itself
    formats, such as indented JSON, whose strings hold no raw newline).
    """
    return (_UNSAFE_BUT_NEWLINE if newlines else _UNSAFE).sub(_escaped, text)


def shown(text: str, *, newlines: bool = False) -> str:
    """`printable(text)` with rich markup escaped too: for console.print and table cells,
    which parse markup."""
    return escape(printable(text, newlines=newlines))


def printable_json(text: str) -> str:
    """A JSON text with every control character escaped as `\\uXXXX`.

    A JSON encoder escapes C0 controls in strings, but not DEL, C1 or the bidirectional
    controls; outside strings JSON holds none of them (formatting newlines are kept). The
    result decodes to the same value.
    """
    return _UNSAFE_BUT_NEWLINE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def terminal(**options: Any) -> Console:
    """The rich Console every command prints through: emoji codes (`:skull:`) stay text,
    since player text holds them and `shown` cannot escape them."""
    return Console(emoji=False, **options)
