"""check-operand-types: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.type_checking import (
    NOT_SCALARS, Checking, each_item, enter, quoted, refuse, type_of)
from ..placement.typer import OPAQUE, common, kind, known, literal, settle, show, value_type
from ..placement.types import element_value
from ..values.numbers import INT_TYPES

ARITHMETIC = frozenset("+ - * / %".split())
LANEWISE = frozenset("+ - * /".split())  # what a vector takes, lane by lane
BITWISE = frozenset("& | ^".split())
SHIFTS = frozenset(("<<", ">>"))
RELATIONAL = frozenset("== != < <= > >=".split())
LOGICAL = frozenset(("&&", "||"))
_AGGREGATE_VALUES = {"Tuple": "a tuple", "StructLit": "a struct", "EnumValue": "an enum value"}


def _aggregate(expr, t) -> str | None:
    """How a message names the struct, tuple or enum value `expr` is (of type t), else None.
    A tuple of unsuffixed literals has no type yet: its production says what it is."""
    if expr._prod in _AGGREGATE_VALUES:
        return _AGGREGATE_VALUES[expr._prod]
    t = value_type(t) if not literal(t) else None
    if t is not None and t._prod == "TupleType":
        return f"{show(t)}, a tuple" if known(t) else "a tuple"
    if t is not None and t._prod == "NamedType" and kind(t) != "text":
        return f"{show(t)}, a struct or an enum"
    return None

# What each family of operators takes, and how a message says it.
TAKES = [
    (ARITHMETIC, ("int", "float"), "two numbers of one type"),
    (BITWISE, ("int", "bool"), "two integers or two bools of one type"),
    (SHIFTS, ("int",), "an integer, shifted by an integer"),
    (RELATIONAL, ("int", "float", "bool"), "two numbers or two bools of one type"),
]


check_operand_types = Analysis("check-operand-types", Lrouted, """
Refuse an operator given operands of types it does not take (E3030, E3004, E3005, E3006).

Arithmetic takes numbers, `& | ^` integers or bools, `<< >>` an integer shifted by an integer
of any type, and unary `-` a signed number; an operand of another type (a bool, a float for
`& | ^`, text, a reference, which is read through first: `*p + 1`; a tensor, whose elements
are what an operator takes, a comparison's too: `t[i] + u[i]`; a struct, tuple or enum for
`==` and `!=`, which Vx defines on none of them) is E3030.
Arithmetic and `& | ^` take their two operands of one type (E3004). A compound assignment
(`x += v`) is judged as its operator.
Two vectors of one type (`<4 x f32>`) take `+ - * /`, lane by lane; a vector and another
vector, or a number, is E3004 (`splat(x)` makes the number a vector), and every other operator
on a vector E3030 (a comparison E3005).
An index of a tensor or a raw pointer (`t[i]`) is an integer, and what `[..]` reads is a
tensor, a raw pointer or a vector: not a number, text, a tuple or a struct (E3030); what `*`
reads through is a reference or a raw pointer (E3030: a `match` on a `&E` binds its payload
by value, so `*k` of an i32 binding is refused).
A comparison takes two numbers or two bools of one type, and a `match` case on an enum names
a variant of that enum (E3005); `&&`, `||` take bools and `!` a bool or an integer, whose
bits it flips (E3006). A string is taken by no operator. An unsuffixed literal takes the
other side's type; a value whose type is not known here is not judged.

A list, `[a, b]` or the elements of `Tensor<T, ..>([..])`, takes scalars of one type (E3018):
a number or a bool, not text, a tuple, a struct, a tensor or a closure; each of the type
`Tensor<T, ..>` writes, else of the first typed element's (`[1, 2u8]` is of u8; an integer
literal does not become a float).
""", state=Checking, skip=DESCRIPTIONS, requires=("model",))


@check_operand_types.on("Program")
def _program(run, node):
    each_item(run, node)


@check_operand_types.on("Fn")
def _fn(run, node):
    enter(run, node)
    run.descend(node)


@check_operand_types.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.where.inside(run, node, st.machine)


@check_operand_types.on("Assign")
def _assign(run, node):
    run.descend(node)
    if node.op != "=":
        _operator(run, node, node.op, (node.target, type_of(run, node.target)),
                  (node.value, type_of(run, node.value)))


@check_operand_types.on("Binary")
def _binary(run, node):
    run.descend(node)
    _operator(run, node, node.op, (node.left, type_of(run, node.left)),
              (node.right, type_of(run, node.right)))


def _operator(run, node, written_op: str, operand, other) -> None:
    """Judge `left op right`, each side given as (its expression, its type); `written_op` is
    the operator as written (`+=` for an Assign)."""
    op = written_op.rstrip("=") if written_op not in RELATIONAL else written_op
    (left_expr, left), (right_expr, right) = operand, other
    for t, expr in ((left, left_expr), (right, right_expr)):
        if not literal(t) and t._prod == "BorrowType" and op not in RELATIONAL:
            # Arithmetic reads a value: a reference is read through (`*p`), as in Rust.
            refuse(run, "E3030", expr.span,
                   f"`{written_op}` does not apply to {show(t)}, a reference",
                   help=[f"read the value it names: `*{quoted(expr)}`"],
                   operator=written_op, found=show(t))
            return
        aggregate = _aggregate(expr, t) if op in ("==", "!=") else None
        if aggregate is not None:
            # Vx defines no equality of aggregates: a program compares what it means to.
            refuse(run, "E3030", expr.span,
                   f"`{op}` does not apply to {aggregate}: it compares numbers, bools, "
                   f"topologies and memory spaces",
                   help=["compare the fields or elements one by one: `a.x == b.x && ..`"],
                   operator=op, found=aggregate)
            return
        if not literal(t) and value_type(t)._prod == "TensorType":
            # An operator has no elementwise meaning on a tensor, nor a comparison one on two
            # (Vx defines no equality of tensors): the elements are what it takes.
            refuse(run, "E3030", expr.span, f"`{written_op}` does not apply to {show(t)}, a "
                                            f"tensor: it takes {_said(op)}",
                   help=["apply it to the elements: `t[i] op u[i]`".replace("op", op)],
                   operator=written_op, found=show(t))
            return
    sides = (("left", kind(left), left, left_expr), ("right", kind(right), right, right_expr))
    if op in LOGICAL:
        for side, k, t, expr in sides:
            if k not in (None, "bool"):
                refuse(run, "E3006", expr.span,
                       f"`{op}` takes two bools, but its {side} operand is "
                       f"{show(value_type(t))}", operator=op, found=show(value_type(t)))
        return
    if op in LANEWISE and "vector" in (sides[0][1], sides[1][1]):
        _lanewise(run, node, written_op, value_type(left), value_type(right))
        return
    [(accepted, says)] = [(a, s) for ops, a, s in TAKES if op in ops]
    for _, k, t, _ in sides:
        if k is not None and k not in accepted:
            refuse(run, "E3005" if op in RELATIONAL else "E3030", node.span,
                   f"`{written_op}` does not apply to {show(value_type(t))}: it takes {says}",
                   operator=written_op, found=show(value_type(t)))
            return
    a, b = value_type(left), value_type(right)
    kinds = {sides[0][1], sides[1][1]}
    if op in SHIFTS or None in kinds or common(a, b) is not OPAQUE:
        return
    help = ["convert one side with `as`"] if kinds <= {"int", "float"} else []
    if op in RELATIONAL:
        refuse(run, "E3005", node.span,
               f"`{op}` compares {show(a)} with {show(b)}: both sides must be of one type",
               help=help, operator=op, left=show(a), right=show(b))
    else:
        refuse(run, "E3004", node.span,
               f"`{written_op}` is given {show(a)} and {show(b)}: it takes {says}",
               help=help, operator=written_op, left=show(a), right=show(b))


def _lanewise(run, node, written_op: str, a, b) -> None:
    """`+ - * /` on vectors: two of one type, whose lanes it combines one by one."""
    if common(a, b) is not OPAQUE:
        if a.elem._prod == "Scalar" and a.elem.name == "bool":
            refuse(run, "E3030", node.span, f"`{written_op}` does not apply to {show(a)}: its "
                                            f"lanes are bools, and it takes numbers",
                   operator=written_op, found=show(a))
        return
    scalar = next((t for t in (a, b) if kind(t) in ("int", "float")), None)
    help = ["make the number a vector of it in every lane: `splat(x)`"] if scalar else []
    refuse(run, "E3004", node.span,
           f"`{written_op}` is given {show(a)} and {show(b)}: it takes two vectors of one type "
           f"(of one lane count and one lane type), or two numbers",
           help=help, operator=written_op, left=show(a), right=show(b))


@check_operand_types.on("Unary")
def _unary(run, node):
    run.descend(node)
    t = value_type(type_of(run, node.operand))
    k = "tensor" if not literal(t) and t._prod == "TensorType" else kind(t)
    if node.op == "!" and k in ("float", "text", "tensor", "vector"):
        refuse(run, "E3006", node.span,
               f"`!` takes a bool, or an integer whose bits it flips, but its operand is "
               f"{show(t)}", operator="!", found=show(t))
    elif node.op == "-" and (k in ("bool", "text", "tensor", "vector") or k == "int" and not literal(t)
                             and not INT_TYPES[t.name].signed):
        why = f"{show(t)} is unsigned" if k == "int" else "it negates a number"
        refuse(run, "E3030", node.span, f"`-` does not apply to {show(t)}: {why}",
               operator="-", found=show(t))


@check_operand_types.on("Deref")
def _deref(run, node):
    """`*p` reads through a reference or a raw pointer: not a number, text, a tuple, a struct
    or a tensor (a `match` on a `&E` binds its payload by value: `*k` of an i32 binding)."""
    run.descend(node)
    t = value_type(type_of(run, node.value))
    if kind(t) in ("int", "float", "bool", "text") or \
            not literal(t) and t._prod in ("TupleType", "NamedType", "TensorType"):
        said = _aggregate(node.value, t) or show(t)
        refuse(run, "E3030", node.span,
               f"`*` takes a reference or a raw pointer, but `{quoted(node.value)}` is {said}",
               help=[f"use `{quoted(node.value)}` itself: it is a value, not a reference"],
               operator="*", found=said)


@check_operand_types.on("Index")
def _index(run, node):
    """`t[i]` and `p[i]`: an element of a tensor, or of what a raw pointer points at, is at
    an integer. (A vector's lane is check-vector-lanes' to judge.)"""
    run.descend(node)
    base = value_type(type_of(run, node.base))
    while not literal(base) and base._prod == "BorrowType":
        base = value_type(base.inner)
    if kind(base) in ("int", "float", "bool", "text") or \
            not literal(base) and base._prod in ("TupleType", "NamedType"):
        # A number has no elements (`x[0]` of an i32, `t[0][0]` of a rank-1 tensor), and a
        # tuple's or a struct's are read by their names.
        tuple = not literal(base) and base._prod == "TupleType"
        said = _aggregate(node.base, base) or show(base)
        refuse(run, "E3030", node.span,
               f"`[..]` takes a tensor, a raw pointer or a vector, but `{quoted(node.base)}` "
               f"is {said}", help=[f"read an element by its position: "
                                   f"`{quoted(node.base)}.0`"] if tuple else [],
               operator="[]", found=said)
        return
    if literal(base) or base._prod not in ("TensorType", "PtrType"):
        return
    t = value_type(type_of(run, node.index))
    if _known(t) and kind(t) != "int":
        what = "a tensor" if base._prod == "TensorType" else "a raw pointer"
        refuse(run, "E3030", node.index.span,
               f"`[..]` of {what} takes an integer index, but this one is {show(t)}",
               help=["convert it with `as i64`"] if kind(t) == "float" else [],
               operator="[]", found=show(t))


@check_operand_types.on("MatchValue")
def _match_value(run, node):
    run.descend(node)
    t = value_type(type_of(run, node.scrutinee))
    if literal(t) or t._prod != "NamedType":
        return
    for case in node.cases:
        for pattern in _alternatives(case.pattern):
            if pattern._prod == "PVariant" and pattern.enum != t.name:
                refuse(run, "E3005", pattern.span,
                       f"this case compares {t.name} with `{pattern.enum}::{pattern.variant}`, "
                       f"a {pattern.enum}: a case's pattern is of its `match`'s type",
                       help=[] if kind(t) == "text" else [
                           f"name a variant of {t.name}, or `_` for the rest"],
                       operator="match", left=t.name, right=pattern.enum)


@check_operand_types.on("ArrayLit")
def _array(run, node):
    if not node.elems:
        refuse(run, "E3018", node.span, "an empty array literal has no element type or length "
                                        "to give the tensor",
               help=["write `Tensor<T, [0]>::new()`"])
        return
    run.descend(node)
    _elements(run, node.elems, None)


@check_operand_types.on("TensorLit")
def _tensor(run, node):
    run.descend(node)
    _elements(run, node.elems, element_value(node.type.elem))


def _elements(run, elems, written) -> None:
    """Refuse the first element that is no scalar, or not of the list's element type: the
    written one, else the first typed element's (an unsuffixed literal takes it)."""
    types = [value_type(type_of(run, e)) for e in elems]
    for e, t in zip(elems, types):
        if e._prod in NOT_SCALARS or _known(t) and kind(t) not in ("int", "float", "bool"):
            said = NOT_SCALARS.get(e._prod) or show(t)
            refuse(run, "E3018", e.span, f"a tensor holds numbers or bools, but this element "
                                         f"is {said}", found=said)
            return
    if written is not None and written._prod == "Scalar":
        elem, by = written, "the tensor's type writes"
    else:
        elem = next((t for t in types if not literal(t) and _known(t)), None)
        elem, by = (elem, "its first typed element is") if elem is not None else \
            (next((t for t in types if literal(t)), None), "its first element is")
    for e, t in zip(elems, types):
        if elem is not None and _known(t) and common(elem, t) is OPAQUE:
            refuse(run, "E3018", e.span,
                   f"this element is {show(t)}, but the list holds {show(settle(elem))} ({by} "
                   f"{show(elem)}): a tensor's elements are of one type",
                   help=["convert the element with `as`"] if kind(t) in ("int", "float")
                   else [], found=show(t), expected=show(settle(elem)))
            return


def _said(op: str) -> str:
    """What an operator takes, as a message says it."""
    return next(s for ops, _, s in TAKES if op in ops)


def _known(t) -> bool:
    """Whether a type is known here: a literal's is."""
    return literal(t) or t._prod != "OpaqueType"


def _alternatives(pattern) -> tuple:
    return pattern.alts if pattern._prod == "POr" else (pattern,)
