"""Splaced: every stage has a site of the mesh and an engine of that site."""

from __future__ import annotations

from ..nanopass import prod
from .stiled import Stiled

Splaced = Stiled.extend(
    "Splaced",
    "Stiled with a site and an engine for every stage",
    remove={"Program": ["Graph"]},
    add={
        "Program": [prod("Graph", "name: name, tensors: Tensor*, streams: Stream*, "
                                  "stages: Stage*, places: Place*")],
        "Place": [prod("Place", "stage: name, site: ints, engine: name",
                       "the stage runs on this engine of the site at (row, column)")],
    },
)
