"""Lunrolled: Lhoisted without `UnrollAcross`; it became one `spawn on` per index."""

from __future__ import annotations

from .l1_hoisted import Lhoisted

Lunrolled = Lhoisted.extend(
    "Lunrolled",
    "Lhoisted without UnrollAcross: each became one spawn on per index of its range",
    remove={"Stmt": ["UnrollAcross"]},
)
