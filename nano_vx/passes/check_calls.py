"""check-calls: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis, descendants
from ..placement.scopes import Scope, Where, scopes_of
from ..placement.type_checking import NOT_SCALARS, CheckingTyper, loose_scopes
from ..placement.typer import (OPAQUE, Typer, common, fits, kind, known, literal, show,
                               value_type)
from ..placement.types import Machine, element_value
from ..values.math import ARITY, FLOAT_ONLY, MATH


@dataclass
class State:
    machine: Machine | None = None
    typer: Typer | None = None
    functions: dict = field(default_factory=dict)  # name -> Fn node
    scopes: dict[str, Scope] = field(default_factory=dict)
    plains: dict[str, Scope] = field(default_factory=dict)
    scope: Scope | None = None  # the current function's locals
    plain: Scope | None = None  # the same, a local bound to a literal of the literal's type
    closures: dict = field(default_factory=dict)  # local -> the Closure a `let` binds it to
    where: Where | None = None  # where the code being walked runs


check_calls = Analysis("check-calls", Lrouted, """
Refuse a call that does not match its callee (E3010, E3003, E6029) or that runs it elsewhere (E6001).

A call of a function of the program, or of the closure a variable is bound to (by a `let`
that is not `mut`), passes as many arguments as it has parameters (E3010), each of the
parameter's type where the parameter has one written (E3003): the same scalar (an unsuffixed literal, a local bound to one
without a written type, and arithmetic on those, fits any integer or any float type: the
interpreter converts the local's i32 or f64 to the parameter's type, as a `let` of that type
does), the same tensor element type, extents and memory space. A raw pointer
fits a parameter of its element type pointing into the same space (a `*mut` fits a `*const`);
a pointer into a device's memory passed where the parameter wants host memory (a parameter
written `*const T` points there) is E6029. A function's result used as a value must exist
(E3003). The message names both types. An instance of a
generic function is checked with its parameters' types made concrete by monomorphize
(`stage$i32` takes an i32); a value whose type placement could not infer is not judged. A
function declared `fn f(..) on Topology::X` runs on X: calling it from code that runs
elsewhere is E6001, naming both topologies. The math built-ins are judged the same way:
`exp`, `log` and `sqrt` take one float, `abs` one number, `max` and `min` two numbers of one
type (E3010 for the count, E3003 for a type). `print` takes one value (E3010), and
`Tensor<T, ..>::fill(v)` a v of T (E3003): each would otherwise stop the program only when
it ran.
""", state=State, skip=DESCRIPTIONS, requires=("model",))


@check_calls.on("Program")
def _program(run, node):
    st = run.state
    st.machine = Machine(run.ctx.model)
    st.typer = CheckingTyper(node, st.machine)  # which knows a string is text
    st.scopes = scopes_of(node, st.typer)
    st.plains = loose_scopes(node, run.ctx.model)
    st.functions = {i.name: i for i in node.items if i._prod == "Fn"}
    run.descend(node)


@check_calls.on("Fn")
def _fn(run, node):
    st = run.state
    st.scope, st.plain = st.scopes[node.name], st.plains[node.name]
    st.where = Where.of(node, st.typer)
    # A variable bound once to a closure holds that closure wherever it is called (locals are
    # unique within a function); one `let mut` may come to hold another.
    st.closures = {n.name: n.value for n in descendants(node) if n._prod == "Let"
                   and not n.mutable and n.value._prod == "Closure"}
    run.descend(node)


@check_calls.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.where.inside(run, node, st.machine)


@check_calls.on("Let")
def _let(run, node):
    value = node.value
    if value._prod == "Call" and _callee(run, value) is not None \
            and _callee(run, value).ret is None:
        run.ctx.diagnostics.error(
            "E3003", value.span,
            f"'{value.callee.name}' returns nothing, but its result is bound to "
            f"'{node.name.partition('#')[0]}'",
            help=[f"give '{value.callee.name}' a result type (`-> T`) and return a value, or "
                  f"call it as a statement"], callee=value.callee.name)
    run.descend(node)


@check_calls.on("Call")
def _call(run, node):
    fn = _callee(run, node)
    closure = run.state.closures.get(node.callee.name) if node.callee._prod == "Local" else None
    if fn is not None and run.state.scope is not None:
        _topology(run, node, fn)
        _arguments(run, node, fn.name, fn.params)
    elif closure is not None and run.state.scope is not None:
        _arguments(run, node, node.callee.name.partition("#")[0], closure.params)
    elif node.callee._prod == "Global" and node.callee.name in MATH \
            and run.state.scope is not None:
        _math(run, node, node.callee.name)
    elif node.callee._prod == "Global" and node.callee.name == "print" and len(node.args) != 1:
        run.ctx.diagnostics.error(
            "E3010", node.span, f"'print' takes 1 argument, but this call passes "
                                f"{len(node.args)}",
            help=["print one value per call: `print(a); print(b);`"],
            callee="print", expected=1, found=len(node.args))
    run.descend(node)


@check_calls.on("TensorNew")
def _tensor_new(run, node):
    """`::fill(v)`'s v is of the element type (check-tensor-constructors counted the
    arguments: v is the last)."""
    st = run.state
    if node.ctor == "fill" and node.args and st.scope is not None:
        value, elem = node.args[-1], element_value(node.type.elem)
        found = st.scope.typer.of(value, st.where.here[-1])
        if value._prod in NOT_SCALARS or not fits(found, elem):
            said = NOT_SCALARS.get(value._prod) or show(found)
            holds = show(node.type.elem) + (f", written as {show(elem)}"
                                            if elem is not node.type.elem else "")
            run.ctx.diagnostics.error(
                "E3003", value.span, f"the value of `::fill` is {said}, but the tensor holds "
                                     f"{holds}",
                help=[f"convert it with `as {show(elem)}`"] if kind(found) in ("int", "float")
                else [], callee="fill", expected=show(elem), found=said)
    run.descend(node)


def _math(run, call, name) -> None:
    """`exp`, `log`, `sqrt` take a float; `abs` a number; `max`, `min` two of one type."""
    args, arity = call.args, ARITY[name]
    if len(args) != arity:
        run.ctx.diagnostics.error(
            "E3010", call.span, f"'{name}' takes {arity} argument{'s' * (arity != 1)}, but "
                                f"this call passes {len(args)}",
            callee=name, expected=arity, found=len(args))
        return
    st = run.state
    found = [st.scope.typer.of(a, st.where.here[-1]) for a in args]
    wanted = ("float",) if name in FLOAT_ONLY else ("int", "float")
    for i, (arg, t) in enumerate(zip(args, found), 1):
        if known(t) and kind(t) not in wanted:
            takes = "a float (f32, f64, ..)" if name in FLOAT_ONLY else "a number"
            run.ctx.diagnostics.error(
                "E3003", arg.span, f"argument {i} of '{name}' is {show(t)}, but '{name}' "
                                   f"takes {takes}",
                help=[f"convert it: `{name}(.. as f64)`"] if kind(t) == "int" else [],
                callee=name, argument=i, found=show(t))
            return
    if len(found) == 2 and all(known(t) for t in found) and \
            common(value_type(found[0]), value_type(found[1])) is OPAQUE:
        run.ctx.diagnostics.error(
            "E3003", args[1].span, f"'{name}' takes two numbers of one type, but these are "
                                   f"{show(found[0])} and {show(found[1])}",
            callee=name, argument=2, expected=show(found[0]), found=show(found[1]))


def _callee(run, call):
    callee = call.callee
    return run.state.functions.get(callee.name) if callee._prod == "Global" else None


def _topology(run, call, fn) -> None:
    if fn.on is None:
        return  # it runs wherever its caller does
    there, here = _base(fn.on.name), _base(run.state.where.topo[-1])
    if there == here:
        return
    run.ctx.diagnostics.error(
        "E6001", call.span,
        f"'{fn.name}' runs on {there} (`fn {fn.name}(..) on Topology::{fn.on.name}`), but "
        f"this call runs on {here}",
        help=[f"call it inside `spawn on(Topology::{fn.on.name}) {{ .. }}`"],
        callee=fn.name, callee_topology=there, caller_topology=here)


def _base(topology: str) -> str:
    return topology.split("[", 1)[0].strip()


def _arguments(run, call, name: str, params) -> None:
    """The arguments of a call of `name` (a function, or the closure a variable holds) that
    takes `params`."""
    args = call.args
    if len(params) != len(args):
        wanted = ", ".join(show(p.type) for p in params)
        run.ctx.diagnostics.error(
            "E3010", call.span,
            f"'{name}' takes {len(params)} argument{'s' * (len(params) != 1)} "
            f"({wanted}), but this call passes {len(args)}",
            callee=name, expected=len(params), found=len(args))
        return
    st = run.state
    for i, (param, arg) in enumerate(zip(params, args), 1):
        if param.type is None:
            continue
        found = st.scope.typer.of(arg, st.where.here[-1])
        if fits(found, param.type) or _converts(run, arg, param.type) or \
                _pointer_fits(run, name, i, arg, found, param.type):
            continue
        run.ctx.diagnostics.error(
            "E3003", arg.span,
            f"argument {i} of '{name}' is {show(found)}, but its parameter "
            f"'{param.name.partition('#')[0]}' is {show(param.type)}",
            callee=name, argument=i, expected=show(param.type), found=show(found))



def _converts(run, arg, wanted) -> bool:
    """A local bound to an unsuffixed literal, without a written type, holds the literal's
    i32 (f64), which converts to the scalar type of the parameter it is given, as it converts
    to the type of a `let` it is given to; so does arithmetic on such locals and literals,
    computed in the i32 (f64) first where the literals take no type from the parameter."""
    if wanted._prod != "Scalar":
        return False
    plain = run.state.plain.typer.of(arg, run.state.where.here[-1])
    return literal(plain) and fits(plain, wanted)


def _pointer_fits(run, name, i, arg, found, wanted) -> bool:
    """A raw pointer passed for a raw pointer: a `*mut` fits a `*const` (as in Rust), and
    the spaces must agree (E6029 when they do not: the callee would dereference memory of
    another space)."""
    if literal(found) or found._prod != "PtrType" or wanted._prod != "PtrType":
        return False
    there, here = found.place, wanted.place
    if there is not None and here is not None and there != here:
        host = run.state.machine.host_space
        wants = "host memory" if here.name == host else f"Memory::{here.name}"
        run.ctx.diagnostics.error(
            "E6029", arg.span,
            f"argument {i} of '{name}' is a pointer into Memory::{there.name}, but the "
            f"parameter wants a pointer into {wants}",
            help=[f"transfer the tensor into {wants} first and take the pointer there "
                  f"(`transfer(t, Memory::{here.name}).as_ptr()`)"],
            callee=name, argument=i, found=there.name, expected=here.name)
        return True
    return fits(found.replace(mutable=wanted.mutable), wanted) \
        and (found.mutable or not wanted.mutable)
