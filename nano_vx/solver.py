"""The one door to z3, for the passes that prove something (verify-seams, verify-contracts):
z3 imported on first use, a solver bounded in time (and, when asked, in work), its verdict,
and a model's values as Vx prints them.

z3 is a heavy import, and most compilations never need it: nothing here imports it at
module level, and the compiler imports this module only inside the passes that solve.
"""

from __future__ import annotations

from dataclasses import dataclass

# IEEE formats by Vx float type: (exponent bits, significand bits with the hidden one).
FLOAT_FORMATS = {"f64": (11, 53), "f32": (8, 24), "f16": (5, 11), "bf16": (8, 8)}


# What z3 may allocate, in megabytes, whatever it is asked: beyond it a query is undecided
# ("out of memory", W8002 for a contract), not a compiler that takes the machine's memory.
MEMORY_MB = 4096


def z3():
    """The z3 module, imported (and bounded in memory) on the first call."""
    import z3 as module

    module.set_param("memory_max_size", MEMORY_MB)
    return module


def bounded(timeout_ms: int, rlimit: int | None = None):
    """A z3 solver that gives up after `timeout_ms` of wall-clock time, or after `rlimit`
    units of work (a bound that does not move with the machine's load)."""
    s = z3().Solver()
    s.set("timeout", timeout_ms)
    if rlimit is not None:
        s.set("rlimit", rlimit)
    return s


@dataclass
class Verdict:
    status: str  # "holds" (no counterexample), "fails" (one, in model), or "unknown"
    model: object = None
    reason: str = ""  # z3's reason for an unknown ("timeout", "canceled", ...)

    @property
    def timed_out(self) -> bool:
        return self.status == "unknown" and self.reason in ("timeout", "canceled")


def counterexample(s, *assertions) -> Verdict:
    """Whether `assertions` (the negation of what is to be proved, with its premises) can
    all hold, asked of a fresh solver `s`: a model of them is a counterexample."""
    z = z3()
    s.add(*assertions)
    result = s.check()
    if result == z.unsat:
        return Verdict("holds")
    if result == z.sat:
        return Verdict("fails", s.model())
    return Verdict("unknown", reason=s.reason_unknown())


# The work a minimization may take, in z3's resource units: about nine times what the
# largest case of the tests takes (5.7 million, well under a second). A bound of work, not of time, so the
# counterexample shown is the same on a loaded machine as on an idle one.
MINIMIZE_RLIMIT = 50_000_000
MINIMIZE_MS = 60_000  # a safety net only: the work bound ends every search long before


def smallest(assertions, values):
    """A model of `assertions` in which `values` are as small as they can be, the first
    first: an integer (a bit-vector, given with whether it is signed) closest to zero, then
    positive; a float with the smallest bits (+0.0, then the positive numbers upwards); a
    bool false. The values this names are then one counterexample, whatever z3 solved before
    in this process (a plain model depends on that history), and the most readable. None
    when z3 does not find it within MINIMIZE_RLIMIT units of work: the obligation is already
    refuted, and this only chooses which counterexample to show, so it is bounded by work
    rather than by the per-obligation time limit, whose end would depend on the load.

    Each value is made a bit-vector that orders as it should (the magnitude, then the sign),
    and its bits are fixed from the highest: a bit is 0 if the assertions and the bits fixed
    so far allow it, else 1. That is the lexicographic minimum z3's Optimize finds, in one
    incremental solver that asks a question only of a bit the last model has set (a bit the
    model has clear is clear in a model already): a few checks a value, where Optimize's own
    search took seconds on the contracts of a three-line function."""
    z = z3()
    s = z.Solver()
    s.set("timeout", MINIMIZE_MS)
    s.add(*assertions)
    work = _Work(s)
    if work.check() != z.sat:
        return None
    model = s.model()
    for key in _keys(z, values):
        for i in reversed(range(key.size())):
            bit = z.Extract(i, i, key)
            clear = bit == 0
            if model.eval(bit, model_completion=True).as_long() == 0:
                s.add(clear)
                continue
            result = work.check(clear)
            if result == z.sat:
                model = s.model()
                s.add(clear)
            elif result == z.unsat:
                s.add(bit == 1)
            else:
                return None
    return model


def _keys(z, values):
    """Bit-vectors whose unsigned order, one after the other, is the order `smallest` wants."""
    for v, signed in values:
        if z.is_fp(v):
            yield z.fpToIEEEBV(v)
        elif z.is_bool(v):
            yield z.If(v, z.BitVecVal(1, 1), z.BitVecVal(0, 1))
        elif signed:
            negative = v < 0
            yield z.If(negative, -v, v)
            yield z.If(negative, z.BitVecVal(1, 1), z.BitVecVal(0, 1))
        else:
            yield v


class _Work:
    """The checks of one minimization, bounded together by MINIMIZE_RLIMIT units of work."""

    def __init__(self, solver):
        self.solver = solver
        self.start = _spent(solver)

    def check(self, *assumptions):
        left = MINIMIZE_RLIMIT - (_spent(self.solver) - self.start)
        if left <= 0:
            return z3().unknown
        self.solver.set("rlimit", left)
        return self.solver.check(*assumptions)


def _spent(solver) -> int:
    stats = solver.statistics()
    return stats.get_key_value("rlimit count") if "rlimit count" in stats.keys() else 0


def float_sort(name: str):
    """The z3 sort of a Vx float type."""
    return z3().FPSort(*FLOAT_FORMATS[name])


def constants(exprs) -> set:
    """The names of the uninterpreted constants the z3 expressions `exprs` mention."""
    z = z3()
    found, seen = set(), set()
    stack = list(exprs)
    while stack:
        e = stack.pop()
        key = e.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z.is_const(e) and e.decl().kind() == z.Z3_OP_UNINTERPRETED:
            found.add(e.decl().name())
        stack.extend(e.children())
    return found


def connected(goal, premises) -> set:
    """The constants a counterexample to `goal` under `premises` turns on: those of the goal,
    and of every premise that shares one with them. The other premises constrain constants
    of their own, which any of their values satisfying them leaves the refutation as is."""
    groups = [constants([p]) for p in premises]
    found = constants([goal])
    grew = True
    while grew:
        grew = False
        for g in groups:
            if g & found and not g <= found:
                found |= g
                grew = True
    return found


def show(value, signed: bool = True) -> str:
    """A model's value as Vx would print it: a bit-vector as a signed integer (unless
    `signed` is false), a float as a decimal."""
    z = z3()
    if z.is_bv_value(value):
        n, bits = value.as_long(), value.size()
        return str(n - (1 << bits) if signed and n >= 1 << (bits - 1) else n)
    if z.is_int_value(value):
        return str(value.as_long())
    if z.is_true(value) or z.is_false(value):
        return "true" if z.is_true(value) else "false"
    if z.is_fp_value(value):
        if value.isNaN():
            return "NaN"
        if value.isInf():
            return "inf" if value.isPositive() else "-inf"
        if value.isZero() and value.isNegative():
            return "-0.0"
        return repr(float(z.simplify(z.fpToReal(value)).as_fraction()))
    return str(value)
