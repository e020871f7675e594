"""The fixed fair order of the token semantics, fast: what `eval_choreography` runs.

`tokens.run(machine)` steps a persistent `State` one op at a time (decode, loop control,
a new State per step): the reference, about 8 µs per op. This module runs the same order with
the same meaning at a fraction of that cost. Each engine's schedule becomes a Python
generator, written as source from the Machine's compiled code: a `repeat` is a native `for`
loop, an op a few lines on plain lists and ints held in closure cells shared by the engines
(a buffer's queue, reserved slots, staged values, claimed tokens; each semaphore; each
cursor), and a blocking op a `while` that yields until its condition holds. The driver
resumes the engines in turn, each until it blocks or ends, and stops when a round moves none:
the order of `tokens.run`.

Each op makes the checks of `Machine.step` before it changes anything. When one fails, or
when no engine moves, the cells are turned back into a `State` (each engine's program counter
recovered from the ops it executed), and the reference names the result: `Machine.step` runs
the faulty op on that State and returns its Overflow or Underflow, `Machine.outcome` the
Deadlock or Finished. Every outcome is built by the reference's own code, message and step
count included. tests/oracle/test_fast.py checks this runner against the stepper, outcome and
final state, on the reference programs, hand-written and broken choreographies and random
graphs.

A generator's code depends only on its schedule's shape (ops, counts, depths, rates) with
every buffer, semaphore and constant it touches named in order of first use, so engines of
the same shape (every reader of a tiled GEMM) share one compiled code object, bound to their
own cells, and later programs reuse it from a cache. A schedule nesting more repeats than
CPython compiles is stepped instead.

Speed (benchmarks/spatial_bench.py): about 3.5 million events per second outside numpy; on
the GEMMs the tile computations of ops.fire, the same numpy calls as the stepper's, take most
of the run.
"""

from __future__ import annotations

import builtins
import types
from functools import lru_cache

from pyrsistent import pvector

from ..spatial import ops
from ..spatial.program import is_copy
from .tokens import (BARRIER, FIRE, LOOP, MCAST, POP, PUSH, READ, RESERVE, SEND, SIGNAL, WAIT,
                     WAITFRONT, WRITE, Machine, State, run)

# What the generated code sees besides its cells.
_GLOBALS = {"__builtins__": builtins}
# Cells the generated code assigns (ints); the other cells hold lists or constants.
_ASSIGNED = frozenset({"r", "l", "m", "k", "F"})
# CPython compiles at most 20 nested blocks: the loops, and the `while` of a blocking op.
MAX_LOOPS = 19


class TooDeep(Exception):
    """A schedule nests its repeats deeper than Python can compile: `run_fast` steps it."""


class FastMachine:
    """A Machine's schedules compiled to generators; `run()` runs them from the initial
    state in the fixed fair order, as often as asked. `fire` computes a stage's firing:
    ops.fire, or (benchmarks/spatial_bench.py) a timed one that tells the numpy time from the
    runner's."""

    def __init__(self, machine: Machine, fire=ops.fire):
        self.machine = machine
        self.start = machine.initial()
        self.sizes = [_loop_sizes(code) for code in machine.code]
        self.constants: dict[tuple, object] = {("fire",): fire, ("accumulate",): ops.accumulate}
        self.engines = []  # per engine: its code object and the cell key of each free name
        for e, code in enumerate(machine.code):
            source, keys = _Writer(self, e).engine(code)
            compiled = _compile(source)
            self.engines.append((compiled, [keys[name] for name in compiled.co_freevars]))

    def constant(self, key: tuple, value) -> tuple:
        self.constants[key] = value
        return key

    def run(self):
        """The outcome of `tokens.run(machine)`: Finished, Deadlock, Overflow or Underflow."""
        end = self.final()
        return self.machine.outcome(end) if isinstance(end, State) else end

    def final(self):
        """The State where no engine is enabled any more, or the Overflow or Underflow the
        run stopped at."""
        cells = self._cells()
        names = self.machine.names()
        gens = [types.FunctionType(code, _GLOBALS, names[e], None,
                                   tuple(cells[key] for key in keys))()
                for e, (code, keys) in enumerate(self.engines)]
        counts, faulty = _drive(gens)
        state = self._state(cells, counts)
        if faulty is None:
            return state
        fault = self.machine.step(state, faulty)
        if isinstance(fault, State):
            raise RuntimeError(f"the compiled {names[faulty]} faults at op {counts[faulty]} "
                               f"where Machine.step does not")
        return fault

    def _cells(self) -> dict[tuple, types.CellType]:
        """A fresh cell for each part of the initial state, and one per constant."""
        start = self.start
        cells = {key: types.CellType(value) for key, value in self.constants.items()}
        for b in range(len(start.queues)):
            cells["q", b] = types.CellType(list(start.queues[b]))
            cells["r", b] = types.CellType(start.reserved[b])
            cells["l", b] = types.CellType(start.claimed[b])
        for slot, values in enumerate(start.staged):
            cells["s", slot] = types.CellType(list(values))
        for s, value in enumerate(start.sems):
            cells["m", s] = types.CellType(value)
        for c, value in enumerate(start.cursors):
            cells["k", c] = types.CellType(value)
        for h, value in enumerate(start.held):
            cells["H", h] = types.CellType([value])  # a list: the engine sets its item
        cells["F",] = types.CellType(start.fires)
        cells["W",] = types.CellType(list(start.writes))
        return cells

    def _state(self, cells, counts: list[int]) -> State:
        """The cells as the stepper's State, each engine having executed `counts` ops."""
        start, m = self.start, self.machine

        def each(kind: str, like, wrap=lambda v: v):
            return pvector(wrap(cells[kind, i].cell_contents) for i in range(len(like)))

        pcs = pvector(_pc(code, sizes, c) for code, sizes, c in zip(m.code, self.sizes, counts))
        return State(pcs, each("q", start.queues, tuple), each("r", start.reserved),
                     each("s", start.staged, tuple), each("m", start.sems),
                     each("k", start.cursors), pvector(cells["W",].cell_contents),
                     pvector(counts), each("l", start.claimed), sum(counts),
                     cells["F",].cell_contents, each("H", start.held, lambda v: v[0]))


def run_fast(machine: Machine):
    """`tokens.run(machine)`, from the initial state, compiled (stepped where a schedule
    nests too deep to compile)."""
    try:
        fast = FastMachine(machine)
    except TooDeep:
        return run(machine)
    return fast.run()


def _drive(gens) -> tuple[list[int], int | None]:
    """Resume the engines in turn, each until it blocks (yielding the ops it has executed)
    or ends (returning them, or in a 1-tuple the ops before the one that faults), until a
    round moves none or an op faults: the ops each engine executed, and the engine whose
    next op faults, if one does."""
    counts = [0] * len(gens)
    active = [(e, g.__next__) for e, g in enumerate(gens)]
    ended: set[int] = set()
    while active:
        progressed = False
        for e, resume in active:
            try:
                c = resume()
            except StopIteration as stop:
                c = stop.value
                if type(c) is tuple:
                    counts[e] = c[0]
                    return counts, e
                ended.add(e)
            if c != counts[e]:
                counts[e] = c
                progressed = True
        if not progressed:
            break
        if ended:
            active = [a for a in active if a[0] not in ended]
    return counts, None


@lru_cache(maxsize=1024)
def _compile(source: str) -> types.CodeType:
    """The code object of the generator `engine` in `source`, whose free names are bound
    to cells when a run starts."""
    namespace: dict = {}
    exec(compile(source, "<fast engine>", "exec"), dict(_GLOBALS), namespace)
    return namespace["factory"]().__code__


# -- program counters -----------------------------------------------------------------------


def _loop_sizes(code) -> dict[int, int]:
    """For each loop (by the ip of its LOOP), the ops one pass through its body executes."""
    sizes: dict[int, int] = {}

    def block(ip: int, stop: int) -> int:
        ops = 0
        while ip < stop:
            instr = code[ip]
            if instr[0] == LOOP:
                sizes[ip] = block(ip + 1, instr[2] - 1)
                ops += sizes[ip] * max(instr[1], 0)
                ip = instr[2]
            else:
                ops += 1
                ip += 1
        return ops

    block(0, len(code))
    return sizes


def _pc(code, sizes: dict[int, int], done: int) -> tuple:
    """The settled (ip, remaining iterations of each open loop) of an engine that has
    executed `done` ops, as `Machine._settle` leaves it."""
    ip, stop, loops = 0, len(code), ()
    while ip < stop:
        instr = code[ip]
        if instr[0] == LOOP:
            size = sizes[ip]
            total = size * max(instr[1], 0)
            if done < total:
                loops += (instr[1] - done // size,)
                done %= size
                ip, stop = ip + 1, instr[2] - 1
            else:
                done -= total
                ip = instr[2]
        elif done == 0:
            return (ip, loops)
        else:
            done -= 1
            ip += 1
    return (len(code), ())


# -- writing an engine ----------------------------------------------------------------------


class _Writer:
    """Writes one engine's generator. `c` counts the ops executed up to the last loop
    boundary; `self.pending` the ops since, known when the code is written, so the count is
    only updated once per straight run of ops."""

    def __init__(self, fast: FastMachine, e: int):
        self.fast, self.m, self.e = fast, fast.machine, e
        self.names: dict[tuple, str] = {}  # cell key -> its name in this engine
        self.keys: dict[str, tuple] = {}
        self.used: dict[str, int] = {}  # per kind of cell, how many are named
        self.lines: list[str] = []
        self.depth = 2
        self.pending = 0
        self.yields = False

    def engine(self, code) -> tuple[str, dict[str, tuple]]:
        self.block(code, 0, len(code))
        self.emit(f"return {self.count()}")
        if not self.yields:
            self.emit("yield  # never reached: makes `engine` a generator like the others")
        names = sorted(self.keys)
        head = ["def factory():"]
        if names:
            head.append(f"    {' = '.join(names)} = None")
        head.append("    def engine():")
        assigned = [n for n in names if self.keys[n][0] in _ASSIGNED]
        if assigned:
            head.append(f"        nonlocal {', '.join(assigned)}")
        head.append("        c = 0")
        return "\n".join(head + self.lines + ["    return engine", ""]), self.keys

    # -- names and lines --

    def cell(self, *key) -> str:
        """The name of a cell of the run's state in this engine: its kind and a number in
        order of first use."""
        name = self.names.get(key)
        if name is None:
            kind = key[0]
            n = self.used[kind] = self.used.get(kind, -1) + 1
            name = self.names[key] = f"{kind}{n}" if len(key) > 1 else kind
            self.keys[name] = key
        return name

    def const(self, kind: str, at: int, value) -> str:
        """A constant of this engine (`at`: the ip of its op, or the buffer or semaphore it
        names)."""
        return self.cell(*self.fast.constant((kind, self.e, at), value))

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def count(self) -> str:
        return f"c + {self.pending}" if self.pending else "c"

    def settle(self) -> None:
        if self.pending:
            self.emit(f"c += {self.pending}")
            self.pending = 0

    def block_until(self, condition: str) -> None:
        """Yield until `condition` holds."""
        self.emit(f"while not ({condition}):")
        self.emit(f"    yield {self.count()}")
        self.yields = True

    def fault(self, *tests: str) -> None:
        """If any of `tests` holds, the op faults: end, for Machine.step to say how."""
        self.emit(f"if {' or '.join(tests)}:")
        self.emit(f"    return ({self.count()},)")

    # -- the code --

    def block(self, code, ip: int, stop: int) -> None:
        while ip < stop:
            instr = code[ip]
            if instr[0] == LOOP:
                if self.depth - 1 > MAX_LOOPS:
                    raise TooDeep(f"{self.m.names()[self.e]} nests more than {MAX_LOOPS} "
                                  f"repeats")
                self.settle()
                self.emit(f"for _ in range({instr[1]}):")
                self.depth += 1
                before = len(self.lines)
                self.block(code, ip + 1, instr[2] - 1)
                self.settle()
                if len(self.lines) == before:
                    self.emit("pass")
                self.depth -= 1
                ip = instr[2]
            else:
                getattr(self, _OPS[instr[0]])(ip, *instr[1:])
                self.pending += 1
                ip += 1

    def reserve(self, ip, b, k):
        q, r = self.cell("q", b), self.cell("r", b)
        self.block_until(f"{self.m.depth[b]} - len({q}) - {r} >= {k}")
        self.emit(f"{r} += {k}")

    def read(self, ip, tensor, slices, target, cursor):
        staged, c = self.cell("s", target), self.cell("k", cursor)
        t, sl = self.const("T", ip, tensor), self.const("SL", ip, slices)
        self.emit(f"{staged}.append({t}[{sl}[{c} % {len(slices)}]])")
        self.emit(f"{c} += 1")

    def fire(self, ip, stage, inputs, targets, dtype, held):
        st = self.const("ST", ip, stage)
        queues = [(self.cell("q", b), rate) for b, rate in inputs]
        if queues:
            self.fault(*(f"len({q}) < {rate}" for q, rate in queues))
        taken = [f"{q}[:{rate}]" for q, rate in queues]
        dt = self.const("DT", ip, dtype)
        if held is None:
            self.emit(f"made = {self.cell('fire')}({st}, [{', '.join(taken)}], {dt})")
        else:
            h = self.cell("H", held)
            self.emit(f"{h}[0], made = {self.cell('accumulate')}({st}, [{', '.join(taken)}], "
                      f"{dt}, {h}[0])")
        for t in targets:
            self.emit(f"{self.cell('s', t)}.extend(made)")
        if not is_copy(stage):
            self.emit(f"{self.cell('F')} += 1")

    def put_checks(self, b: int, k: int) -> list[str]:
        """`Machine._put_check` but for the staged values, checked by the caller."""
        q, r = self.cell("q", b), self.cell("r", b)
        return [f"{r} < {k}", f"len({q}) + {k} > {self.m.depth[b]}"]

    def push(self, ip, b, k):
        q, r, staged = self.cell("q", b), self.cell("r", b), self.cell("s", b)
        self.fault(f"len({staged}) < {k}", *self.put_checks(b, k))
        self.emit(f"{q}.extend({staged}[:{k}])")
        self.emit(f"del {staged}[:{k}]")
        self.emit(f"{r} -= {k}")

    send = push

    def multicast(self, ip, g, k):
        m = self.m
        slot = len(m.buffers) + g
        staged = self.cell("s", slot)
        # Every check reads the state before the multicast, as Machine.step's do.
        self.fault(f"len({staged}) < {k}", *(t for b in m.receivers[g]
                                              for t in self.put_checks(b, k)))
        for b in m.receivers[g]:
            self.emit(f"{self.cell('q', b)}.extend({staged}[:{k}])")
            self.emit(f"{self.cell('r', b)} -= {k}")
        self.emit(f"del {staged}[:{k}]")

    def wait_front(self, ip, b, k):
        self.block_until(f"len({self.cell('q', b)}) >= {k}")

    def pop(self, ip, b, k):
        q, claimed = self.cell("q", b), self.cell("l", b)
        self.fault(f"len({q}) < {k}")
        self.emit(f"del {q}[:{k}]")
        self.emit(f"{claimed} = {claimed} - {k} if {claimed} > {k} else 0")

    def wait(self, ip, s, k):
        sem = self.cell("m", s)
        self.block_until(f"{sem} >= {k}")
        self.emit(f"{sem} -= {k}")
        if self.m.credit_of[s] is not None:
            self.emit(f"{self.cell('r', self.m.credit_of[s])} += {k}")
        if self.m.data_of[s] is not None:
            self.emit(f"{self.cell('l', self.m.data_of[s])} += {k}")

    def signal(self, ip, s, k):
        """`Machine._signal_check`, then the signal."""
        m, sem = self.m, self.cell("m", s)
        tests = []
        b = m.credit_of[s]
        if b is not None:
            tests.append(f"{sem} + {k} + {self.cell('r', b)} + len({self.cell('q', b)}) "
                         f"> {m.depth[b]}")
        b = m.data_of[s]
        if b is not None:
            tests.append(f"{sem} + {k} + {self.cell('l', b)} > len({self.cell('q', b)})")
        if tests:
            self.fault(*tests)
        self.emit(f"{sem} += {k}")

    def barrier(self, ip, g):
        m = self.m
        sems = [self.cell("m", s) for s in m.receiver_credits[g]]
        if sems:
            self.block_until(" and ".join(f"{sem} >= 1" for sem in sems))
        for sem, b in zip(sems, m.receivers[g]):
            self.emit(f"{sem} -= 1")
            self.emit(f"{self.cell('r', b)} += 1")

    def write(self, ip, b, tensor, slices, cursor):
        q, c = self.cell("q", b), self.cell("k", cursor)
        self.fault(f"not {q}")
        sl = self.const("SL", ip, slices)
        self.emit(f"{self.cell('W')}.append(({self.const('TN', ip, tensor)}, "
                  f"{sl}[{c} % {len(slices)}], {q}[0]))")
        self.emit(f"{c} += 1")


_OPS = {RESERVE: "reserve", READ: "read", FIRE: "fire", PUSH: "push", SEND: "send",
        MCAST: "multicast", WAITFRONT: "wait_front", POP: "pop", WAIT: "wait",
        SIGNAL: "signal", BARRIER: "barrier", WRITE: "write"}


def eval_choreography(program, inputs: dict):
    """Run a choreographed program on its inputs: Finished (with the output tensors),
    Deadlock, Overflow or Underflow. The fixed fair order of `run`, compiled."""
    return run_fast(Machine(program, inputs))
