"""One function run symbolically: every path through its body as z3 terms, and the
obligations met on the way (the verification conditions).

A state is a path condition (a tuple of z3 Bools, shared by prefix between the paths that
forked from one another) and the value of each local. Where paths meet (after an `if`, an
`&&`, a loop's exits) the conditions are joined and each local's value becomes an `If` of the
two. A loop is known by its invariants: they are proved on entry (E8007), each variable the
body assigns is then any value of its type (a fresh constant) of which the invariants and
the loop's condition are assumed, the body runs once from there, and the invariants are
proved at its end and at each `continue` (E8008); after the loop they hold and the condition
does not. A call is known by the callee's contract: its `requires` are proved at the call
(E8006), its result is a fresh constant of which its `ensures` are assumed. An `ensures` of
the function is proved at every `return` and at the end of the body (E8001), over the
parameters' values on entry. `assert(c)` is assumed past itself: a false one stops the
program. What the encoding does not follow (terms.Unknown) is opaque.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import CONTRACTS, DESCRIPTIONS, contract_clauses
from ..languages.lresolved import display_name
from ..nanopass import child_nodes, descendants
from ..values.literals import scalar_hint
from ..values.numbers import INT_TYPES
from .terms import FLOAT_LITERAL, FLOATS, INT_LITERAL, Encoding, Term, Unknown, is_scalar

# Operators whose operands take the type the context fixes (a comparison's do not).
_TYPED_BY_CONTEXT = frozenset("+ - * / % & | ^".split())


@dataclass
class State:
    guard: tuple  # z3 Bools: the path condition
    env: dict  # unique local name -> Term or Unknown

    def fork(self, cond=None) -> "State":
        return State(self.guard + ((cond,) if cond is not None else ()), dict(self.env))


@dataclass
class Shown:
    """A value a counterexample names: a parameter, a loop variable, a call's result."""

    label: str
    term: Term
    loop: object = None  # the loop whose iteration it starts, for a loop's variables

    @property
    def expr(self):
        return self.term.expr

    @property
    def signed(self) -> bool:
        """Whether an integer value shows with its sign (bit-vectors have none of their
        own)."""
        return self.term.ty not in INT_TYPES or INT_TYPES[self.term.ty].signed


@dataclass
class Obligation:
    code: str  # E8001 postcondition, E8006 precondition at a call, E8007/E8008 invariant
    clause: object  # the Requires, Ensures or Invariant, as written
    owner: str  # the function whose clause it is (the callee's, at a call)
    at: object  # the node where it must hold: a return, a call, a loop
    premises: tuple  # the path to it
    goal: object  # the z3 Bool to prove
    shown: list  # (group, [Shown]): what a counterexample may name, in order
    given: list = field(default_factory=list)  # [Shown]: the result at a return, the
    # callee's parameters at a call, what an invariant reads: named whatever they depend on


@dataclass
class _Loop:
    node: object
    breaks: list = field(default_factory=list)
    continues: list = field(default_factory=list)


class Executor:
    """The obligations of one function `fn` of `program`; `enc` makes its terms."""

    def __init__(self, enc: Encoding, fns: dict, consts: dict, fn):
        self.enc, self.z = enc, enc.z
        self.fns, self.consts, self.fn = fns, consts, fn
        self.obligations: list[Obligation] = []
        self.escaped: list = []  # (use, callee): a function with a `requires` used as a value
        self.shown: list[Shown] = []
        self.loops: list[_Loop] = []
        self.weak: dict[str, object] = {}  # constant -> the loop without invariants it havocs
        self.closures = 0  # > 0 inside a closure's body: its `return` is not the function's
        self.clauses = 0  # > 0 while a clause is evaluated: a call there proves nothing
        self.untracked = _untracked(fn)
        self.ret = scalar_hint(fn.ret)

    # -- the function ------------------------------------------------------------------

    def run(self) -> None:
        fn, enc = self.fn, self.enc
        st = State((), {})
        for p in fn.params:
            ty = scalar_hint(p.type)
            if is_scalar(ty):
                term = enc.fresh(ty, display_name(p.name))
                self.shown.append(Shown(display_name(p.name), term))
                st.env[p.name] = term
            else:
                st.env[p.name] = Unknown(p)
        self.entry = dict(st.env)
        clauses = contract_clauses(fn.body)
        self.ensures = [c for c in clauses if c._prod == "Ensures"]
        for c in clauses:
            if c._prod != "Requires":
                continue
            if fn.name == "main":  # the program's entry: no caller establishes it
                self.oblige("E8006", c, State((), dict(st.env)), st.env, fn, "main", [])
            self.assume(c, st, st.env)
        st, value = self.valued(fn.body, st, self.ret, skip=len(clauses))
        if st is not None:
            self.returned(st, value, fn.body.value or fn.body)

    def returned(self, st: State, value, at) -> None:
        if self.closures or not self.ensures:
            return
        env = dict(self.entry)
        result = None
        if value is not None:
            result = self.enc.typed(value, self.ret, at) if is_scalar(self.ret) \
                else Unknown(at)
            env["return"] = result
        given = [Shown("return", result)] if isinstance(result, Term) else []
        for c in self.ensures:  # (an ensures reads the parameters, named already)
            self.oblige("E8001", c, st, env, at, self.fn.name, given)

    # -- clauses -----------------------------------------------------------------------

    def clause_value(self, clause, st: State, env: dict):
        """(what evaluating the clause assumed, its value as a z3 Bool) in `env`."""
        scratch = State(st.guard, dict(env))
        self.clauses += 1
        try:
            v = self.expr(clause.cond, scratch)
        finally:
            self.clauses -= 1
        return scratch.guard[len(st.guard):], self.enc.boolean(v, clause.cond)

    def assume(self, clause, st: State, env: dict) -> None:
        assumed, value = self.clause_value(clause, st, env)
        st.guard = st.guard + assumed + (value,)

    def oblige(self, code, clause, st: State, env: dict, at, owner, given=None) -> None:
        if given is None:  # an invariant: the values it reads
            given = [Shown(display_name(name), env[name]) for name in
                     dict.fromkeys(n.name for n in descendants(clause.cond)
                                   if n._prod == "Local")
                     if isinstance(env.get(name), Term)]
        assumed, value = self.clause_value(clause, st, env)
        goal = self.z.And(*assumed, value) if assumed else value
        self.obligations.append(Obligation(code, clause, owner, at, st.guard, goal,
                                           self._groups(), list(given)))

    def _groups(self):
        """The values a counterexample may name, grouped: the parameters and results
        first, then each loop's variables, at the start of an iteration inside the loop, at
        its end after it."""
        groups: dict = {}
        for s in self.shown:
            loop = s.loop
            if loop is None:
                key = ""
            else:
                line, col = loop.span.source.line_col(loop.span.start)
                inside = any(frame.node is loop for frame in self.loops)
                key = (f"at the start of an iteration of the loop at {line}:{col}" if inside
                       else f"when the loop at {line}:{col} ends")
            groups.setdefault(key, []).append(s)
        return list(groups.items())

    # -- statements --------------------------------------------------------------------

    def block(self, block, st: State, skip: int = 0):
        """Run a block's statements (after `skip` contract clauses); the state after it,
        None when no path reaches its end. Its trailing value is evaluated for effect."""
        for stmt in block.stmts[skip:]:
            st = self.stmt(stmt, st)
            if st is None:
                return None
        if block.value is not None:
            self.expr(block.value, st)
        return st

    def stmt(self, s, st: State):
        kind = s._prod
        if kind == "Let":
            v = self.expr(s.value, st, scalar_hint(s.type))
            st.env[s.name] = self.bound(v, s.type, s.value)
        elif kind == "Assign":
            self.assign(s, st)
        elif kind == "If":
            c = self.enc.boolean(self.expr(s.cond, st), s.cond)
            then = self.block(s.then, st.fork(c))
            orelse = st.fork(self.z.Not(c))
            if s.orelse is not None:
                orelse = self.block(s.orelse, orelse)
            return self.join(then, orelse)[0]
        elif kind == "While":
            return self.loop(s, st)
        elif kind == "For":
            return self.for_loop(s, st)
        elif kind == "Return":
            value = self.expr(s.value, st, self.ret) if s.value is not None else None
            self.returned(st, value, s.value or s)
            return None
        elif kind in ("Break", "Continue"):
            if self.loops:  # (a closure's body may `break` out of a loop of the function)
                frame = self.loops[-1]
                (frame.breaks if kind == "Break" else frame.continues).append(st)
            return None
        elif kind == "Assert":  # past it the condition holds: a false one stops the program
            st.guard = st.guard + (self.enc.boolean(self.expr(s.cond, st), s.cond),)
        elif kind == "ExprStmt":
            self.expr(s.expr, st)
        elif kind == "BlockStmt":
            return self.block(s.body, st)
        elif kind not in CONTRACTS:
            self.opaque(s, st)
        return st

    def bound(self, v, type_node, why):
        """The value a local of type `type_node` holds after it is given `v`."""
        ty = scalar_hint(type_node)
        if not is_scalar(ty):
            return v if isinstance(v, Unknown) else Unknown(why)
        return self.enc.typed(v, ty, why)

    def assign(self, s, st: State) -> None:
        target = s.target
        if target._prod != "Local" or target.name in self.untracked \
                or not isinstance(st.env.get(target.name), Term):
            self.expr(s.value, st)
            for child in child_nodes(target):
                self.expr(child, st)
            if target._prod == "Local":
                st.env[target.name] = Unknown(s)
            return
        old = st.env[target.name]
        hint = old.ty if s.op == "=" or s.op[:-1] in _TYPED_BY_CONTEXT else None
        v = self.expr(s.value, st, hint)
        if s.op != "=":
            v = self.enc.binary(s.op[:-1], old, v, s, lambda c: self._assume(st, c))
        st.env[target.name] = self.enc.typed(v, old.ty, s)

    def _all(self, conds):
        if not conds:
            return self.enc.truth(True)
        return conds[0] if len(conds) == 1 else self.z.And(*conds)

    def _assume(self, st: State, cond) -> None:
        st.guard = st.guard + (cond,)

    def join(self, a, b):
        """(the state where paths a and b meet, a Bool true on a's path); either may be
        None, a path that does not reach here."""
        z = self.z
        if a is None:
            return b, self.enc.truth(False)
        if b is None:
            return a, self.enc.truth(True)
        n = 0
        while n < len(a.guard) and n < len(b.guard) and a.guard[n] is b.guard[n]:
            n += 1
        ga, gb = self._all(a.guard[n:]), self._all(b.guard[n:])
        env = {k: self.enc.merge(ga, v, b.env[k]) for k, v in a.env.items() if k in b.env}
        return State(a.guard[:n] + (z.Or(ga, gb),), env), ga

    # -- loops -------------------------------------------------------------------------

    def loop(self, s, st: State):
        clauses = contract_clauses(s.body)
        for c in clauses:
            self.oblige("E8007", c, st, st.env, s, self.fn.name)
        head = self.havoc(st, s, bool(clauses))
        for c in clauses:
            self.assume(c, head, head.env)
        c = self.enc.boolean(self.expr(s.cond, head), s.cond)
        return self.iterate(s, clauses, head, c, None)

    def for_loop(self, s, st: State):
        enc = self.enc
        start, end = self.expr(s.start, st), self.expr(s.end, st)
        ty = next((v.ty for v in (start, end) if isinstance(v, Term)
                   and v.ty not in (INT_LITERAL, FLOAT_LITERAL)), "i32")
        if ty not in INT_TYPES:
            return self.opaque(s, st)
        start, end = enc.typed(start, ty, s.start), enc.typed(end, ty, s.end)
        clauses = contract_clauses(s.body)
        for c in clauses:
            self.oblige("E8007", c, st, {**st.env, s.var: start}, s, self.fn.name)
        head = self.havoc(st, s, bool(clauses))
        k = enc.fresh(ty, display_name(s.var))
        self.shown.append(Shown(display_name(s.var), k, s))
        head.env[s.var] = k
        z = self.z

        def holds(op, a, b):
            return enc.binary(op, a, b, s, None).expr
        head.guard = head.guard + (holds("<=", start, k),
                                   z.Or(holds("<=", k, end), k.expr == start.expr))
        for c in clauses:
            self.assume(c, head, head.env)
        after = st.env.keys()
        exit_ = self.iterate(s, clauses, head, holds("<", k, end), Term(k.expr + 1, ty))
        if exit_ is not None:
            exit_.env = {name: v for name, v in exit_.env.items() if name in after}
        return exit_

    def iterate(self, s, clauses, head: State, cond, counter):
        """The body once from `head` where `cond` holds; the invariants proved at its end
        and at each `continue` (with the loop variable advanced to `counter` in a `for`);
        the state after the loop."""
        frame = _Loop(s)
        self.loops.append(frame)
        try:
            end = self.block(s.body, head.fork(cond), skip=len(clauses))
            for again in ([end] if end is not None else []) + frame.continues:
                env = again.env if counter is None else {**again.env, s.var: counter}
                for c in clauses:
                    self.oblige("E8008", c, again, env, c, self.fn.name)
        finally:
            self.loops.pop()
        out = head.fork(self.z.Not(cond))
        for b in frame.breaks:
            out = self.join(out, b)[0]
        return out

    def havoc(self, st: State, loop, stated: bool) -> State:
        """The state at the head of `loop`: each tracked local its body assigns is any value
        of its type (an invariant says which)."""
        head = st.fork()
        for name in sorted(_assigned(loop.body) & st.env.keys()):
            v = st.env[name]
            if isinstance(v, Term):
                t = self.enc.fresh(v.ty, display_name(name))
                self.shown.append(Shown(display_name(name), t, loop))
                if not stated:
                    self.weak[t.expr.decl().name()] = loop
                head.env[name] = t
        return head

    # -- what the encoding does not follow -----------------------------------------------

    def opaque(self, node, st: State):
        """A statement or expression the encoding does not follow: the locals it may assign
        become unknown; its parts are still run, for the obligations they hold, each block
        as if it may or may not run (as a `match` arm, a closure's body)."""
        for child in child_nodes(node):
            if child._nt == "Block":
                c = self.enc.fresh("bool", "branch", node).expr
                ran = self.block(child, st.fork(c))
                joined, _ = self.join(ran, st.fork(self.z.Not(c)))
                st.guard, st.env = joined.guard, joined.env
            elif child._nt == "Expr":
                self.expr(child, st)
            elif child._nt not in DESCRIPTIONS:  # a case, an arm, a field: what they hold
                self.opaque(child, st)
        for name in _assigned(node) & st.env.keys():
            st.env[name] = Unknown(node)
        return st

    # -- expressions -------------------------------------------------------------------

    def expr(self, e, st: State, hint=None):
        """The value of `e` (a Term or an Unknown), run on `st`, which it may extend."""
        kind, enc = e._prod, self.enc
        if kind == "Int":
            v = Term(e.value, INT_LITERAL)
            return enc.typed(v, hint, e) if hint in INT_TYPES else v
        if kind == "Float":
            v = Term(e.value, FLOAT_LITERAL)
            return enc.typed(v, hint, e) if hint in FLOATS else v
        if kind == "Bool":
            return Term(enc.truth(e.value), "bool")
        if kind == "Local":
            if e.name in self.untracked:
                return Unknown(e)
            return st.env.get(e.name, Unknown(e))
        if kind == "Global":
            return self.global_value(e, st)
        if kind == "Binary":
            return self.binary(e, st, hint)
        if kind == "Unary":
            operand = self.expr(e.operand, st, hint if e.op == "-" else None)
            return enc.unary(e.op, operand, e)
        if kind == "Cast":
            return enc.cast(self.expr(e.value, st), scalar_hint(e.type), e)
        if kind == "Call":
            return self.call(e, st, hint)
        if kind == "IfExpr":
            c = enc.boolean(self.expr(e.cond, st), e.cond)
            a, va = self.valued(e.then, st.fork(c), hint)
            b, vb = self.valued(e.orelse, st.fork(self.z.Not(c)), hint)
            return self.meet(st, a, va, b, vb, e)
        if kind == "Spawn":  # the body runs where the spawn is, as the interpreter runs it
            ran, _ = self.valued(e.body, st, None)
            if ran is not None:
                st.guard, st.env = ran.guard, ran.env
            return Unknown(e)
        if kind == "Closure":
            self.closure(e, st)
            return Unknown(e)
        self.opaque(e, st)
        return Unknown(e)

    def valued(self, block, st: State, hint, skip: int = 0):
        """(the state at the end of a block used as a value, its value)."""
        ran = self.block(block.replace(value=None) if block.value is not None else block, st,
                         skip)
        if ran is None or block.value is None:
            return ran, None
        return ran, self.expr(block.value, ran, hint)

    def meet(self, st: State, a, va, b, vb, why):
        """`st` becomes where two valued paths meet; their value there."""
        joined, on_a = self.join(a, b)
        if joined is None:  # neither branch gives a value: the code after is not reached
            st.guard = st.guard + (self.enc.truth(False),)
            return Unknown(why)
        st.guard, st.env = joined.guard, joined.env
        if a is None or b is None:
            return va if b is None else vb
        if va is None or vb is None:
            return Unknown(why)
        return self.enc.merge(on_a, va, vb)

    def binary(self, e, st: State, hint):
        enc, z = self.enc, self.z
        if e.op in ("&&", "||"):
            left = enc.boolean(self.expr(e.left, st), e.left)
            taken = st.fork(left if e.op == "&&" else z.Not(left))
            right = Term(enc.boolean(self.expr(e.right, taken), e.right), "bool")
            skipped = st.fork(z.Not(left) if e.op == "&&" else left)
            return self.meet(st, taken, right, skipped, Term(enc.truth(e.op == "||"), "bool"),
                             e)
        operand_hint = hint if e.op in _TYPED_BY_CONTEXT else None
        left = self.expr(e.left, st, operand_hint)
        right = self.expr(e.right, st, operand_hint)
        if isinstance(left, Term) and isinstance(right, Term) and operand_hint is None \
                and e.op not in ("<<", ">>"):  # a comparison: a literal takes the other's type
            if left.ty in (INT_LITERAL, FLOAT_LITERAL) and right.ty not in (INT_LITERAL,
                                                                           FLOAT_LITERAL):
                left = enc.typed(left, right.ty, e.left)
            elif right.ty in (INT_LITERAL, FLOAT_LITERAL) and left.ty not in (INT_LITERAL,
                                                                             FLOAT_LITERAL):
                right = enc.typed(right, left.ty, e.right)
        return enc.binary(e.op, left, right, e, lambda c: self._assume(st, c))

    def global_value(self, e, st: State):
        item = self.consts.get(e.name)
        if item is not None and item.value is not None:
            return self.expr(item.value, st, scalar_hint(item.type))
        callee = self.fns.get(e.name)
        if callee is not None and any(c._prod == "Requires" for c in
                                      contract_clauses(callee.body)):
            self.escaped.append((e, callee))  # called where no precondition is proved
        return Unknown(e)

    def call(self, e, st: State, hint):
        callee = self.fns.get(e.callee.name) if e.callee._prod == "Global" else None
        if callee is None:
            if e.callee._prod != "Global":
                self.expr(e.callee, st)
            for a in e.args:
                self.expr(a, st)
            return Unknown(e)
        env = {}
        for p, a in zip(callee.params, e.args):
            env[p.name] = self.bound(self.expr(a, st, scalar_hint(p.type)), p.type, a)
        clauses = contract_clauses(callee.body)
        if not self.clauses:
            given = [Shown(display_name(p.name), env[p.name]) for p in callee.params
                     if isinstance(env.get(p.name), Term)]
            for c in clauses:
                if c._prod == "Requires":
                    self.oblige("E8006", c, st, env, e, callee.name, given)
        ty = scalar_hint(callee.ret)
        if not is_scalar(ty):
            return Unknown(e)
        line, col = e.span.source.line_col(e.span.start)
        label = f"the result of '{callee.name}' at {line}:{col}"
        result = self.enc.fresh(ty, label)
        self.shown.append(Shown(label, result))
        env["return"] = result
        for c in clauses:
            if c._prod == "Ensures":
                self.assume(c, st, env)
        return result

    def closure(self, e, st: State) -> None:
        """A closure's body, for the obligations it holds: it runs when called, with any
        values, so what it reads of the function is unknown there."""
        inner = State(st.guard, {name: Unknown(e) for name in st.env})
        self.closures += 1
        loops, self.loops = self.loops, []
        try:
            self.valued(e.body, inner, None)
        finally:
            self.closures -= 1
            self.loops = loops




def _assigned(node) -> set:
    """The locals assigned anywhere in `node` (compound assignments included)."""
    return {n.target.name for n in descendants(node)
            if n._prod == "Assign" and n.target._prod == "Local"}


def _untracked(fn) -> set:
    """The locals whose value can change where the code does not say: lent with `&mut`
    (written through the reference), or assigned in a closure (written when it is called)."""
    out = set()
    for n in descendants(fn.body):
        if n._prod == "Borrow" and n.mutable and n.value._prod == "Local":
            out.add(n.value.name)
        elif n._prod == "Closure":
            out |= _assigned(n.body)
    return out


def needs_proof(fn, fns: dict) -> bool:
    """Whether `fn` holds anything to prove: an `ensures`, an invariant, a `requires` of
    `main`, or a call or use of a function with a `requires`."""
    if any(c._prod == "Ensures" or c._prod == "Requires" and fn.name == "main"
           for c in contract_clauses(fn.body)):
        return True
    for n in descendants(fn.body):
        if n._prod == "Invariant":
            return True
        if n._prod == "Global" and n.name in fns and any(
                c._prod == "Requires" for c in contract_clauses(fns[n.name].body)):
            return True
    return False

