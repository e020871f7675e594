"""Forms of the back end's tree ILs (Lscalars to Lcells): a literal with its type as a Rust
suffix (`3000000000i64`), a loop variable with its type, a function as labelled basic blocks
(its cells named after `cells`), a block that stops as `stop E9002, "message";`.
Registered by importing this module (dump/text.py does).

An operator's type, and a cast's source type, are those of its operands, which a literal's
suffix or another operator shows: the operator is written as in the source then
(`x * 2i64`), and with its type in brackets when no operand shows it (`s +[i64] step`). An
operator on vectors shows its type always (`a +[<4 x f32>] b`), and a vector's lane read is
`v[lane i]`."""

from __future__ import annotations

from .forms import Flag, Implied, Lines, Opt, Slot, expr, line
from .vx_pieces import Number, literal_prec
from .writer import ATOM, BINARY_PREC, CAST, CLOSURE, POSTFIX, UNARY

_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})


def shown(e) -> str | None:
    """The scalar type an operand's text shows: a literal's suffix, an operator's type (a
    comparison's value is a bool), a cast's target, an `if` value's arm's; None for a
    variable or a call."""
    if e._prod == "Select":
        then = shown(e.then)
        return then if then is not None else shown(e.orelse)
    if "type" not in e._fields:
        return None
    if e._prod in ("Int", "Float", "Unary"):
        return e.type
    if e._prod == "Binary":
        return "bool" if e.op in _COMPARISONS else e.type
    if e._prod == "Cast" and e.type._prod == "Scalar":
        return e.type.name
    return None


def _operands(n) -> str | None:
    left = shown(n.left)
    return left if left is not None else shown(n.right)


def _literal(n) -> int:
    return literal_prec(n, UNARY, ATOM)


expr("Int", "value type", Number("value"), "{type}", prec=_literal)
expr("Float", "value type", Number("value"), "{type}", prec=_literal)
expr("Binary", "op type left right",
     "{left:=} {op}", Implied("type", _operands, "[{type}]"), " {right:+}",
     prec=lambda n: BINARY_PREC[n.op])
# An operator on vectors always shows its vector type (another type there takes the generic
# form: `+[i32]` is a Binary's), a lane read its word (`v[i]` of a tensor reads an element).
expr("VecBinary", "op type left right", "{left:=} {op}[{type}] {right:+}",
     prec=lambda n: BINARY_PREC[n.op], when=lambda n: n.type._prod == "VectorType")
# An instance's name takes a `[..]` after it as its own (`@f$NPU[0]`): it is `(@f$i32)[lane i]`.
expr("Lane", "vector index",
     Slot("vector", lambda e: ATOM + 1 if e._prod == "Global" and "$" in e.name else POSTFIX),
     "[lane {index}]", prec=POSTFIX)
expr("Extent", "tensor axis type", "{tensor:POSTFIX}.extent[{type}]({axis})", prec=POSTFIX)
expr("Unary", "op type operand",
     "{op}", Implied("type", lambda n: shown(n.operand), "[{type}]"), "{operand:POSTFIX}",
     prec=UNARY)
expr("Cast", "value source type",
     "{value:CAST} as", Implied("source", lambda n: shown(n.value), "[{source}]"), " {type}",
     prec=CAST)
line("For", "var type start end body",
     "for {var}: {type} in {start:HEADER}..{end:HEADER} {body}")
expr("Closure", "params ret body", "|{params}| -> {ret} {body}", prec=CLOSURE)
expr("ClosureType", "params ret", "fn({params}) -> {ret}")
line("Fn", "name params on ret bounds blocks",
     "fn {name}({params})", Opt(" on {on}"), " -> {ret}", Opt(" where {bounds}"), " {{",
     Lines("blocks", nest=False, stmt=True, close="always"), "}}")
line("Fn", "name params on ret bounds cells blocks",
     "fn {name}({params})", Opt(" on {on}"), " -> {ret}", Opt(" where {bounds}"),
     Opt(" cells {cells}"), " {{", Lines("blocks", nest=False, stmt=True, close="always"), "}}")
line("BasicBlock", "label stmts exit",
     "{label}:", Lines("stmts", stmt=True, close=False), Lines("exit", stmt=True, close=False))
line("Goto", "target", "goto {target};")
line("Branch", "cond then orelse", "branch {cond}, {then}, {orelse};")
line("Stop", "code message", "stop {code}, {message};")
line("Drop", "name", "drop {name};")
line("DropApart", "name kept", "drop {name} apart from {kept};")
# Lcalls' calls: `sqrt!(x)` of the runtime, `call f(x)` of the program, `call nesting f(x)`
# of a function that calls others, `call k on(T)(x)` a launch.
expr("Builtin", "name args", "{name}!({args})", prec=POSTFIX)
expr("CallFn", "callee args launch nests",
     "call ", Flag("nests", "nesting "), "{callee}", Opt(" on({launch})"), "({args})",
     prec=POSTFIX)
expr("NoAliasParam", "name type", "noalias {name}: {type}")
