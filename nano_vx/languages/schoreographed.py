"""Schoreographed: every engine has a schedule, a list of ops with `repeat n { ... }`."""

from __future__ import annotations

from ..nanopass import prod
from .shandshaked import Shandshaked

Schoreographed = Shandshaked.extend(
    "Schoreographed",
    "Shandshaked with a schedule of ops for every engine that has work",
    remove={"Program": ["Graph"]},
    add={
        "Program": [prod("Graph", "name: name, tensors: Tensor*, streams: Stream*, "
                                  "stages: Stage*, places: Place*, buffers: Buffer*, "
                                  "groups: Group*, handshakes: Handshake*, "
                                  "semaphores: Semaphore*, schedules: Schedule*")],
        "Schedule": [prod("Schedule", "site: ints, engine: name, ops: Op*",
                          "what one engine of one site does, in order")],
        "Op": [
            prod("Repeat", "count: int, body: Op*", "the body, count times"),
            prod("Read", "stage: name, buffer: name",
                 "the load stage's next tile from DRAM into the buffer's staging"),
            prod("Write", "buffer: name, stage: name",
                 "the buffer's front token to DRAM, as the store stage's next tile"),
            prod("Reserve", "buffer: name, count: int",
                 "wait for free slots of a same-site buffer and hold them"),
            prod("Push", "buffer: name, count: int",
                 "staged tokens into held slots of a same-site buffer"),
            prod("Send", "buffer: name, count: int",
                 "staged tokens into held slots of a buffer on another site"),
            prod("Multicast", "group: name, count: int",
                 "staged tokens into a held slot of every receiver of the group"),
            prod("WaitFront", "buffer: name, count: int", "wait for tokens"),
            prod("Pop", "buffer: name, count: int", "free the front slots"),
            prod("Wait", "sem: name, count: int",
                 "wait until the semaphore holds count, then subtract it"),
            prod("Signal", "sem: name, count: int", "add count to the semaphore"),
            prod("Barrier", "group: name",
                 "wait for a credit from every receiver of the group and hold a slot in each"),
            prod("Fire", "stage: name",
                 "one firing of a compute or scalar stage: its input ports' front tokens in, "
                 "its output ports' staging out"),
        ],
    },
)
