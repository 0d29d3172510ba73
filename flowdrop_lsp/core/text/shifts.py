"""A sorted list of integers that an edit shifts in time independent of its length: the line
starts of a buffer (core.text.positions.EditableText) and the element offsets of a document
(core.engine.elements) are kept in one."""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right


class PendingShift:
    """A sorted list of integers, shifted lazily: `marks[j]` is an index from which on every
    item reads `totals[j]` larger (the totals are cumulative). Shifting everything after an
    edit adds or updates one mark instead of touching the items, so an edit costs
    O(log n + marks), however large the list and however far apart successive edits are; the
    marks are folded into the items once there are too many (amortised O(1) per edit)."""

    __slots__ = ("items", "marks", "totals")

    MAX_MARKS = 1024  # value() is O(log marks), shift_from O(marks): folding is what costs

    def __init__(self, items: list[int] | array[int]) -> None:
        self.items = items
        self.marks: list[int] = []
        self.totals: list[int] = []

    def __len__(self) -> int:
        return len(self.items)

    def _shift_at(self, index: int) -> int:
        j = bisect_right(self.marks, index) - 1
        return self.totals[j] if j >= 0 else 0

    def value(self, index: int) -> int:
        if not self.marks:
            return self.items[index]
        return self.items[index] + self._shift_at(index)

    def shift_from(self, index: int, delta: int) -> None:
        """Read every item from `index` on `delta` larger."""
        if not delta or index >= len(self.items):
            return
        marks, totals = self.marks, self.totals
        j = bisect_left(marks, index)
        if j < len(marks) and marks[j] == index:
            for k in range(j, len(totals)):
                totals[k] += delta
        else:
            marks.insert(j, index)
            totals.insert(j, (totals[j - 1] if j > 0 else 0) + delta)
            for k in range(j + 1, len(totals)):
                totals[k] += delta
        if len(marks) > self.MAX_MARKS:
            self._fold()

    def _fold(self) -> None:
        """Add the marks' shifts into the items (O(n), rarely)."""
        items, marks, totals = self.items, self.marks, self.totals
        bounds = [*marks, len(items)]
        for j, total in enumerate(totals):
            if total:
                for i in range(bounds[j], bounds[j + 1]):
                    items[i] += total
        self.marks, self.totals = [], []

    def bisect_right(self, value: int) -> int:
        """Index of the first item greater than `value`."""
        low, high = 0, len(self.items)
        items = self.items
        if not self.marks:
            while low < high:
                middle = (low + high) // 2
                if items[middle] <= value:
                    low = middle + 1
                else:
                    high = middle
            return low
        shift_at = self._shift_at
        while low < high:
            middle = (low + high) // 2
            if items[middle] + shift_at(middle) <= value:
                low = middle + 1
            else:
                high = middle
        return low

    def replace(self, start: int, stop: int, values: list[int]) -> None:
        """Replace items [start, stop) with `values` (their actual values, shifts included)."""
        marks, totals = self.marks, self.totals
        if marks:
            # Marks inside the replaced stretch move to its end (they still shift what follows);
            # marks at or after its end move with the items.
            grow = len(values) - (stop - start)
            moved = [index if index <= start else max(index, stop) + grow for index in marks]
            merged_marks: list[int] = []
            merged_totals: list[int] = []
            for index, total in zip(moved, totals, strict=True):
                if merged_marks and merged_marks[-1] == index:
                    merged_totals[-1] = total
                else:
                    merged_marks.append(index)
                    merged_totals.append(total)
            self.marks, self.totals = merged_marks, merged_totals
            base = self._shift_at(start) if values else 0
            values = [v - base for v in values]
        if isinstance(self.items, array):
            self.items[start:stop] = array("q", values)
        else:
            self.items[start:stop] = values
