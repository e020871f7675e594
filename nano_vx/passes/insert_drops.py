"""insert-drops: Lcells -> Ldrops."""

from __future__ import annotations

from ..backend.buffers import (element_borrows, fresh_results, keeping_calls, keeps_nothing,
                               makes_fresh)
from ..backend.machine_types import vx_type
from ..values.literals import TYPE_WRAPPERS
from ..languages.lcells import Lcells
from ..languages.ldrops import Ldrops
from ..nanopass import Pass
from ..nanopass.verify import descendants
from ..scalars.block_scopes import successors

insert_drops = Pass("insert-drops", Lcells, Ldrops, """
Drop each tensor a function owns where it is dead: a loop that makes one per turn frees it.

A function owns the buffer of a local that find-owned-buffers found made for it and kept by
nothing else; a buffer that may be handed on is never dropped, nor is a parameter's.

An owned local dies where the liveness of the function's blocks says it is read no more:
after the statement that reads it last in its block (a local made and never read, at once);
on an edge out of a branch toward a block that does not read it, at the start of that block
when the edge is its only way in, else in a block of its own put on the edge; before a
`return`, after the returned value is computed into a new local when it reads the local. So
an early `return`, a `break` and a `continue` drop what they leave behind. A block that
stops ends the program, which gives everything back.

A tensor made for a call and bound to no local (`f(Tensor<..>::new())`, the inner copy of
`transfer(transfer(t, A), B)`) is given a local of its own, `made#k`, bound just before the
statement, and dropped after it, when what takes it cannot keep it (a transfer, which
copies, an element read, or a call whose result cannot be the argument's buffer) and
nothing the statement does before making it can be seen (a local, a literal or a read
through a reference; other tensors so named), so moving it first changes no order.
""", requires=("owned_buffers",))

Drop = Ldrops["Drop"]
Let, Local = Ldrops["Let"], Ldrops["Local"]


@insert_drops.on("Program")
def _program(run, node):
    fns = {i.name: i for i in node.items if i._prod == "Fn"}
    made = _Made(keeping_calls(node), fresh_results(node), fns)
    return node.replace(items=tuple(_fn(run, i, made) if i._prod == "Fn" else i
                                    for i in node.items))


def _fn(run, node, made):
    names = _FreshNames(node)
    blocks, temporaries = made.name_temporaries(node, names)
    node = node.replace(blocks=blocks)
    owned = run.ctx.owned_buffers.get(node.name, frozenset()) | temporaries
    if not owned:
        return node
    return node.replace(blocks=_Liveness(node, owned, names).place_drops())


# -- tensors made for a call ---------------------------------------------------------------

_PURE = frozenset({"Local", "Global", "Int", "Float", "Bool"})  # nothing to see when evaluated


class _Made:
    """Names the tensors made for a call or a transfer and bound to no local."""

    def __init__(self, keeping: frozenset, fresh: frozenset, fns: dict):
        self.keeping, self.fresh, self.fns = keeping, fresh, fns

    def name_temporaries(self, fn, names) -> tuple:
        """`fn`'s blocks with the tensors made for a call named, and the names."""
        types = {p.name: p.type for p in fn.params}
        types.update((s.name, s.type) for b in fn.blocks for s in b.stmts if s._prod == "Let")
        out, temporaries = [], set()
        for b in fn.blocks:
            stmts = []
            for s in b.stmts:
                field = _ROOTS.get(s._prod)
                if field is None or s._prod == "Assign" and s.target._prod != "Local":
                    stmts.append(s)
                    continue
                lets: list = []
                value = self._named(getattr(s, field), lets, names, types)
                temporaries.update(let.name for let in lets)
                stmts.extend(lets)
                stmts.append(s.replace(**{field: value}) if lets else s)
            out.append(b.replace(stmts=tuple(stmts)) if len(stmts) > len(b.stmts) else b)
        return tuple(out), frozenset(temporaries)

    def _named(self, root, lets: list, names, types: dict):
        """`root` with each tensor made for a call or transfer before anything seen is
        done replaced by a local, whose `let` goes to `lets`, in the order of evaluation."""
        clean = True  # nothing seen evaluated yet, but the tensors named
        # frames: [node, its operands, operands done, whether a taker cannot keep them]
        stack = [[root, self._operands(root), [], False]]
        while True:
            node, operands, done, taken = stack[-1]
            if len(done) < len(operands):
                child = operands[len(done)]
                stack.append([child, self._operands(child), [], self._takes(node)])
                continue
            stack.pop()
            ty = self._type(node, types) if taken and clean else None
            if ty is not None and _row(stack, ty):
                ty = None
            if any(a is not b for a, b in zip(done, operands)):
                node = _with_operands(node, done)
            kind = node._prod
            if ty is not None:
                name = names("made")
                lets.append(Let(name, False, ty, node, span=node.span))
                node = Local(name, span=node.span)
            elif not (kind in _PURE or kind == "Deref"):
                clean = False
            if not stack:
                return node
            stack[-1][2].append(node)

    def _operands(self, node) -> tuple:
        """What of `node` is evaluated, left to right, without condition, and looked into."""
        kind = node._prod
        if kind in ("Call", "Launch"):
            return tuple(node.args)
        if kind in ("Transfer", "Deref", "Cast"):
            return (node.value,)
        if kind == "Index":  # the base first, then the index, not looked into
            return (node.base,)
        if kind == "Binary":
            return (node.left,) if node.op in ("&&", "||") else (node.left, node.right)
        return ()

    def _takes(self, node) -> bool:
        """Whether `node` cannot keep the tensors it is given: a copy, an element read, or
        a call whose result cannot be an argument's buffer."""
        return node._prod in ("Transfer", "Index") or (
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


def _row(stack: list, ty) -> bool:
    """Whether the tensor of type `ty` just walked is indexed to a row, a view of its
    buffer (by fewer indices than it has dimensions)."""
    k = len(stack)
    while k and stack[k - 1][0]._prod == "Index":
        k -= 1
    return 0 < len(stack) - k < len(ty.dims)


_ROOTS = {"ExprStmt": "expr", "Let": "value", "Assign": "value"}


def _with_operands(node, operands: list):
    kind = node._prod
    if kind in ("Call", "Launch"):
        return node.replace(args=tuple(operands))
    if kind == "Binary":
        return node.replace(left=operands[0], right=operands[1] if len(operands) > 1
                            else node.right)
    if kind == "Index":
        return node.replace(base=operands[0])
    return node.replace(value=operands[0])


# -- where each owned local dies ---------------------------------------------------------

def _reads(node, owned: dict) -> set:
    """The owned locals a statement or exit reads, a reference to an element of one
    (`owned` maps it to the tensor) reading the tensor (an assignment to a cell does not
    read it: it gives it a new tensor)."""
    if node._prod == "Assign" and node.target._prod == "Local":
        node = node.value
    return {owned[n.name] for n in descendants(node) if n._prod == "Local" and n.name in owned}


def _defines(stmt) -> set:
    """What a statement gives a new tensor: a `let`'s local, an assigned cell."""
    if stmt._prod == "Let":
        return {stmt.name}
    return {stmt.target.name} if stmt._prod == "Assign" and stmt.target._prod == "Local" \
        else set()


class _Liveness:
    """The owned locals live into each block of one function, and the blocks with drops."""

    def __init__(self, fn, owned: frozenset, names):
        self.fn, self.owned, self.fresh_name = fn, owned, names
        self.labels = {b.label for b in fn.blocks}
        # find-owned-buffers owns a tensor an element of which is borrowed only when the
        # reference is not handed on: its reads are the last uses of the buffer.
        reading = {**element_borrows(fn, owned), **{name: name for name in owned}}
        self.reads = {b.label: [_reads(s, reading) for s in b.stmts] for b in fn.blocks}
        self.exit_reads = {b.label: _reads(b.exit, reading) for b in fn.blocks}
        self.live_in = {b.label: set() for b in fn.blocks}
        changed = True
        while changed:
            changed = False
            for b in reversed(fn.blocks):
                live = self._block_in(b)
                if live != self.live_in[b.label]:
                    self.live_in[b.label], changed = live, True

    def held(self, b) -> set:
        """What is live at the end of block b's statements: read by its exit or after it."""
        live = set(self.exit_reads[b.label])
        for t in successors(b):
            live |= self.live_in.get(t, set())
        return live

    def _block_in(self, b) -> set:
        live = self.held(b)
        for s, reads in zip(reversed(b.stmts), reversed(self.reads[b.label])):
            live = (live - _defines(s)) | reads
        return live

    def place_drops(self) -> tuple:
        ways_in: dict = {}
        for b in self.fn.blocks:
            for t in successors(b):
                ways_in[t] = ways_in.get(t, 0) + 1
        entry = self.fn.blocks[0].label
        heads: dict = {}  # label -> drops at its start
        blocks, split = [], []
        next_label = max(int(label[2:]) for label in self.labels) + 1
        for b in self.fn.blocks:
            stmts = self._within(b)
            exit_node = b.exit
            held = self.held(b)
            if exit_node._prod == "Return" and held:
                stmts, exit_node = self._before_return(b, stmts, held)
            retarget = {}
            for field in ("target", "then", "orelse"):
                if field not in exit_node._fields:
                    continue
                to = getattr(exit_node, field)
                dying = held - self.live_in.get(to, set())
                if not dying or to not in self.labels:
                    continue
                drops = _drops(dying, exit_node.span)
                if ways_in[to] == 1 and to != entry:
                    heads[to] = drops
                    continue
                label, next_label = f"bb{next_label}", next_label + 1
                split.append(Ldrops["BasicBlock"](label, drops, Ldrops["Goto"](
                    to, span=exit_node.span), span=b.span))
                retarget[field] = label
            blocks.append(b.replace(stmts=stmts, exit=exit_node.replace(**retarget)
                                    if retarget else exit_node))
        blocks = [b.replace(stmts=heads[b.label] + b.stmts) if b.label in heads else b
                  for b in blocks]
        return tuple(blocks + split)

    def _within(self, b) -> tuple:
        """Block b's statements, each followed by the drops of what it read (or made) last."""
        live, out = self.held(b), []
        for s, reads in zip(reversed(b.stmts), reversed(self.reads[b.label])):
            out.extend(reversed(_drops((reads | _defines(s) & self.owned) - live, s.span)))
            out.append(s)
            live = (live - _defines(s)) | reads
        return tuple(reversed(out))

    def _before_return(self, b, stmts: tuple, held: set):
        """Drop what a `return` reads (`held`, the locals its value reads), after computing
        the value into a new local."""
        ret, span = b.exit, b.exit.span
        if vx_type(self.fn.ret) == "void":
            computed = Ldrops["ExprStmt"](ret.value, span=span)
            return stmts + (computed,) + _drops(held, span), ret.replace(value=None)
        name = self.fresh_name("result")
        computed = Ldrops["Let"](name, False, self.fn.ret, ret.value, span=span)
        return (stmts + (computed,) + _drops(held, span),
                ret.replace(value=Ldrops["Local"](name, span=span)))


class _FreshNames:
    """New local names, none of the function's."""

    def __init__(self, fn):
        self.fn, self.names = fn, None  # every name of the function, once one is needed

    def __call__(self, base: str) -> str:
        if self.names is None:
            self.names = {n.name for n in descendants(self.fn)
                          if n._prod in ("Local", "Let", "Param")}
        k = 0
        while f"{base}#{k}" in self.names:
            k += 1
        self.names.add(f"{base}#{k}")
        return f"{base}#{k}"


def _drops(names, span) -> tuple:
    return tuple(Drop(name, span=span) for name in sorted(names))
