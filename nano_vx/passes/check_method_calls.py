"""check-method-calls: Lresolved, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import Lresolved
from ..languages.lsrc import DESCRIPTIONS
from ..nanopass import Analysis
from ..placement.typer import FLOAT_LIT, INT_LIT, show
from ..placement.types import BOOL
from ..values.math import MATH

# The methods Vx has, each as a call of it is written, and how many arguments it takes; every
# one means a placement or a tensor's extent, which a later pass or the interpreter gives it.
BUILT_IN_METHODS = {
    "to_device": (".to_device()", 0),
    "to_device_relaxed": (".to_device_relaxed()", 0),
    "to_gpu": (".to_gpu()", 0),
    "to_gpu_relaxed": (".to_gpu_relaxed()", 0),
    "topology": (".topology()", 0),
    "try_pin": (".try_pin(Topology::X)", 1),
    "extent": (".extent(i)", 1),
}

# The built-in functions a Rust programmer calls as methods (`x.abs()`, `x.max(y)`).
_FUNCTIONS = MATH | {"print"}

# The type a `let` without an annotation gets from a literal, as a message names it.
_LITERAL_TYPES = {"Int": INT_LIT, "Float": FLOAT_LIT, "Bool": BOOL}


@dataclass
class State:
    impl_fns: dict = field(default_factory=dict)  # method name -> {type name: its Fn}
    types: dict = field(default_factory=dict)  # a local's unique name -> its type, if known


check_method_calls = Analysis("check-method-calls", Lresolved, """
Refuse a method call that is not one of Vx's built-in methods (E2001), with the call to write
instead, and a built-in method given another number of arguments than it takes (E3010).

Vx has no methods of its own making: a function of an `impl` block is called through its
type, `Vec2::dot(&a, &b)`, and the built-in functions as functions, `abs(x)`. The only
methods are the built-in ones, which place a value or ask a tensor's extent:
`.to_device()`, `.to_device_relaxed()`, `.to_gpu()`, `.to_gpu_relaxed()`, `.topology()`,
`.try_pin(Topology::X)` and `.extent(i)` (`.as_ptr()` and `.as_mut_ptr()` are read as
pointers by the parser). Any other `x.m(..)`, or `x.to_gpu(2)`, would pass every check and
stop only when run. The message names the method and, where a parameter's or a `let`'s type
or a literal tells it, the receiver's type; the help is the call through the type when an
impl function of that name exists (the receiver passed as its first parameter takes it: by
value, `&` or `&mut`), the built-in function of that name, else the list of built-in methods.
""", state=State, skip=DESCRIPTIONS)


@check_method_calls.on("Program")
def _program(run, node):
    for item in node.items:
        if item._prod == "Fn" and "::" in item.name:
            owner, name = item.name.rsplit("::", 1)
            run.state.impl_fns.setdefault(name, {})[owner] = item
    run.descend(node)


@check_method_calls.on("Fn")
def _fn(run, node):
    run.state.types = {}  # a local's unique name is unique within its function only
    run.descend(node)


@check_method_calls.on("Param")
def _param(run, node):
    if node.type is not None:
        run.state.types[node.name] = node.type


@check_method_calls.on("Let")
def _let(run, node):
    ty = node.type if node.type is not None else _literal_type(node.value)
    if ty is not None:
        run.state.types[node.name] = ty
    run.descend(node)


@check_method_calls.on("MethodCall")
def _method_call(run, call):
    run.descend(call)
    method = call.method
    if method in BUILT_IN_METHODS:
        _judge_arguments(run, call)
        return
    ty = _receiver_type(run, call.receiver)
    on = f"on a value of type `{show(ty)}`" if ty is not None else "on this value"
    run.ctx.diagnostics.error(
        "E2001", call.span, f"no method named '{method}' {on}: Vx has no methods but its "
                            f"built-in ones", help=[_instead(run, call, ty)], name=method)


def _judge_arguments(run, call):
    written, takes = BUILT_IN_METHODS[call.method]
    if len(call.args) != takes:
        run.ctx.diagnostics.error(
            "E3010", call.span, f"the method '{call.method}' takes {takes} argument"
                                f"{'s' * (takes != 1)}, but this call passes {len(call.args)}",
            help=[f"write `{written}`"], callee=f".{call.method}", expected=takes,
            found=len(call.args))


def _receiver_type(run, receiver):
    if receiver._prod == "Local":
        return run.state.types.get(receiver.name)
    return _literal_type(receiver)


def _literal_type(value):
    """The type a literal (a struct's too) has, None for any other expression."""
    if value._prod == "StructLit":
        return Lresolved["NamedType"](value.name, span=value.span)
    return _LITERAL_TYPES.get(value._prod)


def _instead(run, call, ty) -> str:
    method = call.method
    receiver, args = _text(call.receiver), [_text(a) for a in call.args]
    owners = run.state.impl_fns.get(method, {})
    named = _type_name(ty)
    if owners:
        # The receiver's own type's function; when its type is not known here, each type's.
        calls = []
        for owner in [named] if named in owners else sorted(owners):
            fn = owners[owner]
            first = _passed(fn.params[0].type, ty, receiver) if fn.params else receiver
            calls.append(f"`{owner}::{method}({', '.join([first, *args])})`")
        return f"call the impl's function through its type: {' or '.join(calls)}"
    if method in _FUNCTIONS:
        return f"`{method}` is a built-in function: `{method}({', '.join([receiver, *args])})`"
    listed = ", ".join(f"`{written}`" for written, _ in BUILT_IN_METHODS.values())
    return f"the built-in methods are {listed}"


def _type_name(ty) -> str | None:
    """The struct or enum a receiver's type names, through a reference."""
    while ty is not None and not isinstance(ty, str) and ty._prod == "BorrowType":
        ty = ty.inner
    if ty is not None and not isinstance(ty, str) and ty._prod in ("NamedType", "AppliedType"):
        return ty.name
    return None


def _passed(param_type, receiver_type, receiver: str) -> str:
    """The receiver as the first parameter takes it: borrowed when it takes a reference and
    the receiver is not one already."""
    if param_type is None or param_type._prod != "BorrowType":
        return receiver
    if receiver_type is not None and not isinstance(receiver_type, str) \
            and receiver_type._prod == "BorrowType":
        return receiver
    return f"&mut {receiver}" if param_type.mutable else f"&{receiver}"


def _text(e) -> str:
    span = e.span
    return span.source.text[span.start:span.end] if span is not None else "_"
