"""What settle-written-tensors, copy-tracked-functions, lend-uninit-pointers,
index-uninit-pointers, mark-uninit-closures and track-uninit-elements read off the tree alike:
the tensor an element names, the tensor a `let` gives another name (and all the names so
given), a tensor parameter's type, whether an index computes the same twice, the mark opening
a copy of a function, the tensors a function tracks, where a call is given them, the locals
a function might move, the tensor a function makes of its parameters' extents and
returns, the constants whose flags flag-uninit-constants keeps, the type and extents of
a tensor's written-flags (make-all-set-flags too), and whether a reference is only read or
written through (check-uninit-element-indices, inline-uninit-element-references)."""

from __future__ import annotations

from ..languages.lcopied import Lcopied
from ..nanopass import child_nodes, descendants

# What E5010 says native code does not lower, where the written-flags of a tensor made by
# `::uninit()` are not followed (copy-tracked-functions, track-uninit-elements).
NOT_FOLLOWED = "a use of a tensor made by ::uninit() whose written-flags it does not follow"


def element_of(e):
    """The local an index chain `t[i][j]` names (None for another base) and its indices,
    outermost first."""
    indices = []
    while e._prod == "Index":
        indices.append(e.index)
        e = e.base
    return (e if e._prod == "Local" else None), indices[::-1]


def named_whole(value):
    """The local a `let`'s value names whole, so that the `let` gives its tensor another
    name: `t`, `&t`, `&mut t`, `transfer(t, M)` (which moves the elements as they are)."""
    if value._prod in ("Borrow", "Transfer"):
        value = value.value
    return value.name if value._prod == "Local" else None


def lent_tensor(t):
    """The tensor type of a parameter, through the reference it is lent by."""
    while t is not None and t._prod == "BorrowType":
        t = t.inner
    return t


def names_given(lets, known) -> list[tuple[str, str]]:
    """The names the `let`s give the tensors of the locals `known`, and the tensors of those,
    each with the local it names, in the order found (a local before the names it is given)."""
    found, named = [], set(known)
    grew = True
    while grew:
        grew = False
        for s in lets:
            source = named_whole(s.value)
            if s.name not in named and source in named:
                named.add(s.name)
                found.append((s.name, source))
                grew = True
    return found


def computes_alike(e, changing=frozenset()) -> bool:
    """Whether an index, computed again, is the same: literals, and arithmetic on locals
    other than those `changing` might change in between."""
    kind = e._prod
    if kind in ("Int", "Bool"):
        return True
    if kind == "Local":
        return e.name not in changing
    if kind in ("Binary", "Unary", "Cast"):
        return all(computes_alike(c, changing) for c in (
            (e.left, e.right) if kind == "Binary" else (e.operand,) if kind == "Unary"
            else (e.value,)))
    return False


def written_copy(fn):
    """The `WrittenCopy` opening a copy copy-tracked-functions made, else None."""
    stmts = fn.body.stmts
    return stmts[0] if stmts and stmts[0]._prod == "WrittenCopy" else None


def flagged_value(value, fns: dict) -> bool:
    """Whether a `let`'s value is a tensor track-uninit-elements keeps written-flags for:
    made by `::uninit()`, or returned by a copy (of `fns`, the program's functions) whose
    caller keeps the flags of what it returns."""
    if value._prod == "TensorNew":
        return value.ctor == "uninit"
    if value._prod == "Call" and value.callee._prod == "Global" and value.callee.name in fns:
        copy = written_copy(fns[value.callee.name])
        return copy is not None and copy.returned
    return False


def flagged_constants(program) -> dict:
    """The constants holding a tensor made by `::uninit()` whose written-flags
    flag-uninit-constants keeps in a constant of their own, each with (that constant's name,
    the tensor's type): the parts of one constant whose function a `WrittenCopy` marks, the
    flags first."""
    marked = {i.name for i in program.items if i._prod == "Fn" and written_copy(i) is not None}
    parts: dict = {}
    for i in program.items:
        if i._prod == "ConstItem" and i.value is not None and i.value._prod == "ConstPart" \
                and i.value.fill in marked:
            parts.setdefault(i.value.constant, {})[i.value.part] = i
    return {p[1].name: (p[0].name, lent_tensor(p[1].type)) for p in parts.values()}


def flags_type(t):
    """The type of the written-flags of a tensor of type t (through the reference it is lent
    by): a bool tensor of its extents."""
    tensor = lent_tensor(t)
    return tensor.replace(elem=Lcopied["Scalar"]("bool", span=tensor.span))


def extent_reads(dims, name: str, span) -> list:
    """The extents of the tensor of the local `name`: each static one as its type says it,
    each `?` one read from the tensor."""
    return [Lcopied["Int"](d.value, span=span) if d._prod == "DimInt" else
            Lcopied["MethodCall"](Lcopied["Local"](name, span=span), "extent",
                                  (Lcopied["Int"](k, span=span),), span=span)
            for k, d in enumerate(dims)]


def tracked_tensors(fn, body, fns) -> dict:
    """The locals of tensors the function `fn` (whose body's nodes are `body`, the program's
    functions `fns` by name) tracks the elements of, each with its type: made by
    `::uninit()`, given by a parameter its mark names, or returned by a copy's call."""
    tracked = {s.name: s.value.type for s in body
               if s._prod == "Let" and s.value._prod == "TensorNew" and s.value.ctor == "uninit"}
    mark = written_copy(fn)
    tracked |= {p.name: lent_tensor(p.type) for p in fn.params
                if mark is not None and p.name in mark.given}
    for s in body:
        callee = s.value.callee if s._prod == "Let" and s.value._prod == "Call" else None
        copy = written_copy(fns[callee.name]) if callee is not None and \
            callee._prod == "Global" and callee.name in fns else None
        if copy is not None and copy.returned:
            tracked[s.name] = lent_tensor(fns[callee.name].ret)
    return tracked


def flagged_tensors(fn, nodes, fns) -> dict:
    """The locals whose written-flags track-uninit-elements keeps in the function `fn` (whose
    body's nodes are `nodes`, the program's functions `fns` by name), each with its tensor's
    type: those it tracks, the names they are given, and the parameters the mark of a closure
    mark-uninit-closures marked names."""
    flagged = tracked_tensors(fn, nodes, fns)
    for name, source in names_given([n for n in nodes if n._prod == "Let"], list(flagged)):
        flagged[name] = flagged[source]
    for c in nodes:
        if c._prod == "Closure" and written_copy(c) is not None:
            flagged |= {p.name: lent_tensor(p.type) for p in c.params
                        if p.name in written_copy(c).given}
    return flagged


def printed_tensor(e, ranks: dict):
    """The local of `ranks` (a local -> its tensor's rank) that `e` prints whole or a row of
    (`print(t)`, `print(t[i])`), else None."""
    if not (e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" and
            len(e.args) == 1):
        return None
    t, indices = element_of(e.args[0])
    if t is None or t.name not in ranks or len(indices) >= ranks[t.name]:
        return None
    return t


def settled(indices: list, changing: set, fresh, walk) -> tuple[list, list]:
    """The indices, each that might not compute the same again (with the locals `changing`
    changed in between) computed once, `walk`ed, into a `let` of a name `fresh` gives: the
    `let`s, and the indices to use."""
    lets, kept = [], []
    for i in indices:
        if computes_alike(i, changing):
            kept.append(i)
        else:
            name = fresh("index")
            lets.append(Lcopied["Let"](name, False, Lcopied["OpaqueType"](span=i.span), walk(i),
                                       span=i.span))
            kept.append(Lcopied["Local"](name, span=i.span))
    return lets, kept


def computed_first(args, kept, fresh, walk) -> tuple[list, list]:
    """The arguments `args` (of a call, in order), each that computes something, and each
    local before one but the locals `kept` (that one might change it), computed in order
    into a `let` of a name `fresh` gives, its value `walk`ed; a literal, a borrow, and what
    comes after the last one computing something stay as they are: the `let`s, and the
    arguments to use."""
    computing = [k for k, a in enumerate(args)
                 if a._prod not in ("Local", "Int", "Bool", "Float", "Borrow") or
                 a._prod == "Borrow" and a.value._prod != "Local"]
    lets, used = [], []
    for k, a in enumerate(args):
        if not computing or k > computing[-1] or a._prod in ("Int", "Bool", "Float", "Borrow") or \
                a._prod == "Local" and a.name in kept:
            used.append(walk(a))
            continue
        name = fresh("argument")
        lets.append(Lcopied["Let"](name, False, Lcopied["OpaqueType"](span=a.span), walk(a),
                                   span=a.span))
        used.append(Lcopied["Local"](name, span=a.span))
    return lets, used


def reindexed(e, indices: list):
    """The index chain `e` with its indices, outermost first, replaced by `indices`."""
    if e._prod != "Index":
        return e
    return e.replace(base=reindexed(e.base, indices[:-1]), index=indices[-1])


def tracked_at(call, tracked) -> tuple:
    """The positions of the call's arguments that are locals `tracked` (or borrows of them)."""
    args = [a.value if a._prod == "Borrow" else a for a in call.args]
    return tuple(k for k, a in enumerate(args) if a._prod == "Local" and a.name in tracked)


def moved_whole(body, kept=frozenset()) -> set:
    """The locals the function assigns whole, or might move (used other than by their
    elements, extents, pointers, borrows and `print`, or given to a call at a position of
    `kept`, pairs of a function's name and a parameter's index, `lent_on`'s): their buffer
    may not be the one a pointer made before points into, or may be gone."""
    moved = set()
    for n in descendants(body):
        if n._prod == "Assign" and n.target._prod == "Local":
            moved.add(n.target.name)
        kept_here = {id(n.base)} if n._prod == "Index" else \
            {id(n.value)} if n._prod in ("AsPtr", "Borrow") else \
            {id(n.receiver)} if n._prod == "MethodCall" else \
            {id(a) for k, a in enumerate(n.args) if n.callee.name == "print" or
             (n.callee.name, k) in kept} if n._prod == "Call" and n.callee._prod == "Global" \
            else set()
        moved |= {c.name for c in child_nodes(n) if c._prod == "Local" and id(c) not in kept_here}
    return moved


def lent_on(fns: dict) -> set:
    """The `&mut` tensor parameters (each a pair of its function's name, of the program's
    functions `fns` by name, and its index) that their function never assigns whole nor
    moves: used by their elements, extents, pointers, borrows and `print`, and given on only
    at such parameters (the most there are: a function giving one on to itself keeps it)."""
    kept = {(name, k) for name, fn in fns.items() for k, p in enumerate(fn.params)
            if p.type is not None and p.type._prod == "BorrowType" and p.type.mutable and
            lent_tensor(p.type)._prod == "TensorType"}
    while True:
        moved = {name: moved_whole(fns[name].body, kept) for name in {n for n, _ in kept}}
        still = {(name, k) for name, k in kept if fns[name].params[k].name not in moved[name]}
        if still == kept:
            return kept
        kept = still


# The bits of an integer's value (its sign's not counted) by type.
_VALUE_BITS = {"i8": 7, "u8": 8, "i16": 15, "u16": 16, "i32": 31, "u32": 32, "i64": 63,
               "u64": 64}


def sized_by_parameters(fn):
    """The `let t = Tensor<..>::uninit([..])` at the top of the function's body whose `?`
    extents are its parameters or numbers, as they are or cast (computing nothing that could
    stop), which is the only tensor it returns, under t's names: a caller can size t's flags
    from the arguments of its call before it, and they never stop where t would not (their
    element count, as t's, cannot pass 2^63: the extents' bits add up to 63 at most; a
    negative extent makes flags of none, and t stops). Else None."""
    lets = [s for s in fn.body.stmts if s._prod == "Let" and s.value._prod == "TensorNew" and
            s.value.ctor == "uninit"]
    if len(lets) != 1 or not lets[0].value.args:
        return None
    bits = [_bits(e, fn) for e in lets[0].value.args[0].elems]
    if None in bits or sum(bits) > 63:
        return None
    made = lets[0]
    names = {made.name} | {name for name, _ in names_given(
        [n for n in descendants(fn.body) if n._prod == "Let"], {made.name})}
    returned = [n.value for n in descendants(fn.body) if n._prod == "Return"] + \
        ([fn.body.value] if fn.body.value is not None else [])
    if any(v is None or v._prod != "Local" or v.name not in names for v in returned) or \
            any(n._prod == "Assign" and n.target._prod == "Local" and n.target.name in names
                for n in descendants(fn.body)):
        return None
    return made


def _bits(e, fn) -> int | None:
    """The bits of the extent `e`'s value, a number's or a parameter's (cast, the type cast
    to), else None."""
    if e._prod == "Int":
        return max(e.value, 1).bit_length()
    typed = e.type if e._prod == "Cast" else next(
        (p.type for p in fn.params if e._prod == "Local" and p.name == e.name), None)
    if e._prod == "Cast" and _bits(e.value, fn) is None or typed is None or \
            typed._prod != "Scalar":
        return None
    return _VALUE_BITS.get(typed.name)


def only_through(body, name: str) -> bool:
    """Whether the local `name` is only read or written through (`*r`), outside closures."""
    reads = [n for n in descendants(body) if n._prod == "Local" and n.name == name]
    through = [n.value for n in descendants(body) if n._prod == "Deref" and
               n.value._prod == "Local" and n.value.name == name]
    in_closures = [n for c in descendants(body) if c._prod == "Closure"
                   for n in descendants(c) if n._prod == "Local" and n.name == name]
    return len(reads) == len(through) and not in_closures
