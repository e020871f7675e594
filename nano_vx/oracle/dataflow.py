"""The meaning of the spatial ILs before choreography: stages fire as actors.

A stage fires when it has firings left (its count from the balance equations), every input
stream holds the tokens one firing takes, and every output has room for what it puts. Streams
are unbounded in Sdataflow, Stiled and Splaced; from Ssized on a stream holds at most its
buffer's depth, and from Shandshaked on a producer across sites puts only against the credits
its credit semaphore starts with, so a buffer given more credits than slots overflows. Stages
fire in a fixed fair order (each enabled stage once per round); in a graph of actors an
enabled firing stays enabled until it happens, so the order does not change the outcome.
A stage accumulating over n firings (`ops.accumulate`) holds its running sum between firings
and puts it, needing room, only at every n-th.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ..spatial.balance import repetitions
from ..spatial.ops import NO_SUM, NUMPY_DTYPES, access_slices, accumulate, accumulating, fire
from ..spatial.program import Program, ins, outs
from .outcomes import Deadlock, Finished, Overflow


def eval_dataflow(graph, inputs: dict[str, np.ndarray]):
    p = Program(graph)
    reps = repetitions(p)
    run = _Run(p, reps, inputs)
    return run.go()


class _Run:
    def __init__(self, p: Program, reps, inputs):
        self.p = p
        self.reps = reps
        self.left = dict(reps)
        self.fired = {name: 0 for name in p.stages}
        self.held = {name: NO_SUM for name, st in p.stages.items() if accumulating(st)}
        self.queues = {name: deque() for name in p.streams}
        bounded = hasattr(p.graph, "buffers")
        self.depth = {s: (p.buffers[s].depth if bounded else None) for s in p.streams}
        self.credits = {s: self._credits(s) for s in p.streams}
        self.dram = {name: np.asarray(inputs[name]) if t.role == "input"
                     else np.zeros(t.shape, dtype=NUMPY_DTYPES[t.dtype])
                     for name, t in p.tensors.items()}
        self.slices = {name: access_slices(st, p.tensors[st.tensor].shape)
                       for name, st in p.stages.items() if st._prod in ("Load", "Store")}
        self.steps = 0

    def _credits(self, stream):
        """The room a producer may fill: the depth, or the credit semaphore's start value
        where a semaphore carries the handshake."""
        if self.depth[stream] is None:
            return None
        h = self.p.handshakes.get(stream)
        if h is not None and h.credit is not None and h.credit in self.p.semaphores:
            return self.p.semaphores[h.credit].initial
        return self.depth[stream]

    def go(self):
        order = list(self.p.stages)
        while True:
            progressed = False
            for name in order:
                if self.left[name] and self._enabled(name):
                    outcome = self._fire(name)
                    if outcome is not None:
                        return outcome
                    progressed = True
            if not any(self.left.values()):
                return Finished({n: a for n, a in self.dram.items()
                                 if self.p.tensors[n].role == "output"},
                                self.steps, dict(self.fired))
            if not progressed:
                return Deadlock(tuple((n, self._why(n)) for n in order if self.left[n]),
                                self.steps)

    def _enabled(self, name) -> bool:
        st = self.p.stages[name]
        if any(len(self.queues[port.stream]) < port.rate for port in ins(st)):
            return False
        return not self._puts(name) or all(
            self.credits[port.stream] is None or self.credits[port.stream] >= port.rate
            for port in outs(st))

    def _why(self, name) -> str:
        st = self.p.stages[name]
        for port in ins(st):
            have = len(self.queues[port.stream])
            if have < port.rate:
                return f"input '{port.stream}' ({have} of {port.rate} tokens)"
        for port in outs(st) if self._puts(name) else ():
            room = self.credits[port.stream]
            if room is not None and room < port.rate:
                return f"output '{port.stream}' (room for {room}, depth {self.depth[port.stream]})"
        return "nothing"

    def _puts(self, name) -> bool:
        """Whether the stage's next firing puts its outputs."""
        st = self.p.stages[name]
        return not accumulating(st) or self.fired[name] % st.over == st.over - 1

    def _fire(self, name):
        p, st = self.p, self.p.stages[name]
        self.steps += 1
        n = self.fired[name]
        self.fired[name] += 1
        self.left[name] -= 1
        taken = []
        for port in ins(st):
            q = self.queues[port.stream]
            taken.append([q.popleft() for _ in range(port.rate)])
            if self.credits[port.stream] is not None:
                self.credits[port.stream] += port.rate
        if st._prod == "Store":
            where = self.slices[name][n % len(self.slices[name])]
            self.dram[st.tensor][where] = taken[0][0]
            return None
        if st._prod == "Load":
            where = self.slices[name][n % len(self.slices[name])]
            produced = [np.array(self.dram[st.tensor][where])]
        elif name in self.held:
            self.held[name], produced = accumulate(st, taken, p.stage_dtype(st),
                                                   self.held[name])
            if not produced:
                return None
        else:
            produced = fire(st, taken, p.stage_dtype(st))
        for port in outs(st):
            q = self.queues[port.stream]
            q.extend(produced)
            if self.credits[port.stream] is not None:
                self.credits[port.stream] -= port.rate
            depth = self.depth[port.stream]
            if depth is not None and len(q) > depth:
                site = p.buffers[port.stream].site
                return Overflow(port.stream, site, self.steps,
                                f"'{name}' put a token into a full buffer of depth {depth}")
        return None
