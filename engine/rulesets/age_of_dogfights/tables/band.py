"""The shape shared by the seed's die tables: bands of a standard die read to a result."""

from __future__ import annotations

from msgspec import Struct


class Band(Struct, frozen=True):
    """Die results `low`..`high` (inclusive) read as `result`."""

    low: int
    high: int
    result: str


class BandTable(Struct, frozen=True, kw_only=True):
    """One printed die table: its citation, the printed text and its bands in order.

    A modified roll below the first band reads as the first band, above the last as the
    last (the seed's +1/-1/+2 modifiers can push a d6 to 0 or 8).
    """

    name: str
    rule: str
    printed: str
    bands: tuple[Band, ...]

    def lookup(self, total: int) -> str:
        """The result of a (modified) roll."""
        low = self.bands[0].low
        high = self.bands[-1].high
        clamped = min(max(total, low), high)
        for band in self.bands:
            if band.low <= clamped <= band.high:
                return band.result
        raise ValueError(f"{self.name}: no band for {total}")  # pragma: no cover - tables are total

    def row(self, total: int) -> str:
        """The citation of the row a roll reads, e.g. '... row 1-3'."""
        clamped = min(max(total, self.bands[0].low), self.bands[-1].high)
        for band in self.bands:
            if band.low <= clamped <= band.high:
                span = f"{band.low}" if band.low == band.high else f"{band.low}-{band.high}"
                return f"{self.rule}, row {span} = {band.result}"
        raise ValueError(f"{self.name}: no band for {total}")  # pragma: no cover
