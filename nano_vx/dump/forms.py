"""Forms: how each production is written in the text dump, declared once and used both ways.

A form is a production's template: literal text, slots for its fields, and a few layouts
(indented lines, a block in braces, optional parts). `Form.emit` writes a node with it, and
`Form.read` reads the same text back (reader.py drives it), so the printer and the reader
cannot disagree. Forms are registered per production *and* field names, as the printers were:

    line("Let", "name mutable type value",
         "let ", Flag("mutable", "mut "), "{name}", Opt(": {type}"), " = {value};")
    expr("Binary", "op left right", "{left:=} {op} {right:+}", prec=binary_prec)

A string piece is literal text with `{field}` slots (`{{` and `}}` are braces); a slot may
name the precedence its operand needs (`{cond:HEADER}`, `=` the form's own, `+` one tighter),
a separator for a sequence (`{alts/ | }`, `, ` by default) or another way of writing a
terminal (`{name!path}`, lexemes.STYLES). A form whose first piece is an operand of its own
nonterminal (`{left}`) is read as an infix or postfix operator. A form that a node does not
fit (an optional part left out while a field inside it holds something, or `when=` false) is
not used for it: the node is written in the generic form, which reads back too.
"""

from __future__ import annotations

import functools
import re
from types import SimpleNamespace
from typing import Callable

from .lexemes import lexeme
from .writer import (ATOM, BLOCKLIKE, CAST, CLOSURE, FORMS, HEADER, POSTFIX, UNARY, generic,
                     terminal_text)

PRECS = {"CLOSURE": CLOSURE, "BLOCKLIKE": BLOCKLIKE, "HEADER": HEADER, "CAST": CAST,
         "UNARY": UNARY, "POSTFIX": POSTFIX, "ATOM": ATOM}
_SLOT = re.compile(r"\{\{|\}\}|\{(\w+)(?:!(\w+))?(?::([\w=+]+))?(?:/([^}]*))?\}")


def present(value) -> bool:
    """Whether an optional part holding this value is written: a node or terminal that is
    there, a sequence that is not empty, a flag that is set."""
    if value is None or value is False:
        return False
    return not (type(value) is tuple and not value)


def _absent(field):
    """What a field holds when the part writing it is left out."""
    if field.mult == "*":
        return ()
    return False if field.kind in ("bool", "false") else None


@functools.cache  # asked by every read that finds nothing, of a few dozen kinds
def article(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "AEIOU" else f"a {kind}"


class Piece:
    fields: tuple[str, ...] = ()  # the fields this piece writes

    def emit(self, w, node, form) -> None:
        raise NotImplementedError

    def read(self, r, form, states):
        """The states after this piece, from each of `states` ((pos, vals) pairs): every way
        the text fits, the preferred first."""
        raise NotImplementedError

    def fits(self, node) -> bool:
        return True

    def starts(self) -> frozenset | None:
        """The characters this piece's text can start with, when a form starts with it;
        None: any."""
        return None


class Lit(Piece):
    """Literal text. Read word by word, white space between words optional beyond what
    separates two names."""

    def __init__(self, text: str):
        self.text = text
        self.words = text.split()

    def emit(self, w, node, form):
        w.put(self.text)

    def starts(self):
        return frozenset(self.words[0][0]) if self.words else None

    def read(self, r, form, states):
        if len(self.words) == 1 and len(states) == 1:  # most reads: one word, one state
            end = r.lit(self.words[0], states[0][0])
            return [] if end is None else [(end, states[0][1])]
        out = []
        for pos, vals in states:
            for word in self.words:
                pos = r.lit(word, pos)
                if pos is None:
                    break
            else:
                out.append((pos, vals))
        return out


class Slot(Piece):
    """A field: a terminal through its lexeme, a node through its form, a sequence of either
    joined by `sep`. `prec` is the precedence an operand needs: a number, `=` or `+` (the
    form's own, or one tighter), or a function of the operand."""

    def __init__(self, field: str, prec=CLOSURE, sep: str = ", ", style: str | None = None,
                 item: Callable | None = None):
        self.field = field
        self.fields = (field,)
        self.prec = prec
        self.sep = Lit(sep)
        self.style = style
        self.item = item  # writes one element of a sequence in a way of its own

    def need(self, form, node_or_vals, child):
        p = self.prec
        if p == "=":
            return form.prec_of(node_or_vals)
        if p == "+":
            return form.prec_of(node_or_vals) + 1
        return p(child) if callable(p) else p

    def fits(self, node):
        return getattr(node, self.field) is not None

    def emit(self, w, node, form):
        f = node._declared[node._fields.index(self.field)]
        value = getattr(node, self.field)
        if f.kind in node._language.terminals:
            lex = lexeme(f.kind, self.style)
            show = lex.show if lex else (lambda v: terminal_text(v, f.kind))
            w.put(self.sep.text.join(map(show, value)) if f.mult == "*" else show(value))
        elif f.mult == "*":
            for i, child in enumerate(value):
                if i:
                    w.put(self.sep.text)
                if self.item is not None:
                    self.item(w, child)
                else:
                    w.node(child, self.need(form, node, child))
        else:
            w.node(value, self.need(form, node, value))

    def read(self, r, form, states):
        # The hottest piece (a quarter of a million reads a tour of dumps): the field looked
        # up without a call, and one operand read here rather than through `_one`.
        f = r.fields.get((form.prod, self.field)) or r.field(form.prod, self.field)
        if f.mult != "*":
            if len(states) != 1:
                return self._one(r, form, f, states)
            pos, vals = states[0]
            field = self.field
            if f.kind in r.terminals:
                got = r.terminal(f.kind, self.style, pos)
                if got is None:
                    return []
                new = vals.copy()
                new[field] = got[0]
                return [(got[1], new)]
            need = self.prec if type(self.prec) is int else r.partial_need(self, form, vals)
            prec = ("prec", field)
            out = []
            for child, end, eff in r.nodes(f.kind, pos, need):  # one per end: unique
                new = vals.copy()
                new[field] = child
                new[prec] = eff
                out.append((end, new))
            return out
        out = []
        for pos, vals in states:
            # From each state in turn: the longest first, and of two as long, the one of
            # fewer elements (`f<a, b>(c)` is one element, not `f < a` and `b > (c)`).
            rounds = [[(pos, {**vals, self.field: ()})]]
            while rounds[-1]:
                todo = rounds[-1] if len(rounds) == 1 else self.sep.read(r, form, rounds[-1])
                rounds.append(self._one(r, form, f, todo, seq=True))
            got = [(state, k) for k, states in enumerate(rounds) for state in states]
            out += [state for state, _ in sorted(got, key=lambda g: (-g[0][0], g[1]))]
        return r.unique(out)

    def _one(self, r, form, f, states, seq=False):
        out = []
        for pos, vals in states:
            so_far = vals.get(self.field, ()) if seq else None
            if f.kind in r.terminals:
                got = r.terminal(f.kind, self.style, pos)
                if got is not None:
                    value, end = got
                    out.append((end, {**vals, self.field: (*so_far, value) if seq else value}))
                continue
            need = self.prec if type(self.prec) is int else r.partial_need(self, form, vals)
            for child, end, eff in r.nodes(f.kind, pos, need):
                new = {**vals, self.field: (*so_far, child) if seq else child}
                if not seq:
                    new[("prec", self.field)] = eff
                out.append((end, new))
        return r.unique(out)


class Opt(Piece):
    """A part written only when its field holds something (`on`, by default the fields of
    the slots in it); left out, those fields are absent. A bool field in `on` that no piece
    inside writes is set by the part being there (`Opt(", [{dims}]", on="shaped")`)."""

    def __init__(self, *pieces, on: str | tuple[str, ...] | None = None):
        self.pieces = compile_pieces(pieces)
        inner = tuple(f for p in self.pieces for f in p.fields)
        self.on = (on,) if isinstance(on, str) else (on or inner)
        self.flags = tuple(f for f in self.on if f not in inner)
        self.fields = inner + self.flags

    def shown(self, node) -> bool:
        return any(present(getattr(node, f)) for f in self.on)

    def fits(self, node):
        if self.shown(node):
            return all(p.fits(node) for p in self.pieces)
        return not any(present(getattr(node, f)) for f in self.fields)

    def emit(self, w, node, form):
        if self.shown(node):
            for p in self.pieces:
                p.emit(w, node, form)

    def read(self, r, form, states):
        shown = states
        for p in self.pieces:
            shown = p.read(r, form, shown)
        flags = dict.fromkeys(self.flags, True)
        out = [(pos, {**vals, **flags}) for pos, vals in shown]
        absent = {f: _absent(r.field(form.prod, f)) for f in self.fields}
        for pos, vals in states:
            out.append((pos, {**vals, **absent}))
        return r.unique(out)


class Choice(Piece):
    """A terminal field written as one of fixed texts: `Choice("via", {"edge": " -> "})`."""

    def __init__(self, field: str, texts: dict):
        self.field = field
        self.fields = (field,)
        self.texts = {value: Lit(text) for value, text in texts.items()}

    def fits(self, node):
        return getattr(node, self.field) in self.texts

    def starts(self):
        firsts = [text.starts() for text in self.texts.values()]
        return None if None in firsts else frozenset().union(*firsts)

    def emit(self, w, node, form):
        self.texts[getattr(node, self.field)].emit(w, node, form)

    def read(self, r, form, states):
        admits = r.admits(form.prod, self.field)
        out = []
        for value, text in self.texts.items():
            if admits(value):
                out += [(pos, {**vals, self.field: value})
                        for pos, vals in text.read(r, form, states)]
        return r.unique(out)


def Flag(field: str, yes: str, no: str = "") -> Choice:
    """A bool field written as `yes` when set and `no` when not."""
    return Choice(field, {True: yes, False: no})


class Lines(Piece):
    """A sequence one element a line, indented a level (`nest`), each followed by `after`,
    a blank line between two (`blank`), and the closing line (`close`: when there is an
    element; `close="always"`: also when there is none). `stmt`: each element is written as
    a statement (an expression statement ends in `;`). A field holding one node is one line."""

    def __init__(self, field: str, after: str = "", *, blank=False, nest=True, lead=True,
                 close: bool | str = True, stmt=False):
        self.field = field
        self.fields = (field,)
        self.after = Lit(after)
        self.blank, self.nest, self.lead, self.close, self.stmt = blank, nest, lead, close, stmt

    def emit(self, w, node, form):
        value = getattr(node, self.field)
        items = value if type(value) is tuple else (value,)
        w.depth += self.nest
        for i, item in enumerate(items):
            if i and self.blank:
                w.put("\n")
            if i or self.lead:
                w.newline()
            w.stmt(item) if self.stmt else w.node(item)
            w.put(self.after.text)
        w.depth -= self.nest
        if self.close == "always" or self.close and items:
            w.newline()

    def read(self, r, form, states):
        f = r.field(form.prod, self.field)
        if f.mult != "*":
            out = []
            for pos, vals in states:
                for child, end, _ in r.nodes(f.kind, pos, CLOSURE, stmt=self.stmt):
                    out += [(e, {**vals, self.field: child}) for e, _ in
                            self.after.read(r, form, [(end, vals)])]
            return r.unique(out)
        out = []
        for pos, vals in states:  # the most lines first, from each state in turn
            rounds = [[(pos, {**vals, self.field: ()})]]
            while rounds[-1]:
                grown = [(end, {**v, self.field: (*v[self.field], child)})
                         for at, v in rounds[-1]
                         for child, end, _ in r.nodes(f.kind, at, CLOSURE, stmt=self.stmt)]
                rounds.append(r.unique(self.after.read(r, form, r.unique(grown))))
            out += [state for got in reversed(rounds) for state in got]
        return r.unique(out)


class Implied(Piece):
    """A field the text leaves out when `derive` (a function of the node, or of the fields
    read) gives its value, and writes with `pieces` otherwise: an operator's type when an
    operand's suffix shows it."""

    def __init__(self, field: str, derive: Callable, *pieces):
        self.field = field
        self.fields = (field,)
        self.derive = derive
        self.pieces = compile_pieces(pieces)

    def emit(self, w, node, form):
        if self.derive(node) != getattr(node, self.field):
            for p in self.pieces:
                p.emit(w, node, form)

    def read(self, r, form, states):
        written = states
        for p in self.pieces:
            written = p.read(r, form, written)
        return r.unique([*written, *((pos, {**vals, ("derive", self.field): self.derive})
                                     for pos, vals in states)])


class Inferred(Piece):
    """A type the compiler inferred rather than the program wrote, written `~T`. Which one
    it is lives in the spans (placement/typer.written: an inferred type carries its `let`'s
    own span) and changes what the type means: a literal's `~i32` is only a default that
    the type checks and type-scalars may still widen, a written `i32` is fixed. So the text says
    it, and reading `~T` gives the type its node's span again."""

    MARK = Lit("~")

    def __init__(self, field: str):
        self.field = field
        self.fields = (field,)
        self.slot = Slot(field)
        self.pieces = (self.slot,)

    def fits(self, node):
        return present(getattr(node, self.field))

    def emit(self, w, node, form):
        # A tree built by hand has no spans to tell; it prints as written.
        if node.span is not None and getattr(node, self.field).span == node.span:
            self.MARK.emit(w, node, form)
        self.slot.emit(w, node, form)

    def read(self, r, form, states):
        marked = self.slot.read(r, form, self.MARK.read(r, form, states))
        return r.unique([*((pos, {**vals, ("inferred", self.field): True})
                           for pos, vals in marked), *self.slot.read(r, form, states)])


def slots(pieces):
    """The slots of some pieces, those inside optional parts included."""
    for p in pieces:
        if isinstance(p, Slot):
            yield p
        yield from slots(getattr(p, "pieces", ()))


def _nested(pieces):
    """Some pieces and those inside them."""
    for p in pieces:
        yield p
        yield from _nested(getattr(p, "pieces", ()))


class Form:
    """One production's template. `line`: a statement or an item, written whole with its own
    `;`; otherwise an expression of precedence `prec` (a number, or a function of the node,
    or of the fields read so far)."""

    def __init__(self, prod: str, fields: tuple[str, ...], pieces, prec=ATOM, line=False,
                 when: Callable | None = None):
        self.prod = prod
        self.fields = fields
        self.pieces = compile_pieces(pieces)
        self.prec = prec
        self.line = line
        self.when = when
        written = {f for p in self.pieces for f in p.fields}
        if written != set(fields):
            raise ValueError(f"the form of {prod} writes {sorted(written)}, not its fields "
                             f"{sorted(fields)}")
        self.lead = self.pieces[0] if isinstance(self.pieces[0], Slot) else None
        self.tail = self.pieces[1:]  # what an operator form reads after its operand
        # The operands whose precedence is only known once the whole node is read.
        self.checked = [s for s in slots(self.pieces) if type(s.prec) is not int]
        self.fitting = [p for p in self.pieces if type(p).fits is not Piece.fits]
        # Whether a reading can carry a field to derive or a type inferred: only then does
        # the reader look for them among the values read (building a node is its hot path).
        self.marked = any(isinstance(p, (Implied, Inferred)) for p in _nested(self.pieces))

    def prec_of(self, node) -> int:
        return self.prec(node) if callable(self.prec) else self.prec

    def fits(self, node) -> bool:
        if self.when is not None and not self.when(node):
            return False
        for p in self.fitting:
            if not p.fits(node):
                return False
        return True

    def emit(self, w, node) -> None:
        for p in self.pieces:
            p.emit(w, node, self)

    def read(self, r, states):
        return r.sequence(self, self.pieces, states)


class GenericForm:
    """`Prod(field: value, ...)`: every production, written from its declaration."""

    line = False
    prec = ATOM
    checked = ()
    marked = False

    def __init__(self, prod: str, declared):
        self.prod = prod
        self.pieces = [Lit(f"{prod}("),
                       *(_GenericField(f, ", " if i else "") for i, f in enumerate(declared)),
                       Lit(")")]

    def prec_of(self, node) -> int:
        return ATOM

    def emit(self, w, node):
        generic(w, node)

    def read(self, r, states):
        return r.sequence(self, self.pieces, states)


class _GenericField(Piece):
    def __init__(self, field, sep: str):
        self.field = field
        self.fields = (field.name,)
        self.head = Lit(f"{sep}{field.name}:")

    def read(self, r, form, states):
        f = self.field
        out = []
        for pos, vals in self.head.read(r, form, states):
            if f.kind in r.terminals:
                got = r.bare(f, pos)
                if got is not None:
                    out.append((got[1], {**vals, f.name: got[0]}))
                continue
            if f.mult == "*":
                out += [(end, {**vals, f.name: v}) for end, v in _generic_list(r, f, pos)]
                continue
            if f.mult == "?":
                end = r.lit("_", pos)
                if end is not None:
                    out.append((end, {**vals, f.name: None}))
            out += [(end, {**vals, f.name: child}) for child, end, _ in
                    r.nodes(f.kind, pos, CLOSURE)]
        return r.unique(out)


def _generic_list(r, f, pos):
    """`[a, b]`: the nodes of a sequence field in the generic form."""
    start = r.lit("[", pos)
    if start is None:
        return []
    done, todo = [], [(start, ())]
    while todo:
        grown = []
        for at, items in todo:
            close = r.lit("]", at)
            if close is not None:
                done.append((close, items))
            at = r.lit(",", at) if items else at
            if at is not None:
                grown += [(end, (*items, child)) for child, end, _ in
                          r.nodes(f.kind, at, CLOSURE)]
        todo = r.unique(grown)
    return done


# -- registration -------------------------------------------------------------------------

def compile_pieces(items) -> list[Piece]:
    """Pieces from strings (literal text with `{field}` slots) and Piece objects."""
    out: list[Piece] = []
    for item in items:
        if isinstance(item, Piece):
            out.append(item)
            continue
        at = 0
        for m in _SLOT.finditer(item):
            text = item[at:m.start()] + (m.group()[0] if m.group() in ("{{", "}}") else "")
            if text:
                out.append(Lit(text))
            at = m.end()
            if m.group(1):
                prec = m.group(3) or "CLOSURE"
                prec = PRECS[prec] if prec in PRECS else prec
                out.append(Slot(m.group(1), prec, m.group(4) if m.group(4) is not None
                                else ", ", m.group(2)))
        if item[at:]:
            out.append(Lit(item[at:]))
    return _merge_literals(out)


def _merge_literals(pieces):
    out = []
    for p in pieces:
        if out and type(p) is Lit and type(out[-1]) is Lit:
            out[-1] = Lit(out[-1].text + p.text)
        else:
            out.append(p)
    return out


def line(prod: str, fields: str, *template, when=None) -> Form:
    """A statement's or an item's form."""
    return _register(Form(prod, tuple(fields.split()), template, line=True, when=when))


def expr(prod: str, fields: str, *template, prec=ATOM, when=None) -> Form:
    """An expression's form (or of anything written inline: a type, a pattern, a field)."""
    return _register(Form(prod, tuple(fields.split()), template, prec=prec, when=when))


def _register(form: Form) -> Form:
    FORMS[(form.prod, form.fields)] = form
    return form


def fields_view(vals: dict) -> SimpleNamespace:
    """The fields read so far, as a node's attributes (for a precedence or a `when`)."""
    return SimpleNamespace(**{k: v for k, v in vals.items() if type(k) is str})


