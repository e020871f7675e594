"""name-row-temporaries: Lsplit -> Lsplit.

Same IL: the tensor is computed by a `let` just before its statement, where nothing the
statement computed before it could see the difference, so the interpreter runs the output as
it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, strip
from ..scalars.constant_values import acting_constants
from ..scalars.function_locals import lent_locals
from ..values.literals import typed_by_place

# What reads nothing a call may change, and stops nowhere: it may run after the tensor's call.
LITERALS = ("Int", "Float", "Bool", "Str", "Global")
# The operators whose operands the type where their value goes types, as the interpreter
# types them (a shift's left operand only).
TYPED_BY_CONTEXT = frozenset("+ - * / % & | ^ << >>".split())
_COMPARISONS = frozenset("== != < <= > >=".split())
# What runs its parts in the order of its fields before it computes its own value.
IN_ORDER = ("Call", "Borrow", "Index", "Binary", "Unary", "Cast", "Tuple")


@dataclass
class State:
    results: dict = field(default_factory=dict)  # function name -> its result type
    params: dict = field(default_factory=dict)  # function name -> its parameters' types
    names: Names | None = None
    ret: object = None  # the result type of the function being rebuilt
    body: object = None  # its body, whose value its result type types
    lent: set = field(default_factory=set)  # the locals a call may change
    constants: dict = field(default_factory=dict)  # a constant holding a tensor -> its type
    acting: set = field(default_factory=set)  # the constants whose first read may act


name_row_temporaries = Pass("name-row-temporaries", L, L, """
Give each tensor that no variable names and a row of which a statement takes (`&made()[1]`,
`made()[1]`) a local of its own, computed by a `let` before the statement, where the statement
computes nothing before it but names and literals, or what it computes before the tensor is
bound by a `let` of its own too, so that the row is one of a local, which native code lowers.

`print(total(&made()[1]));` is `let made = made(); print(total(&made[1]));`: the row is a view
of the tensor's buffer, which a tensor no variable names would not keep past its statement;
bound to a local, find-owned-buffers drops it after the row's last read. The tensor is a
call of a function of the program returning a tensor (or a reference to one), a
constructor, or a constant's (`&T[0]`: bound so, its buffer stays its global's); only where
what the statement runs before it is literals, functions, constants whose first read
neither prints nor stops and
variables no call may change (none lent `&mut`, none a closure assigns), so that the
statement runs its parts in the order written, or where each part computed before the
tensor that is more than those is one a `let` holds as it is: a call of a function of the
program returning a value, a cast, an element or row of a variable, a scalar constant whose
first read prints or stops (`total(X, &made()[1])` is `let arg = X; let made = made(); ..`),
or an operator none of whose literals is typed by where its value goes (`g(a / b,
&made()[1])` is `let arg = a / b; let made = made(); g(arg, &made[1])`), or one some of whose
literals are so typed, where a scalar type types them, held by a `let` of that type, which types its
literals as the interpreter does there: a parameter's (`both(1 << 40, &made()[1])` of an
i64 parameter is `let arg: i64 = 1 << 40; ..`, and `grow((1 << 40) + y, &made()[1])` is
`let arg: i64 = (1 << 40) + y; ..`, where a `let` of no written type would type the shift as
y's), or, through the operands of arithmetic and
bitwise operators (a shift's left) and a negation, a `let`'s, a `return`'s or a function's
value's result type (`let z: i64 = (1 << 40) + first(&made()[1]);`), or, with no such
type, the other operand's that declared types say: a call's declared result or a cast's
type, or an operator's value of such an operand beside literals (`print((1 << 40) +
first(..))`, `print((1 << 40) == first(&made()[1]) + 5)`), or a comparison, whose bool no
place types (`both((1 << 40) == y, &made()[1])` is `let arg = (1 << 40) == y; ..`, the
shift taking y's type there too). Elsewhere (a variable a call may change, read before the
call, `grow(y, &made()[1])` of a y lent `&mut`) it stays, and
check-native-subset refuses it. Each tensor a statement takes a row of is named so in
turn, the next after what the statement computes up to it. The statements are a `let`, an
expression statement, a `return`, an assignment to a variable (a compound one's variable
one no call may change) and a block's value; an `if`'s or a `while`'s condition keeps its
tensors.
""", state=State)


@name_row_temporaries.on("Program")
def _program(run, program):
    st = run.state
    st.results = {i.name: i.ret for i in program.items if i._prod == "Fn"}
    st.params = {i.name: [p.type for p in i.params] for i in program.items if i._prod == "Fn"}
    st.constants = {i.name: i.type for i in program.items
                    if i._prod == "ConstItem" and strip(i.type)._prod == "TensorType"}
    st.acting = acting_constants(program)
    return run.rebuild(program)


@name_row_temporaries.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.lent, st.ret, st.body = Names(fn), lent_locals(fn), fn.ret, fn.body
    return run.rebuild(fn)


@name_row_temporaries.on("Closure")
def _closure(run, closure):
    """A closure's `return`s and value: no result type of its own types their literals."""
    st = run.state
    outer, (st.ret, st.body) = (st.ret, st.body), (None, None)
    try:
        return run.rebuild(closure)
    finally:
        st.ret, st.body = outer


@name_row_temporaries.on("Let", "Return", "ExprStmt", "Assign", splice=True)
def _statement(run, node):
    node = run.rebuild(node)
    slot = "expr" if node._prod == "ExprStmt" else "value"
    value = getattr(node, slot)
    # `k += ..` reads k first: a call the `let`s make first must not be able to change it
    if value is None or node._prod == "Assign" and (
            node.target._prod != "Local" or node.op != "=" and
            node.target.name in run.state.lent):
        return (node,)
    # the type a `let` or a `return` gives the untyped literals of its value (Rust's)
    hint = node.type if node._prod == "Let" else run.state.ret if node._prod == "Return" \
        else None
    lets, value = _all_named(run, value, hint)
    return (*lets, node.replace(**{slot: value})) if lets else (node,)


@name_row_temporaries.on("Block")
def _block(run, block):
    hint = run.state.ret if block is run.state.body else None
    block = run.rebuild(block)
    if block.value is None:
        return block
    lets, value = _all_named(run, block.value, hint)
    return block.replace(stmts=(*block.stmts, *lets), value=value) if lets else block


def _all_named(run, e, hint):
    """The `let`s of each tensor e takes a row of (_named), in turn, and e reading their
    locals: once the first is named, the next is the first e takes of what is left."""
    lets = []
    while (named := _named(run, e, hint)) is not None:
        lets, e = lets + named[0], named[1]
    return lets, e


def _named(run, e, hint):
    """The `let`s of what e computes before the first tensor it takes a row of (_held) and
    of that tensor, and e reading their locals, or None when e takes none or computes before
    it what no `let` can hold."""
    held = []
    found = _first(run, e)
    if found is False:
        found = _held(run, e, held, hint)
    if not isinstance(found, tuple):
        return None
    tensor, ty = found
    lets = []
    for part, typed in held:
        name = run.state.names.fresh("arg")
        lets.append(L["Let"](name, False, typed or L["OpaqueType"](span=part.span), part,
                             span=part.span))
        e = _replaced(e, part, L["Local"](name, span=part.span))
    name = run.state.names.fresh("made")
    lets.append(L["Let"](name, False, ty, tensor, span=tensor.span))
    return lets, _replaced(e, tensor, L["Local"](name, span=tensor.span))


def _held(run, e, held: list, hint):
    """The tensor no variable names and its type that e takes a row of first, each part of
    e computed before it that computes something added to `held`, in order, to be computed
    by a `let` before the statement (`both(said(), &made()[1])` is `let arg = said(); let
    made = made(); both(arg, &made[1])`); None when there is no such tensor or a part before
    it is not _holdable."""
    row = _row_of(run, e)
    if row is not None or _printed_row(e):
        return row
    parts = _parts(e)
    for k, part in enumerate(parts or ()):
        if not any(_row_of(run, n) is not None for n in descendants(part)):
            continue
        for before in parts[:k]:
            if _first(run, before) is not True:
                if _holdable(run, before):
                    held.append((before, None))
                elif (typed := _place_type(before, _part_hint(run, e, before, hint))):
                    held.append((before, typed))
                else:
                    return None
        return _first(run, part) if _first(run, part) is not False else \
            _held(run, part, held, _part_hint(run, e, part, hint))
    return None


def _holdable(run, e) -> bool:
    """Whether a `let` holds what e gives as e gives it where it is: a call of a function of
    the program that returns a value, a cast, an element or row of a variable, a comparison,
    or an operator none of whose literals takes its type from where the value goes (`1 <<
    40` given to an i64 parameter)."""
    if e._prod == "Call":
        return e.callee._prod == "Global" and run.state.results.get(e.callee.name) is not None
    if e._prod == "Index":
        return all(_holdable(run, n) or n._prod in LITERALS or n._prod == "Local"
                   for n in (e.base, e.index))
    if e._prod == "Binary" and e.op in _COMPARISONS:
        # its value is a bool, which no place types, and its operands' literals take the
        # other operand's type, in the `let` as where it is (`(1 << 40) == y` of an i64 y)
        return True
    if e._prod in ("Binary", "Unary"):
        return not (e._prod == "Binary" and e.op in ("&&", "||")) and not typed_by_place(e)
    # a constant whose first read prints or stops: read by the `let`, before the tensor
    return e._prod == "Cast" or e._prod == "Global" and e.name in run.state.acting and \
        e.name not in run.state.constants


def _place_type(arg, hint):
    """hint, a scalar type, where `arg` is an operator: a `let` of that written type types
    its literals as where arg is does, and the checker has made hint the type of arg's value
    there (`1 << 40` given to an i64 parameter, or added to a call's i64 for a `let` of an
    i64, is `let arg: i64 = 1 << 40;`; `(1 << 40) + y` given to it, `let arg: i64 = (1 <<
    40) + y;`, the shift typed i64 as the parameter types it, not as y is); None elsewhere."""
    if arg._prod not in ("Binary", "Unary") or arg._prod == "Binary" and arg.op in ("&&", "||"):
        return None
    return hint if hint is not None and hint._prod == "Scalar" else None


def _part_hint(run, e, part, hint):
    """The type that types the untyped literals of `part`, a part of e, where e's own are
    typed by hint, as the interpreter types them: a call's argument by its parameter's type,
    an arithmetic or bitwise operator's operands (a shift's left only) and a negation's by
    hint; None elsewhere."""
    if e._prod == "Call":
        types = run.state.params.get(e.callee.name) if e.callee._prod == "Global" else None
        at = next((k for k, a in enumerate(e.args) if a is part), None)
        return types[at] if types is not None and at is not None and at < len(types) else None
    if e._prod == "Binary" and e.op in ("<<", ">>"):
        return hint if part is e.left else None
    if e._prod == "Binary" and (e.op in TYPED_BY_CONTEXT or e.op in _COMPARISONS):
        if hint is not None and e.op in TYPED_BY_CONTEXT:
            return hint
        # Nothing around types them: the other operand's type does, which the interpreter
        # computes first to know it, and a call's declared result says.
        return _declared(run, e.right if part is e.left else e.left)
    return hint if e._prod == "Unary" and e.op == "-" else None


def _declared(run, e):
    """The type of e's value that declared types say, whatever types its literals: a call's
    declared result or a cast's type, and so an arithmetic or bitwise operator's value of an
    operand with one (a shift's left operand), the other's literals taking its type, or a
    negation's (`first(..) + 5` of an i64 `first`); None elsewhere."""
    if e._prod == "Call":
        return run.state.results.get(e.callee.name) if e.callee._prod == "Global" else None
    if e._prod == "Cast":
        return e.type
    if e._prod == "Unary" and e.op == "-":
        return _declared(run, e.operand)
    if e._prod == "Binary" and e.op in ("<<", ">>"):
        return _declared(run, e.left)
    if e._prod == "Binary" and e.op in TYPED_BY_CONTEXT:
        return _declared(run, e.left) or _declared(run, e.right)
    return None


def _first(run, e):
    """The tensor no variable names and its type, when e takes a row of it first of all it
    computes; True when e computes nothing that matters to the order (names, literals and
    borrows of them); False when it computes something before any such tensor (a call, an
    index that may stop, an operator)."""
    row = _row_of(run, e)
    if row is not None:
        return row
    if e._prod == "Global" and e.name in run.state.acting:
        return False  # its first read may print or stop, where it is
    if e._prod in LITERALS or e._prod == "Local" and e.name not in run.state.lent:
        return True
    if _printed_row(e):
        return False  # a row printed is lowered where it is
    parts = _parts(e)
    if parts is None:
        return False
    for part in parts:
        found = _first(run, part)
        if found is not True:
            return found
    return e._prod == "Borrow"  # the rest computed something once its parts ran


def _printed_row(e) -> bool:
    return e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and \
        bool(e.args) and e.args[0]._prod == "Index"


def _parts(e) -> list | None:
    """e's parts in the order it computes them before its own value, None for an e that
    computes otherwise (`&&`, an `if`)."""
    if e._prod == "Index":  # the tensor, then its indices, innermost first
        parts, root = [], e
        while root._prod == "Index":
            parts.insert(0, root.index)
            root = root.base
        return [root, *parts]
    if e._prod in IN_ORDER and not (e._prod == "Binary" and e.op in ("&&", "||")):
        return [c for name in e._fields
                for c in (getattr(e, name) if isinstance(getattr(e, name), tuple)
                          else (getattr(e, name),))
                if hasattr(c, "_prod") and c._nt == "Expr"]
    return None


def _row_of(run, e):
    """(tensor, its type) when e is a row (`t[i]`, `t[i][j]` of a rank-3 t) of a tensor a
    call of a function of the program or a constructor makes, or a constant holds, else
    None."""
    root, depth = e, 0
    while root._prod == "Index":
        root, depth = root.base, depth + 1
    if root._prod in ("TensorNew", "TensorLit"):
        ty = root.type
    elif root._prod == "Call" and root.callee._prod == "Global":
        ty = run.state.results.get(root.callee.name)
    elif root._prod == "Global" and root.name in run.state.constants:
        ty = run.state.constants[root.name]  # its buffer, which its global keeps
    else:
        return None
    inner = ty.inner if ty is not None and ty._prod == "BorrowType" else ty
    if inner is None or inner._prod != "TensorType" or not 0 < depth < len(inner.dims):
        return None
    return root, ty


def _replaced(e, old, new):
    """e with the node `old` (found by identity) replaced by `new`."""
    if e is old:
        return new
    fields = {}
    for name in e._fields:
        child = getattr(e, name)
        if isinstance(child, tuple):
            changed = tuple(_replaced(c, old, new) if hasattr(c, "_prod") else c
                            for c in child)
            if any(a is not b for a, b in zip(changed, child)):
                fields[name] = changed
        elif hasattr(child, "_prod"):
            changed = _replaced(child, old, new)
            if changed is not child:
                fields[name] = changed
    return e.replace(**fields) if fields else e
