"""The pieces of the Vx forms that are more than literal text and slots: blocks in braces, the
`else if` chain, literals that need `const`, tuples, tensor constructors' rows, contract
clauses in a header, and the facts a placed `transfer[..]` carries. Each writes and reads
(forms.Piece), so what it writes reads back as the same node."""

from __future__ import annotations

import math

from ..languages.lsrc import is_valued_if
from ..values.sizes import extent
from ..source import Span
from .forms import Lit, Piece, Slot, compile_pieces
from .lexemes import read_number
from .writer import CLOSURE, HEADER, Writer, shape

BLOCK = ("Block", ("stmts", "value"))


def _reads_as_value(stmt) -> bool:
    """A statement that, last in a block without a value, would read back as the value: an
    `if` with a value in both branches, a `comptime` block. It is written with a `;`."""
    if stmt._prod == "ComptimeStmt":
        return True
    return stmt._prod == "If" and "orelse" in stmt._fields and is_valued_if(stmt)


def _value_need(value) -> int:
    """A block's value that is an `if` without a value in a branch would read back as a
    statement: it is written in parentheses."""
    if value._prod == "IfExpr" and not is_valued_if(value):
        return HEADER
    return CLOSURE


def emit_block(w, block, head=(), owner=None, form=None) -> None:
    """`{` head, one statement a line, the value on a line of its own, `}`."""
    w.put("{")
    for p in head:
        p.emit(w, owner, form)
    if not block.stmts and block.value is None:
        w.put("}")
        return
    w.depth += 1
    for s in block.stmts:
        w.newline()
        w.stmt(s)
    if block.value is None and _reads_as_value(block.stmts[-1]):
        w.put(";")
    if block.value is not None:
        w.newline()
        w.node(block.value, _value_need(block.value))
    w.depth -= 1
    w.newline()
    w.put("}")


def read_block(r, form, states, head=()):
    """[(end, vals, stmts, value, start)]: each way a block in braces reads from `states`,
    `start` where its `{` is."""
    stmt_kind = r.field("Block", "stmts").kind
    value_kind = r.field("Block", "value").kind
    frontier = []
    for pos, vals in states:
        start = r.skip(pos)
        inner = [(start, vals)]
        for p in (Lit("{"), *head):
            inner = p.read(r, form, inner)
        frontier += [(at, v, (), start) for at, v in inner]
    done = []
    while frontier:
        grown = []
        for pos, vals, stmts, start in frontier:
            for value, end, eff in r.nodes(value_kind, pos, CLOSURE):
                if eff < _value_need(value):
                    continue
                close = r.lit("}", end)
                if close is not None:
                    done.append((close, vals, stmts, value, start))
            close = r.lit("}", pos)
            if close is not None:
                done.append((close, vals, stmts, None, start))
            for stmt, end, _ in r.nodes(stmt_kind, pos, CLOSURE, stmt=True):
                grown.append((end, vals, (*stmts, stmt), start))
                if _reads_as_value(stmt):
                    semi = r.lit(";", end)
                    if semi is not None:
                        grown.append((semi, vals, (*stmts, stmt), start))
        frontier = r.unique(grown)
    return r.unique(done)


class Braced(Piece):
    """The Block production's own form."""

    fields = ("stmts", "value")

    def starts(self):
        return frozenset("{")

    def emit(self, w, node, form):
        emit_block(w, node)

    def read(self, r, form, states):
        return r.unique([(end, {**vals, "stmts": stmts, "value": value})
                         for end, vals, stmts, value, _ in read_block(r, form, states)])


class BracedBody(Piece):
    """A field holding a Block, with `head` written just inside its `{` (the `|i|` of
    `unroll across`)."""

    def __init__(self, field: str, *head):
        self.field = field
        self.head = compile_pieces(head)
        self.fields = (field, *(f for p in self.head for f in p.fields))

    def fits(self, node):
        return shape(getattr(node, self.field)) == BLOCK

    def emit(self, w, node, form):
        emit_block(w, getattr(node, self.field), self.head, node, form)

    def read(self, r, form, states):
        cls = r.language.nodes["Block"]
        out = []
        for end, vals, stmts, value, start in read_block(r, form, states, self.head):
            out.append((end, {**vals, self.field: cls(stmts, value,
                                                      span=Span(r.source, start, end))}))
        return r.unique(out)


class Marked(Piece):
    """A word before a header that stands for a mark statement of its body: `unsafe ` before
    `fn` when the body holds UnsafeFn (written there, and left out of the body by the
    Guarded piece with the same mark, which puts it back after the clauses on reading)."""

    def __init__(self, field: str, clauses, mark: str, word: str, then: str):
        self.field, self.clauses, self.mark = field, clauses, mark
        self.word, self.then = word, then

    def starts(self):
        return frozenset((self.word[0], self.then[0]))

    def emit(self, w, node, form):
        stmts = getattr(node, self.field).stmts
        n = 0
        while n < len(stmts) and stmts[n]._prod in self.clauses:
            n += 1
        if n < len(stmts) and stmts[n]._prod == self.mark:
            w.put(self.word + " ")

    def read(self, r, form, states):
        out = []
        for pos, vals in states:
            at = r.lit(self.word, pos)
            if at is not None:
                out.append((at, {**vals, ("mark", self.field): self.mark}))
            out.append((pos, vals))
        return out


class Guarded(Piece):
    """A body after a header (a function's, a loop's), the contract clauses it starts with
    written in the header: ` requires c ensures d { .. }`; with `mark`, the mark statement
    after them is written before the header (Marked)."""

    def __init__(self, field: str, clauses, mark: str | None = None):
        self.field = field
        self.fields = (field,)
        self.clauses = clauses  # the productions written in a header
        self.mark = mark

    def _leading(self, block):
        n = 0
        while n < len(block.stmts) and block.stmts[n]._prod in self.clauses:
            n += 1
        return n

    def fits(self, node):
        return shape(getattr(node, self.field)) == BLOCK

    def emit(self, w, node, form):
        block = getattr(node, self.field)
        n = self._leading(block)
        for clause in block.stmts[:n]:
            w.put(" ")
            w.node(clause)
        w.put(" ")
        rest = block.stmts[n:]
        if self.mark is not None and rest and rest[0]._prod == self.mark:
            rest = rest[1:]  # written before the header
        w.node(block.replace(stmts=rest) if len(rest) != len(block.stmts) else block)

    def read(self, r, form, states):
        stmt_kind = r.field("Block", "stmts").kind
        frontier = [(pos, vals, ()) for pos, vals in states]
        done = []
        while frontier:
            grown = []
            for pos, vals, clauses in frontier:
                mark = vals.get(("mark", self.field))
                for block, end, _ in r.nodes(r.field(form.prod, self.field).kind, pos,
                                             CLOSURE):
                    if mark is not None:
                        marked = r.language.nodes[mark]()
                        block = block.replace(stmts=(*clauses, marked, *block.stmts))
                    elif clauses:
                        block = block.replace(stmts=(*clauses, *block.stmts))
                    done.append((end, {**vals, self.field: block}))
                for clause, end, _ in r.nodes(stmt_kind, pos, CLOSURE):
                    if clause._prod in self.clauses:
                        grown.append((end, vals, (*clauses, clause)))
            frontier = r.unique(grown)
        return r.unique(done)


class ElseChain(Piece):
    """The `else` branch of an `if`: `else if ..` when it is a block holding just an `if` of
    the same shape (the statement, or the block's value for an `if` expression)."""

    def __init__(self, field: str, as_value: bool):
        self.field = field
        self.fields = (field,)
        self.as_value = as_value

    def _chained(self, node, form):
        other = getattr(node, self.field)
        if shape(other) != BLOCK:
            return None
        if self.as_value:
            inner = other.value if not other.stmts else None
        else:
            inner = other.stmts[0] if other.value is None and len(other.stmts) == 1 else None
        if inner is None or shape(inner) != shape(node) or not form.fits(inner):
            return None
        return inner

    def emit(self, w, node, form):
        inner = self._chained(node, form)
        if inner is not None:
            form.emit(w, inner)
        else:
            w.node(getattr(node, self.field))

    def read(self, r, form, states):
        cls = r.language.nodes[form.prod]
        block = r.language.nodes["Block"]
        out = []
        for pos, vals in states:
            start = r.skip(pos)
            if r.text.startswith("if", start):
                for end, inner_vals in form.read(r, [(start, {})]):
                    inner = r.build(form, cls, inner_vals, start, end)
                    if inner is not None:
                        wrap = block((), inner) if self.as_value else block((inner,), None)
                        out.append((end, {**vals, self.field: wrap.replace(span=inner.span)}))
            for other, end, _ in r.nodes(r.field(form.prod, self.field).kind, pos, CLOSURE):
                out.append((end, {**vals, self.field: other}))
        return r.unique(out)


def literal_prec(n, loose: int, tight: int) -> int:
    return loose if _needs_const(n.value) else tight


def _needs_const(value) -> bool:
    return str(value).startswith("-") or (type(value) is float and not math.isfinite(value))


class Number(Piece):
    """A number literal. One the surface syntax cannot write (negative: `-1` is a minus and
    a literal; infinite, not a number) is written after `const`: `const -1`, `const inf`."""

    def __init__(self, field: str):
        self.field = field
        self.fields = (field,)

    def starts(self):
        return frozenset("0123456789c")

    def emit(self, w, node, form):
        value = getattr(node, self.field)
        text = repr(value) if type(value) is float else str(value)
        w.put(f"const {text}" if _needs_const(value) else text)

    def read(self, r, form, states):
        kind = r.field(form.prod, self.field).kind
        out = []
        for pos, vals in states:
            marked = r.lit("const", pos) if r.text.startswith("const", r.skip(pos)) else None
            at = r.skip(marked if marked is not None else pos)
            got = read_number(r.text, at, kind)
            if got is None or (marked is None) == _needs_const(got[0]):
                r.fail(at, "a number" if marked is None else "a negative or infinite number")
                continue
            out.append((got[1], {**vals, self.field: got[0]}))
        return out


class TupleElems(Piece):
    """`(a, b)`, `(a,)`, `()`: a tuple's elements, a lone one with a trailing comma."""

    def __init__(self, field: str):
        self.field = field
        self.fields = (field,)
        self.slot = Slot(field)

    def starts(self):
        return frozenset("(")

    def emit(self, w, node, form):
        elems = getattr(node, self.field)
        w.put("(")
        w.commas(elems)
        w.put(",)" if len(elems) == 1 else ")")

    def read(self, r, form, states):
        out = []
        for pos, vals in self.slot.read(r, form, Lit("(").read(r, form, states)):
            comma = r.lit(",", pos) if len(vals[self.field]) == 1 else None
            if len(vals[self.field]) == 1 and comma is None:
                continue
            close = r.lit(")", comma if comma is not None else pos)
            if close is not None:
                out.append((close, vals))
        return r.unique(out)


def nested(w, e) -> None:
    """A tensor constructor's list: a list element is a row; an element that is no list but
    starts with `[` (`[0][i]`) goes in parentheses, or it would read as one."""
    if e._prod != "ArrayLit":
        _element(w, e)
        return
    w.put("[")
    for i, item in enumerate(e.elems):
        w.put(", " if i else "")
        nested(w, item)
    w.put("]")


def _element(w, e) -> None:
    probe = Writer()
    probe.node(e)
    if "".join(probe.parts).startswith("["):
        w.put("(")
        w.node(e)
        w.put(")")
    else:
        w.node(e)


def _known(tensor_type) -> list[int] | None:
    extents = [extent(d) for d in getattr(tensor_type, "dims", ())]
    return None if None in extents or not extents else extents


def _extents(tensor_type, count: int) -> list[int]:
    """The rows a tensor literal's elements are written in: its type's extents when they
    hold exactly its elements, else one row."""
    known = _known(tensor_type)
    return known if known is not None and math.prod(known) == count else [count]


class TensorRows(Piece):
    """A tensor literal's elements, in row-major order, written as nested rows shaped by its
    type's extents: `([[1, 2], [3, 4]])`; as one row when the extents do not hold them."""

    def __init__(self, field: str, type_field: str):
        self.field = field
        self.type_field = type_field
        self.fields = (field,)

    def emit(self, w, node, form):
        values = getattr(node, self.field)
        extents = _extents(getattr(node, self.type_field), len(values))

        def rows(k, start):
            w.put("[")
            if k == len(extents) - 1:
                for i, e in enumerate(values[start:start + extents[k]]):
                    w.put(", " if i else "")
                    _element(w, e)
            else:
                step = math.prod(extents[k + 1:])
                for i in range(extents[k]):
                    w.put(", " if i else "")
                    rows(k + 1, start + i * step)
            w.put("]")
        w.put("(")
        rows(0, 0)
        w.put(")")

    def read(self, r, form, states):
        kind = r.field(form.prod, self.field).kind
        out = []
        for pos, vals in Lit("(").read(r, form, states):
            known = _known(vals[self.type_field])
            shaped = self._rows(r, kind, known, 0, [(pos, ())]) if known else []
            flat = [(end, elems) for end, elems in self._rows(r, kind, None, 0, [(pos, ())])
                    if known is None or len(known) == 1 or math.prod(known) != len(elems)]
            for end, elems in r.unique(shaped + flat):
                close = r.lit(")", end)
                if close is not None:
                    out.append((close, {**vals, self.field: elems}))
        return r.unique(out)

    def _rows(self, r, kind, extents, k, states):
        """A row (of rows) from each state: exactly the extent's elements, or any number in
        a lone row when the extents are not known."""
        states = _after(r, "[", states)
        count = extents[k] if extents else None
        closing = list(states) if not count else []
        i = 0
        while states and (count is None or i < count):
            if i:
                states = _after(r, ",", states)
            if extents and k < len(extents) - 1:
                states = self._rows(r, kind, extents, k + 1, states)
            else:
                states = r.unique([(end, (*elems, e)) for at, elems in states
                                   for e, end, _ in r.nodes(kind, at, CLOSURE)])
            i += 1
            if count is None or i == count:
                closing += states
        return r.unique(_after(r, "]", closing))


def _after(r, word: str, states):
    """The states that go on with `word`, past it."""
    out = []
    for at, elems in states:
        end = r.lit(word, at)
        if end is not None:
            out.append((end, elems))
    return out


class Bare(Piece):
    """A field holding a node of one terminal field (a memory space), written as that
    terminal alone; `none` is written for no node."""

    def __init__(self, field: str, none: str | None = None):
        self.field = field
        self.fields = (field,)
        self.none = none

    def fits(self, node):
        value = getattr(node, self.field)
        return (value is None and self.none is not None) or \
            (value is not None and len(value._fields) == 1)

    def emit(self, w, node, form):
        value = getattr(node, self.field)
        w.put(self.none if value is None else value.values()[0])

    def read(self, r, form, states):
        nt = r.language.nonterminals[r.field(form.prod, self.field).kind]
        cls = r.language.nodes[nt.productions[0].name]
        kind = cls._declared[0].kind
        out = []
        for pos, vals in states:
            if self.none is not None:
                out += [(end, {**vals, self.field: None})
                        for end, _ in Lit(self.none).read(r, form, [(pos, vals)])]
            got = r.terminal(kind, None, pos)
            if got is not None:
                start = r.skip(pos)
                out.append((got[1], {**vals, self.field: cls(got[0],
                                                             span=Span(r.source, start, got[1]))}))
        return r.unique(out)
