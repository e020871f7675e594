"""Exact quantities from declarations: `228 KiB`, `3.35 TB/s`, `1.98 GHz`, `128 B/cyc`.

A declaration writes its numbers as decimals (`Quantity(number, unit)` keeps the text), so
they are read here as `Fraction`s and never touch a float: `3.35 TB/s` is exactly
3_350_000_000_000 B/s. Sizes must come out as whole bytes.
"""

from __future__ import annotations

from fractions import Fraction

SIZE, RATE, PER_CYCLE, CLOCK, COUNT = "size", "bandwidth", "bytes per cycle", "clock", "number"

_DECIMAL_PREFIX = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
_BINARY_PREFIX = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}

# unit -> (kind, factor to bytes, bytes per second, or hertz)
UNITS: dict[str, tuple[str, int]] = {}
for _prefix, _factor in (_DECIMAL_PREFIX | _BINARY_PREFIX).items():
    UNITS[f"{_prefix}B"] = (SIZE, _factor)
    UNITS[f"{_prefix}B/s"] = (RATE, _factor)
for _prefix, _factor in _DECIMAL_PREFIX.items():
    UNITS[f"{_prefix}Hz"] = (CLOCK, _factor)
UNITS["B/cyc"] = (PER_CYCLE, 1)


def exact(number: str) -> Fraction:
    """A decimal as written (`3.35`) as an exact Fraction."""
    return Fraction(number)


def quantity(number: str, unit: str | None) -> tuple[str, Fraction]:
    """(kind, value in base units) of a written quantity; a bare number is a COUNT."""
    if unit is None:
        return COUNT, exact(number)
    kind, factor = UNITS[unit]
    return kind, exact(number) * factor


def show_bytes(n: int) -> str:
    """A byte count as the diagnostics print it: exact, with a readable size beside it."""
    for name, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n} bytes ({n / size:.4g} {name})"
    return f"{n} bytes"


def show_rate(bps: Fraction) -> str:
    """A bandwidth in bytes per second as a message prints it: `3.35 TB/s`, `63 GB/s`."""
    for name, size in (("TB/s", 10**12), ("GB/s", 10**9), ("MB/s", 10**6), ("KB/s", 10**3)):
        if bps >= size:
            return f"{float(bps / size):.4g} {name}"
    return f"{float(bps):.4g} B/s"
