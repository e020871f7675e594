"""Lunrolled: Lhoisted without `UnrollAcross`; it became one `spawn on` per index."""

from __future__ import annotations

from .l1_hoisted import Lhoisted

Lunrolled = Lhoisted.extend(
    "Lunrolled",
    "Lhoisted without UnrollAcross: each became one spawn on per index of its range",
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
