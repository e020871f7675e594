"""track-uninit-elements: Lallset -> Lwritten."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name
from ..languages.lallset import Lallset
from ..languages.lwritten import Lwritten
from ..nanopass import Pass, descendants
from ..placement.types import element_value
from ..scalars import refuse
from ..scalars.aggregates import Names
from ..scalars.tensor_names import (NOT_FOLLOWED, element_of, extent_reads,
                                    flagged_constants, flags_type, lent_tensor, named_whole, names_given, printed_tensor,
                                    reindexed, settled, sized_by_parameters, tracked_at,
                                    written_copy)


@dataclass
class _Tracked:
    fn: str = ""
    flags: dict = field(default_factory=dict)  # a local the tensor is known by -> its flags
    ranks: dict = field(default_factory=dict)  # such a local -> the tensor's rank
    assigned: set = field(default_factory=set)  # the locals assigned or lent `&mut`
    used: Names | None = None  # the function's names, for the new ones
    dims: dict = field(default_factory=dict)  # a tracked local -> its tensor's extents
    elems: dict = field(default_factory=dict)  # a tracked local -> its tensor's element type
    fns: dict = field(default_factory=dict)  # the program's functions by name
    params: dict = field(default_factory=dict)  # the function's tracked parameters' flags
    refused: object = None  # the first node of the function not followed
    made: set = field(default_factory=set)  # the locals of tensors this function made
    out: str | None = None  # a copy's parameter the flags of the tensor it returns go to
    ret: object = None  # the function's result type
    results: dict = field(default_factory=dict)  # a `let` of a call's tracked result -> it
    closures: dict = field(default_factory=dict)  # a marked closure's `let` -> the closure
    # a constant flag-uninit-constants keeps the flags of -> (their constant, its type)
    constants: dict = field(default_factory=dict)


track_uninit_elements = Pass("track-uninit-elements", Lallset, Lwritten, """
Give each tensor made by `uninit()` a written-flag per element, set by each write and checked by each read, so that native code stops where the interpreter stops on an element never written (E9005; E5010 for a use it does not follow).

`let t = Tensor<T, [..]>::uninit(..)` is followed by
`let t_written = Tensor<bool, [..]>::new(..)` of its extents; each `t[i][j] = v` by
`t_written[i][j] = true`; each read `t[i][j]` is `ReadWritten(t[i][j], t_written)`;
`t[i] += v` computes v into a `let`, checks the element's flag (at the statement, as the
interpreter stops there), then writes it and sets the flag; `print(t)` and `print(t[i])` are
left as they are, read-printed-elements having read each element they print before them. The
names the tensor is given (`let u = t;`, a borrow, a `transfer`, which moves the elements as
they are) share its flags, and so do the closures that see it: they see the flags as they
see the tensor, when they are called. A copy copy-tracked-functions made, or a closure
mark-uninit-closures marked, takes, after its own parameters, the flags of each parameter
its `WrittenCopy` names, and a call of it, from each tracked tensor it is given, the
tensor's flags (for a tensor made otherwise given a closure there, the flags all set
`AllWritten` gives beside it, which make-all-set-flags made); one whose callers keep the
flags of what it returns takes one more, `r`'s flags made by the caller of
`let r = f$written(..)` (of `?` extents, sized from the call's arguments, which
name-sizing-arguments named, a negative one made 0, where the function stops as it did),
which it writes the flags of what it returns to (all set for a tensor made otherwise) at
each `return`. A constant whose flags flag-uninit-constants keeps in a constant of their own
is read by its elements, each `C[i]` a `ReadWritten(C[i], C_written)`, and a name a `let`
gives its tensor (`let a = C;`, `&C`) is given those flags (`let a_written = C_written;`),
which every write through it sets, as the interpreter's constant shares its tensor. What else would see
its elements (a call or launch of something else, a return of one it was lent, a row not
printed, such a constant used other than by its elements, a tensor assigned whole that
copy-into-assigned-uninit-tensors and rebind-assigned-uninit-tensors left, a print of a tensor of rank 0, with no element to
index) is refused (E5010), and the default action runs the program in the interpreter. An
index of a write that might not compute the same twice (a call, an element, a local the
statement might change) is computed once, into a `let`, first. A tensor settle-written-tensors
found written before any read is made by `new()` by then and costs nothing here.
""", state=_Tracked)


@track_uninit_elements.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    run.state.constants = flagged_constants(program)
    return run.rebuild(program)


@track_uninit_elements.on("ConstItem")
def _constant(run, item):
    """A constant's value may read another's elements, as a function does."""
    state = run.state
    state.flags, state.ranks, state.refused = {}, {}, None
    out = run.rebuild(item)
    if state.refused is not None:
        refuse(run.ctx.diagnostics, item.name, state.refused, NOT_FOLLOWED)
    return out


@track_uninit_elements.on("Fn")
def _fn(run, fn):
    state = run.state
    state.ret = fn.ret
    state.fn, state.flags, state.ranks, state.dims, state.elems, state.refused = \
        fn.name, {}, {}, {}, {}, None
    copy = written_copy(fn)
    state.params, state.out = {}, None
    if copy is not None:  # the copy takes the flags of what its mark names
        fn = _flags_taken(fn, copy, state)
    elif not any(_is_uninit(n) or _tracked_result(n, state) or
                 n._prod == "Global" and n.name in state.constants for n in descendants(fn.body)):
        return fn
    lets = [n for n in descendants(fn.body) if n._prod == "Let"]
    if state.out is not None and fn.body.value is not None:
        # `{ ..; t }` is `{ ..; return t; }`, where its flags are handed on
        value = fn.body.value
        fn = fn.replace(body=fn.body.replace(value=None, stmts=fn.body.stmts + (
            Lwritten["Return"](value, span=value.span),)))
    state.used = used = Names(fn)
    for p in fn.params:
        if p.name in state.params:
            state.flags[p.name] = state.params[p.name]
            state.dims[p.name] = lent_tensor(p.type).dims
            state.elems[p.name] = lent_tensor(p.type).elem
            state.ranks[p.name] = len(state.dims[p.name])
    state.results = {}
    for s in lets:
        if _is_uninit(s.value):
            state.flags[s.name] = used.fresh(f"{display_name(s.name)}_written")
            state.ranks[s.name] = len(s.value.type.dims)
            state.dims[s.name] = s.value.type.dims
            state.elems[s.name] = s.value.type.elem
        elif _tracked_result(s.value, state):
            state.results[s.name] = s.value
            state.flags[s.name] = used.fresh(f"{display_name(s.name)}_written")
            ret = lent_tensor(state.fns[s.value.callee.name].ret)
            state.ranks[s.name], state.dims[s.name] = len(ret.dims), ret.dims
            state.elems[s.name] = ret.elem
    state.made = {n for n in state.flags if n not in state.params}
    for s in lets:  # a name of a constant's tensor: its flags a name of the constant's
        constant = _constant_named(s.value, state.constants)
        if constant is not None:
            typed = state.constants[constant][1]
            state.flags[s.name] = used.fresh(f"{display_name(s.name)}_written")
            state.ranks[s.name], state.dims[s.name] = len(typed.dims), typed.dims
            state.elems[s.name] = typed.elem
    for name, source in names_given(lets, list(state.flags)):
        if source in state.made:
            state.made.add(name)
        state.flags[name] = state.flags[source]
        state.ranks[name] = state.ranks[source]
        state.dims[name] = state.dims[source]
        state.elems[name] = state.elems[source]
    state.closures = {s.name: s.value for s in lets
                      if s.value._prod == "Closure" and written_copy(s.value) is not None}
    for closure in state.closures.values():
        for p in closure.params:
            if p.name in written_copy(closure).given:
                state.flags[p.name] = used.fresh(f"{display_name(p.name)}_written")
                state.dims[p.name] = lent_tensor(p.type).dims
                state.elems[p.name] = lent_tensor(p.type).elem
                state.ranks[p.name] = len(state.dims[p.name])
    state.assigned = {n.target.name for n in descendants(fn.body)
                      if n._prod == "Assign" and n.target._prod == "Local"} | \
        {n.value.name for n in descendants(fn.body)
         if n._prod == "Borrow" and n.mutable and n.value._prod == "Local"}
    out = run.rebuild(fn)
    if state.refused is not None:
        refuse(run.ctx.diagnostics, fn.name, state.refused, NOT_FOLLOWED)
    return out


@track_uninit_elements.on("Let", splice=True)
def _let(run, s):
    flags = run.state.flags
    if _is_uninit(s.value) and s.name in flags:
        made = s.value
        bool_ = Lwritten["Scalar"]("bool", span=s.span)
        typed = s.type if s.type is not None and s.type._prod == "TensorType" else made.type
        flags_made = made.replace(type=made.type.replace(elem=bool_), ctor="new",
                                  args=_extents(made, s.name))
        kept = s.replace(value=made.replace(args=tuple(run.walk(a) for a in made.args)))
        return kept, s.replace(name=flags[s.name], type=typed.replace(elem=bool_),
                               value=flags_made)
    if s.name in flags and named_whole(s.value) in flags:
        return s  # another name of the tensor: the same flags
    constant = _constant_named(s.value, run.state.constants)
    if s.name in flags and constant is not None:
        name, typed = run.state.constants[constant]
        return s, s.replace(name=flags[s.name], type=flags_type(typed),
                            value=Lwritten["Global"](name, span=s.value.span))
    if s.name in run.state.closures:  # it takes the flags of each tensor given, after them
        made = s.value
        params = tuple(p.replace(name=flags[p.name], type=flags_type(p.type))
                       for p in made.params if p.name in written_copy(made).given)
        body = run.walk(made.body)
        return s.replace(value=made.replace(params=made.params + params, body=body))
    if s.name in run.state.results:  # the flags of the tensor the call returns, written there
        ret = lent_tensor(run.state.fns[s.value.callee.name].ret)
        typed = flags_type(ret)
        call, extents = s.value, ()
        if any(d._prod != "DimInt" for d in ret.dims):
            # from the arguments, each computing something a `let`'s by now, as they were
            extents = (_sized_as_made(call, run.state.fns[call.callee.name], s.span),)
        made = Lwritten["TensorNew"](typed.replace(place=None), "new", extents, span=s.span)
        return (s.replace(name=flags[s.name], mutable=True, type=typed, value=made),
                s.replace(value=_copied_call(run, call, flags[s.name])))
    return run.rebuild(s)


def _sized_as_made(call, fn, span):
    """The extents of the tensor `fn` makes and returns (copy-tracked-functions saw that its
    `?` ones are its parameters or numbers), from the call's arguments: a negative one 0
    (the flags are then made, and the function stops where it makes the tensor, as it did)."""
    at = {p.name: a for p, a in zip(fn.params, call.args)}
    zero = Lwritten["Int"](0, span=span)

    def given(e):
        if e._prod == "Cast":
            return e.replace(value=given(e.value))
        return at[e.name] if e._prod == "Local" else e

    extents = []
    for e in sized_by_parameters(fn).value.args[0].elems:
        n = given(e)
        if n._prod != "Int":
            n = Lwritten["IfExpr"](Lwritten["Binary"](">=", n, zero, span=span), False,
                                   Lwritten["Block"]((), n, span=span),
                                   Lwritten["Block"]((), zero, span=span), span=span)
        extents.append(n)
    return Lwritten["ArrayLit"](tuple(extents), span=span)


@track_uninit_elements.on("WrittenCopy", splice=True)
def _mark(run, s):
    return ()  # the parameters it asks for are made: it says nothing more


@track_uninit_elements.on("Assign", splice=True)
def _assign(run, s):
    base, indices = element_of(s.target)
    flags = run.state.flags.get(base.name) if base is not None else None
    if flags is None:
        return run.rebuild(s)
    if not indices:  # assigned whole: its flags would be another tensor's
        _refuse(run, s)
        return s
    # The value might change a local an index reads before the flag is set: such an index,
    # as one that might compute otherwise anyway, is computed once first, as it is there.
    lets, indices = settled(indices, set(run.state.flags) | run.state.assigned,
                            run.state.used.fresh, run.walk)
    target = reindexed(s.target, indices)
    mark = Lwritten["Local"](flags, span=base.span)
    for i in indices:
        mark = Lwritten["Index"](mark, i, span=s.target.span)
    written = (Lwritten["Assign"](mark, "=", Lwritten["Bool"](True, span=s.span), span=s.span),)
    if s.op == "=":
        return (*lets, s.replace(target=target, value=run.walk(s.value))) + written
    if len(indices) != run.state.ranks[base.name]:
        _refuse(run, s)  # a row
        return s
    # `t[i] += v` computes v, then reads the element (the interpreter stops there, at the
    # statement, on one never written), then writes it. v is of the element's value type:
    # a narrow element's storage type holds no variable (v of an `i4` is an i8, not wrapped).
    value = run.state.used.fresh("operand")
    span = s.value.span
    elem = element_value(run.state.elems[base.name])
    return (*lets,
            Lwritten["Let"](value, False, elem, run.walk(s.value), span=span),
            Lwritten["ExprStmt"](Lwritten["ReadWritten"](
                target, Lwritten["Local"](flags, span=base.span), span=s.span), span=s.span),
            s.replace(target=target, value=Lwritten["Local"](value, span=span))) + written


@track_uninit_elements.on("ExprStmt")
def _print(run, s):
    """`print(t)` and `print(t[i])`: read-printed-elements read their elements before it,
    each checked as any."""
    if printed_tensor(s.expr, run.state.ranks) is not None:
        return s
    return run.rebuild(s)


@track_uninit_elements.on("Call", "Launch")
def _call(run, e):
    """A call or launch of a copy given tracked tensors hands it their flags too, after its
    own arguments."""
    if e._prod == "Call" and _tracked_result(e, run.state):
        _refuse(run, e)  # a tensor returned that no `let` names: nowhere to keep its flags
        return e
    return _copied_call(run, e, None)


def _copied_call(run, e, out: str | None):
    """The call, given the flags of the tracked tensors it is given (and, with `out`, the
    flags the tensor it returns is written with) after its own arguments."""
    state = run.state
    args = [a.value if a._prod == "Borrow" else a for a in e.args]
    at = tracked_at(e, state.flags)
    closure = state.closures.get(e.callee.name) \
        if e._prod == "Call" and e.callee._prod == "Local" else None
    if not at and out is None and closure is None:
        return run.rebuild(e)
    made = closure or (state.fns.get(e.kernel) if e._prod == "Launch" else
                       state.fns.get(e.callee.name) if e.callee._prod == "Global" else None)
    copy = written_copy(made) if made is not None else None
    places = [k for k, p in enumerate(made.params) if p.name in copy.given] if copy else []
    given = [state.flags[args[k].name] if k in at else
             args[k].flags.name if args[k]._prod == "AllWritten" else None for k in places]
    refused = copy is None or copy.returned != (out is not None) or \
        not set(at) <= set(places) or None in given
    if refused:
        _refuse(run, e)  # no copy or marked closure made for these arguments, first
    walked = tuple(a if k in at else run.walk(a) for k, a in enumerate(e.args))
    if refused:
        return e.replace(args=walked)  # (an argument's flags all set go)
    flags = tuple(Lwritten["Local"](name, span=args[k].span) for k, name in zip(places, given))
    if out is not None:
        flags += (Lwritten["Local"](out, span=e.span),)
    return e.replace(args=walked + flags)


@track_uninit_elements.on("Return", splice=True)
def _return(run, s):
    """A copy returning a tensor writes the flags of what it returns to its caller's: the
    tensor's own (one it made, a call gave, or it was given by value), or all set for a
    tensor made otherwise."""
    state, v = run.state, s.value
    tracked = v is not None and v._prod == "Local" and v.name in state.flags
    if state.out is None:
        if tracked and v.name not in state.made:
            _refuse(run, s)  # one it was lent: no caller gets flags back for it
        # One it made: copy-tracked-functions refused a caller getting no flags.
        return s if tracked else run.rebuild(s)
    span = s.span
    written = Lwritten["Bool"](True, span=span)
    if tracked:
        written = Lwritten["Local"](state.flags[v.name], span=span)
    target = Lwritten["Local"](state.out, span=span)
    names = [state.used.fresh("at") for _ in lent_tensor(state.ret).dims]
    for name in names:
        target = Lwritten["Index"](target, Lwritten["Local"](name, span=span), span=span)
        if tracked:
            written = Lwritten["Index"](written, Lwritten["Local"](name, span=span), span=span)
    copy = Lwritten["Assign"](target, "=", written, span=span)
    for k, name in reversed(list(enumerate(names))):
        end = Lwritten["MethodCall"](Lwritten["Local"](state.out, span=span), "extent",
                                     (Lwritten["Int"](k, span=span),), span=span)
        copy = Lwritten["For"](name, Lwritten["Int"](0, span=span), end,
                               Lwritten["Block"]((copy,), None, span=span), span=span)
    return (copy, s if tracked else run.rebuild(s))


@track_uninit_elements.on("AllWritten")
def _all_written(run, e):
    return run.walk(e.value)  # the flags it names are given by the call, after its arguments


@track_uninit_elements.on("Index")
def _index(run, e):
    base, indices = element_of(e)
    flags = run.state.flags.get(base.name) if base is not None else None
    if flags is not None:
        rank, flags = run.state.ranks[base.name], Lwritten["Local"](flags, span=base.span)
    else:
        base = _constant_read(e, run.state.constants)
        if base is None:
            return run.rebuild(e)
        name, typed = run.state.constants[base.name]
        rank, flags = len(typed.dims), Lwritten["Global"](name, span=base.span)
    read = _indices_walked(run, e)
    if len(indices) != rank:
        _refuse(run, e)  # a row
        return read
    return Lwritten["ReadWritten"](read, flags, span=e.span)


def _constant_named(value, constants: dict):
    """The constant of `constants` a `let`'s value names whole, `C` or `&C`, else None."""
    if value._prod == "Borrow":
        value = value.value
    return value.name if value._prod == "Global" and value.name in constants else None


def _constant_read(e, constants: dict):
    """The constant of `constants` an index chain `C[i][j]` reads, else None."""
    while e._prod == "Index":
        e = e.base
    return e if e._prod == "Global" and e.name in constants else None


@track_uninit_elements.on("Borrow")
def _borrow(run, e):
    """A reference to an element of a tracked tensor: a write through it would set no flag,
    and a read through it check none, so it is not followed (the interpreter checks the
    element where the reference is read, not where it is taken)."""
    base, _ = element_of(e.value)
    if base is not None and base.name in run.state.flags or \
            _constant_read(e.value, run.state.constants) is not None:
        _refuse(run, e)
        return e
    return run.rebuild(e)


@track_uninit_elements.on("MethodCall")
def _method(run, e):
    if e.method == "extent" and e.receiver._prod in ("Local", "Global"):
        return e
    return run.rebuild(e)


@track_uninit_elements.on("Local", "Global")
def _local(run, e):
    if e.name in (run.state.flags if e._prod == "Local" else run.state.constants):
        _refuse(run, e)
    return e


@track_uninit_elements.on("TensorNew")
def _tensor_new(run, e):
    if e.ctor == "uninit":  # one no `let` names: nothing to keep its flags in
        _refuse(run, e)
    return run.rebuild(e)


def _refuse(run, node):
    if run.state.refused is None:
        run.state.refused = node


def _indices_walked(run, e):
    """The index chain with its indices rewritten, its tensor's local as it is."""
    if e._prod != "Index":
        return e
    return e.replace(base=_indices_walked(run, e.base), index=run.walk(e.index))


def _flags_taken(fn, copy, state: _Tracked):
    """The copy with a parameter for the flags of each parameter its mark names, and one for
    those of the tensor it returns if its callers keep them."""
    used = Names(fn)
    given = [p for p in fn.params if p.name in copy.given]
    state.params = {p.name: used.fresh(f"{display_name(p.name)}_written") for p in given}
    params = tuple(fn.params) + tuple(p.replace(name=state.params[p.name],
                                                type=flags_type(p.type)) for p in given)
    if copy.returned:
        state.out = used.fresh("result_written")
        params += (Lwritten["Param"](state.out, flags_type(fn.ret), span=fn.ret.span),)
    return fn.replace(params=params)


def _tracked_result(value, state: _Tracked) -> bool:
    """Whether the value is a call of a copy whose callers keep the flags of what it returns."""
    if not (value._prod == "Call" and value.callee._prod == "Global" and
            value.callee.name in state.fns):
        return False
    copy = written_copy(state.fns[value.callee.name])
    return copy is not None and copy.returned


def _is_uninit(value) -> bool:
    return value._prod == "TensorNew" and value.ctor == "uninit"


def _extents(value, name: str) -> tuple:
    """The arguments of `new` for flags of a tensor's extents: none for static ones, else
    each `?` extent read from the tensor made, and each static one as its type says it."""
    if not value.args:
        return ()
    reads = extent_reads(value.type.dims, name, value.span)
    return (Lwritten["ArrayLit"](tuple(reads), span=value.span),)
