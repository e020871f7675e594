"""Where the interpreter computes a plain i32 or f64 (plain_locals.py): arithmetic between
plain locals, and the literals a context gives no type of their own (`k * j`, `k << 30`,
`k * 2` under `print`), a plain `if`'s value, a closure's call computing one from plain
values. It converts such a value only where it meets another type, so native code must
compute the whole of it in the plain type and convert its result there: each is a unit.

What the interpreter gives a literal is the hint of its context (oracle/expressions.py): a
`let`'s type, a parameter's, a result's, through arithmetic and an `if`'s arms; none to an
operand of a comparison, a closure's argument or body, a shift's amount, an index."""

from __future__ import annotations

from ..nanopass import child_nodes, descendants
from ..values.literals import literal_hint, scalar_hint, typed_by_place
from ..values.literal_ranges import integer_literal
from .literal_hints import UNFIXED
from .plain_locals import held, settled_cast
from .signatures import written

# A context whose type for its literals is known only as the program runs (a tensor's
# element assigned, a tuple's), or that this module does not tell: no unit meets it.
UNKNOWN = "unknown"

_ARITH = frozenset("+ - * / % & | ^".split())
_SHIFTS = frozenset(("<<", ">>"))
_UNITS = frozenset(("Local", "Binary", "Unary", "IfExpr", "Call", "Cast"))  # what one can be
_PLAIN, _LITERAL = "plain", "literal"  # a unit's value; a literal's, no local in it


class Contexts:
    """The contexts of one function's expressions: what each is part of, and the hint the
    interpreter gives its literals there."""

    def __init__(self, fn, fns: dict, plain: set):
        self.fn, self.fns, self.plain = fn, fns, plain
        self.parents = {id(c): n for n in descendants(fn) for c in child_nodes(n)}
        self.lets = {n.name: n for n in descendants(fn) if n._prod == "Let"}
        # the scalar type each local is declared of (a `let`'s, written or inferred, to which
        # the interpreter converts its value; a parameter's), None for any other
        self.declared = {n.name: scalar_hint(n.type) for n in descendants(fn)
                         if n._prod in ("Let", "Param")}
        assigned = {n.target.name for n in descendants(fn)
                    if n._prod == "Assign" and n.target._prod == "Local"}
        # a closure a local is bound to and keeps: its calls compute its body
        self.closures = {name: n.value for name, n in self.lets.items()
                         if n.value._prod == "Closure" and not n.mutable and name not in assigned}

    def hint(self, e):
        """The scalar type the interpreter gives the literals of e (None: none, UNKNOWN)."""
        node = e
        while True:
            parent = self.parents.get(id(node))
            p = parent._prod if parent is not None else None
            if p == "Binary" and (parent.op in _ARITH or parent.op in _SHIFTS and
                                  parent.left is node) or \
                    p == "Unary" and parent.op == "-":
                node = parent
                continue
            if p == "Block" and parent.value is node:
                owner = self.parents.get(id(parent))
                q = owner._prod if owner is not None else None
                if q in ("IfExpr", "Unsafe"):
                    node = owner
                    continue
                return scalar_hint(owner.ret) if q == "Fn" else None if q == "Closure" \
                    else UNKNOWN
            return self._given(parent, node)

    def operands_hint(self, binary):
        """The hint the interpreter gives the operands of `binary`: its own for arithmetic."""
        return self.hint(binary) if binary.op in _ARITH else None

    def typed(self, e, hint, target: str, untyped: set) -> bool:
        """Whether the interpreter computes e, under `hint`, as a value of the type `target`,
        not a plain one, which a plain value meeting it is converted to; `untyped`: the
        closures' parameters of no written type, of the type of what they are given."""
        p = e._prod
        if p in ("Int", "Float"):
            return hint == target
        if p == "Cast":
            return e.type._prod == "Scalar" and e.type.name == target
        if p == "Local":
            return e.name not in self.plain and e.name not in untyped and \
                self.declared.get(e.name) == target
        if p == "Call":
            callee = self.fns.get(e.callee.name) if e.callee._prod == "Global" else None
            return callee is not None and scalar_hint(callee.ret) == target
        if p == "Binary" and e.op in _ARITH:
            return self.typed(e.left, hint, target, untyped) or \
                self.typed(e.right, hint, target, untyped)
        if p == "Binary" and e.op in _SHIFTS:
            return self.typed(e.left, hint, target, untyped)
        if p == "Unary" and e.op == "-":
            return self.typed(e.operand, hint, target, untyped)
        if p == "IfExpr" and e.then.value is not None and e.orelse.value is not None:
            return self.typed(e.then.value, hint, target, untyped) and \
                self.typed(e.orelse.value, hint, target, untyped)
        return p in ("Global", "Index", "Deref")

    def _given(self, parent, node):
        """The hint `parent`, passing none through, gives its part `node`."""
        p = parent._prod if parent is not None else None
        if p in ("Binary", "Unary", "Cast", "Index", "IfExpr", "If", "While", "ExprStmt") or \
                p == "Call" and parent.callee._prod == "Local":
            return None  # a comparison's operand, a shift's amount, a condition, a closure's
        if p == "Let":
            return _scalar(literal_hint(parent.type))
        if p == "Return":
            return None if self.in_closure(parent) else scalar_hint(self.fn.ret)
        if p == "Call" and parent.callee._prod == "Global":
            callee = self.fns.get(parent.callee.name)
            if callee is None:
                return None  # print, a math function: a call of no parameter types
            at = next((i for i, a in enumerate(parent.args) if a is node), len(callee.params))
            return _scalar(literal_hint(callee.params[at].type)) if at < len(callee.params) \
                else UNKNOWN
        if p == "Assign" and parent.value is node and not typed_by_place(node):
            return None  # the interpreter gives only an operator of literals alone the place's
        if p == "Assign" and parent.value is node and parent.target._prod == "Local":
            # the type the place holds: a plain local's fixes none
            let = self.lets.get(parent.target.name)
            holds = scalar_hint(let.type) if let is not None else UNKNOWN
            return None if holds in UNFIXED.values() or parent.target.name in self.plain \
                else holds
        return UNKNOWN

    def in_closure(self, node) -> bool:
        """Whether node is part of a closure's body."""
        while node is not None and node._prod != "Closure":
            node = self.parents.get(id(node))
        return node is not None

    def units(self) -> set:
        """The id() of each unit of the function that is part of no greater one."""
        found = set()
        for e in descendants(self.fn):
            if e._prod not in _UNITS or self.value(e, self.hint(e)) != _PLAIN:
                continue
            whole = self._whole(e)
            if whole is None or self.value(whole, self.hint(whole)) is None:
                found.add(id(e))
        return found

    def _whole(self, e):
        """The expression e is an operand of that a plain e can make plain, or None."""
        parent = self.parents.get(id(e))
        p = parent._prod if parent is not None else None
        if p == "Binary" and (parent.op in _ARITH or parent.op in _SHIFTS and parent.left is e) \
                or p == "Unary" and parent.op in ("-", "!"):
            return parent
        if p == "Block" and parent.value is e:
            owner = self.parents.get(id(parent))
            if owner is not None and owner._prod == "IfExpr":
                return owner
        return None

    def value(self, e, hint, plain=None):
        """_PLAIN for e the interpreter computes as a plain value from a plain local, under
        the literals' `hint`, _LITERAL for one of literals alone, None for any other."""
        plain = self.plain if plain is None else plain
        p = e._prod
        if integer_literal(e) is not None:  # `-2147483648` is one literal
            return _LITERAL if hint in (None, "i32") and held(e, "i32") else None
        if p == "Float":
            return _LITERAL if hint in (None, "f64") else None
        if p == "Local":
            return _PLAIN if e.name in plain else None
        if settled_cast(e):
            return _PLAIN
        if p == "Binary" and e.op in _ARITH:
            return _joined(self.value(e.left, hint, plain), self.value(e.right, hint, plain))
        if p == "Binary" and e.op in _SHIFTS:
            return self.value(e.left, hint, plain)
        if p == "Unary" and e.op in ("-", "!"):
            return self.value(e.operand, hint if e.op == "-" else None, plain)
        if p == "IfExpr" and e.then.value is not None and e.orelse.value is not None:
            return _joined(self.value(e.then.value, hint, plain),
                           self.value(e.orelse.value, hint, plain))
        if p == "Call" and e.callee._prod == "Local" and e.callee.name in self.closures:
            return self._called(self.closures[e.callee.name], e.args, plain)
        return None

    def _called(self, closure, args, plain):
        """_PLAIN for a call of `closure` with `args` whose body computes a plain value: each
        parameter plain (of no written type given a plain value, or an i32 or f64), and so
        each local of no written type its body's `let` (not `mut`) gives a plain value."""
        if len(args) != len(closure.params) or closure.body.value is None or any(
                n._prod == "Return" for n in descendants(closure.body)):
            return None
        inner = set(plain)
        for q, a in zip(closure.params, args):
            if q.type is None and self.value(a, None, plain) is not None or \
                    q.type is not None and scalar_hint(q.type) in UNFIXED.values():
                inner.add(q.name)
        lets = [n for n in descendants(closure.body)
                if n._prod == "Let" and not n.mutable and not written(n)]
        while more := {n.name for n in lets if n.name not in inner and
                       self.value(n.value, None, inner) is not None}:
            inner |= more
        return _PLAIN if self.value(closure.body.value, None, inner) is not None else None


def _joined(a, b):
    if a is None or b is None:
        return None
    return _PLAIN if _PLAIN in (a, b) else _LITERAL


def _scalar(hint):
    return hint if hint is None or isinstance(hint, str) else UNKNOWN
