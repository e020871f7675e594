"""check-types: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..dump.text import to_text
from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.linstances import generic_of
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.scopes import Where
from ..placement.typer import (RememberingTyper, common, fits, join, kind, known, literal, show,
                               value_type, written)
from ..placement.types import HOST, OPAQUE, VOID, Machine
from ..values.numbers import INT_TYPES

ARITHMETIC = frozenset("+ - * / %".split())
BITWISE = frozenset("& | ^".split())
SHIFTS = frozenset(("<<", ">>"))
RELATIONAL = frozenset("== != < <= > >=".split())
LOGICAL = frozenset(("&&", "||"))

# What each family of operators takes, and how a message says it.
TAKES = [
    (ARITHMETIC, ("int", "float"), "two numbers of one type"),
    (BITWISE, ("int", "bool"), "two integers or two bools of one type"),
    (SHIFTS, ("int",), "an integer, shifted by an integer"),
    (RELATIONAL, ("int", "float", "bool"), "two values of one type"),
]


@dataclass
class State:
    machine: Machine | None = None
    base: RememberingTyper | None = None  # every signature
    typer: RememberingTyper | None = None  # the current function's: its locals, bound as met
    where: Where | None = None  # where the code being walked runs
    function: str | None = None  # the function being walked, an instance's name with its `$`
    results: list = field(default_factory=list)  # per enclosing fn (name, result); None: closure
    said: OncePerPlace = field(default_factory=OncePerPlace)  # by (span, message)


check_types = Analysis("check-types", Lrouted, """
Refuse a value whose type is not the one its place takes (E3001, E3002, E3004-E3007, E3011).

The value of a `let` (or of a `const`, or assigned with `=`) has the variable's type (E3001);
`return v;` and a body's last expression have the function's result type, `return;` and a
function without a result give none (E3002). Arithmetic takes two numbers of one type,
`& | ^` two integers or two bools of one type, `<< >>` an integer shifted by an integer of any
type, and unary `-` a signed number (E3004); a comparison takes two values of one type, and a
`match` case on an enum names a variant of that enum (E3005); `&&`, `||` take bools and `!` a bool or an integer, whose bits it flips (E3006); the
condition of `if`, `while` and `assert` is a bool and the branches of an `if` used as a value
agree (E3007); `as` converts a number or a bool to a number, and nothing to a bool nor a bool
to a float (E3011). As in Rust, an unsuffixed literal takes the type of the value beside it,
and so does a variable bound to one without a written type (`let n = 0;` is whatever integer
it meets). A value whose type is not known here (a closure's result, a generic the instance
could not make concrete, a mix already refused) is not judged; instances are judged with
their parameters made concrete, and the branch an `if comptime` did not take is gone.
""", state=State, skip=DESCRIPTIONS, requires=("model",))


def _here(st: State) -> str | None:
    return st.where.here[-1]


def _type(run, expr):
    return run.state.typer.of(expr, _here(run.state))


def _error(run, code, span, message, *, help=(), **data) -> None:
    """Report once per place: a copy of an unrolled body holds the same fault. In an
    instance, a note names it: its types are the generic's made concrete."""
    st = run.state
    if st.said.again((span, message)):
        return
    fn = st.function
    notes = [f"in '{fn}', the instance of '{generic_of(fn)}' this is judged in"
             ] if fn is not None and generic_of(fn) != fn else []
    st.said.said((span, message), run.ctx.diagnostics.error(code, span, message, notes=notes,
                                                            help=help, **data))


def _name(unique: str) -> str:
    return unique.partition("#")[0]


# -- items, binding ---------------------------------------------------------------------------


@check_types.on("Program")
def _program(run, node):
    st = run.state
    st.machine = Machine(run.ctx.model)
    st.base = RememberingTyper(node, st.machine)
    for item in node.items:
        if item._prod == "ConstItem":
            _const(run, item)
        elif item._prod == "Fn":
            run.walk(item)
    st.said.note_copies()


def _const(run, item) -> None:
    st = run.state
    st.typer, st.function = st.base.fresh(), None
    st.where = Where([HOST], [st.machine.host_space])
    run.walk(item.value)
    found = _type(run, item.value)
    if not fits(found, item.type):
        _error(run, "E3001", item.value.span,
               f"constant '{item.name}' is declared {show(item.type)}, but its value is "
               f"{show(found)}", name=item.name, expected=show(item.type), found=show(found))


@check_types.on("Fn")
def _fn(run, node):
    st = run.state
    st.typer = st.base.fresh()
    st.where = Where.of(node, st.typer)
    st.function = node.name
    st.results.append((node.name, st.typer.functions[node.name].ret))
    run.descend(node)
    if node.body.value is not None:
        _returned(run, node.body.value, "its body ends in")
    st.results.pop()


@check_types.on("Closure")
def _closure(run, node):
    st = run.state
    st.results.append(None)  # a closure's result is its body's: nothing to hold it to
    run.descend(node)
    st.results.pop()


@check_types.on("Param")
def _param(run, node):
    ty = node.type if node.type is not None else OPAQUE
    run.state.typer.bind(node.name, ty, _here(run.state))


@check_types.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.where.inside(run, node, st.machine)


@check_types.on("Let")
def _let(run, node):
    run.descend(node)
    st = run.state
    found = _type(run, node.value)
    if found != VOID and not fits(found, node.type):  # a call of nothing: check-calls says
        name = _name(node.name)
        _error(run, "E3001", node.value.span,
               f"'{name}' is declared {show(node.type)}, but its value is {show(found)}",
               help=_convert(found, node.type), name=name, expected=show(node.type),
               found=show(found))
    # Bound to a literal with no written type, it is any integer (or float) it meets, as in
    # Rust, where `let n = 0;` is whatever integer its uses make it.
    loose = literal(found) and not written(node)
    st.typer.bind(node.name, found if loose else node.type, _here(st))


@check_types.on("For")
def _for(run, node):
    st = run.state
    run.walk(node.start)
    run.walk(node.end)
    st.typer.bind(node.var, join(_type(run, node.start), _type(run, node.end)), _here(st))
    run.walk(node.body)


def _convert(found, expected) -> list[str]:
    """The help of a mismatch a cast can repair: two scalars `as` converts between."""
    if kind(found) in ("int", "float") and kind(expected) in ("int", "float") \
            and not literal(expected):
        return [f"convert the value with `as {show(expected)}`"]
    return []


# -- statements -----------------------------------------------------------------------------


@check_types.on("Assign")
def _assign(run, node):
    run.descend(node)
    target, found = _type(run, node.target), _type(run, node.value)
    if node.op != "=":
        _operator(run, node, node.op, (node.target, target), (node.value, found))
        return
    if fits(found, target) or fits(found, value_type(target)):
        return
    written_as = _written(node.target)
    _error(run, "E3001", node.value.span,
           f"`{written_as}` is {show(target)}, but the value assigned to it is {show(found)}",
           help=_convert(found, target), target=written_as, expected=show(target),
           found=show(found))


@check_types.on("Return")
def _return(run, node):
    run.descend(node)
    results = run.state.results
    if not results or results[-1] is None:
        return
    name, result = results[-1]
    if node.value is not None:
        _returned(run, node.value, "this `return` gives")
    elif result != VOID:
        _error(run, "E3002", node.span,
               f"'{name}' returns {show(result)}, but this `return;` gives no value",
               help=[f"return a value of type {show(result)}: `return v;`"],
               function=name, expected=show(result), found="void")


def _returned(run, value, gives: str) -> None:
    """Judge a value the function returns (a `return`'s, or its body's last expression)."""
    name, result = run.state.results[-1]
    found = _type(run, value)
    if result == VOID:
        if value_type(found) == VOID or not known(found):  # `spawn on(..) { .. }` of nothing
            return
        _error(run, "E3002", value.span,
               f"'{name}' has no result type, but {gives} a value of type {show(found)}",
               help=[f"declare the result, `-> {show(found)}`, or drop the value"],
               function=name, expected="void", found=show(found))
    elif not fits(found, result):
        _error(run, "E3002", value.span,
               f"'{name}' returns {show(result)}, but {gives} {show(found)}",
               help=_convert(found, result), function=name, expected=show(result),
               found=show(found))


@check_types.on("If", "While", "Assert", "Requires", "Ensures", "Invariant")
def _conditional(run, node):
    run.descend(node)
    _condition(run, node.cond, node._prod.lower())


def _condition(run, cond, what: str) -> None:
    found = _type(run, cond)
    k = kind(found)
    if k is None or k == "bool":
        return
    shown = show(value_type(found))
    help = [f"compare it: `{to_text(cond).strip()} != 0`"] if k == "int" else []
    _error(run, "E3007", cond.span, f"the condition of `{what}` is {shown}, not a bool",
           help=help, construct=what, found=shown)


@check_types.on("IfExpr")
def _if_expr(run, node):
    run.descend(node)
    _condition(run, node.cond, "if")
    then, orelse = node.then.value, node.orelse.value
    if then is None or orelse is None:  # a branch that leaves has no value to agree
        return
    a, b = _type(run, then), _type(run, orelse)
    if known(a) and known(b) and common(a, b) is OPAQUE:
        _error(run, "E3007", orelse.span,
               f"the branches of this `if` are {show(a)} and {show(b)}: an `if` used as a "
               f"value gives one type", help=_convert(b, a), then=show(a), orelse=show(b))


# -- expressions ----------------------------------------------------------------------------


@check_types.on("Binary")
def _binary(run, node):
    run.descend(node)
    _operator(run, node, node.op, (node.left, _type(run, node.left)),
              (node.right, _type(run, node.right)))


def _operator(run, node, written_op: str, operand, other) -> None:
    """Judge `left op right`, each side given as (its expression, its type); `written_op` is
    the operator as written (`+=` for an Assign)."""
    op = written_op.rstrip("=") if written_op not in RELATIONAL else written_op
    (left_expr, left), (right_expr, right) = operand, other
    for t, expr in ((left, left_expr), (right, right_expr)):
        if not literal(t) and t._prod == "BorrowType" and op not in RELATIONAL:
            # Arithmetic reads a value: a reference is read through (`*p`), as in Rust.
            _error(run, "E3004", expr.span,
                   f"`{written_op}` does not apply to {show(t)}, a reference",
                   help=[f"read the value it names: `*{_written(expr)}`"],
                   operator=written_op, found=show(t))
            return
    sides = (("left", kind(left), left, left_expr), ("right", kind(right), right, right_expr))
    if op in LOGICAL:
        for side, k, t, expr in sides:
            if k not in (None, "bool"):
                _error(run, "E3006", expr.span,
                       f"`{op}` takes two bools, but its {side} operand is "
                       f"{show(value_type(t))}", operator=op, found=show(value_type(t)))
        return
    [(accepted, says)] = [(a, s) for ops, a, s in TAKES if op in ops]
    for _, k, t, _ in sides:
        if k is not None and k not in accepted:
            _error(run, "E3004", node.span,
                   f"`{written_op}` does not apply to {show(value_type(t))}: it takes {says}",
                   operator=written_op, found=show(value_type(t)))
            return
    a, b = value_type(left), value_type(right)
    kinds = {sides[0][1], sides[1][1]}
    if op in SHIFTS or None in kinds or common(a, b) is not OPAQUE:
        return
    help = ["convert one side with `as`"] if kinds <= {"int", "float"} else []
    if op in RELATIONAL:
        _error(run, "E3005", node.span,
               f"`{op}` compares {show(a)} with {show(b)}: both sides must be of one type",
               help=help, operator=op, left=show(a), right=show(b))
    else:
        _error(run, "E3004", node.span,
               f"`{written_op}` is given {show(a)} and {show(b)}: it takes {says}",
               help=help, operator=written_op, left=show(a), right=show(b))


@check_types.on("Unary")
def _unary(run, node):
    run.descend(node)
    t = value_type(_type(run, node.operand))
    k = kind(t)
    if node.op == "!" and k == "float":
        _error(run, "E3006", node.span,
               f"`!` takes a bool, or an integer whose bits it flips, but its operand is "
               f"{show(t)}", operator="!", found=show(t))
    elif node.op == "-" and (k == "bool" or k == "int" and not literal(t)
                             and not INT_TYPES[t.name].signed):
        why = "it negates a number" if k == "bool" else f"{show(t)} is unsigned"
        _error(run, "E3004", node.span, f"`-` does not apply to {show(t)}: {why}",
               operator="-", found=show(t))


@check_types.on("Cast")
def _cast(run, node):
    run.descend(node)
    source, target = value_type(_type(run, node.value)), node.type
    if target._prod != "Scalar":  # the parser takes any type after `as`; no value goes there
        shown = show(source) if known(source) else "this value"
        _error(run, "E3011", node.span, f"cannot cast {shown} to {show(target)}: `as` "
               f"converts a number or a bool to a number", source=shown, target=show(target))
        return
    if not known(source):
        return
    k, to = kind(source), target.name
    if to == "bool" and k in ("int", "float"):
        zero = "0.0" if k == "float" else "0"
        why, help = "a number is never a bool", [
            f"compare it instead: `{_written(node.value)} != {zero}`"]
    elif k == "bool" and kind(target) == "float":
        why, help = "a bool converts only to an integer", [
            f"go through an integer: `{_written(node.value)} as i32 as {to}`"]
    elif k is None and (source._prod == "TensorType" or source == VOID) or to == "void":
        why, help = "`as` converts a number or a bool to a number", []
    else:
        return
    _error(run, "E3011", node.span, f"cannot cast {show(source)} to {to}: {why}", help=help,
           source=show(source), target=to)


def _written(node) -> str:
    """An expression as the message quotes it (printed only for a refusal: printing is
    dear)."""
    return to_text(node).strip()


@check_types.on("MatchValue")
def _match_value(run, node):
    run.descend(node)
    t = value_type(_type(run, node.scrutinee))
    if t._prod != "NamedType":
        return
    for case in node.cases:
        for pattern in _alternatives(case.pattern):
            if pattern._prod == "PVariant" and pattern.enum != t.name:
                _error(run, "E3005", pattern.span,
                       f"this case compares {t.name} with `{pattern.enum}::{pattern.variant}`, "
                       f"a {pattern.enum}: a case's pattern is of its `match`'s type",
                       help=[f"name a variant of {t.name}, or `_` for the rest"],
                       operator="match", left=t.name, right=pattern.enum)


def _alternatives(pattern) -> tuple:
    return pattern.alts if pattern._prod == "POr" else (pattern,)
