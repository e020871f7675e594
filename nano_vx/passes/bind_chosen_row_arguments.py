"""bind-chosen-row-arguments: Lsplit -> Lsplit.

Same IL: the `if` is computed by a `let` just before its statement, where the statement
computed nothing before it but reads nothing the `if` can change, so the interpreter runs the
output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.constant_values import acting_constants
from ..scalars.function_locals import lent_locals
from ..scalars.storages import chosen_values, gives_rows

LITERALS = ("Int", "Float", "Bool", "Str")


@dataclass
class State:
    params: dict = field(default_factory=dict)  # function name -> its parameters' types
    closures: dict = field(default_factory=dict)  # local -> the closure a `let` binds it to
    acting: set = field(default_factory=set)  # the constants whose first read may act
    names: Names | None = None
    lent: set = field(default_factory=set)  # the locals a call may change
    types: dict = field(default_factory=dict)  # a local or parameter -> its type


bind_chosen_row_arguments = Pass("bind-chosen-row-arguments", L, L, """
Bind an `if` choosing rows that is given to a function of the program, or to a closure a
`let` binds, as an argument to a `let` of the parameter's written type (or, of a closure's
parameter of none, of the one type the variables whose rows its arms give say) just before
its statement, where the statement computes nothing before it but reads of literals,
functions, constants and variables no call changes.

`print(total(if c { a[1] } else { b[0] }));` is `let row = if c { a[1] } else { b[0] };
print(total(row));`, which split-chosen-tensor-references then binds in each arm, followed by
the rest of the block: a row is a view of its tensor's buffer, and an `if` choosing rows of
two tensors elsewhere would start at a tensor of its own that no arm gives back. The `if`
computes its condition and its arm, which may call and change a variable, so only a statement
reading before it what no call changes (no variable lent `&mut` or assigned by a closure, no
constant whose first read prints or stops), of an `if` assigning no variable, has it bound
so; the statements are a `let`, an
expression statement, a `return`, an assignment `=` to a variable and a block's value, and
the `if` is found through calls of functions and of such closures, casts and operators other than `&&` and `||`,
in the order they compute their parts. Any other stays where it is, which check-native-subset
refuses.
""", state=State)


@bind_chosen_row_arguments.on("Program")
def _program(run, program):
    run.state.params = {i.name: [p.type for p in i.params] for i in program.items
                        if i._prod == "Fn"}
    run.state.acting = acting_constants(program)
    return run.rebuild(program)


@bind_chosen_row_arguments.on("Fn")
def _fn(run, fn):
    run.state.names, run.state.lent = Names(fn), lent_locals(fn)
    run.state.types = {**{p.name: p.type for p in fn.params},
                       **{n.name: n.type for n in descendants(fn) if n._prod == "Let"}}
    # a local a `let` that is not `mut` binds to a closure holds it wherever it is named
    run.state.closures = {n.name: [p.type for p in n.value.params] for n in descendants(fn)
                          if n._prod == "Let" and not n.mutable and n.value._prod == "Closure"}
    return run.rebuild(fn)


# The field of a statement that computes its value.
_VALUE = {"ExprStmt": "expr", "Let": "value", "Return": "value", "Assign": "value"}


@bind_chosen_row_arguments.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts, changed = [], False
    for stmt in block.stmts:
        slot = _VALUE.get(stmt._prod)
        if slot is None or getattr(stmt, slot) is None or stmt._prod == "Assign" and (
                stmt.op != "=" or stmt.target._prod != "Local"):
            stmts.append(stmt)
            continue
        lets, value = _all_bound(run, getattr(stmt, slot))
        stmts += [*lets, stmt.replace(**{slot: value}) if lets else stmt]
        changed = changed or bool(lets)
    value = block.value
    if value is not None:
        lets, value = _all_bound(run, value)
        stmts += lets
        changed = changed or bool(lets)
    return block.replace(stmts=tuple(stmts), value=value) if changed else block


def _all_bound(run, e):
    """The `let`s of each such `if` e computes, in turn, and e reading their locals: once
    the first is bound, e reads its local, and the next is the first of what is left."""
    lets = []
    while isinstance(found := _first(run, e), tuple):
        choice, ty, rebuild = found
        name = run.state.names.fresh("row")
        lets.append(L["Let"](name, False, ty, choice, span=choice.span))
        e = rebuild(L["Local"](name, span=choice.span))
    return lets, e


def _first(run, e):
    """(the `if`, the parameter's type, the function giving e that `if` replaced) when the
    first thing e computes that is more than a read is an `if` choosing rows given to a
    function of the program; True when e only reads what the `if` cannot change; False
    otherwise."""
    kind = e._prod
    if kind in LITERALS or kind == "Local" and e.name not in run.state.lent:
        return True
    if kind == "Global":
        return e.name not in run.state.acting
    parts = _parts(run, e)
    if parts is None:
        return False
    for k, (part, put) in enumerate(parts):
        ty = _chosen_row_parameter(run, e, k)
        if ty is not None:
            return part, ty, put
        found = _first(run, part)
        if isinstance(found, tuple):
            choice, ty, rebuild = found
            return choice, ty, lambda v, rebuild=rebuild, put=put: put(rebuild(v))
        if found is not True:
            return False
    return False  # e computes something of its own after its parts: the next part is after


def _parts(run, e):
    """e's parts in the order it computes them, each with the function giving e that part
    replaced; None for an e that computes otherwise."""
    kind = e._prod
    if kind == "Call" and (e.callee._prod == "Global" or _callee_types(run, e) is not None):
        return [(a, lambda v, k=k: e.replace(args=(*e.args[:k], v, *e.args[k + 1:])))
                for k, a in enumerate(e.args)]
    if kind == "Binary" and e.op not in ("&&", "||"):
        return [(e.left, lambda v: e.replace(left=v)), (e.right, lambda v: e.replace(right=v))]
    if kind == "Unary":
        return [(e.operand, lambda v: e.replace(operand=v))]
    if kind == "Cast":
        return [(e.value, lambda v: e.replace(value=v))]
    return None


def _chosen_row_parameter(run, call, k: int):
    """The type of the tensor parameter (or reference to one) of the function of the program
    or the closure `call` gives its k-th argument, when that argument is an `if` giving a row
    (or borrowing one) in some arm; else None."""
    if call._prod != "Call":
        return None
    arg, types = call.args[k], _callee_types(run, call)
    # an arm assigning a variable might assign one the statement read before the `if`
    if arg._prod != "IfExpr" or arg.comptime or not gives_rows(arg) or types is None or \
            k >= len(types) or any(n._prod == "Assign" for n in descendants(arg)):
        return None
    ty = types[k] if types[k] is not None else _rows_type(run, arg)
    return ty if ty is not None and (ty._prod == "TensorType" or ty._prod == "BorrowType" and
                                     ty.inner._prod == "TensorType") else None


def _rows_type(run, choice):
    """The one type of the rows every arm of `choice` gives (`a[1]`, `&b[0]`, `c[0][1]`; a,
    b, c tensor variables or references to them), which stands for a closure's parameter of
    no written type: its first call, given the `let`, types it so; None where an arm gives
    something else or the types differ."""
    found = set()
    for v in chosen_values(choice):
        borrowed = v._prod == "Borrow"
        row = _row_type(run, v.value if borrowed else v)
        if row is None or row._prod != "TensorType" or not row.dims:
            return None
        found.add(L["BorrowType"](row, v.mutable) if borrowed else row)
    return found.pop() if len(found) == 1 else None


def _row_type(run, e):
    """The type of e, a tensor variable (or a reference to one) or an element or row of
    one, else None."""
    if e._prod == "Local":
        return run.state.types.get(e.name)
    if e._prod != "Index":
        return None
    t = _row_type(run, e.base)
    t = t.inner if t is not None and t._prod == "BorrowType" else t  # indexing reads through
    return t.replace(dims=t.dims[1:]) if t is not None and t._prod == "TensorType" and \
        t.dims else None


def _callee_types(run, call):
    """The parameters' types of what `call` calls: a function of the program, or a closure a
    local holds; None for any other callee."""
    callee = call.callee
    if callee._prod == "Global":
        return run.state.params.get(callee.name)
    return run.state.closures.get(callee.name) if callee._prod == "Local" else None
