"""name-made-tensors: Lcells, a rewrite within it."""

from __future__ import annotations

from ..backend.buffers import fresh_results, keeping_calls, keeps_nothing, makes_fresh
from ..languages.lcells import Lcells
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..values.literals import TYPE_WRAPPERS

name_made_tensors = Pass("name-made-tensors", Lcells, Lcells, """
Give each tensor made for a call or a transfer and bound to no local a local of its own, so
that find-owned-buffers finds it owned and insert-drops drops it after its statement.

`f(Tensor<..>::new())` and the inner copy of `transfer(transfer(t, A), B)` are buffers no
name holds: nothing could give them back. Each gets `let made = ..;` just before its
statement, when what takes it cannot keep it (a transfer, which copies, an element or an
extent read, or a call whose result cannot be the argument's buffer) and nothing the statement does before
making it can be seen (a local, a literal, a literal cast, `0 as i32`, or a read through a
reference; other tensors so named), so moving it first changes no order; a read through a reference before a call that
makes one is held in a local first (`f(*r, make(r))` is `let read = *r; let made =
make(r); f(read, made)`), since the call may write where it reads. A tensor indexed to a row is not named: the row
is a view of its buffer. A statement that is only a tensor made (`Tensor<..>::new();`,
`transfer(x, A);`, a call of a function returning only what it made) is its `let made`
alone, which nothing reads, so insert-drops drops it at once. A `return`'s value and a
branch's condition are computed after their block's statements: what they make is named
last in the block. A tensor variable given a tensor made from its own (`t = f(t)` of an `f`
returning only what it made, `t = f(&t)`) is given a `let made` of it first, `t = made;`:
the `let` reads the old tensor last, so it is dropped there, before the cell takes the new.
""")

Let, Local = Lcells["Let"], Lcells["Local"]


@name_made_tensors.on("Program")
def _program(run, node):
    fns = {i.name: i for i in node.items if i._prod == "Fn"}
    made = _Made(keeping_calls(node), fresh_results(node), fns)
    return node.replace(items=tuple(
        i.replace(blocks=made.name_temporaries(i, Names(i))) if i._prod == "Fn" else i
        for i in node.items))


_PURE = frozenset({"Local", "Global", "Int", "Float", "Bool"})  # nothing to see when evaluated


class _Made:
    """Names the tensors made for a call or a transfer and bound to no local."""

    def __init__(self, keeping: frozenset, fresh: frozenset, fns: dict):
        self.keeping, self.fresh, self.fns = keeping, fresh, fns

    def name_temporaries(self, fn, names) -> tuple:
        """`fn`'s blocks with the tensors made for a call named."""
        types = {p.name: p.type for p in fn.params}
        types.update((s.name, s.type) for b in fn.blocks for s in b.stmts if s._prod == "Let")
        out = []
        for b in fn.blocks:
            stmts, named = [], False
            for s in b.stmts:
                field = _ROOTS.get(s._prod)
                if field is None or s._prod == "Assign" and s.target._prod != "Local":
                    stmts.append(s)
                    continue
                lets: list = []
                # A statement that is only a tensor made drops it: nothing can keep it.
                discarded = s._prod == "ExprStmt"
                value = self._named(getattr(s, field), lets, names, types, discarded)
                if s._prod == "Assign" and s.op == "=":
                    value = self._made_from_own(s.target.name, value, lets, names, types)
                stmts.extend(lets)
                named = named or bool(lets)
                if discarded and lets and value is not s.expr and value._prod == "Local":
                    continue  # the read of the `let` just made does nothing
                stmts.append(s.replace(**{field: value}) if lets else s)
            exit, field = b.exit, _EXITS.get(b.exit._prod)
            if field is not None and getattr(exit, field) is not None:
                lets = []
                value = self._named(getattr(exit, field), lets, names, types, False)
                if lets:
                    stmts.extend(lets)
                    exit, named = exit.replace(**{field: value}), True
            out.append(b.replace(stmts=tuple(stmts), exit=exit) if named else b)
        return tuple(out)

    def _named(self, root, lets: list, names, types: dict, discarded: bool):
        """`root` with each tensor made for a call or transfer before anything seen is
        done replaced by a local, whose `let` goes to `lets`, in the order of evaluation;
        `root` too when its statement `discarded` its value."""
        clean = True  # nothing seen evaluated yet, but the tensors named
        # The reads through a reference done so far, each where it stands: [operands done, i].
        reads: list = []
        # frames: [node, its operands, operands done, whether a taker cannot keep them]
        stack = [[root, self._operands(root), [], discarded]]
        while True:
            node, operands, done, taken = stack[-1]
            if len(done) < len(operands):
                child = operands[len(done)]
                stack.append([child, self._operands(child), [], self._takes(node)])
                continue
            stack.pop()
            reads = [r for r in reads if r[0] is not done]  # they are part of node now
            ty = self._type(node, types) if taken and clean else None
            if ty is not None and _row(stack, ty):
                ty = None
            if any(a is not b for a, b in zip(done, operands)):
                node = _with_operands(node, done)
            kind = node._prod
            if ty is not None and reads and _calls(node):
                # A call may write through a reference read before it: each such read is
                # held in a local first, or the tensor stays where it is made.
                ty = self._held(reads, lets, names, types) and ty
                reads = []
            if ty is not None:
                name = names.fresh("made")
                lets.append(Let(name, False, ty, node, span=node.span))
                node = Local(name, span=node.span)
            elif kind == "Deref" and stack:
                reads.append([stack[-1][2], len(stack[-1][2])])
            elif kind not in _PURE and not _literal_cast(node):
                clean = False
            if not stack:
                return node
            stack[-1][2].append(node)

    def _made_from_own(self, cell: str, value, lets: list, names, types: dict):
        """`value`, given to `cell`, or a local bound to it first when it is a tensor made
        from the cell's own (`t = f(t)` of an `f` returning only what it made): the buffer
        replaced is then read last by that `let`, where it can be dropped, before the cell
        is given the new one."""
        ty = self._type(value, types)
        if ty is None or not any(n._prod == "Local" and n.name == cell
                                 for n in descendants(value)):
            return value
        name = names.fresh("made")
        lets.append(Let(name, False, ty, value, span=value.span))
        return Local(name, span=value.span)

    def _held(self, reads: list, lets: list, names, types: dict) -> bool:
        """Whether each of `reads` is held in a local, its `let` appended to `lets`, in order;
        none is when the type of one is not known."""
        read_types = [_read_type(done[i], types) for done, i in reads]
        if any(t is None for t in read_types):
            return False
        for (done, i), ty in zip(reads, read_types):
            name = names.fresh("read")
            lets.append(Let(name, False, ty, done[i], span=done[i].span))
            done[i] = Local(name, span=done[i].span)
        return True

    def _operands(self, node) -> tuple:
        """What of `node` is evaluated, left to right, without condition, and looked into."""
        kind = node._prod
        if kind in ("Call", "Launch"):
            return tuple(node.args)
        if kind in ("Transfer", "Deref", "Cast"):
            return (node.value,)
        if kind == "Index":  # the base first, then the index, not looked into
            return (node.base,)
        if kind == "Extent":
            return (node.tensor,)
        if kind == "Binary":
            return (node.left,) if node.op in ("&&", "||") else (node.left, node.right)
        return ()

    def _takes(self, node) -> bool:
        """Whether `node` cannot keep the tensors it is given: a copy, an element or an
        extent read, or a call whose result cannot be an argument's buffer."""
        return node._prod in ("Transfer", "Index", "Extent") or (
            node._prod == "Launch" or node._prod == "Call" and node.callee._prod == "Global"
        ) and keeps_nothing(node, self.keeping)

    def _type(self, e, types: dict):
        """The type of the tensor `e` makes (`types`: of each local), or None for one that
        makes none."""
        if not makes_fresh(e, self.fresh):
            return None
        if e._prod == "Call":
            return self.fns[e.callee.name].ret if e.callee._prod == "Global" else None
        if e._prod == "Transfer":
            dest = e.dest
            while e._prod == "Transfer":  # the copy of a copy: the innermost one's type
                e = e.value
            ty = types.get(e.name) if e._prod == "Local" else self._type(e, types)
            while ty is not None and ty._prod in TYPE_WRAPPERS:
                ty = ty.inner
            return ty.replace(place=dest) if ty is not None and ty._prod == "TensorType" \
                else None
        return e.type if e.type._prod == "TensorType" else None


def _literal_cast(e) -> bool:
    """Whether e is a literal cast to a type (`0 as i32`, the zero of a part a value of an
    enum holding another variant gives): it computes nothing seen."""
    return e._prod == "Cast" and e.type._prod == "Scalar" and \
        e.value._prod in ("Int", "Float", "Bool")


def _calls(e) -> bool:
    return any(n._prod in ("Call", "Launch") for n in descendants(e))


def _read_type(e, types: dict):
    """The type of what `e`, a read of a local or through a reference, reads, or None."""
    if e._prod == "Local":
        return types.get(e.name)
    ty = _read_type(e.value, types) if e._prod == "Deref" else None
    return ty.inner if ty is not None and ty._prod in ("BorrowType", "RefType") else None


def _row(stack: list, ty) -> bool:
    """Whether the tensor of type `ty` just walked is indexed to a row, a view of its
    buffer (by fewer indices than it has dimensions)."""
    k = len(stack)
    while k and stack[k - 1][0]._prod == "Index":
        k -= 1
    return 0 < len(stack) - k < len(ty.dims)


_ROOTS = {"ExprStmt": "expr", "Let": "value", "Assign": "value"}
_EXITS = {"Return": "value", "Branch": "cond"}  # computed after the block's statements


def _with_operands(node, operands: list):
    kind = node._prod
    if kind in ("Call", "Launch"):
        return node.replace(args=tuple(operands))
    if kind == "Binary":
        return node.replace(left=operands[0], right=operands[1] if len(operands) > 1
                            else node.right)
    if kind == "Index":
        return node.replace(base=operands[0])
    if kind == "Extent":
        return node.replace(tensor=operands[0])
    return node.replace(value=operands[0])
