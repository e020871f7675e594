"""insert-seam-assumes: Lkernels -> Lassumed."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import contract_clauses, nested_blocks
from ..languages.lkernels import Lkernels
from ..languages.lassumed import Lassumed
from ..nanopass import Pass
from ..scalars.function_locals import computed_from

L = Lassumed


@dataclass
class State:
    assumed: dict = field(default_factory=dict)  # kernel -> the conditions every launch proves


insert_seam_assumes = Pass("insert-seam-assumes", Lkernels, Lassumed, """
With --emit-seam-certs, start each kernel with the host's proofs about what it receives.

A host `assert(c)` is a certificate for the code after it: c holds there. Where such an
assert dominates a launch (it comes before it in the same block or an enclosing one, not in a
branch or a loop body that has ended) and every local c mentions is one the kernel receives
and cannot change (a parameter, or a `let` without `mut`), c is true whenever the kernel
runs: the kernel gets `assume(c)` first, which the back end lowers to `llvm.intr.assume`, so
the kernel's own code may be simplified by a fact only the host knew. A kernel launched from
several places gets only the conditions every launch proves. c may hold literals, locals,
arithmetic, comparisons and logic; a condition that reads a tensor or calls a function is not
carried (the kernel could see other values). A `requires` of the launching function that
verify-contracts proved at every call is such a certificate too, from the function's first
statement on: a kernel can be compiled against its caller's contract. Host code gets none;
without the flag no kernel does.
""", state=State, requires=("proved_requires",))


@insert_seam_assumes.on("Program")
def _program(run, program):
    if run.ctx.emit_seam_certs:
        launches: dict = {}
        params = {item.name: [p.name for p in item.params] for item in program.items
                  if item._prod == "Fn"}
        for item in program.items:
            if item._prod == "Fn":
                fixed = _immutable_params(item)
                _proofs(item.body, fixed, _required(run, item, fixed), launches, params)
        run.state.assumed = {k: [c for c in conds[0] if all(c in other for other in conds)]
                             for k, conds in launches.items()}
    return run.rebuild(program)


@insert_seam_assumes.on("Fn")
def _fn(run, fn):
    fn = run.rebuild(fn)
    conds = run.state.assumed.get(fn.name)
    if not conds:
        return fn
    assumes = tuple(L["Assume"](c, span=c.span) for c in conds)
    return fn.replace(body=fn.body.replace(stmts=assumes + fn.body.stmts))


def _required(run, fn, fixed: set[str]) -> list:
    """The conditions of `fn`'s `requires` that every call was proved to establish."""
    proved = run.ctx.proved_requires.get(fn.name, frozenset())
    clauses = [c for c in contract_clauses(fn.body) if c._prod == "Requires"]
    return [c.cond for i, c in enumerate(clauses) if i in proved and computed_from(c.cond, fixed)]


def _immutable_params(fn) -> set[str]:
    return {p.name for p in fn.params}


def _proofs(block, fixed: set[str], proved: list, launches: dict, params: dict) -> None:
    """Walk a block in order: each assert over fixed locals is proved for what follows it in
    this block; each launch records what is proved where it is, in the names of the kernel's
    parameters (`params`: function -> its parameters' names)."""
    proved = list(proved)
    fixed = set(fixed)
    for stmt in block.stmts:
        kind = stmt._prod
        if kind == "Assert" and computed_from(stmt.cond, fixed):
            proved.append(stmt.cond)
        elif kind == "Let" and not stmt.mutable:
            fixed.add(stmt.name)
        for launch in _launches(stmt):
            # A local passed to the kernel is its parameter in the same place: outline-kernels
            # names the two alike, a hand-written IL may not.
            received = {a.name: p for a, p in zip(launch.args, params.get(launch.kernel, ()))
                        if a._prod == "Local"}
            here = [_renamed(c, received) for c in proved if _locals(c) <= received.keys()]
            launches.setdefault(launch.kernel, []).append(here)
        for inner in nested_blocks(stmt):
            _proofs(inner, fixed, proved, launches, params)


def _renamed(cond, names: dict):
    """`cond` with each local named as `names` maps it."""
    kind = cond._prod
    if kind == "Local":
        return cond.replace(name=names[cond.name])
    if kind == "Unary":
        return cond.replace(operand=_renamed(cond.operand, names))
    if kind == "Binary":
        return cond.replace(left=_renamed(cond.left, names), right=_renamed(cond.right, names))
    return cond


def _locals(cond) -> set[str]:
    kind = cond._prod
    if kind == "Local":
        return {cond.name}
    if kind == "Unary":
        return _locals(cond.operand)
    if kind == "Binary":
        return _locals(cond.left) | _locals(cond.right)
    return set()


def _launches(stmt):
    """The launches a statement makes itself (not those of the blocks nested in it)."""
    for expr in (getattr(stmt, "value", None), getattr(stmt, "expr", None)):
        if expr is not None and getattr(expr, "_prod", None) == "Launch":
            yield expr
