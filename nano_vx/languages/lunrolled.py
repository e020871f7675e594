"""Lunrolled: Lpaths without `UnrollAcross`; it became one `spawn on` per index."""

from __future__ import annotations

from .lpaths import Lpaths

Lunrolled = Lpaths.extend(
    "Lunrolled",
    "Lpaths without UnrollAcross: each became one spawn on per index of its range",
    remove={"Stmt": ["UnrollAcross"]},
)


def copies_note(copies: int) -> list[str]:
    """The note of a diagnostic that a check found in each of `copies` copies of one body and
    reports once. The copies share their body's nodes, spans included, so a check that walks
    them finds the same fault at the same place in every copy: reporting it once per copy
    would print one error `copies` times."""
    if copies < 2:
        return []
    return [f"this applies to each of the {copies} copies of this code that `unroll across` "
            f"makes"]


class OncePerPlace:
    """What a check has reported, by place and message, so that a fault met again in another
    copy of an unrolled body (the same nodes, the same span) is counted, not reported again;
    `note_copies` then says on each diagnostic how many copies it applies to. A copy is told
    apart by `copy` (a local's unique name, when the walk may meet one copy twice), else
    every meeting is one more copy."""

    def __init__(self):
        self._said: dict = {}  # key -> [its diagnostic, the copies met]

    def again(self, key, copy=None) -> bool:
        entry = self._said.get(key)
        if entry is None:
            return False
        entry[1].add(copy if copy is not None else len(entry[1]))
        return True

    def said(self, key, diagnostic, copy=None) -> None:
        self._said[key] = [diagnostic, {copy if copy is not None else 0}]

    def note_copies(self) -> None:
        for diagnostic, copies in self._said.values():
            diagnostic.notes += copies_note(len(copies))
