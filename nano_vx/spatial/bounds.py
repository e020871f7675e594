"""The work a spatial program asks for, counted from its text before anything runs it
(docs/spatial.md, "Bounded work"). Every tool that loads a program runs it or its passes'
outputs on real tensors, and a few numbers of the text (rates, loop bounds, repeat counts,
extents) multiply into the firings and element operations of one run, so a program of a few
lines can ask for more than any machine holds. `asked` counts them; `too_much` says, with
the figures, whether they pass the limits below.

Counted per run:

- **steps**: what the evaluators do one at a time. Before choreography, each firing of a
  stage and each token it takes or puts (the balance equations give the firings); in a
  choreography, each op its schedules execute (`repeat` bodies times their counts) and each
  token an op with a count moves. Every evaluator also lists the points of each tiled
  access's loop nest, which count too.
- **elements**: what numpy computes and copies: a load's or store's tile per firing (or
  `read`, `write`), and per firing of a compute or scalar stage its element operations as the
  work model counts them (`OpWorks.element_ops`: a matmul one per row, inner and column of
  every pair of tiles).

Everything is counted with Python's integers from the text's 64-bit figures, so the count is
exact and takes time in the size of the text, never in the work.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .balance import RateError, repetitions
from .ops import loop_count
from .program import ins, outs
from .work import OpWorks, executions

# The evaluators take 3 to 6 µs a step (actors; a choreography less) and numpy 1 to 5 ns an
# element operation (a matmul in BLAS the most), so one run within both limits takes a few
# seconds at most, and `nano-vx spatial`, which runs each IL of the lane on each input of its
# corpus, a minute or two. The reference programs (examples/spatial) take at most 22,000
# steps and 332,000 element operations a run at any IL.
STEP_LIMIT = 500_000
ELEMENT_LIMIT = 1 << 28
# A Vx kernel's own run, by the reference interpreter (to check from-vx), takes some 4 to 8 µs
# an element operation: a kernel of more is not run there.
INTERPRETED_LIMIT = 1 << 22
# The ops of a schedule that move `count` tokens one by one.
_TOKEN_OPS = frozenset({"Reserve", "Push", "Send", "Multicast", "WaitFront", "Pop"})


@dataclass
class Asked:
    """The steps and element operations of one run, and who asks for them: a stage, or a
    schedule's engine."""

    steps: dict[str, int] = field(default_factory=dict)
    elements: dict[str, int] = field(default_factory=dict)

    @property
    def total_steps(self) -> int:
        return sum(self.steps.values())

    @property
    def total_elements(self) -> int:
        return sum(self.elements.values())

    def add(self, who: str, steps: int, elements: int = 0) -> None:
        self.steps[who] = self.steps.get(who, 0) + steps
        self.elements[who] = self.elements.get(who, 0) + elements


def asked(graph) -> Asked | None:
    """The work of one run of `graph`, a well-formed program (`validate`); None when its
    rates have no solution (E7003), which leaves its firings unknown."""
    works = OpWorks(graph)
    p, total = works.p, Asked()
    for st in p.stages.values():
        if hasattr(st, "loops"):
            total.add(st.name, loop_count(st.loops))
    if p.table("schedules"):
        for sched in p.table("schedules"):
            who = f"schedule {sched.site} {sched.engine}"
            for op, times in executions(sched.ops):
                moved = op.count if op._prod in _TOKEN_OPS else 0
                total.add(who, times * (1 + max(moved, 0)), times * _elements(works, op))
        return total
    try:
        reps = repetitions(p)
    except RateError:
        return None
    for name, st in p.stages.items():
        tokens = sum(port.rate for port in (*ins(st), *outs(st)))
        total.add(name, reps[name] * (1 + tokens), reps[name] * _firing(works, st))
    return total


def _firing(works: OpWorks, st) -> int:
    """Element operations of one firing of a stage."""
    if st._prod == "Load":
        return works.elements(outs(st)[0].stream) if outs(st) else 0
    if st._prod == "Store":
        return works.elements(st.input.stream)
    return works.element_ops(st)


def _elements(works: OpWorks, op) -> int:
    """Element operations of one execution of a schedule op."""
    if op._prod == "Write":
        return works.elements(op.buffer)
    if op._prod in ("Read", "Fire"):
        return _firing(works, works.p.stages[op.stage])
    return 0


def too_much(work: Asked) -> str | None:
    """What passes the limits, with the figures, or None."""
    steps, elements = work.total_steps, work.total_elements
    if steps <= STEP_LIMIT and elements <= ELEMENT_LIMIT:
        return None
    # The figure furthest past its limit names who asks the most.
    over, table = (("steps", work.steps) if steps * ELEMENT_LIMIT > elements * STEP_LIMIT
                   else ("element operations", work.elements))
    most = max(table, key=table.get)
    return (f"one run of the program takes {steps:,} steps and {elements:,} element operations "
            f"('{most}' {table[most]:,} {over}); nano-vx evaluates a spatial program of at most "
            f"{STEP_LIMIT:,} steps and {ELEMENT_LIMIT:,} element operations a run")


def too_much_to_interpret(work: Asked, kernel: str) -> str | None:
    """Whether the Vx kernel the program was bridged from asks for more than the reference
    interpreter runs: what, with the figures, or None."""
    elements = work.total_elements
    if elements <= INTERPRETED_LIMIT:
        return None
    return (f"the Vx kernel '{kernel}' takes {elements:,} element operations a run; nano-vx "
            f"spatial runs a kernel in the reference interpreter to check from-vx, and at most "
            f"{INTERPRETED_LIMIT:,} element operations of one")
