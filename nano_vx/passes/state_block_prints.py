"""state-block-prints: Lmatched -> Lmatched.

Same IL: a block whose value is a `print` gives `()`, as one ending with that `print` as a
statement does, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars.aggregate_types import Typed, printed


@dataclass
class State(Typed):
    stated: set = field(default_factory=set)  # id() of each block this pass left no value


state_block_prints = Pass("state-block-prints", L, L, """
Make each block whose value is a `print` of a struct, tuple or enum end with that `print` as a
statement, and leave it no value.

`|n: i32| print(S { a: n, b: 0.5 })` is `|n: i32| { print(S { a: n, b: 0.5 }); }`, and `fn
show(s: S) { print(s) }` is `fn show(s: S) { print(s); }`: a `print` gives `()`, which is
what a block with no value gives, and expand-aggregate-prints and scalarize-aggregates lower
the `print` of an aggregate as a statement, never as a block's value. An `if` at the end of
a block whose arms end so (`if c { print(s) } else { print(t) }`) is an `if` statement, its
arms so rewritten; a `print` of a scalar is left as it is.
""", state=State)


@state_block_prints.on("Program")
def _program(run, program):
    run.state.enter_program(program)
    return run.rebuild(program)


@state_block_prints.on("Fn")
def _fn(run, fn):
    run.state.enter_function(fn)
    return run.rebuild(fn)


@state_block_prints.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    return _stated(run, block) if block.value is not None and \
        _prints_an_aggregate(run, block.value) else block


def _stated(run, block):
    """block ending with the statement of its value, a `print` or an `if` of them."""
    value = block.value
    if value is None:
        return block
    stmt = L["ExprStmt"](value, span=value.span) if value._prod == "Call" else \
        L["If"](value.cond, value.comptime, _stated(run, value.then),
                _stated(run, value.orelse), span=value.span)
    stated = block.replace(stmts=block.stmts + (stmt,), value=None)
    run.state.stated.add(id(stated))
    return stated


def _prints_an_aggregate(run, e) -> bool:
    """Whether e is a `print` of an aggregate, or an `if` one arm of which the walk below
    left no value for ending so, the other a `print` or no value either."""
    if e._prod == "IfExpr":
        arms = (e.then, e.orelse)
        return any(id(b) in run.state.stated for b in arms) and \
            all(b.value is None or printed(b.value, run.state.sigs) is not None for b in arms)
    arg = printed(e, run.state.sigs)
    return arg is not None and run.state.shape(arg) is not None
