"""The locals in which the interpreter holds a plain i32 or f64 (`let k = 9;`): the value
its literals make it, converted, as `as` does, to the type of whatever it meets. Native
code's inference gives a local one type for all its uses, so one a later use types
otherwise (`let y: i64 = k;` makes k an i64) computes its arithmetic in that type, where
the interpreter computes it in the plain i32 (or f64): `k * 1000000000` wraps there."""

from __future__ import annotations

from ..nanopass import child_nodes, descendants
from ..values.literal_ranges import integer_literal
from ..values.numbers import FLOAT_TYPES, INT_TYPES
from .closures import direct_closures
from .literal_hints import UNFIXED, literal_kinds, through
from .signatures import written


def plain_locals(fn, seeded: frozenset = frozenset(), typed: bool = True) -> set:
    """The locals in which the interpreter holds a plain i32 or f64: one of those types a
    `let` writes (what else the front end lets a program give it, it converts), or one of no
    written type whose `let` and every assignment give it plain values (a literal, another
    such local, arithmetic or an `if` of those) and that is not lent `&mut`, and a loop's
    variable counting between plain values; `seeded`: names (parameters) taken as plain.
    Without `typed`, only those no written type types: the plain values of the language,
    where a `let` of a written i32 holds an i32."""
    lets = [n for n in descendants(fn) if n._prod == "Let"]
    assigned: dict = {}
    for n in descendants(fn):
        if n._prod == "Assign" and n.target._prod == "Local":
            assigned.setdefault(n.target.name, []).append(n.value)
    typed = {n.name for n in lets if written(n) and n.type._prod == "Scalar"
             and n.type.name in UNFIXED.values()} if typed else set()
    # a local lent `&mut` is given what is written through the reference, not only plain values
    lent = {n.value.name for n in descendants(fn) if n._prod == "Borrow" and n.mutable and
            n.value._prod == "Local"}
    plain = typed | {n.name for n in lets if not written(n) and n.name not in lent} | \
        {n.var for n in descendants(fn) if n._prod == "For"} | seeded
    while True:  # the greatest set whose values are plain: `m = m + 1` keeps m plain
        kept = typed | {n.name for n in lets if n.name in plain and _plain_value(n.value, plain)
                        and all(_plain_value(v, plain) for v in assigned.get(n.name, ()))} | \
            {n.var for n in descendants(fn) if n._prod == "For" and n.var in plain and
             _plain_value(n.start, plain) and _plain_value(n.end, plain)} | seeded
        if kept == plain:
            return plain
        plain = kept


def retyped_plain_local(fn, solved: dict, plain: set):
    """(node, what) for the first `let` (or loop) of a local of `plain` that native code's
    inference, whose `solved` types of fn are given, types as neither i32 nor f64, where
    that can show, or None."""
    retyped = {getattr(n, "name", getattr(n, "var", None)): n for n in descendants(fn)
               if n._prod in ("Let", "For") and getattr(n, "name", getattr(n, "var", None))
               in plain and solved.get(id(n), "i32") not in UNFIXED.values()}
    if not retyped:
        return None
    unseen = _retyped_alone(fn, {name: solved[id(n)] for name, n in retyped.items()})
    for name, n in retyped.items():
        if name not in unseen:
            return n, (f"'{name}', which the interpreter holds as the i32 or f64 of its "
                       f"literals, computed with as the {solved[id(n)]} a later use types it")
    return None


def _retyped_alone(fn, retyped: dict) -> set:
    """The locals of `retyped` (name -> the type the inference gives it) whose type no use
    can tell from the interpreter's plain value: each given only literals that type holds
    (a float's an f32 rounds as the interpreter's conversion does) or such locals of the
    same type (a loop counting between them), and each used only where its value, not its
    width, counts (given, passed, compared, indexed with, cast), never computed with."""
    parents = {id(c): n for n in descendants(fn) for c in child_nodes(n)}
    defs: dict = {}
    for n in descendants(fn):
        if n._prod == "Let" and n.name in retyped:
            defs.setdefault(n.name, []).append(n.value)
        elif n._prod == "For" and n.var in retyped:
            defs.setdefault(n.var, []).extend((n.start, n.end))
        elif n._prod == "Assign" and n.target._prod == "Local" and n.target.name in retyped:
            defs.setdefault(n.target.name, []).append(n.value)
    untyped = {(len(c.params), i) for c in descendants(fn) if c._prod == "Closure"
               for i, q in enumerate(c.params) if q.type is None}
    kept = {name for name in retyped if all(
        _counted_alone(use, parents.get(id(use)), untyped) for use in descendants(fn)
        if use._prod == "Local" and use.name == name)}
    while True:
        narrowed = {name for name in kept if all(
            held(v, retyped[name]) or v._prod == "Local" and v.name in kept and
            retyped[v.name] == retyped[name] for v in defs.get(name, ()))}
        if narrowed == kept:
            return kept
        kept = narrowed


def held(e, ty) -> bool:
    """Whether e is a literal the scalar type `ty` holds as the interpreter converts it."""
    value = integer_literal(e)
    if value is not None:
        return ty in INT_TYPES and INT_TYPES[ty].lo <= value <= INT_TYPES[ty].hi
    return e._prod == "Float" and ty in FLOAT_TYPES


def _counted_alone(use, parent, untyped: set) -> bool:
    """Whether `use`, a local, is where only its value counts: not an operand of arithmetic,
    nor a closure's argument but for a parameter of a written type; `untyped`: (how many
    parameters, which) of each parameter of no written type of the function's closures."""
    if parent is None:
        return False
    p = parent._prod
    if p == "Binary":
        return parent.op in ("==", "!=", "<", "<=", ">", ">=")
    if p == "Assign":
        return parent.value is use
    if p == "Call" and parent.callee._prod == "Local":
        # a closure computes with a parameter of no written type in the type the call gives
        # it: one of its function's of as many parameters may be the one called
        at = next(i for i, a in enumerate(parent.args) if a is use)
        return (len(parent.args), at) not in untyped
    return p in ("Let", "Call", "Index", "Cast", "For", "Return")


def _plain_value(e, plain: set) -> bool:
    """Whether e gives a plain value: a number as written, a plain local, a tuple literal's
    element of literals that scalarize-aggregates cast to the type they make it, or
    arithmetic or an `if` of those."""
    if e._prod == "Float" or integer_literal(e) is not None and held(e, "i32"):
        return True  # a greater one is a pass's, typed by where it was written
    if e._prod == "Local":
        return e.name in plain
    if settled_cast(e):
        return True
    parts = []
    return through(e, lambda x: parts.append(_plain_value(x, plain)) or x) is not None and \
        all(parts)


def settled_cast(e) -> bool:
    """Whether e is arithmetic on literals cast to the type those literals make it."""
    if e._prod != "Cast" or e.type._prod != "Scalar" or e.value._prod in ("Int", "Float"):
        return False
    kinds = literal_kinds(e.value)
    return kinds is not None and {UNFIXED[k] for k in kinds} == {e.type.name}


def retyped_plain_parameter(fn, solved: dict, plain: set):
    """(node, what) for the first parameter of no written type of a closure a `let` binds
    and that is only called, every call of which gives it a plain value, that native code's
    inference, whose `solved` types of fn are given, types as neither i32 nor f64, and that
    is an operand of arithmetic beside another plain operand (a plain local, a parameter
    such as it, a literal but the value of a `let` of a written type), which the
    interpreter computes in the plain i32 (`|q| { let m: i64 = q * q; m }` of `f(100000)`
    wraps there), or None."""
    params = {name: p for name, p in
              _closure_parameters(fn, lambda a: _plain_value(a, plain)).items()
              if solved.get(id(p), "i32") not in UNFIXED.values()}
    if not params:
        return None
    # a local given only such parameters and plain values is plain too
    through_params = plain_locals(fn, frozenset(params)) - plain - set(params)
    found = retyped_plain_local(fn, solved, through_params)
    if found is not None:
        return found
    parents = {id(c): n for n in descendants(fn) for c in child_nodes(n)}
    for e in descendants(fn):
        if e._prod != "Binary" or e.op in ("==", "!=", "<", "<=", ">", ">=", "&&", "||"):
            continue
        for side, other in ((_negated(e.left), _negated(e.right)),
                            (_negated(e.right), _negated(e.left))):
            if side._prod == "Local" and side.name in params and _plain_beside(
                    other, e, parents, plain | set(params)):
                p = params[side.name]
                return p, (f"'{side.name}', a closure's parameter its calls give a plain "
                           f"value, which the interpreter computes with as the i32 or f64 "
                           f"of its literals, typed {solved[id(p)]} by a later use")
    return None


def plain_parameters(fn) -> dict:
    """The parameters of no written type (name -> Param) of the closures a `let` binds and
    that are only called, every call of which gives them a plain value no written type
    types: an unsuffixed literal, a local of no written type given only such values, or
    arithmetic or an `if` of those (`sq(k * 2)` of `let k = 50000;`): the interpreter holds
    each as the plain i32 or f64 of its literals. A local of a written type gives a value of
    that type."""
    plain = plain_locals(fn, typed=False)
    return _closure_parameters(fn, lambda e: _plain_value(e, plain))


def _closure_parameters(fn, given) -> dict:
    """The parameters of no written type (name -> Param) of the closures a `let` binds and
    that are only called, each given at every call an argument that `given` accepts."""
    closures = direct_closures(fn)
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"
             and n.callee.name in closures]
    params = {}
    for name, closure in closures.items():
        args = [c.args for c in calls if c.callee.name == name]
        if not args or any(len(a) != len(closure.params) for a in args):
            continue
        params.update((p.name, p) for k, p in enumerate(closure.params)
                      if p.type is None and all(given(a[k]) for a in args))
    return params


def _negated(e):
    """What e negates (the interpreter negates a plain value in its plain type), else e."""
    while e._prod == "Unary" and e.op == "-":
        e = e.operand
    return e


def _plain_beside(other, binary, parents, plain: set) -> bool:
    """Whether `other`, the other operand of `binary`, is plain where the interpreter
    computes it: a plain local, or a literal but where a `let` of a written type holds the
    arithmetic and so gives the literal its type."""
    if other._prod == "Local":
        return other.name in plain
    if integer_literal(other) is None and other._prod != "Float":
        return False
    parent = parents.get(id(binary))
    return not (parent is not None and parent._prod == "Let" and written(parent))
