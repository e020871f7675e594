"""Failures that issue 8 already names, so that a campaign can tell them from new ones.

Each entry says which known item a failure is, from its key, its detail and its input. When
the fix of an item lands, its entry goes: from then on the item is a new failure again.
"""

from __future__ import annotations

from .runner import Outcome

KNOWN = (
    ("deep expressions (RecursionError)",
     lambda o, text: "RecursionError" in o.key),
    ("integer literals of 4,301 digits or more",
     lambda o, text: "Exceeds the limit (4300 digits)" in o.detail),
    ("nested unrolls",
     lambda o, text: o.kind in ("hang", "memory") and text.count("unroll") >= 2),
    ("long `else if` chains",
     lambda o, text: o.kind == "hang" and text.count("else if") >= 500),
    ("`within:` chains",
     lambda o, text: o.kind == "hang" and "check_memory_declarations" in o.key),
    ("comptime recursion and slow comptime loops",
     lambda o, text: o.kind == "hang" and "comptime" in o.key),
)


def known_item(outcome: Outcome, data: bytes) -> str | None:
    """The item of issue 8 this failure is, or None for a new one."""
    text = data.decode("utf-8", "replace")
    for name, matches in KNOWN:
        if matches(outcome, text):
            return name
    return None
