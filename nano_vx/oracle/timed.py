"""The timed mode of the token semantics (docs/spatial.md, "The period"): a discrete-event
simulation of a choreographed program's schedules in which every op takes the cycles the
cost model gives it (nano_vx/spatial/cost.py, `OpCycles`).

It runs the real schedules, with the loop control of the token machine (`tokens.Machine`'s
compiled code and `_settle`), on token counts only: per buffer the tokens in it and the
slots its producer holds, per semaphore its value. The enabling conditions are those of the
token semantics: `wait_front b k` while b holds fewer than k tokens, `reserve b k` while
fewer than k of its slots are free, `wait s k` while s holds less than k, `barrier g` while a
receiver's credit is 0, wait; every other op runs at once. Time:

- an engine runs its ops in order, one at a time; an op occupies its engine for its cycles,
  from its start to its end;
- an op starts as soon as its engine is free (the op before it has ended) and its condition
  holds;
- an op's effects on other engines (the tokens a push, send or multicast puts, the slots a
  pop frees, a signal's count) are visible from its end: an op starting at cycle t sees the
  effects of every op that ended at or before t. What a blocking op takes for itself (a
  wait's count, reserved slots) it takes at its start, and only its own engine reads it.

These are the clock's dependences (nano_vx/spatial/clock.py): an op starts at the latest
end of the ops it waits for, so the simulated times are the clock's max-plus recurrence and
the periods agree exactly. As in the clock, the program runs as a persistent kernel: an
engine that ends its schedule starts it again (the next *run*) at once, until it has done
`runs` of them. The simulation reports every engine's start and end cycle of every run, and
reads off each engine's period: the smallest c and the cycles D such that, over the second
half of the runs, every run ends D cycles after the run c before it (the period is D / c);
when no such c shows in the runs simulated, it simulates twice as many, up to `most` runs.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..spatial.ops import NUMPY_DTYPES
from .outcomes import Deadlock
from .tokens import BARRIER, MCAST, POP, PUSH, RESERVE, SEND, SIGNAL, WAIT, WAITFRONT, Machine


@dataclass(frozen=True)
class Timed:
    """The simulated runs: per engine (named as outcomes name them) the (start, end) cycle of
    each run, its period (cycles per run, exact; None when no period showed), and the whole
    program's period, the largest. `first_run` is the cycle the first run ends at: the
    program's latency when it runs once; `simulated` how many runs each engine made."""

    runs: dict[str, list[tuple[int, int]]]
    engines: dict[str, Fraction | None]
    period: Fraction | None
    first_run: int
    simulated: int


def run_timed(graph, target, runs: int = 16, most: int = 1024, cycles=None):
    """Timed, or the Deadlock the simulation stops at: never for a program that finishes and
    whose run returns to its start, but one whose runs leave tokens behind fills up."""
    from ..spatial.cost import OpCycles

    cycles = cycles or OpCycles(graph, target)
    machine = Machine(graph, _no_inputs(graph))
    costs = [_costs(s, cycles) for s in machine.p.table("schedules")]
    names = machine.names()
    while True:
        sim = _Simulation(machine, costs)
        ends = sim.go(runs)
        if isinstance(ends, Deadlock):
            return ends
        periods = {names[e]: _period(ends[e]) for e in sim.live}
        if all(p is not None for p in periods.values()) or runs >= most:
            break
        runs *= 2
    period = None if None in periods.values() else max(periods.values(), default=None)
    spans = {names[e]: list(zip(sim.starts[e], sim.ends[e])) for e in sim.live}
    first = max((sim.ends[e][0] for e in sim.live), default=0)
    return Timed(spans, periods, period, first, runs)


def _no_inputs(graph) -> dict[str, np.ndarray]:
    """Input tensors for the Machine, which timed mode never reads: it runs on counts."""
    return {t.name: np.zeros((), dtype=NUMPY_DTYPES[t.dtype])
            for t in graph.tensors if t.role == "input"}


def _costs(sched, cycles) -> list:
    """The cycles of each instruction of the engine's compiled code (None for loop
    control), walking the schedule as `Machine._compile` does."""
    out: list = []

    def walk(ops):
        for op in ops:
            if op._prod == "Repeat":
                out.append(None)
                walk(op.body)
                out.append(None)
            else:
                out.append(cycles.of(sched.site, sched.engine, op))

    walk(sched.ops)
    return out


def _period(ends: list[int]) -> Fraction | None:
    """D / c for the smallest c such that over the second half of the runs every run ends D
    cycles after the run c before it (c at most a quarter of the runs, so the pattern shows
    at least twice); None when there is none."""
    n = len(ends)
    half = n // 2
    for c in range(1, (n - half) // 2 + 1):
        d = ends[half + c] - ends[half]
        if all(ends[k + c] - ends[k] == d for k in range(half, n - c)):
            return Fraction(d, c)
    return None


class _Simulation:
    def __init__(self, machine: Machine, costs: list[list]):
        self.m = machine
        self.costs = costs
        nb = len(machine.buffers)
        self.tokens = [0] * nb
        self.held = [0] * nb
        self.sems = [machine.p.semaphores[s].initial for s in machine.sems]
        self.blocked: dict[tuple, set[int]] = {}
        n = len(machine.code)
        self.starts: list[list[int]] = [[] for _ in range(n)]
        self.ends: list[list[int]] = [[] for _ in range(n)]

    def go(self, runs: int):
        """Every engine's run ends, or the Deadlock the engines stop at."""
        m = self.m
        n = len(m.code)
        self.pcs = [m._settle(code, 0, ()) for code in m.code]
        self.fresh = [True] * n  # the engine's next op starts a run
        self.waiting: set[int] = set()
        heap: list[tuple[int, int]] = []
        now = 0
        # An engine whose schedule executes no op takes no part.
        self.live = [e for e in range(n) if self.pcs[e][0] < len(m.code[e])]
        self.runs = runs
        self.events = 0
        for e in self.live:
            self._try(e, now, heap)
        while heap:
            now = heap[0][0]
            ended = []
            while heap and heap[0][0] == now:
                ended.append(heapq.heappop(heap)[1])
            woken: set[int] = set()
            for e in ended:
                woken |= self._end(e)
                self._advance(e, now)
            for e in sorted(set(ended) | woken):
                if e in self.waiting or e in ended:
                    self._try(e, now, heap)
        unfinished = [e for e in self.live if len(self.ends[e]) < runs]
        if unfinished:
            return Deadlock(tuple((m.names()[e], m.ops_text[e][self.pcs[e][0]])
                                  for e in unfinished), self.events)
        return self.ends

    def _advance(self, e: int, now: int) -> None:
        m = self.m
        code = m.code[e]
        ip, loops = self.pcs[e]
        self.pcs[e] = m._settle(code, ip + 1, loops)
        if self.pcs[e][0] >= len(code):
            self.ends[e].append(now)
            if len(self.ends[e]) < self.runs:
                self.pcs[e] = m._settle(code, 0, ())
                self.fresh[e] = True

    def _try(self, e: int, now: int, heap) -> None:
        """Start engine e's next op at `now` if its condition holds, else wait."""
        m = self.m
        ip = self.pcs[e][0]
        if ip >= len(m.code[e]) or len(self.ends[e]) >= self.runs:
            self.waiting.discard(e)
            return
        instr = m.code[e][ip]
        op = instr[0]
        if op == RESERVE:
            b, k = instr[1], instr[2]
            ok = m.depth[b] - self.tokens[b] - self.held[b] >= k
            watch = [("free", b)]
        elif op == WAITFRONT:
            ok = self.tokens[instr[1]] >= instr[2]
            watch = [("tokens", instr[1])]
        elif op == WAIT:
            ok = self.sems[instr[1]] >= instr[2]
            watch = [("sem", instr[1])]
        elif op == BARRIER:
            credits = m.receiver_credits[instr[1]]
            ok = all(self.sems[s] >= 1 for s in credits)
            watch = [("sem", s) for s in credits]
        else:
            ok, watch = True, []
        if not ok:
            self.waiting.add(e)
            for key in watch:
                self.blocked.setdefault(key, set()).add(e)
            return
        self.waiting.discard(e)
        if op == RESERVE:
            self.held[instr[1]] += instr[2]
        elif op == WAIT:
            _, s, k = instr
            self.sems[s] -= k
            if m.credit_of[s] is not None:
                self.held[m.credit_of[s]] += k
        elif op == BARRIER:
            for s, b in zip(m.receiver_credits[instr[1]], m.receivers[instr[1]]):
                self.sems[s] -= 1
                self.held[b] += 1
        if self.fresh[e]:
            self.starts[e].append(now)
            self.fresh[e] = False
        self.events += 1
        heapq.heappush(heap, (now + self.costs[e][ip], e))

    def _end(self, e: int) -> set[int]:
        """The effects of engine e's current op, now that it ends: the engines they may
        unblock."""
        m = self.m
        instr = m.code[e][self.pcs[e][0]]
        op = instr[0]
        touched: list[tuple] = []
        if op in (PUSH, SEND):
            _, b, k = instr
            self.tokens[b] += k
            self.held[b] -= k
            touched.append(("tokens", b))
        elif op == MCAST:
            _, g, k = instr
            for b in m.receivers[g]:
                self.tokens[b] += k
                self.held[b] -= k
                touched.append(("tokens", b))
        elif op == POP:
            _, b, k = instr
            self.tokens[b] -= k
            touched.append(("free", b))
        elif op == SIGNAL:
            _, s, k = instr
            self.sems[s] += k
            touched.append(("sem", s))
        woken: set[int] = set()
        for key in touched:
            woken |= self.blocked.pop(key, set())
        return woken

