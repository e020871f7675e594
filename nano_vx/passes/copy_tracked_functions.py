"""copy-tracked-functions: Lsplit -> Lcopied."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

from ..languages.lcopied import Lcopied
from ..languages.lsplit import Lsplit
from ..nanopass import Pass, descendants
from ..scalars import refuse
from ..scalars.aggregates import Names
from ..scalars.first_parts import NOTHING, first_found, first_part, part, replaced_first
from ..scalars.tensor_names import NOT_FOLLOWED, lent_tensor, names_given, sized_by_parameters

@dataclass
class _Copying:
    fn: str = ""
    fns: dict = field(default_factory=dict)  # the program's functions by name
    tracked: set = field(default_factory=set)  # the locals a tensor made by uninit() is known by
    given: tuple = ()  # the parameters of the copy walked given such a tensor
    returned: bool = False  # whether the copy walked is one whose callers keep its result's flags
    clones: dict = field(default_factory=dict)  # (function, given positions, returned) -> copy
    pending: list = field(default_factory=list)  # the copies asked for, not yet made
    refused: object = None  # the first node of the function whose call cannot be copied
    used: Names | None = None  # the function's names, for the new ones
    body: object = None  # the function's body, whose value it returns
    unhanded: dict = field(default_factory=dict)  # a function -> a return dropping flags
    lost: set = field(default_factory=set)  # the functions a call of which was refused so
    # (function, parameters given a tracked tensor) -> whether it returns one it keeps flags of
    returning: dict = field(default_factory=dict)


copy_tracked_functions = Pass("copy-tracked-functions", Lsplit, Lcopied, """
Call each function given or returning a tensor made by `::uninit()` in a copy of its own, opened by a `WrittenCopy` that names its parameters given one and says whether it returns one, so that track-uninit-elements can hand the tensors' written-flags through it.

A call or launch given a local that names a tensor made by `::uninit()` (or a name given to
one, a parameter of a copy given one, the result of such a call) calls `f$written`, one copy
for each set of parameters so given; `let r = f(..)` of a function returning a tensor whose
flags it can hand on (one it made, one a call of such a function returned, or a parameter
given one by value, whose caller's name for it is moved) calls one whose callers keep the
flags of the tensor it returns (the caller makes those flags before the call: its extents
are static, or its `?` extents the function's parameters or numbers, whose bits add up to 63
at most, the tensor one `let` at the top of its body makes, the only one it returns). Such a
call that a statement computes first without a `let` naming its result (`print(f()[0])`,
`g(f(), 1)`, `return f()`, `if f()[0] > 0 {..}`; a `while`'s condition, computed each turn, as an `if !c { break; }` at the top of its body) is given one of its own
just before the statement (one a block's value computes first, after the block's
statements; a function's body's value is returned, and named so too): it runs where it ran,
and its caller has a name to keep the flags by. One computed after the left operand of an
operation (`f()[0] + f()[1]`) is named once that operand is computed into a `let` first (it
might stop the program before the call runs). One right of `&&` or `||`, which runs only
where the left operand decides so, is named inside an arm of the `if` the operation means
(`a && b` is `if a { b } else { false }`), computed into a `let` as such an operand is (a
block's value so computed is a `let`'s, after its statements). A function returning such a
call's tensor hands on its flags as one returning a tensor it made. The copies are walked in
turn, and a function every call of which now calls a copy is called no more and dropped.
What the copies cannot follow is refused (E5010): a call returning one that no `let` names
and that its statement does not compute first, after an operation's left operand or right of
`&&` or `||` (a later argument: naming it would move it before what is computed earlier),
and a function
returning one it made that something still calls other than through a copy. A call of
anything else (`print`, a closure) is left to track-uninit-elements.
""", state=_Copying)


@copy_tracked_functions.on("Program")
def _program(run, program):
    state = run.state
    state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    items = []
    for item in program.items:
        state.given, state.returned = (), False
        items.append(run.walk(item))
    while state.pending:
        (name, at, returned), copy = state.pending.pop(0)
        fn = state.fns[name]
        state.given, state.returned = tuple(fn.params[k].name for k in at), returned
        walked = run.walk(fn.replace(name=copy))
        mark = Lcopied["WrittenCopy"](state.given, returned, span=fn.span)
        items.append(walked.replace(body=walked.body.replace(stmts=(mark,) + walked.body.stmts)))
    nodes = [n for i in items for n in descendants(i)]
    called = {n.name for n in nodes if n._prod == "Global"} | \
        {n.kernel for n in nodes if n._prod == "Launch"} | {"main"}
    copied = {name for name, _, _ in state.clones}
    for name, node in state.unhanded.items():  # still called: a caller gets no flags
        if name in called and name not in state.lost:
            refuse(run.ctx.diagnostics, name, node, NOT_FOLLOWED)
    kept = tuple(i for i in items if i._prod != "Fn" or i.name not in copied or i.name in called)
    return program if all(map(operator.is_, kept, program.items)) and \
        len(kept) == len(program.items) else program.replace(items=kept)


@copy_tracked_functions.on("Fn")
def _fn(run, fn):
    state = run.state
    state.fn, state.refused, state.used, state.body = fn.name, None, Names(fn), fn.body
    if not state.given and not any(_is_uninit(n) or _call_returning(n, (), state)
                                   for n in descendants(fn.body)):
        return fn
    state.tracked, kept = _tensors(fn, state.given, state)
    if not state.returned:
        returned = [n.value for n in descendants(fn.body) if n._prod == "Return"] + \
            [fn.body.value]
        dropped = [v for v in returned if _handed_on(v, state.tracked, kept, state)]
        if dropped:  # fine unless something still calls the function (and not a copy)
            state.unhanded.setdefault(fn.name, dropped[0])
    out = run.rebuild(fn)
    if state.refused is not None:
        refuse(run.ctx.diagnostics, fn.name, state.refused, NOT_FOLLOWED)
    return out


_VALUE = {"ExprStmt": "expr", "If": "cond"}  # what a statement computes first, else `value`


@copy_tracked_functions.on("Let", "ExprStmt", "Return", "If", splice=True)
def _statement(run, s):
    """`let r = f(..)` calls f's returning copy; a statement computing such a call first
    without naming it (`print(f()[0])`, `return f()`, `if f()[0] > 0 {..}`) is given a `let`
    for it just before it."""
    state = run.state
    field = _VALUE.get(s._prod, "value")
    value = getattr(s, field)
    if value is None:
        return run.rebuild(s)
    if s._prod == "Let" and _tracked_result(value, state):
        return s.replace(value=_copied(run, value, True))
    call = _first(value, state)
    if call is None:
        op = _computed_before(value, state)
        if op is None:
            return run.rebuild(s)
        if op.op in ("&&", "||"):
            # `a && f()[0] > 0` calls f only where a holds: the `if` that says so is computed
            # into a `let` first, the call named inside its arm.
            name = state.used.fresh("condition")
            span = op.span
            right = Lcopied["Block"]((), op.right, span=op.right.span)
            other = Lcopied["Block"]((), Lcopied["Bool"](op.op == "||", span=span), span=span)
            arms = (right, other) if op.op == "&&" else (other, right)
            first = Lcopied["Let"](name, False, Lcopied["OpaqueType"](span=span),
                                   Lcopied["IfExpr"](op.left, False, *arms, span=span), span=span)
            rest = s.replace(**{field: replaced_first(value, op,
                                                      Lcopied["Local"](name, span=span))})
            return (*_spliced(_statement(run, first)), *_spliced(_statement(run, rest)))
        # `f()[0] + f()[1]`: what is computed before the call (which may stop the program
        # before the call runs) is computed into a `let` first, and then the call named.
        left = op.left
        name = state.used.fresh("operand")
        first = Lcopied["Let"](name, False, Lcopied["OpaqueType"](span=left.span), left,
                               span=left.span)
        rest = s.replace(**{field: replaced_first(value, left,
                                                  Lcopied["Local"](name, span=left.span))})
        return (*_spliced(_statement(run, first)), *_spliced(_statement(run, rest)))
    name = state.used.fresh("result")
    state.tracked.add(name)
    named = Lcopied["Let"](name, False, state.fns[call.callee.name].ret,
                           _copied(run, call, True), span=call.span)
    if call is value and s._prod == "ExprStmt":  # `f();`: the tensor is dropped once named
        return (named,)
    rest = s.replace(**{field: replaced_first(value, call, Lcopied["Local"](name, span=call.span))})
    # which may call another such function, given this one
    return (named, *_spliced(_statement(run, rest)))


def _spliced(out) -> tuple:
    """What a statement's rewrite gives, as statements."""
    return out if isinstance(out, tuple) else (out,)


@copy_tracked_functions.on("While")
def _while(run, loop):
    """A condition calling a function returning a tracked tensor is computed each turn at
    the top of the body, where the call is named: `while c { B }` is
    `while true { if !c { break; } B }`, to whose top a `continue` still goes."""
    state = run.state
    if _first(loop.cond, state) is None and _computed_before(loop.cond, state) is None:
        return run.rebuild(loop)
    span = loop.cond.span
    leave = Lcopied["If"](Lcopied["Unary"]("!", loop.cond, span=span), False,
                          Lcopied["Block"]((Lcopied["Break"](span=span),), None, span=span),
                          None, span=span)
    body = loop.body.replace(stmts=(leave, *loop.body.stmts))
    return run.rebuild(loop.replace(cond=Lcopied["Bool"](True, span=span), body=body))


@copy_tracked_functions.on("Block")
def _block(run, b):
    """A block's value is computed after its statements: a call that value computes first is
    named by a `let` after them (unless it is the whole value, which the block hands on), and
    a value with a call to name after an operand is a `let`'s after them."""
    state = run.state
    call = _first(b.value, state) if b.value is not None else None
    if call is not None and (call is not b.value or b is state.body):
        name = state.used.fresh("result")
        state.tracked.add(name)
        named = Lcopied["Let"](name, False, state.fns[call.callee.name].ret, call, span=call.span)
        return _block(run, b.replace(stmts=b.stmts + (named,), value=replaced_first(
            b.value, call, Lcopied["Local"](name, span=call.span))))
    if b.value is not None and _computed_before(b.value, state) is not None:
        # `{ ..; a || f()[0] > 0 }`: the value is a `let`'s, which names what it must
        name = state.used.fresh("value")
        span = b.value.span
        value = Lcopied["Let"](name, False, Lcopied["OpaqueType"](span=span), b.value, span=span)
        b = b.replace(stmts=b.stmts + (value,), value=Lcopied["Local"](name, span=span))
    return run.rebuild(b)  # a block's whole value: handed on where the block's is


def _first(e, state: _Copying):
    """The call returning a tracked tensor that `e` computes before anything else, if any."""
    return first_found(e, lambda x: _tracked_result(x, state))


def _computed_before(e, state: _Copying):
    """The operation along what `e` computes first whose right operand calls a function
    returning a tracked tensor after its left operand is computed, if any: an `&&` or `||`,
    whose right operand may not be computed, or another whose left operand computes
    something."""
    while True:
        if e._prod == "Binary" and (e.op in ("&&", "||") or e.left._prod not in NOTHING) and \
                any(_tracked_result(n, state) for n in (e.right, *descendants(e.right))):
            return e
        field = first_part(e)
        if field is None:
            return None
        e = part(e, field)


@copy_tracked_functions.on("Call", "Launch")
def _call(run, e):
    if e._prod == "Call" and _tracked_result(e, run.state):
        _refuse(run, e)  # a tensor returned that no `let` names: nowhere to keep its flags
        run.state.lost.add(e.callee.name)
        return e
    return _copied(run, e, False)


def _copied(run, e, returned: bool):
    """The call, of the copy of its function for the tracked tensors it is given (and, with
    `returned`, the one it returns) where it needs one."""
    state = run.state
    args = [a.value if a._prod == "Borrow" else a for a in e.args]
    at = tuple(k for k, a in enumerate(args) if a._prod == "Local" and a.name in state.tracked)
    if not at and not returned:
        return run.rebuild(e)
    name = e.kernel if e._prod == "Launch" else \
        e.callee.name if e.callee._prod == "Global" else None
    if name not in state.fns or len(state.fns[name].params) != len(args):
        return run.rebuild(e)  # `print`, a closure: track-uninit-elements follows it or not
    key = (name, at, returned)
    copy = state.clones.get(key)
    if copy is None:
        copy = state.clones[key] = _fresh_fn(f"{name}$written", state)
        state.pending.append((key, copy))
    walked = tuple(run.walk(a) for a in e.args)
    if e._prod == "Launch":
        return e.replace(kernel=copy, args=walked)
    return e.replace(callee=e.callee.replace(name=copy), args=walked)


def _refuse(run, node):
    if run.state.refused is None:
        run.state.refused = node


def _tensors(fn, given, state: _Copying) -> tuple[set, set]:
    """The locals of the function that name a tracked tensor, given the parameters `given`
    name one; and those of them whose flags it can hand to its caller when it returns them:
    a tensor it made by `::uninit()`, or a call of a function returning one returned, or a
    parameter given one by value (its caller's name for it is moved), and their names."""
    lets = [n for n in descendants(fn.body) if n._prod == "Let"]
    tracked = set(given)
    kept = {p.name for p in fn.params if p.name in given and p.type._prod != "BorrowType"}
    grew = True
    while grew:  # a call's result is tracked once the arguments that make it so are
        grew = False
        for s in lets:
            if s.name not in tracked and (_is_uninit(s.value) or
                                          _call_returning(s.value, tracked, state)):
                tracked.add(s.name)
                kept.add(s.name)
                grew = True
        for name, source in names_given(lets, tracked):
            tracked.add(name)
            if source in kept:
                kept.add(name)
            grew = True
    return tracked, kept


def _returns_tracked(fn, given: frozenset, state: _Copying) -> bool:
    """Whether the function, given tracked tensors by the parameters `given`, returns one of
    static extents whose flags it can hand on, under a name of its own."""
    key = (fn.name, given)
    if key not in state.returning:
        state.returning[key] = False  # a recursive call is not followed
        ret = lent_tensor(fn.ret)
        if ret is not None and ret._prod == "TensorType" and fn.ret._prod != "BorrowType" and \
                all(d._prod == "DimInt" for d in ret.dims):
            tracked, kept = _tensors(fn, given, state)
            returned = [n.value for n in descendants(fn.body) if n._prod == "Return"] + \
                [fn.body.value]
            state.returning[key] = any(_handed_on(v, tracked, kept, state) for v in returned)
        elif ret is not None and ret._prod == "TensorType" and fn.ret._prod != "BorrowType":
            # of `?` extents: the caller sizes the flags from its call's arguments
            state.returning[key] = sized_by_parameters(fn) is not None
    return state.returning[key]


def _handed_on(value, tracked, kept, state: _Copying) -> bool:
    """Whether a value returned is a tracked tensor whose flags the function can hand on: a
    local of `kept`, or a call returning one (named by a `let` first)."""
    return value is not None and (value._prod == "Local" and value.name in kept or
                                  _call_returning(value, tracked, state))


def _call_returning(value, tracked, state: _Copying) -> bool:
    """Whether the value is a call of a function of the program that returns a tracked
    tensor, given the tracked locals among its arguments."""
    if not (value._prod == "Call" and value.callee._prod == "Global" and
            value.callee.name in state.fns):
        return False
    fn = state.fns[value.callee.name]
    args = [a.value if a._prod == "Borrow" else a for a in value.args]
    if len(args) != len(fn.params):
        return False
    return _returns_tracked(fn, frozenset(p.name for p, a in zip(fn.params, args)
                                          if a._prod == "Local" and a.name in tracked), state)


def _tracked_result(value, state: _Copying) -> bool:
    """Whether the value is a call that returns a tracked tensor, in the function walked."""
    return _call_returning(value, state.tracked, state)


def _is_uninit(value) -> bool:
    return value._prod == "TensorNew" and value.ctor == "uninit"


def _fresh_fn(stem: str, state: _Copying) -> str:
    name, k = stem, 0
    while name in state.fns or name in state.clones.values():
        k += 1
        name = f"{stem}{k}"
    return name
