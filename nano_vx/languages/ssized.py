"""Ssized: every stream is a buffer with a depth in tokens and in bytes."""

from __future__ import annotations

from ..nanopass import prod
from .splaced import Splaced

Ssized = Splaced.extend(
    "Ssized",
    "Splaced with a bounded buffer for every stream",
    remove={"Program": ["Graph"]},
    add={
        "Program": [prod("Graph", "name: name, tensors: Tensor*, streams: Stream*, "
                                  "stages: Stage*, places: Place*, buffers: Buffer*")],
        "Buffer": [prod("Buffer", "stream: name, site: ints, depth: int, bytes: int",
                        "the stream's slots in the SRAM of its consumer's site")],
    },
)
