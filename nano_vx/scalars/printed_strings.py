"""Strings a `print` is given, for number-texts and bind-printed-strings: which values are
strings (the scalar inference, run to type strings as it types any scalar), which `print`s
a statement computes on its way and in which order, and whether every `print` of a string a
call computes is one of those, where a `let` can bind its string first (the program is
numbered whole or not at all)."""

from __future__ import annotations

from ..nanopass import descendants
from ..values.literals import typed_by_place
from . import infer_program
from .aggregate_values import pure
from .terms import Tensor, find


def string_types(program):
    """(types, ranks) of each function where number-texts numbers `program`'s strings
    (types: item name -> {id(value printed): its type}; ranks: item name -> {local holding a
    tensor: its rank}); None where it leaves them: the program holds no string but as
    written in a `print`, the inference refuses it, or a `print` inside an expression is
    given a string a call computes where no `let` can bind it first (_unbound)."""
    printed = printed_as_written(program)
    if not any(n._prod == "Str" and id(n) not in printed or
               n._prod == "NamedType" and n.name == "str" for n in descendants(program)):
        return None
    inferred = infer_program(program, texts=True)
    if inferred.refused:
        return None
    types = {name: {key: find(t) for key, t in infer.printed_terms.items()}
             for name, infer in inferred.items.items()}
    ranks = {name: {local: len(t.dims) for local, term in infer.env.items()
                    if isinstance(t := find(term), Tensor)}
             for name, infer in inferred.items.items()}
    if any(_unbound(item, types, ranks) for item in program.items if item._prod == "Fn"):
        return None
    return types, ranks


def printed_as_written(program) -> set:
    """id() of each string a `print` is given as written: its argument, or a part of the
    aggregate literal it is given."""
    found = set()
    for node in descendants(program):
        if print_call(node) is not None:
            stack = [node.args[0]]
            while stack:
                e = stack.pop()
                if e._prod == "Str":
                    found.add(id(e))
                else:
                    stack += parts(e)
    return found


def _unbound(fn, types: dict, ranks: dict) -> bool:
    """Whether a `print` inside an expression (not one a statement (SLOTS) or a block's
    value computes on its way (reached), where it is bound by a `let` first) is given a
    string a call computes, which a choice of its text would compute once per text (types,
    ranks: each function's)."""
    types, ranks = types[fn.name], ranks.get(fn.name, {})
    tops = [b.value for b in descendants(fn) if b._prod == "Block" and b.value is not None] + \
        [getattr(s, slot(s, fn, ranks)) for s in descendants(fn)
         if slot(s, fn, ranks) is not None]
    at_statements = {id(p) for top in tops if top is not None for p in reached(top, types)}
    return any(print_call(n) is not None and id(n) not in at_statements and
               computed_string(n, types) for n in descendants(fn))


def computed_string(call, types: dict) -> bool:
    """Whether `print` call is given a string a call computes (types: the function's)."""
    return any(types.get(id(e)) == "str" and not pure(e) for e in _leaves(print_call(call)))


def reached(e, types: dict) -> list:
    """The `print`s given a string a call computes that e computes whenever it is computed:
    e itself, or one an argument of a call of a function or a closure variable, or an operand
    of an operator other than `&&` and `||` computes (each computed, in order, after those
    before it); not one inside such a print's own argument."""
    if print_call(e) is not None and computed_string(e, types):
        return [e]
    return [p for operand in operands(e) for p in reached(operand, types)]


def operands(e) -> tuple:
    """e's operands, each computed, in order, whenever e is: a call's arguments, an
    operator's operands, a cast's value, an `if`'s condition; none for any other node."""
    if e._prod == "Call" and e.callee._prod in ("Global", "Local"):
        return e.args
    if e._prod == "Binary" and e.op not in ("&&", "||"):
        return e.left, e.right
    field = OPERAND.get(e._prod)
    return (getattr(e, field),) if field else ()


# The one operand of an expression computed whenever it is.
OPERAND = {"IfExpr": "cond", "Cast": "value", "Unary": "operand"}


# A statement's field that may compute `print`s (reached), and its other fields a pass
# walks (`let`s before the statement compute what the prints are given as the statement did).
SLOTS = {"ExprStmt": ("expr", ()), "Let": ("value", ("type",)), "Return": ("value", ()),
         "If": ("cond", ("then", "orelse")), "Assign": ("value", ("target",))}


def slot(s, fn, ranks: dict) -> str | None:
    """The field of statement s that may compute `print`s (SLOTS), None for none. An
    assignment's value is one only where it is all the statement computes before its write:
    its place a local (a compound assignment, `k += ..`, reads k before its value: one that
    nothing the value calls could change, no closure capturing it and no `&mut` lending it),
    or an element of a tensor local nothing the value calls could change and the value does
    not name unless at literal indices within its extents or at indices a read before the
    statement checks (_element: the interpreter locates the element, its indices computed
    and checked, before the value), and no literal in it typed by the place (`x = (1 << 40) +
    ..` of an i64 x), which a `let` before the statement would type otherwise."""
    if s._prod not in SLOTS:
        return None
    if s._prod != "Assign":
        return SLOTS[s._prod][0]
    if fn is None or typed_by_place(s.value):
        return None
    if s.target._prod != "Local":
        return "value" if _element(s, fn, ranks) else None
    changed = s.op != "=" and _changeable(fn, s.target.name)
    return None if changed else "value"


def _changeable(fn, name: str) -> bool:
    """Whether a call could change local `name` of fn: a closure captures it, or a `&mut`
    lends it."""
    return any(n._prod == "Local" and n.name == name for c in descendants(fn)
               if c._prod == "Closure" for n in descendants(c)) or \
        any(n._prod == "Borrow" and n.mutable and n.value._prod == "Local" and
            n.value.name == name for n in descendants(fn))


def _element(s, fn, ranks: dict) -> bool:
    """Whether assignment s writes an element (an index per extent) of a tensor local that
    nothing its value calls could change, nor the value names unless the element is
    quiet_element's or checked_element's: `let place = &mut t[i];` before the statement
    then locates it where the interpreter does, and `*place = ..` writes it (a loan the
    value's read of the local would meet, so for a quiet or checked element the statement
    writes it as it is). The local is a
    `let`'s of a tensor made other than by `::uninit()`, never assigned whole:
    track-uninit-elements follows no reference to an element."""
    base, depth = s.target, 0
    while base._prod == "Index":
        base, depth = base.base, depth + 1
    if base._prod != "Local" or ranks.get(base.name) != depth or _changeable(fn, base.name):
        return False
    made = _made(fn, base.name)
    return made is not None and (
        quiet_element(s.target, fn) or checked_element(s, fn) or
        not any(n._prod == "Local" and n.name == base.name for n in descendants(s.value)))


def checked_element(s, fn) -> bool:
    """Whether assignment s writes an element of a tensor its value reads, at indices each
    a literal or a local that nothing the value calls could change, the value assigning
    nothing itself: a read of the element before the statement (`let checked = t[i];`)
    computes and checks its indices where the interpreter locates it, stopping as the
    assignment would, and the statement writes it as it is, after the value (the tensor is
    one _made makes, so the element read is a value)."""
    indices, base = [], s.target
    while base._prod == "Index":
        indices.append(base.index)
        base = base.base
    return all(i._prod == "Int" or i._prod == "Local" and not _changeable(fn, i.name)
               for i in indices) and \
        any(n._prod == "Local" and n.name == base.name for n in descendants(s.value)) and \
        not any(n._prod == "Assign" for n in descendants(s.value))


def quiet_element(target, fn) -> bool:
    """Whether target, an element of a tensor local _made makes, is at literal indices
    within the extents its constructor's type writes (`t[1]` of a `Tensor<i32, [3]>::new()`):
    locating it cannot stop the program, so it may be located after the value."""
    indices, base = [], target
    while base._prod == "Index":
        indices.insert(0, base.index)
        base = base.base
    made = _made(fn, base.name) if base._prod == "Local" else None
    dims = made.type.dims if made is not None and made._prod == "TensorNew" and \
        made.type._prod == "TensorType" else ()
    return bool(indices) and len(indices) == len(dims) and all(
        i._prod == "Int" and d._prod == "DimInt" and 0 <= i.value < d.value
        for i, d in zip(indices, dims))


def _made(fn, name: str):
    """The tensor the one `let` of local `name` of fn makes other than by `::uninit()`,
    the local never assigned whole; None for any other local."""
    nodes = list(descendants(fn))
    made = [n.value for n in nodes if n._prod == "Let" and n.name == name]
    if len(made) != 1 or made[0]._prod not in ("TensorNew", "TensorLit") or \
            getattr(made[0], "ctor", None) == "uninit" or \
            any(n._prod == "Assign" and n.target._prod == "Local" and n.target.name == name
                for n in nodes):
        return None
    return made[0]


def _leaves(e) -> list:
    """What `print` is given, or the parts of the aggregate literal it is given."""
    made = parts(e)
    return [leaf for part in made for leaf in _leaves(part)] if made else [e]


def print_call(e):
    """The argument of `print(x)`, None for any other node."""
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and \
            len(e.args) == 1:
        return e.args[0]
    return None


def parts(e) -> list:
    """The values a literal of an aggregate `print` is given is made of (an `if` choosing an
    enum's variant: its arms' values), none for any other value."""
    if e._prod == "StructLit":
        return [f.value for f in e.fields]
    if e._prod in ("Tuple", "EnumValue"):
        return list(e.elems if e._prod == "Tuple" else e.args)
    arms = (e.then, e.orelse) if e._prod == "IfExpr" else ()
    if arms and all(not arm.stmts and arm.value is not None and parts(arm.value)
                    for arm in arms):
        return [arm.value for arm in arms]
    return []
