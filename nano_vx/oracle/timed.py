"""The timed mode of the token semantics (docs/spatial.md, "The period"): a discrete-event
simulation of a choreographed program's schedules in which every op takes the cycles the
cost model gives it (nano_vx/spatial/cost.py, `OpCycles`).

It runs the real schedules, with the loop control of the token machine (`tokens.Machine`'s
compiled code and `_settle`, which give the instructions of an engine's run once; every run
replays them), on token counts only: per buffer the tokens in it and the
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
    traces = [_trace(machine, code) for code in machine.code]
    names = machine.names()
    while True:
        sim = _Simulation(machine, traces, costs)
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


def _trace(machine: Machine, code: list) -> list[int]:
    """The instructions one run of an engine executes, in order: its compiled code walked
    with the token machine's loop control (`Machine._settle`). Every run of an engine
    executes the same ones, so each run replays this list."""
    out = []
    ip, loops = machine._settle(code, 0, ())
    while ip < len(code):
        out.append(ip)
        ip, loops = machine._settle(code, ip + 1, loops)
    return out


class _Simulation:
    def __init__(self, machine: Machine, traces: list[list[int]], costs: list[list]):
        self.m = machine
        self.traces = traces
        # Per engine, the instructions and the cycles of one run, in the order it runs them.
        self.instrs = [[code[ip] for ip in trace] for code, trace in zip(machine.code, traces)]
        self.cycles = [[cost[ip] for ip in trace] for cost, trace in zip(costs, traces)]
        nb = len(machine.buffers)
        self.tokens = [0] * nb
        self.held = [0] * nb
        self.sems = [machine.p.semaphores[s].initial for s in machine.sems]
        # The engines waiting for a buffer's tokens (at b), its free slots (at nb + b), a
        # semaphore's count (at 2 nb + s).
        self.waiters: list[set[int]] = [set() for _ in range(2 * nb + len(self.sems))]
        n = len(machine.code)
        self.starts: list[list[int]] = [[] for _ in range(n)]
        self.ends: list[list[int]] = [[] for _ in range(n)]

    def go(self, runs: int):
        """Every engine's run ends, or the Deadlock the engines stop at."""
        m = self.m
        n = len(m.code)
        instrs, cycles, ends, starts = self.instrs, self.cycles, self.ends, self.starts
        tokens, held, sems, waiters = self.tokens, self.held, self.sems, self.waiters
        depth, credit_of = m.depth, m.credit_of
        receivers, receiver_credits = m.receivers, m.receiver_credits
        nb = len(tokens)
        at = [0] * n  # per engine, its next instruction in the run's trace
        length = [len(i) for i in instrs]
        fresh = [True] * n  # the engine's next op starts a run
        waiting: set[int] = set()
        heap: list[tuple[int, int]] = []
        push, pop = heapq.heappush, heapq.heappop
        events = 0

        def start(e: int, now: int) -> None:
            """Start engine e's next op at `now` if its condition holds, else wait."""
            nonlocal events
            k = at[e]
            if k >= length[e] or len(ends[e]) >= runs:
                waiting.discard(e)
                return
            instr = instrs[e][k]
            op = instr[0]
            if op == RESERVE:
                _, b, need = instr
                if depth[b] - tokens[b] - held[b] < need:
                    waiting.add(e)
                    waiters[nb + b].add(e)
                    return
                held[b] += need
            elif op == WAITFRONT:
                if tokens[instr[1]] < instr[2]:
                    waiting.add(e)
                    waiters[instr[1]].add(e)
                    return
            elif op == WAIT:
                _, x, need = instr
                if sems[x] < need:
                    waiting.add(e)
                    waiters[2 * nb + x].add(e)
                    return
                sems[x] -= need
                if credit_of[x] is not None:
                    held[credit_of[x]] += need
            elif op == BARRIER:
                credits = receiver_credits[instr[1]]
                if not all(sems[x] >= 1 for x in credits):
                    waiting.add(e)
                    for x in credits:
                        waiters[2 * nb + x].add(e)
                    return
                for x, b in zip(credits, receivers[instr[1]]):
                    sems[x] -= 1
                    held[b] += 1
            waiting.discard(e)
            if fresh[e]:
                starts[e].append(now)
                fresh[e] = False
            events += 1
            push(heap, (now + cycles[e][k], e))

        # An engine whose schedule executes no op takes no part.
        self.live = [e for e in range(n) if length[e]]
        for e in self.live:
            start(e, 0)
        while heap:
            now = heap[0][0]
            ended = []
            while heap and heap[0][0] == now:
                ended.append(pop(heap)[1])
            woken: set[int] = set()
            # The effects of each ended op, then its engine's next instruction.
            for e in ended:
                instr = instrs[e][at[e]]
                op = instr[0]
                keys: tuple = ()  # the waiters the op's effects may unblock
                if op == PUSH or op == SEND or op == MCAST:
                    _, x, k = instr
                    keys = receivers[x] if op == MCAST else (x,)
                    for b in keys:
                        tokens[b] += k
                        held[b] -= k
                elif op == POP:
                    _, b, k = instr
                    tokens[b] -= k
                    keys = (nb + b,)
                elif op == SIGNAL:
                    _, x, k = instr
                    sems[x] += k
                    keys = (2 * nb + x,)
                for key in keys:
                    if waiters[key]:
                        woken |= waiters[key]
                        waiters[key] = set()
                nxt = at[e] + 1
                if nxt == length[e]:
                    ends[e].append(now)
                    if len(ends[e]) < runs:
                        nxt = 0
                        fresh[e] = True
                at[e] = nxt
            for e in sorted(set(ended) | woken):
                if e in waiting or e in ended:
                    start(e, now)
        unfinished = [e for e in self.live if len(ends[e]) < runs]
        if unfinished:
            return Deadlock(tuple((m.names()[e], m.ops_text[e][self.traces[e][at[e]]])
                                  for e in unfinished), events)
        return ends
