"""check-literal-ranges: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lunrolled import OncePerPlace
from ..languages.ltyped import Ltyped
from ..nanopass import Analysis
from ..placement.typer import FLOAT_LIT, INT_LIT, RememberingTyper, join, settle
from ..placement.types import OPAQUE, Machine, element_value
from ..values.literal_ranges import holders, integer_literal, refuse_out_of_range
from ..values.literals import scalar_hint
from ..values.numbers import INT_TYPES

# What a context fixes for an integer literal under it: an integer type's name; DEFAULT when
# nothing fixes one, so that the literal is an i32 as Rust defaults it; None when this check
# cannot tell (a float, a tensor, a generic type: a type checker's business, not a range).
DEFAULT = "{integer}"

ARITHMETIC = frozenset("+ - * / %".split())


class Outside(str):
    """A type fixed outside the `comptime` block being walked, for the block's value."""


@dataclass
class State:
    typer: RememberingTyper | None = None  # the current function's: its locals are bound as met
    functions: dict = field(default_factory=dict)  # name -> Fn item, for its parameters
    expect: str | None = None  # what the context fixes for the node being walked
    results: list = field(default_factory=list)  # per enclosing fn or closure: its result's
    said: OncePerPlace = field(default_factory=OncePerPlace)  # by (span, message)
    pattern: bool = False  # walking a case of a `match`, whose literal is compared, not made


check_literal_ranges = Analysis("check-literal-ranges", Ltyped, """
Refuse an integer literal that does not fit the type its context fixes (E3008), and a case of
a `match` whose integer the scrutinee's type cannot hold (E3019).

As in Rust, an unsuffixed integer literal takes the type its context fixes: a `let`'s type
(written, or inferred by infer-placement), the variable an assignment writes, a parameter,
the function's result for `return` and for its body's value, a tensor's element type for its
constructor's arguments, and for an operand of arithmetic or of a comparison the other
operand's type; where nothing fixes one (`print(2147483648)`), it is an i32. `-N` is the one
literal -N, so `let m: i8 = -128;` fits and `-129` does not. A literal that is a cast's
operand is not judged: `300 as u8` converts on purpose (rustc's `overflowing_literals` would
refuse it too; here the cast says what is meant). The interpreter would wrap an out-of-range
literal without a word (`let x: u8 = 260;` printing 4); the message names the literal, the
type and its range. A case's literal is compared with the scrutinee, not made into a value of
its type, so one out of that type's range is a case that never matches: E3019.
""", state=State, skip=DESCRIPTIONS, requires=("model",))


def _under(run, node, expect, walk=None) -> None:
    """Walk `node` (with `walk`, the run's by default) where the context fixes `expect`."""
    st = run.state
    outer, st.expect = st.expect, expect
    (walk or run.walk)(node)
    st.expect = outer


def _fixed(ty) -> str | None:
    """What a type fixes for the literals of the value it types. OpaqueType, a `let` whose
    type placement inference left open (`let x = 2147483648;`), fixes nothing, so a literal
    there is an i32 as Rust defaults it."""
    if ty._prod == "OpaqueType":
        return DEFAULT
    name = scalar_hint(ty)
    return name if name in INT_TYPES else None


# -- items and statements -------------------------------------------------------------------


@check_literal_ranges.on("Program")
def _program(run, node):
    st = run.state
    st.typer = RememberingTyper(node, Machine(run.ctx.model))
    st.functions = {i.name: i for i in node.items if i._prod == "Fn"}
    for item in node.items:
        if item._prod == "ConstItem" and item.value is not None:  # E3044 refused `const N: u8;`
            _under(run, item.value, _fixed(item.type))
        elif item._prod == "Fn":
            run.walk(item)
    st.said.note_copies()


@check_literal_ranges.on("Fn")
def _fn(run, node):
    st = run.state
    st.typer = st.typer.fresh()
    _body(run, node.params, _fixed(node.ret) if node.ret is not None else None, node.body)


@check_literal_ranges.on("Closure")
def _closure(run, node):
    _body(run, node.params, None, node.body)


def _body(run, params, result, body) -> None:
    st = run.state
    for p in params:
        st.typer.bind(p.name, p.type if p.type is not None else OPAQUE, None)
    st.results.append(result)
    _under(run, body, result)  # the body's value is the result
    st.results.pop()


@check_literal_ranges.on("Block")
def _block(run, node):
    for s in node.stmts:
        _under(run, s, None)
    if node.value is not None:
        _under(run, node.value, run.state.expect)


@check_literal_ranges.on("Let")
def _let(run, node):
    _under(run, node.value, _fixed(node.type))
    run.state.typer.bind(node.name, node.type, None)


@check_literal_ranges.on("Assign")
def _assign(run, node):
    _under(run, node.target, None)
    _under(run, node.value, _beside(run.state, node.target, None))


@check_literal_ranges.on("For")
def _for(run, node):
    st = run.state
    _under(run, node.start, _beside(st, node.end, DEFAULT))
    _under(run, node.end, _beside(st, node.start, DEFAULT))
    st.typer.bind(node.var, settle(join(st.typer.of(node.start, None),
                                        st.typer.of(node.end, None))), None)
    _under(run, node.body, None)


@check_literal_ranges.on("If", "While", "Assert", "ExprStmt", "ComptimeStmt", "BlockStmt",
                        "Requires", "Ensures", "Invariant")
def _free(run, node):
    """A condition or a value nothing uses: no context fixes a literal's type there."""
    _under(run, node, DEFAULT, run.descend)


@check_literal_ranges.on("Comptime")
def _comptime(run, node):
    """A literal that is the block's value is judged by the type its value goes to, as the
    evaluator computes it; arithmetic in the block by the block alone."""
    expect = run.state.expect
    _under(run, node, expect if expect is None else Outside(expect), run.descend)


@check_literal_ranges.on("Return")
def _return(run, node):
    if node.value is not None:
        results = run.state.results
        _under(run, node.value, results[-1] if results else None)


# -- expressions ----------------------------------------------------------------------------


@check_literal_ranges.on("Int")
def _int(run, node):
    _judge(run, node.value, node)


@check_literal_ranges.on("Unary")
def _unary(run, node):
    value = integer_literal(node)
    if value is not None:
        _judge(run, value, node)  # `-128` is one literal, not 128 negated
    else:
        _under(run, node.operand, run.state.expect)


@check_literal_ranges.on("Binary")
def _binary(run, node):
    st = run.state
    # A literal operand takes the other operand's type. When that has none, arithmetic
    # passes on what its own context fixes, but not a type fixed outside a `comptime` block,
    # whose arithmetic on literals alone is an i32's; a comparison or a logic operator fixes
    # nothing.
    outside = isinstance(st.expect, Outside)
    around = st.expect if node.op in ARITHMETIC and not outside else DEFAULT
    _under(run, node.left, _beside(st, node.right, around))
    _under(run, node.right, _beside(st, node.left, around))


def _beside(st: State, other, around) -> str | None:
    """What a value's literals are fixed to by the value beside it (the other operand, the
    variable assigned, the other bound of a range): its integer type; `around` when it is a
    literal too or not an integer; nothing when its type is not known here (a value computed
    in a block this check has not walked yet), rather than a guess."""
    ty = st.typer.of(other, None)
    if ty is INT_LIT:
        return around
    if ty is OPAQUE or ty is FLOAT_LIT or ty._prod == "OpaqueType":
        return None
    name = scalar_hint(ty)
    return name if name in INT_TYPES else around


@check_literal_ranges.on("Cast")
def _cast(run, node):
    if integer_literal(node.value) is None:  # a literal converts to the type cast to,
        _under(run, node.value, None)  # whatever its value


@check_literal_ranges.on("Call")
def _call(run, node):
    st = run.state
    _under(run, node.callee, None)
    expects = []
    callee = node.callee
    if callee._prod == "Global" and callee.name in st.functions:
        expects = [_fixed(p.type) if p.type is not None else None
                   for p in st.functions[callee.name].params]
    elif callee._prod == "Global" and callee.name == "print":
        expects = [DEFAULT] * len(node.args)
    for i, arg in enumerate(node.args):
        _under(run, arg, expects[i] if i < len(expects) else None)


@check_literal_ranges.on("TensorNew", "TensorLit", "VecLit", "Splat")
def _tensor(run, node):
    """A constructor's arguments, a literal's elements (nested lists pass it down to their
    numbers) and a splat's value take the tensor's element type, or the vector's lanes'."""
    t = node.type
    elem = _fixed(element_value(t.elem)) if t is not None and t._prod in (
        "TensorType", "VectorType") else None
    for x in node.args if node._prod == "TensorNew" else (node.value,) \
            if node._prod == "Splat" else node.elems:
        _under(run, x, elem)


@check_literal_ranges.on("IfExpr")
def _if_expr(run, node):
    _under(run, node.cond, DEFAULT)
    run.walk(node.then)  # the value of the branch that runs is the `if`'s
    run.walk(node.orelse)


@check_literal_ranges.on("MatchValue")
def _match_value(run, node):
    """A literal pattern takes the scrutinee's type; the case that runs gives the value."""
    _under(run, node.scrutinee, DEFAULT)
    pattern = _beside(run.state, node.scrutinee, DEFAULT)
    for case in node.cases:
        run.state.pattern = True
        _under(run, case.pattern, pattern)
        run.state.pattern = False
        run.walk(case.body)


@check_literal_ranges.on("Spawn")
def _spawn(run, node):
    st = run.state
    _under(run, node.topo, None)
    # Its value is the spawn's, under the same context; a `return` in it gives that value.
    tail = node.body.value
    st.results.append(st.expect if tail is None else _beside(st, tail, st.expect))
    run.walk(node.body)
    st.results.pop()


@check_literal_ranges.on("Index", "MethodCall", "FieldGet", "Transfer", "Grad", "Vjp", "Jvp",
                         "SomeTopo", "TopoRef", "StructLit", "EnumValue", "PVariant")
def _unfixed(run, node):
    """Nothing the check knows fixes the type of a literal below these (a field's or a
    variant's value has its declared type, which this check does not read)."""
    _under(run, node, None, run.descend)


# -- the verdict ----------------------------------------------------------------------------

# A literal of thousands of digits is named by its ends.
SHOWN_DIGITS = 24


def _judge(run, value: int, node) -> None:
    st = run.state
    if st.expect is None:
        return
    name = "i32" if st.expect == DEFAULT else st.expect
    t = INT_TYPES[name]
    if t.lo <= value <= t.hi:
        return
    text = _written(node, value)
    if st.said.again((node.span, text, name)):  # the same literal in another unrolled copy
        return
    notes = ["nothing here fixes the literal's type, so it is an i32, as in Rust"
             ] if st.expect == DEFAULT else []
    if st.pattern:
        diag = run.ctx.diagnostics.error(
            "E3019", node.span, f"this case can never match: {text} is no {t.name}, whose "
                                f"range is {t.lo}..={t.hi}",
            help=["drop the case, or match on a wider type"], literal=text, type=t.name,
            range=[t.lo, t.hi])
        st.said.said((node.span, text, name), diag)
        return
    wider = holders(value, t)
    if not wider:
        repair = ["no integer type holds it"]
    elif st.expect == DEFAULT:
        repair = [f"give it a type that holds it: `let v: {wider[0].name} = {text};`"]
    else:
        repair = [f"use a type that holds it, such as `{wider[0].name}`"]
    diag = refuse_out_of_range(run.ctx.diagnostics, node.span, text, t, notes=notes,
                               help=repair)
    st.said.said((node.span, text, name), diag)


def _written(node, value: int) -> str:
    """The literal as the source spells it (`0xFF`, `1_000`), its middle left out when it is
    long; a number fold-sizeof wrote in, spelled `sizeof<T>()` there, as its value."""
    span = node.span
    text = span.source.text[span.start:span.end] if span is not None else str(value)
    if not text.lstrip("-").lstrip()[:1].isdigit():
        text = str(value)
    if len(text) > SHOWN_DIGITS:
        text = f"{text[:10]}...{text[-10:]} ({len(text)} characters)"
    return text
