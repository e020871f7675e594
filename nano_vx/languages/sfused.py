"""Sfused: loads of one tile by several sites are one load and a multicast group."""

from __future__ import annotations

from ..nanopass import prod
from .ssized import Ssized

Sfused = Ssized.extend(
    "Sfused",
    "Ssized with multicast groups: one load's token goes to receivers on several sites",
    remove={"Program": ["Graph"]},
    add={
        "Program": [prod("Graph", "name: name, tensors: Tensor*, streams: Stream*, "
                                  "stages: Stage*, places: Place*, buffers: Buffer*, "
                                  "groups: Group*")],
        "Group": [prod("Group", "name: name, stage: name, streams: name*",
                       "the stage's token goes to each stream's buffer, on each own site")],
    },
)
