"""explicate-calls: Ldrops -> Lcalls."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..backend.buffers import distinct_parameters
from ..languages.ldrops import Ldrops
from ..languages.lcalls import Lcalls as L
from ..nanopass import Pass, descendants
from ..values.math import MATH


@dataclass
class State:
    fns: frozenset = frozenset()  # the program's functions
    nesting: frozenset = frozenset()  # those that call or launch one of them
    distinct: dict = field(default_factory=dict)  # function -> its noalias parameters


explicate_calls = Pass("explicate-calls", Ldrops, L, """
Say what each call calls: a function of the runtime (`print`, a math built-in) or one of the
program, and whether that function calls or launches others (a launch is a call), and which
tensor parameters no other argument of a call shares.

A name the program gives a function is the program's function, even `print`. A call of the
program's functions is one level deeper than its caller: select-instructions checks the
depth against the limit the interpreter stops at (E9006), so that a recursion stops instead
of running out of stack (or, once LLVM has made it a loop, never ending). The depth need
only be written while a callee that nests calls of its own runs: a leaf reads it nowhere,
so its call checks it and writes nothing, and a loop calling it, once inlined, keeps no
store that stops LLVM from vectorizing it. A tensor parameter that no other argument of any
call shares, nor a reference passed beside it, and that its function never keeps in a cell,
is a NoAliasParam (backend/buffers.py), which LLVM reads as noalias.
""", state=State)


@explicate_calls.on("Program")
def _program(run, program):
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    run.state.fns = frozenset(fns)

    def calls(n):
        return n._prod == "Launch" or n._prod == "Call" and n.callee._prod == "Global" and \
            n.callee.name in fns
    run.state.nesting = frozenset(name for name, fn in fns.items()
                                  if any(map(calls, descendants(fn))))
    run.state.distinct = distinct_parameters(program)
    return run.rebuild(program)


@explicate_calls.on("Fn")
def _fn(run, fn):
    fn, apart = run.rebuild(fn), run.state.distinct.get(fn.name, ())
    return fn.replace(params=tuple(L["NoAliasParam"](p.name, p.type, span=p.span)
                                   if k in apart else p for k, p in enumerate(fn.params)))


@explicate_calls.on("Call")
def _call(run, e):
    if e.callee._prod != "Global":  # lift-closures leaves none: only a dump edited by hand
        run.ctx.diagnostics.error("E1007", e.span, "a call of a value, not of a function")
        return run.walk(e.callee)  # a valid tree: the run stops after this pass
    args, name = tuple(run.walk(a) for a in e.args), e.callee.name
    if name in run.state.fns or (name != "print" and name not in MATH):
        return _call_fn(run, e, name, args, None)
    return L["Builtin"](name, args, span=e.span)


@explicate_calls.on("Launch")
def _launch(run, e):
    return _call_fn(run, e, e.kernel, tuple(run.walk(a) for a in e.args), e.topo)


def _call_fn(run, e, name, args, launch):
    if name not in run.state.fns:
        run.ctx.diagnostics.error("E1007", e.span, f"a call of '{name}', which is no "
                                                   f"function of the program nor the runtime")
    return L["CallFn"](name, args, launch, name in run.state.nesting, span=e.span)
