"""Compiling statements to closures `f(frame) -> None | signal`.

A statement hands back None to go on, or BREAK, CONTINUE or a Return, which each enclosing
block passes up to the loop or function that consumes it (no exceptions on the common path).
"""

from __future__ import annotations

import operator

from ..languages.ldrops import Ldrops
from ..languages.lparted import Lparted
from ..languages.lsrc import assertion_message, malloc_constructor
from ..nanopass import Handlers
from ..values.control import BREAK, CONTINUE, Return
from ..values.literals import PLACE, adopt, held_type, literal_hint, run_placed, typed_by_place
from ..values.numbers import TInt, arith, describe, to_index, unplace, wrap32
from ..values.stops import stop, wrong_kind
from ..values.tensors import Tensor
from .expressions import INTERPRETED, ExprMixin
from .functions import run_body
from .references import Pointer, Ref, as_ref, part_of, referent, with_part
from .scope import Escape, Moved, frame_getter, moved_stop

# Ldrops' statements, Drop and DropApart, run here too; its others are the blocks' ILs'.
STATEMENTS = Handlers("the interpreter's statements", (*INTERPRETED, Ldrops), "Stmt")
# An assignment to a place other than a variable, by the place's production.
_PLACES = Handlers("the interpreter's assignment targets", INTERPRETED, "Expr")

_FAST = {"+": operator.add, "-": operator.sub, "*": operator.mul}


def _loop_signal(r):
    """What a loop does with a body's signal: True to stop looping, False to go on."""
    if r is BREAK:
        return True
    return r is not CONTINUE


class StmtMixin(ExprMixin):
    statements = STATEMENTS

    def stmt(self, node, sc):
        method = self.statements.get(node._prod)
        if method is None:
            return self.unsupported(node, f"the statement {node._prod}")
        return method(self, node, sc)

    def stmt_block(self, block, sc, before=None):
        """A block in statement position; its trailing value is evaluated for its effects.
        `before(sc)` may declare variables in the block's scope first (a loop variable)."""
        sc.push()
        slot = before(sc) if before is not None else None
        stmts = [self.stmt(s, sc) for s in block.stmts]
        if block.value is not None:
            value = self.expr(block.value, sc)

            def last(f):
                value(f)
            stmts.append(last)
        sc.pop()
        if len(stmts) == 1:
            return slot, stmts[0]

        def run(f):
            for s in stmts:
                r = s(f)
                if r is not None:
                    return r
            return None
        return slot, run

    def fn_block(self, block, sc):
        def compile_body():
            stmts = [self.stmt(s, sc) for s in block.stmts]
            value = self.expr(block.value, sc, sc.ret) if block.value is not None else None
            return run_body(stmts, value)
        return self.ensured(block, sc, compile_body)

    # -- bindings --------------------------------------------------------------------------

    @STATEMENTS.on("Let")
    def s_Let(self, node, sc):
        # Before desugar-malloc, `malloc(n)` under a tensor type is that tensor, uninitialised.
        ctor = malloc_constructor(node) if sc.lookup("malloc") is None \
            and "malloc" not in self.functions else None
        value = self.expr(ctor or node.value, sc, literal_hint(node.type))
        conform = self.conformer(node.type, node.span)
        slot = sc.declare(node.name)  # after the value: `let x = x + 1` reads the outer x
        if conform is None:
            def let(f):
                f[slot] = value(f)
        else:
            def let(f):
                f[slot] = conform(value(f))
        return let

    @STATEMENTS.on("Declare")
    def s_Declare(self, node, sc):
        """`let x: T;`: x has no value until it is assigned (check-definite-assignment refuses
        a read before)."""
        slot = sc.declare(node.name)

        def declare(f):
            f[slot] = None
        return declare

    @STATEMENTS.on("LetTuple")
    def s_LetTuple(self, node, sc):
        """`let (a, b) = t;` binds each name to its element (desugar-tuple-lets makes it one
        `let` per element)."""
        value, span, n = self.expr(node.value, sc), node.span, len(node.names)
        slots = [sc.declare(name) for name in node.names]

        def let(f):
            t = unplace(value(f))
            if type(t) is not tuple or len(t) < n:
                wrong_kind(span, f"`let` of {n} names from {describe(t)}")
            for slot, v in zip(slots, t):
                f[slot] = v
        return let

    @STATEMENTS.on("Assign")
    def s_Assign(self, node, sc):
        target, op, span = node.target, node.op, node.span
        value = self.placed(node.value, sc)
        to_place = _PLACES.get(target._prod)
        if to_place is not None:
            return to_place(self, target, op, value, sc, span)
        if target._prod not in ("Var", "Local") or sc.lookup(target.name) is None:
            return self.unsupported(node, f"assignment to {target._prod}")
        depth, slot = sc.lookup(target.name)
        frame = frame_getter(depth)
        if op == "=":
            def assign(f):
                fr = f if depth == 0 else frame(f)
                new = value(f, held_type(fr[slot]))
                old = fr[slot]
                if type(new) is not type(old):
                    new = adopt(old, new)
                fr[slot] = new
            return assign
        binop = op[:-1]
        fast = _FAST.get(binop)

        def compound(f):
            fr = f if depth == 0 else frame(f)
            old = fr[slot]
            v = value(f, held_type(old))
            if fast is not None and type(old) is int and type(v) is int:
                r = fast(old, v)
                if -2147483648 <= r <= 2147483647:
                    fr[slot] = r
                    return
            if type(old) is Moved:
                moved_stop(old, span)
            new = arith(binop, old, v, span)
            if type(new) is not type(old):
                new = adopt(old, new)
            fr[slot] = new
        return compound

    def placed(self, value, sc):
        """The value an assignment writes, run given the scalar type of the place it writes:
        its unsuffixed literals take that type, as Rust infers them (`x = 1 << 40` for an
        i64 x shifts an i64)."""
        if not typed_by_place(value):
            plain = self.expr(value, sc)
            return lambda f, place_type: plain(f)
        run = self.expr(value, sc, PLACE)
        return lambda f, place_type: run_placed(self, run, f, place_type)

    @_PLACES.on("Deref")
    def _assign_through(self, target, op, value, sc, span):
        """`*p = v`, `*p += v`: the place p names takes the value."""
        ref, binop = self.expr(target.value, sc), op[:-1]

        def assign(f):
            r = as_ref(ref(f), span)
            new = value(f, _held(r))
            if op != "=":
                new = arith(binop, r.get(span), new, span)
            r.set(new, span)
        return assign

    @_PLACES.on("FieldGet", "TupleGet")
    def _assign_part(self, target, op, value, sc, span):
        """`s.a = v`, `p.0 += v`, `s.pair.1.x = v`: the variable takes a new struct or tuple
        with the part changed (an aggregate is a value: another name for the old one keeps
        it); through a reference (`p.a = v`, `(*p).0 = v`), the place it names does."""
        path, root = [], target
        while root._prod in ("FieldGet", "TupleGet"):
            path.append(root.field if root._prod == "FieldGet" else root.index)
            root = root.base
        path.reverse()
        binop = op[:-1]
        if root._prod == "Deref":
            ref = self.expr(root.value, sc)

            def cell(f):
                r = as_ref(ref(f), span)
                return r.get(span), lambda v: r.set(v, span)
        elif root._prod in ("Var", "Local") and sc.lookup(root.name) is not None:
            depth, slot = sc.lookup(root.name)
            frame = frame_getter(depth)

            def cell(f):
                fr = f if depth == 0 else frame(f)
                held = fr[slot]
                if type(held) is Ref:  # a reference variable: its part is the place's
                    return held.get(span), lambda v: held.set(v, span)
                return held, lambda v: fr.__setitem__(slot, v)
        else:
            return self.unsupported(target, "assignment to a part of a value without a name")

        def changed(old, v):
            new = v if op == "=" else arith(binop, old, v, span)
            return new if type(new) is type(old) else adopt(old, new)  # as a variable's does

        # The value runs first, then the root: the place's type types the value's literals
        # where reading the root first changes nothing (a variable, or `*` of one), not where
        # a call gives the reference (`(*pick(&mut q)).y = ..`).
        named = root._prod != "Deref" or root.value._prod in ("Var", "Local")

        def assign(f):
            v = value(f, held_type(part_of(cell(f)[0], path, span)) if named else None)
            held, put = cell(f)
            put(with_part(held, path, lambda old: changed(old, v), span))
        return assign

    @_PLACES.on("Index")
    def _assign_element(self, target, op, value, sc, span):
        base, indices = self.index_chain(target, sc)
        binop = op[:-1]

        def assign(f):
            t = unplace(base(f))
            if type(t) is Pointer and len(indices) == 1:  # `p[i] = v`: i elements on
                at = t.at(to_index(indices[0](f), span))
                new = value(f, _held(at))
                at.set(new if op == "=" else arith(binop, at.get(span), new, span), span)
                return
            t = referent(t, span)
            if type(t) is not Tensor:
                wrong_kind(span, f"cannot index a value of type {describe(t)}")
            off = t.locate([to_index(i(f), span) for i in indices], span)
            if type(off) is not int:
                wrong_kind(span, "assignment to a whole row of a tensor; assign its elements")
            new = value(f, t.store.elem)
            if op != "=":
                new = arith(binop, t.read(off, span), new, span)
            t.write(off, new, span)
        return assign

    # -- control ---------------------------------------------------------------------------

    @STATEMENTS.on("If")
    def s_If(self, node, sc):
        cond, span, truth = self.expr(node.cond, sc), node.span, self.truth
        then = self.stmt_block(node.then, sc)[1]
        orelse = self.stmt_block(node.orelse, sc)[1] if node.orelse is not None else None

        def if_(f):
            c = cond(f)
            if c is True or (c is not False and truth(c, span)):
                return then(f)
            if orelse is not None:
                return orelse(f)
            return None
        return if_

    @STATEMENTS.on("Loop")
    def s_Loop(self, node, sc):
        """`loop { B }` runs as `while true { B }` (desugar-loops makes it one)."""
        forever = type(node)._language["Bool"](True, span=node.span)
        return self.s_While(type(node)._language["While"](forever, node.body, span=node.span), sc)

    @STATEMENTS.on("While")
    def s_While(self, node, sc):
        cond, span, truth = self.expr(node.cond, sc), node.span, self.truth
        body = self.stmt_block(node.body, sc)[1]

        def while_(f):
            while True:
                c = cond(f)
                if c is not True and (c is False or not truth(c, span)):
                    return None
                try:
                    r = body(f)
                except Escape as e:
                    r = e.signal
                if r is not None and _loop_signal(r):
                    return None if r is BREAK else r
        return while_

    @STATEMENTS.on("For")
    def s_For(self, node, sc):
        span = node.span
        if "type" in node._fields:  # Lscalars on: the bounds, and so the variable, typed
            start = self.typed_operand(node.start, sc, node.type)
            end = self.typed_operand(node.end, sc, node.type)
        else:
            start, end = self.expr(node.start, sc), self.expr(node.end, sc)
        slot, body = self.stmt_block(node.body, sc, lambda s: s.declare(node.var))

        def for_(f):
            a, b = unplace(start(f)), unplace(end(f))
            make = None
            if type(a) is not int or type(b) is not int:
                t = next((v.t for v in (a, b) if type(v) is TInt), None)
                if t is None or not all(type(v) in (int, TInt) for v in (a, b)):
                    wrong_kind(span, f"a range needs integer bounds, found {describe(a)} and "
                                     f"{describe(b)}")
                make = lambda i: TInt(i, t)  # noqa: E731 - the loop variable takes the type
                # An untyped bound, a literal, takes the other's type, as an operand does:
                # `z..18446744073709551615` for a u64 z ends at the u64, not the i32 -1.
                a, b = (t.wrap(v) if type(v) is int else to_index(v, span) for v in (a, b))
            else:
                a, b = wrap32(a), wrap32(b)
            for i in range(a, b):
                f[slot] = i if make is None else make(i)
                try:
                    r = body(f)
                except Escape as e:
                    r = e.signal
                if r is not None and _loop_signal(r):
                    return None if r is BREAK else r
            return None
        return for_

    @STATEMENTS.on("Return")
    def s_Return(self, node, sc):
        if node.value is None:
            return lambda f: Return(None)
        value = self.expr(node.value, sc, sc.ret)
        return lambda f: Return(value(f))

    @STATEMENTS.on("Break")
    def s_Break(self, node, sc):
        return lambda f: BREAK

    @STATEMENTS.on("Continue")
    def s_Continue(self, node, sc):
        return lambda f: CONTINUE

    @STATEMENTS.on("Assert")
    def s_Assert(self, node, sc):
        cond, span, truth = self.expr(node.cond, sc), node.span, self.truth
        message = assertion_message(node)

        def assert_(f):
            if not truth(cond(f), span):
                stop("E9002", span, message)
        return assert_

    @STATEMENTS.on("Assume")
    def s_Assume(self, node, sc):
        """A host assert's condition inside a kernel: it holds by construction, and the
        interpreter checks it as the assert it came from."""
        cond, span, truth = self.expr(node.cond, sc), node.span, self.truth
        c = node.cond.span
        shown = c.source.text[c.start:c.end] if c is not None else "the assumption"

        def assume(f):
            if not truth(cond(f), span):
                stop("E9002", span, f"assumption failed in a kernel: {shown}")
        return assume

    @STATEMENTS.on("ExprStmt")
    def s_ExprStmt(self, node, sc):
        value = self.expr(node.expr, sc)

        def expr_stmt(f):
            value(f)
        return expr_stmt

    @STATEMENTS.on("Drop")
    def s_Drop(self, node, sc):
        """The end of a buffer native code gives back: the interpreter's tensors are
        Python's to collect."""
        return lambda f: None

    @STATEMENTS.on("DropApart")
    def s_DropApart(self, node, sc):
        """The end of a buffer native code gives back unless another local holds it."""
        return lambda f: None

    @STATEMENTS.on("WrittenCopy")
    def s_WrittenCopy(self, node, sc):
        """The mark opening a copy of a function made for tensors made by `uninit()`: the
        interpreter keeps their written elements itself."""
        return lambda f: None

    @STATEMENTS.on("GiveBack")
    def s_GiveBack(self, node, sc):
        """`*param = value`: the tensor handed to the caller through its out-parameter."""
        param = Lparted["Local"](node.param, span=node.span)
        return self._assign_through(Lparted["Deref"](param, span=node.span), "=",
                                    self.placed(node.value, sc), sc, node.span)

    @STATEMENTS.on("ComptimeStmt")
    def s_ComptimeStmt(self, node, sc):
        return self.stmt_block(node.body, sc)[1]  # run as ordinary code; folding is a pass

    @STATEMENTS.on("BlockStmt")
    def s_BlockStmt(self, node, sc):
        return self.stmt_block(node.body, sc)[1]

    @STATEMENTS.on("UnsafeFn")
    def s_UnsafeFn(self, node, sc):
        return lambda f: None  # where its function may be called is checked, not run

    @STATEMENTS.on("ItemStmt")
    def s_ItemStmt(self, node, sc):
        return lambda f: None  # collected as a top-level item before the run, as hoisting does

    @STATEMENTS.on("UnrollAcross")
    def s_UnrollAcross(self, node, sc):
        """One spawn per index of the slice; the spawned values are dropped."""
        topo, span = self.topo(node.topo, sc), node.span
        slot, body = self.stmt_block(node.body, sc, lambda s: s.declare(node.var))

        def unroll(f):
            where = topo(f)
            if where.index is None:
                wrong_kind(span, f"unroll across needs a slice such as "
                                 f"Topology::{where.name}[0..4]")
            stop_at = where.end if where.end is not None else where.index + 1
            for k in range(where.index, stop_at):
                f[slot] = k
                r = body(f)
                if r is not None:
                    return r
            return None
        return unroll


def _held(r):
    """The scalar type of the place a reference or pointer names, found without reading it
    (an element never written may be assigned)."""
    if type(r) is Pointer:
        return r.tensor.store.elem
    if type(r.holder) is Tensor:
        return r.holder.store.elem
    return held_type(r.holder[r.key])
