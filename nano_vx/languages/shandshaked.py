"""Shandshaked: every buffer has a handshake kind and the semaphores that carry it."""

from __future__ import annotations

from ..nanopass import Terminal, prod
from .sfused import Sfused

HANDSHAKES = ("fifo", "semaphore_pair", "barrier", "valid_ready", "token")

Shandshaked = Sfused.extend(
    "Shandshaked",
    "Sfused with a handshake for every buffer and the semaphores it uses",
    remove={"Program": ["Graph"]},
    terminals=[Terminal("handshake", lambda v: v in HANDSHAKES, " ".join(HANDSHAKES))],
    add={
        "Program": [prod("Graph", "name: name, tensors: Tensor*, streams: Stream*, "
                                  "stages: Stage*, places: Place*, buffers: Buffer*, "
                                  "groups: Group*, handshakes: Handshake*, "
                                  "semaphores: Semaphore*")],
        "Handshake": [prod("Handshake", "buffer: name, kind: handshake, credit: name?, "
                                        "data: name?",
                           "credit: the semaphore the producer waits on for free slots; "
                           "data: the one the consumer waits on for tokens")],
        "Semaphore": [prod("Semaphore", "name: name, site: ints, initial: int",
                           "a counter on a site; only one engine ever waits on it")],
    },
)
