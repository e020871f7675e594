"""Failures that an open issue already names, so that a campaign can tell them from new ones.

Each entry says which known item a failure is, from its key, its detail and its input. When
the fix of an item lands, its entry goes: from then on the item is a new failure again.
"""

from __future__ import annotations

from .runner import Outcome

# Every item issue 8 named is fixed (and tested where it was fixed), so none is expected:
# add an entry here for a failure an open issue names, and remove it when its fix lands.
KNOWN: tuple = ()


def known_item(outcome: Outcome, data: bytes) -> str | None:
    """The known item this failure is, or None for a new one."""
    text = data.decode("utf-8", "replace")
    for name, matches in KNOWN:
        if matches(outcome, text):
            return name
    return None
