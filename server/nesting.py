"""Whether a JSON text nests too deeply, found without parsing it (sans-I/O).

A frame under the size limit can still nest a thousand levels; msgspec then raises
RecursionError (not a DecodeError) while decoding it, or later while encoding what it
built. The gateway checks the depth first and answers `bad_message` for a frame past
`MAX_DEPTH`, so no frame of a valid size ever reaches a recursion limit.
"""

from __future__ import annotations

import re

# Far deeper than any message, setup or command (the deepest, a Down in Flames setup, is
# 4 levels), and far below the interpreter's recursion limit (1,000).
MAX_DEPTH = 32

# A JSON string (brackets inside it are text; an unterminated one runs to the end).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# Deletes every ASCII character but the brackets (translate is far faster than a regex
# with many matches); anything left that is not a bracket is removed by _NOT_BRACKET.
_ASCII_NOT_BRACKET = {c: None for c in range(128) if chr(c) not in "[]{}"}


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether `text` nests arrays and objects deeper than `limit` levels.

    A frame with no more brackets than the limit (nearly every one) costs two
    `str.count` calls. Otherwise the brackets outside strings are kept, and each pass
    removes the innermost empty pairs: a pair `limit + 1` levels high is still there
    after `limit` passes, and openers that never close count as levels. Every pass is
    one C-speed replace (a 64 KiB frame of brackets costs a few milliseconds). Malformed
    JSON gets an answer too (the parser then says what is wrong with it).
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _STRING.sub("", text).translate(_ASCII_NOT_BRACKET)
    if not brackets.isascii():  # not JSON, but it must not hide brackets from the count
        brackets = _NOT_BRACKET.sub("", brackets)
    brackets = brackets.replace("{", "[").replace("}", "]")
    for passes in range(1, limit + 1):
        brackets = brackets.replace("[]", "")
        if "[]" not in brackets:
            # What is left never closes ("]]][[["): each opener still left nests the
            # parser one level deeper before it finds the text malformed.
            return passes + brackets.count("[") > limit
    return True
