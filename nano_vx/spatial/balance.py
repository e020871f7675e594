"""The balance equations of a synchronous-dataflow graph: for every stream,
firings(producer) x rate out = firings(consumer) x rate in. Their smallest positive integer
solution is how often each stage fires in one run (the repetition vector); a graph whose
equations have no solution would pile tokens up or starve, and is refused. A tiled load or
store fires once per point of its loop nest, which fixes the scale of its part of the graph:
the solution is multiplied up to meet it, and accesses that ask for different scales are
refused. A stage that accumulates over n firings puts its outputs' rates every n-th firing,
so its outputs count 1/n of a firing's rate."""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction
from math import gcd, lcm

from .ops import accumulating, loop_count
from .program import Program, ins, outs


class RateError(Exception):
    """The balance equations have no solution, or a tiled access disagrees with them."""


# The solutions of the last stages tuples solved, by identity (each kept beside its tuple, so
# that an id is never another tuple's): the trees are immutable and a pass that leaves the
# stages alone keeps their tuple, so the lane's dozens of asks of one program (each pass,
# the simulations, the oracles) solve it once.
_SOLVED: OrderedDict[int, tuple[tuple, dict[str, int]]] = OrderedDict()


def repetitions(program: Program) -> dict[str, int]:
    """Firings per stage, smallest in each connected part of the graph."""
    stages = program.graph.stages
    if type(stages) is not tuple:  # not a tree's: it might change under the cache
        return _solve(program)
    hit = _SOLVED.get(id(stages))
    if hit is None or hit[0] is not stages:
        hit = _SOLVED[id(stages)] = (stages, _solve(program))
        if len(_SOLVED) > 32:
            _SOLVED.popitem(last=False)
    else:
        _SOLVED.move_to_end(id(stages))
    return dict(hit[1])


def _solve(program: Program) -> dict[str, int]:
    links: dict[str, list[tuple[str, Fraction, str]]] = {n: [] for n in program.stages}
    for name, st in program.stages.items():
        every = st.over if accumulating(st) else 1
        for port in outs(st):
            other = program.consumer(port.stream)
            # firings(other) = firings(name) * rate_out / (every * rate_in)
            put = Fraction(port.rate, every)
            links[name].append((other.stage, put / other.rate, port.stream))
            links[other.stage].append((name, other.rate / put, port.stream))
    reps: dict[str, int] = {}
    for root in program.stages:
        if root not in reps:
            reps.update(_scaled(program, _component(program, links, root)))
    return reps


def _component(program, links, root) -> dict[str, int]:
    ratio = {root: Fraction(1)}
    todo = [root]
    while todo:
        here = todo.pop()
        for there, factor, stream in links[here]:
            want = ratio[here] * factor
            if there not in ratio:
                ratio[there] = want
                todo.append(there)
            elif ratio[there] != want:
                p, c = program.producer(stream), program.consumer(stream)
                raise RateError(
                    f"the rates are inconsistent at stream '{stream}': '{p.stage}' puts "
                    f"{p.rate} and '{c.stage}' takes {c.rate} per firing, which needs "
                    f"'{there}' to fire {_ratio(want / ratio[here])} times as often as "
                    f"'{here}' along one path and {_ratio(ratio[there] / ratio[here])} along "
                    f"another")
    scale = lcm(*(r.denominator for r in ratio.values()))
    counts = {name: int(r * scale) for name, r in ratio.items()}
    common = gcd(*counts.values())
    return {name: n // common for name, n in counts.items()}


def _ratio(r: Fraction) -> str:
    return str(r.numerator) if r.denominator == 1 else f"{r.numerator}/{r.denominator}"


def _scaled(program: Program, base: dict[str, int]) -> dict[str, int]:
    """The component's solution times the factor its tiled accesses ask for."""
    factor, fixed_by = None, None
    for name in base:
        st = program.stages[name]
        if st._prod not in ("Load", "Store") or not hasattr(st, "loops"):
            continue
        points = loop_count(st.loops)
        if points % base[name] or (factor is not None and points != factor * base[name]):
            want = f"{factor * base[name]}" if factor is not None else f"a multiple of {base[name]}"
            why = f" to match {fixed_by}" if fixed_by else ""
            raise RateError(
                f"{st._prod.lower()} '{name}' walks {points} tiles of '{st.tensor}', but the "
                f"balance equations make it fire {want} times{why}")
        if factor is None:
            factor, fixed_by = points // base[name], f"'{name}'"
    return {name: n * (factor or 1) for name, n in base.items()}


def port_tokens(program: Program, reps: dict[str, int]) -> dict[str, int]:
    """Tokens each stream carries in one run."""
    return {port.stream: reps[name] * port.rate
            for name, st in program.stages.items() for port in ins(st)}
