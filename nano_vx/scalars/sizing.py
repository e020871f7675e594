"""What hoist-sizing-lets and split-sizing-calls share: the `let`s of integers opening a
function that then makes by `uninit()`, and returns, a tensor of `?` extents naming them;
the `let`s binding a call of such a function; and the program with the copies of the
functions those calls now call."""

from __future__ import annotations

from ..nanopass import descendants
from .aggregates import referred


def integers(e, known: set, calls: bool) -> bool:
    """Whether `e` is integer arithmetic on numbers and the locals `known`, and, with
    `calls`, calls of functions given such values."""
    kind = e._prod
    if kind == "Int":
        return True
    if kind == "Local":
        return e.name in known
    if kind == "Binary":
        return e.op in ("+", "-", "*", "/", "%") and \
            integers(e.left, known, calls) and integers(e.right, known, calls)
    if kind == "Unary":
        return e.op == "-" and integers(e.operand, known, calls)
    if kind == "Cast":
        return e.type._prod == "Scalar" and integers(e.value, known, calls)
    if kind == "Call":
        return calls and e.callee._prod == "Global" and \
            all(integers(a, known, calls) for a in e.args)
    return False


def opening_lets(fn, calls: bool) -> list | None:
    """The `let`s (not `mut`) of scalars, each `integers` (with `calls`) of the function's
    scalar parameters and the `let`s before, opening the function's body, which the tensor
    of `?` extents it makes next by `uninit()` and returns (of `?` extents) names an extent
    of, else None."""
    ret = fn.ret
    if ret is None or ret._prod != "TensorType" or all(d._prod == "DimInt" for d in ret.dims):
        return None
    known = {p.name for p in fn.params if p.type is not None and p.type._prod == "Scalar"}
    lets = []
    for s in fn.body.stmts:
        if s._prod != "Let" or s.mutable or s.type is None or s.type._prod != "Scalar" or \
                not integers(s.value, known, calls):
            break
        lets.append(s)
        known.add(s.name)
    rest = fn.body.stmts[len(lets):]
    made = rest[0].value if rest and rest[0]._prod == "Let" else None
    if not lets or made is None or made._prod != "TensorNew" or made.ctor != "uninit" or \
            not made.args or made.args[0]._prod != "ArrayLit":
        return None
    names = {s.name for s in lets}
    if not any(n._prod == "Local" and n.name in names
               for e in made.args[0].elems for n in descendants(e)):
        return None
    return lets


def binds_call(s, fns: dict, opened: dict) -> bool:
    """Whether `s` is a `let r = f(..)` of a function f of `opened`, given each parameter of
    f (`fns` holds the program's functions by name)."""
    return s._prod == "Let" and s.value._prod == "Call" and \
        s.value.callee._prod == "Global" and s.value.callee.name in opened and \
        len(s.value.args) == len(fns[s.value.callee.name].params)


def with_copies(program, items: list, made: dict):
    """The program of its walked `items` with the copies `made` gives, for each function
    it names, (the name of the copy its calls now call, a function making the copies from
    the function walked), those of a function whose copy nothing calls left out, and
    without each such function nothing calls any more (but main); the program as it was
    when no copy is called."""
    called = {n for i in items for n in referred(i)} | {"main"}
    walked = {i.name: i for i in items if i._prod == "Fn"}  # a copy calls copies as f did
    copies = [copy for name, (callee, make) in made.items() if callee in called
              for copy in make(walked[name])]
    if not copies:
        return program
    return program.replace(items=tuple(i for i in items if i._prod != "Fn" or
                                       i.name not in made or i.name in called) +
                           tuple(copies))
