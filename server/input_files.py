"""Files a person hands the command line (a setup, an export), decoded as UTF-8 text or
refused with one typed line that says what the file is instead (issue 32)."""

from __future__ import annotations

import codecs

from umpire.events.errors import UmpireError

_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def utf8_text(raw: bytes, what: str, error: type[UmpireError]) -> str:
    """`raw` as text (a UTF-8 byte-order mark dropped), or `error` saying the file is
    UTF-16/UTF-32 (save it as UTF-8) or not text at all."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            raise error(f"{what} is {name} text; save it as UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(
            f"{what} is not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x}): "
            "a setup or export is a UTF-8 text file"
        ) from None
    if "\x00" in text:
        raise error(f"{what} holds a NUL character: it is not a text file")
    return text.removeprefix("\ufeff")
