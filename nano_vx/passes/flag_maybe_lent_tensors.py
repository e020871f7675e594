"""flag-maybe-lent-tensors: Lparted -> Lparted.

Same IL: the flag is true exactly where the function returned its parameter's tensor, so
the caller's local is made that tensor where the interpreter's was, and given a copy of the
tensor the function made, which nothing else holds, where it was given that tensor."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, concrete, copy_into, is_tensor, lent, unread_tensor
from ..scalars.sole_buffers import MADE


@dataclass
class State:
    maybe: dict = field(default_factory=dict)  # a function -> its lending parameter's index
    # a function -> {an out-parameter's index: the index of the parameter lending the tensor}
    giving: dict = field(default_factory=dict)
    flag: str | None = None  # the flag parameter of the function walked, if one of `maybe`
    # the function walked's out-parameters of `giving` -> (their flag parameter, tensor type)
    outs: dict = field(default_factory=dict)
    flags: dict = field(default_factory=dict)  # its locals bound to a call of one -> their flag
    fresh: set = field(default_factory=set)  # its calls of `giving` whose takers are new tensors
    # a function of `giving` -> the local bound to the call of `maybe` whose tensor it returns
    results: dict = field(default_factory=dict)
    result: tuple | None = None  # the function walked's (that local, its result flag)
    fns: dict = field(default_factory=dict)  # the program's functions by name
    names: Names | None = None  # its fresh locals


flag_maybe_lent_tensors = Pass("flag-maybe-lent-tensors", L, L, """
Give a function returning either the tensor a `&mut` parameter lends it or one it makes a
`&mut bool` flag saying which, and make a function giving back through an out-parameter what
a call of it gave of its own `&mut` parameter copy the tensor only when the flag says it
made it, and else say so through a flag of its own, after whose call the caller's local is
made the tensor it lent.

`fn maybe(x: &mut T, k: f32) -> T { if k > 1.0 { return T::fill(k); } *x }` returns `*x`
where its flag is set. `fn wrap(x: &mut T, ret_b: &mut T) { let b = maybe(x, 0.5); give_back
ret_b = b; }` is `fn wrap(x: &mut T, ret_b: &mut T, lent: &mut bool) { let mut flag = false;
let b = maybe(x, 0.5, &mut flag); if flag { *lent = true; } else { <copy b into *ret_b> } }`
and `wrap(&mut t, &mut p_b);` is `let mut lent = false; wrap(&mut t, &mut p_b, &mut lent);
if lent { p_b = t; }`: copy-out-tensors would copy a tensor the caller lent, and the copy
would not be the tensor the caller writes after; hand-on-lent-tensors hands on only one
given back at every return. It is for a function (of no closure) whose every way out gives
`*x` of one `&mut` tensor parameter x or a tensor a constructor or a literal makes, each
call of which a `let` binds; and a give-back of a local a `let` binds to such a call, read
otherwise only by elements, which lends it a `&mut` tensor parameter, the only give-back of
its out-parameter, of extents known, in a function called only as a statement (or what a
`let` or an assignment to a local stores) lending a variable there and taking the tensor
into another. Where such a function's result is what a call of `maybe` gave of its own
`&mut` parameter (by itself, or through the start scalarize-aggregates gives the result,
given it once), it hands a flag of its own, its last parameter, on to that call: true
exactly where its result is the tensor its caller lent, and else one `maybe` made, which
the caller's local then owns (drop-flagged-takers drops it).
""", state=State)


@flag_maybe_lent_tensors.on("Program")
def _program(run, program):
    st = run.state
    fns = st.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    named = _named(program, fns)
    bound = [n.value for n in descendants(program) if n._prod == "Let"]
    making = frozenset(name for name, fn in fns.items() if _making(fn))
    for name, fn in fns.items():
        k = _lending(fn, making)
        if k is not None and named.get(name, 0) == sum(
                _calls(v, {name}) for v in bound):
            st.maybe[name] = k
    if not st.maybe:
        return program
    statements = [s for s in descendants(program) if _stored(s)]
    for name, fn in fns.items():
        outs = {} if name in st.maybe else _giving(fn, st.maybe)
        calls = [s for s in statements if _calls(_computed(s), {name})]
        if outs and named.get(name, 0) == len(calls) and all(
                _lends(s, fn, outs) for s in calls):
            st.giving[name] = outs
            source = _result_source(fn, st.maybe)
            if source is not None:
                st.results[name] = source
    return run.rebuild(program)


def _named(program, fns: dict) -> dict:
    named: dict[str, int] = {}
    for n in descendants(program):
        if n._prod == "Global" and n.name in fns:
            named[n.name] = named.get(n.name, 0) + 1
    return named


def _calls(e, names) -> bool:
    return e._prod == "Call" and e.callee._prod == "Global" and e.callee.name in names


def _stored(s) -> bool:
    """Whether s is a statement whose expression is all it computes: a call there is one
    statements can follow."""
    return s._prod == "ExprStmt" or s._prod == "Let" or \
        s._prod == "Assign" and s.op == "=" and s.target._prod == "Local"


def _reference(p) -> bool:
    return lent(p.type) and is_tensor(p.type.inner)


def _values(fn) -> list | None:
    """What each way out of fn gives; None where fn returns no tensor, runs on a device or
    makes a closure."""
    if not is_tensor(fn.ret) or fn.on is not None or fn.body.value is None or \
            any(n._prod == "Closure" for n in descendants(fn.body)):
        return None
    return [n.value for n in descendants(fn.body) if n._prod == "Return"] + [fn.body.value]


def _made(values: list, fresh: set, making: frozenset = frozenset()) -> int:
    """How many of `values` give a tensor made there: a constructor's, a literal's, a
    transfer's, a local's of `fresh`, or a call's of a function of `making`."""
    return sum(v is not None and (v._prod in MADE or v._prod == "Local" and v.name in fresh
                                  or _calls(v, making)) for v in values)


def _making(fn) -> bool:
    """Whether every way out of fn gives a tensor made there, which nothing else holds."""
    values = _values(fn)
    return values is not None and _made(values, _fresh(fn, values)) == len(values)


def _lending(fn, making: frozenset) -> int | None:
    """The index of the `&mut` tensor parameter x of fn whose `*x` some ways out give, every
    other a tensor made there (or a local bound to one that nothing else holds, or a call
    of a function of `making`); None where fn is not so."""
    values = _values(fn)
    if values is None:
        return None
    params = {p.name: k for k, p in enumerate(fn.params) if _reference(p)}
    lenders = {params.get(v.value.name) for v in values if v is not None and
               v._prod == "Deref" and v.value._prod == "Local"}
    made = _made(values, _fresh(fn, values), making)
    if len(lenders) != 1 or None in lenders or not made or \
            made + sum(v._prod == "Deref" for v in values if v is not None) != len(values):
        return None
    return lenders.pop()


def _fresh(fn, values: list) -> set:
    """The locals of fn a `let` (or a `let mut`) binds to a tensor it makes, read (and
    written) only by elements and as what fn returns (`values`), never assigned whole: no
    one else holds their buffer."""
    lets: dict = {}
    for n in descendants(fn.body):
        if n._prod == "Let":
            lets[n.name] = None if n.name in lets else n.value
    made = {x for x, v in lets.items() if v is not None and v._prod in MADE}
    safe = {id(n.base) for n in descendants(fn.body) if n._prod == "Index"} | \
        {id(v) for v in values}
    return made - {n.name for n in descendants(fn.body)
                   if n._prod == "Local" and id(n) not in safe}


def _giving(fn, maybe: dict) -> dict:
    """{an out-parameter of fn: the index of the `&mut` tensor parameter lent to the call of
    a function of `maybe` whose tensor its only give-back gives}."""
    params = {p.name: k for k, p in enumerate(fn.params)}
    lets = {}
    for n in descendants(fn.body):
        if n._prod == "Let":
            lets[n.name] = None if n.name in lets or n.mutable else n.value
    gives: dict = {}
    for n in descendants(fn.body):
        if n._prod == "GiveBack":
            gives.setdefault(n.param, []).append(n.value)
    indexed = {id(n.base) for n in descendants(fn.body) if n._prod == "Index"}
    outs = {}
    for out, values in gives.items():
        v = values[0]
        call = lets.get(v.name) if v._prod == "Local" else None
        if len(values) != 1 or call is None or not _calls(call, maybe) or out not in params:
            continue
        arg = call.args[maybe[call.callee.name]]
        k = params.get(arg.name) if arg._prod == "Local" else None
        ty = fn.params[params[out]].type
        if k is None or not _reference(fn.params[k]) or not lent(ty) or \
                not concrete(ty.inner) or any(
                    n._prod == "Local" and n.name == v.name and id(n) not in indexed and
                    n is not v for n in descendants(fn.body)):
            continue
        outs[params[out]] = k
    return outs


def _result_source(fn, maybe: dict) -> str | None:
    """The local a `let` binds to a call of a function of `maybe` lending it a `&mut` tensor
    parameter of fn, which fn returns, by itself or through a `let mut` given only it once
    outside any loop or if (what scalarize-aggregates starts), read otherwise by elements;
    None where fn's result is not so."""
    value = fn.body.value
    if value is None or value._prod != "Local" or \
            any(n._prod == "Return" for n in descendants(fn.body)):
        return None
    lets: dict = {}
    for n in descendants(fn.body):
        if n._prod == "Let":
            lets[n.name] = None if n.name in lets else n
    held, source = [value.name], lets.get(value.name)
    if source is not None and source.mutable and source.value._prod in MADE:
        given = [s for s in fn.body.stmts if s._prod == "Assign" and
                 s.target._prod == "Local" and s.target.name == value.name]
        if len(given) != 1 or given[0].op != "=" or given[0].value._prod != "Local":
            return None
        held.append(given[0].value.name)
        source = lets.get(given[0].value.name)
    if source is None or source.mutable or not _calls(source.value, maybe):
        return None
    arg = source.value.args[maybe[source.value.callee.name]]
    params = {p.name: p for p in fn.params}
    if arg._prod != "Local" or arg.name not in params or not _reference(params[arg.name]):
        return None
    assigns = [n for n in descendants(fn.body) if n._prod == "Assign" and
               n.target._prod == "Local" and n.target.name in held]
    safe = {id(n.base) for n in descendants(fn.body) if n._prod == "Index"} | \
        {id(value)} | {id(n.target) for n in assigns}
    uses = [n for n in descendants(fn.body) if n._prod == "Local" and n.name in held
            and id(n) not in safe]
    if not len(uses) == len(assigns) == len(held) - 1:
        return None
    return source.name


def _computed(s):
    return s.expr if s._prod == "ExprStmt" else s.value


def _lends(s, fn, outs: dict) -> bool:
    """Whether the call statement s lends a variable (`&mut t`) for each parameter of
    `outs`' and takes the tensor into another (`&mut p_b`), neither what s assigns."""
    call = _computed(s)
    if len(call.args) != len(fn.params):
        return False
    stored = s.target.name if s._prod == "Assign" else s.name if s._prod == "Let" else None
    for out, k in outs.items():
        taker, lender = call.args[out], call.args[k]
        if not all(a._prod == "Borrow" and a.value._prod == "Local" for a in (taker, lender)) \
                or len({taker.value.name, lender.value.name, stored}) != 3:
            return False
    return True


@flag_maybe_lent_tensors.on("Fn")
def _fn(run, fn):
    st = run.state
    st.names, st.flags, st.fresh = Names(fn), {}, _fresh_takers(fn, st.giving)
    st.flag = st.names.fresh("lent") if fn.name in st.maybe else None
    st.outs = {fn.params[o].name: (st.names.fresh("lent"), fn.params[o].type.inner)
               for o in sorted(st.giving.get(fn.name, {}))}
    st.result = (st.results[fn.name], st.names.fresh("lent")) if fn.name in st.results \
        else None
    made = run.rebuild(fn)
    flags = [st.flag] if st.flag is not None else [flag for flag, _ in st.outs.values()]
    if st.result is not None:
        flags.append(st.result[1])
    if not flags:
        return made
    body = made.body
    if st.flag is not None and body.value._prod == "Deref":
        body = body.replace(stmts=(*body.stmts, _set(st.flag, body.value.span)))
    params = tuple(L["Param"](f, _flag_type(fn.span), span=fn.span) for f in flags)
    return made.replace(params=(*made.params, *params), body=body)


def _flag_type(span):
    return L["BorrowType"](L["Scalar"]("bool", span=span), True, span=span)


def _set(flag: str, span):
    return L["Assign"](L["Deref"](L["Local"](flag, span=span), span=span), "=",
                       L["Bool"](True, span=span), span=span)


def _unset(names: Names, span):
    """A `let mut` of a fresh flag, false, and the `&mut` of it a call is given."""
    let = L["Let"](names.fresh("lent"), True, L["Scalar"]("bool", span=span),
                   L["Bool"](False, span=span), span=span)
    return let, L["Borrow"](L["Local"](let.name, span=span), True, span=span)


def _fresh_takers(fn, giving: dict) -> set:
    """The ids of fn's calls of functions of `giving` each of whose takers a `let` binds to a
    tensor it makes, among the `let`s just before the call: no other local holds its buffer,
    as one the tensor lent by an earlier call was given to would."""
    fresh = set()
    for block in (n for n in descendants(fn.body) if n._prod == "Block"):
        for at, s in enumerate(block.stmts):
            if not _stored(s) or not _calls(_computed(s), giving):
                continue
            call = _computed(s)
            takers = {call.args[o].value.name for o in giving[call.callee.name]}
            before = at
            while before > 0 and block.stmts[before - 1]._prod == "Let":
                before -= 1
            made = {t.name for t in block.stmts[before:at] if t.value._prod in MADE}
            if takers <= made:
                fresh.add(id(s))
    return fresh


@flag_maybe_lent_tensors.on("Return", splice=True)
def _return(run, node):
    st = run.state
    if st.flag is None or node.value is None or node.value._prod != "Deref":
        return (node,)
    return (_set(st.flag, node.span), node)


@flag_maybe_lent_tensors.on("GiveBack", splice=True)
def _give_back(run, node):
    st = run.state
    if node.param not in st.outs:
        return (node,)
    flag, ty = st.outs[node.param]
    span = node.span
    lent_here = L["Block"]((_set(flag, span),), None, span=span)
    made_here = L["Block"](tuple(copy_into(st.names, L["Local"](node.param, span=span),
                                           node.value, ty, span)), None, span=span)
    return (L["If"](L["Local"](st.flags[node.value.name], span=span), False, lent_here,
                    made_here, span=span),)


@flag_maybe_lent_tensors.on("Let", "Assign", "ExprStmt", splice=True)
def _stmt(run, s):
    st = run.state
    fresh = id(s) in st.fresh
    made = run.rebuild(s)
    if not _stored(made):
        return (made,)
    call = _computed(made)
    span = made.span
    if made._prod == "Let" and _calls(call, st.maybe):
        if st.result is not None and st.result[0] == made.name:
            # fn's result flag, handed on: true exactly where the call returned the tensor
            # fn's parameter lent it, so fn's caller's own
            flag = L["Local"](st.result[1], span=span)
            return (made.replace(value=call.replace(args=(*call.args, flag))),)
        let, flag = _unset(st.names, span)
        st.flags[made.name] = let.name
        return let, made.replace(value=call.replace(args=(*call.args, flag)))
    if not _calls(call, st.giving):
        return (made,)
    outs = sorted(st.giving[call.callee.name].items())
    params = st.fns[call.callee.name].params
    # A taker the tensor lent by an earlier call was given to holds that buffer, which the
    # copy must not write: it is given a new one first.
    renewed = [] if fresh else [
        L["Assign"](call.args[o].value, "=", unread_tensor(params[o].type.inner, span),
                    span=span) for o, _ in outs]
    unset = [_unset(st.names, span) for _ in outs]
    if call.callee.name in st.results:
        unset.append(_unset(st.names, span))
    call = call.replace(args=(*call.args, *(flag for _, flag in unset)))
    made = made.replace(expr=call) if made._prod == "ExprStmt" else made.replace(value=call)
    handed = [L["If"](L["Local"](let.name, span=span), False, L["Block"]((L["Assign"](
        call.args[o].value, "=", call.args[k].value, span=span),), None, span=span), None,
        span=span) for (let, _), (o, k) in zip(unset, outs)]  # a result flag last
    return (*renewed, *(let for let, _ in unset), made, *handed)
