"""A printed seed table as data: its citation, its rows by die result, and a lookup that
returns the value read together with the exact citation of the row (and column) read.

Rows are bands of a (modified) roll, `low`..`high` inclusive, in printed order. A roll
below the first band reads as the first band and one above the last as the last (the
seeds' modifiers can push a die past the printed range; where a rule says otherwise the
ruleset checks that before it reads the table). A table with `columns` holds one value per
column in each row, read with `lookup(roll, column)`. A table whose rows are chosen by
conditions, not a roll (lettered rows A, B, C... tried in order), numbers its rows by
position (`lettered`) and is read row by row (`bands`, `cite_row`) or by label (`row`).

How a row is cited is data: `row_cite`, the text after the table's citation, ", row {span}"
unless the ruleset's logs cite its rows otherwise (Downtown's " row A", " 1-4").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

V = TypeVar("V")


@dataclass(frozen=True)
class Band(Generic[V]):
    """Die results `low`..`high` (inclusive) read as `value`; `label` is the printed row
    heading where it is not the span itself (e.g. "8 or less")."""

    low: int
    high: int
    value: V
    label: str = ""

    @property
    def span(self) -> str:
        """The row as cited: its printed label, or "4" / "1-3"."""
        if self.label:
            return self.label
        return f"{self.low}" if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Reading(Generic[V]):
    """What a roll read on a table: the value, and the citation of the row (and column)."""

    value: V
    citation: str

    @property
    def stated(self) -> str:
        """The citation with the value read, "<citation> = <value>"."""
        return f"{self.citation} = {self.value}"


@dataclass(frozen=True)
class SeedTable(Generic[V]):
    """One printed table: its citation (seed file, rule and title), its rows in order and,
    optionally, its name, printed text (checked against the seed by the ruleset's tests)
    and column headings."""

    citation: str
    bands: tuple[Band[V], ...]
    name: str = ""
    printed: str = ""
    columns: tuple[str, ...] = ()
    row_cite: str = ", row {span}"  # a row's citation after `citation`; {span}: the row

    def cite_row(self, band: Band[V]) -> str:
        """The citation of one row, `citation` followed by `row_cite`."""
        return self.citation + self.row_cite.format(span=band.span)

    def row(self, label: str) -> Reading[V]:
        """The row printed as `label` (a lettered row, or a span such as "1-4")."""
        for band in self.bands:
            if band.span == label:
                return Reading(band.value, self.cite_row(band))
        raise KeyError(f"{self.citation} has no row {label!r}")

    def band_for(self, roll: int) -> Band[V]:
        """The row a (modified) roll reads, clamped to the printed range."""
        clamped = min(max(roll, self.bands[0].low), self.bands[-1].high)
        for band in self.bands:
            if band.low <= clamped <= band.high:
                return band
        raise ValueError(f"{self.citation}: no row for {roll}")  # pragma: no cover - total

    def row_for(self, roll: int) -> Reading[V]:
        """The value a roll reads and its citation (`cite_row`: "<citation>, row <span>"
        by default)."""
        band = self.band_for(roll)
        return Reading(band.value, self.cite_row(band))

    def lookup(self, roll: int, column: str) -> Reading[Any]:
        """The cell a roll reads in `column`, cited "<citation>, row <span>, column <c>"."""
        band = self.band_for(roll)
        cells: Any = band.value
        try:
            index = self.columns.index(column)
        except ValueError:
            raise KeyError(f"{self.citation} has no column {column!r}") from None
        return Reading(cells[index], f"{self.cite_row(band)}, column {column}")


def lettered(*rows: tuple[str, V]) -> tuple[Band[V], ...]:
    """The bands of a table whose rows are chosen by conditions, in printed order: row k
    (from 1) spans k..k and is labelled with its printed letter."""
    return tuple(Band(k, k, value, label=label) for k, (label, value) in enumerate(rows, 1))
