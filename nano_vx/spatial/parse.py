"""The parser of the spatial text form (docs/spatial.md, "The ILs"), the inverse of
`text.to_spatial_text`: the header names the IL, and the parser builds that IL's nodes.

Recursive descent over a token list. Items and schedule ops end at the end of a line (a list
after `->` may be empty, so only the line end can close it); keywords are not reserved, since
every item fixes what each of its positions holds. Nesting (scalar bodies, repeats) is bounded
by MAX_DEPTH so that no input can run the parser or a later walk out of stack.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..deep import run_deep
from ..nanopass import NodeError
from ..source import Source, Span
from .text import LANGUAGES, OP_WORDS

MAX_DEPTH = 200
# Every integer of a spatial program (extents, rates, loop bounds, counts, constants) is a
# 64-bit integer, as the tensors' indices and numpy's are; a longer one is a syntax error,
# checked on the digits before Python converts them.
INT_MIN, INT_MAX = -(2 ** 63), 2 ** 63 - 1

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r]+)
  | (?P<comment>//[^\n]*)
  | (?P<newline>\n)
  | (?P<float>[0-9]+(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+))
  | (?P<int>[0-9]+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>->|\.\.|[{}()\[\],:=+\-*/])
""", re.VERBOSE)

# The item keyword, the Graph field its node goes to.
ITEM_FIELDS = {
    "tensor": "tensors", "stream": "streams", "load": "stages", "store": "stages",
    "compute": "stages", "scalar": "stages", "place": "places", "buffer": "buffers",
    "group": "groups", "handshake": "handshakes", "semaphore": "semaphores",
    "schedule": "schedules",
}
_OP_PRODS = {word: prod for prod, word in OP_WORDS.items()}
_RATE = re.compile(r"x([0-9]+)\Z")


class SpatialSyntaxError(Exception):
    """Spatial text that does not parse: where, and what was expected and found."""

    def __init__(self, message: str, line: int, column: int, filename: str = "<spatial>"):
        super().__init__(f"{filename}:{line}:{column}: {message}")
        self.message = message
        self.line = line
        self.column = column
        self.filename = filename


@dataclass(frozen=True)
class _Tok:
    kind: str  # name int float punct newline eof
    text: str
    start: int
    end: int


def parse_spatial(text: str, filename: str = "<spatial>"):
    """The Graph node of a spatial program, in the IL its header names."""
    return run_deep(lambda: _Parser(text, filename).program())


def _introducing(field: str):
    return next(lang for lang in LANGUAGES if field in lang["Graph"]._fields)


def _describe(tok: _Tok) -> str:
    if tok.kind == "newline":
        return "end of line"
    if tok.kind == "eof":
        return "end of input"
    return repr(tok.text)


class _Parser:
    def __init__(self, text: str, filename: str):
        self.source = Source(filename, text)
        self.toks = self._tokenize(text)
        self.i = 0
        self.nesting = 0
        self.lang = LANGUAGES[0]

    # Tokens -------------------------------------------------------------------------------

    def _tokenize(self, text: str) -> list[_Tok]:
        toks, pos = [], 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise self._error(pos, f"unexpected character {text[pos]!r}")
            if m.lastgroup not in ("space", "comment"):
                toks.append(_Tok(m.lastgroup, m.group(), pos, m.end()))
            pos = m.end()
        toks.append(_Tok("eof", "", len(text), len(text)))
        return toks

    def _error(self, offset: int, message: str) -> SpatialSyntaxError:
        line, col = self.source.line_col(offset)
        return SpatialSyntaxError(message, line, col, self.source.name)

    def peek(self, ahead: int = 0) -> _Tok:
        return self.toks[min(self.i + ahead, len(self.toks) - 1)]

    def take(self) -> _Tok:
        tok = self.peek()
        self.i += tok.kind != "eof"
        return tok

    def at(self, text: str) -> bool:
        tok = self.peek()
        return tok.kind in ("name", "punct") and tok.text == text

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.take()
            return True
        return False

    def fail(self, expected: str) -> SpatialSyntaxError:
        tok = self.peek()
        return self._error(tok.start, f"expected {expected}, found {_describe(tok)}")

    def expect(self, text: str, where: str) -> _Tok:
        if not self.at(text):
            raise self.fail(f"{text!r} {where}")
        return self.take()

    def at_line_end(self) -> bool:
        return self.peek().kind in ("newline", "eof") or self.at("}")

    def skip_newlines(self) -> None:
        while self.peek().kind == "newline":
            self.take()

    def make(self, prod: str, first: _Tok, *fields):
        """A node of the header's IL, its span from `first` to the last token taken."""
        span = Span(self.source, first.start, self.toks[max(self.i - 1, 0)].end)
        try:
            return self.lang[prod](*fields, span=span)
        except NodeError as err:
            raise self._error(first.start, f"{self.lang.name} refuses this {prod}: {err}") from None

    # Words and numbers ---------------------------------------------------------------------

    def name(self, what: str) -> str:
        if self.peek().kind != "name":
            raise self.fail(what)
        return self.take().text

    def word(self, terminal: str, what: str) -> str:
        """A name that the IL's terminal `terminal` accepts (a dtype, an op...)."""
        term = self.lang.terminals[terminal]
        tok = self.peek()
        if tok.kind != "name" or not term.predicate(tok.text):
            raise self.fail(f"{what} ({term.doc})")
        return self.take().text

    def integer(self, what: str) -> int:
        minus = self.at("-") and self.peek(1).kind == "int"
        if minus:
            self.take()
        if self.peek().kind != "int":
            raise self.fail(what)
        return self.int64(self.take(), minus)

    def int64(self, tok: _Tok, minus: bool, digits: str | None = None) -> int:
        """The integer `digits` (the token's text by default) spell, negated with `minus`;
        an error at `tok` outside the 64-bit range."""
        digits = tok.text if digits is None else digits
        significant = digits.lstrip("0")
        if len(significant) <= len(str(INT_MAX)):
            value = int(significant or "0") * (-1 if minus else 1)
            if INT_MIN <= value <= INT_MAX:
                return value
        shown = digits if len(digits) <= 24 else f"{digits[:20]}... ({len(digits):,} digits)"
        raise self._error(tok.start, f"the integer {'-' * minus}{shown} is out of range: the "
                                     f"integers of a spatial program are 64-bit, from "
                                     f"{INT_MIN} to {INT_MAX}")

    def at_number(self) -> bool:
        """A constant comes next, maybe with a minus sign."""
        return self.peek(1 if self.at("-") else 0).kind in ("int", "float")

    def number(self) -> int | float:
        """The constant `at_number` saw."""
        minus = self.accept("-")
        tok = self.take()
        if tok.kind == "int":
            return self.int64(tok, minus)
        value = float(tok.text)
        if not math.isfinite(value):
            raise self._error(tok.start, f"the constant {tok.text} is too large for a float")
        return -value if minus else value

    def ints(self, close: str, what: str) -> tuple[int, ...]:
        values = []
        while not self.at(close):
            if values:
                self.expect(",", f"or {close!r} in {what}")
            values.append(self.integer(f"an integer in {what}"))
        self.take()
        return tuple(values)

    def site(self, what: str) -> tuple[int, ...]:
        self.expect("(", f"to open {what}")
        return self.ints(")", what)

    # The program --------------------------------------------------------------------------

    def program(self):
        self.skip_newlines()
        first = self.expect("spatial", "at the start of a spatial program")
        gname = self.name("the program's name after 'spatial'")
        if self.accept(":"):
            self.lang = self.language()
        self.expect("{", "after the program's header")
        fields: dict[str, list] = {f: [] for f in self.lang["Graph"]._fields[1:]}
        while True:
            self.skip_newlines()
            if self.accept("}"):
                break
            if self.peek().kind == "eof":
                raise self.fail(f"'}}' to close program {gname}")
            keyword = self.peek().text
            fields[self.item_field()].append(self.item())
            if not self.at_line_end():
                raise self.fail(f"end of line after the {keyword} item")
        graph = self.make("Graph", first, gname, *map(tuple, fields.values()))
        self.skip_newlines()
        if self.peek().kind != "eof":
            raise self.fail("end of input after the program's closing '}'")
        return graph

    def language(self):
        tok = self.peek()
        known = {lang.name: lang for lang in LANGUAGES}
        if tok.kind != "name" or tok.text not in known:
            raise self.fail(f"a spatial language ({', '.join(known)})")
        self.take()
        return known[tok.text]

    def item_field(self) -> str:
        """The Graph field the next item goes to; the item must be one of the header's IL."""
        graph_fields = self.lang["Graph"]._fields
        tok = self.peek()
        field = ITEM_FIELDS.get(tok.text) if tok.kind == "name" else None
        if field is None:
            items = [k for k, f in ITEM_FIELDS.items() if f in graph_fields]
            raise self.fail(f"an item of {self.lang.name} ({', '.join(items)})")
        if field not in graph_fields:
            raise self._error(tok.start, f"{tok.text!r} is not an item of {self.lang.name}: "
                                         f"{field} come with {_introducing(field).name}")
        return field

    def item(self):
        first = self.take()
        return _ITEM_PARSERS[first.text](self, first)

    # Items --------------------------------------------------------------------------------

    def item_tensor(self, first: _Tok):
        tname = self.name("the tensor's name")
        self.expect(":", f"after tensor {tname}")
        dtype = self.word("dtype", f"the dtype of tensor {tname}")
        self.expect("[", f"to open the shape of tensor {tname}")
        shape = self.ints("]", f"the shape of tensor {tname}")
        role = self.word("role", f"the role of tensor {tname}")
        return self.make("Tensor", first, tname, dtype, shape, role)

    def item_stream(self, first: _Tok):
        sname = self.name("the stream's name")
        self.expect(":", f"after stream {sname}")
        return self.make("Stream", first, sname, self.word("dtype", f"the dtype of stream {sname}"))

    def item_load(self, first: _Tok):
        lname = self.name("the load's name")
        access = self.access("load", lname)
        self.expect("->", "after the load's access")
        return self.make("Load", first, lname, *access, self.ports_to_line_end())

    def item_store(self, first: _Tok):
        sname = self.name("the store's name")
        port = self.port(f"the input stream of store {sname}")
        self.expect("->", "after the store's input")
        access = self.access("store", sname)
        return self.make("Store", first, sname, *access, port)

    def access(self, kind: str, owner: str) -> tuple:
        """The tensor of a load or store: (tensor,) in Sdataflow, else (tensor, tile, loops,
        index)."""
        tensor = self.name(f"the tensor of {kind} {owner}")
        tiled = self.lang is not LANGUAGES[0]
        if not tiled:
            if self.at("["):
                raise self._error(self.peek().start,
                                  f"{kind} {owner} has a tile, but an Sdataflow {kind} moves "
                                  f"its whole tensor (tiles come with {LANGUAGES[1].name})")
            return (tensor,)
        self.expect("[", f"after the tensor name: every {kind} of {self.lang.name} has a tile "
                         f"index")
        index = []
        while not self.accept("]"):
            if index:
                self.expect(",", f"or ']' in the tile index of {kind} {owner}")
            index.append(self.index_entry(f"{kind} {owner}"))
        self.expect("tile", f"after the tile index of {kind} {owner}")
        self.expect("[", f"to open the tile shape of {kind} {owner}")
        tile = self.ints("]", f"the tile shape of {kind} {owner}")
        loops = []
        if self.accept("for"):
            loops.append(self.loop())
            while self.accept(","):
                loops.append(self.loop())
        return tensor, tile, tuple(loops), tuple(index)

    def index_entry(self, owner: str) -> str:
        tok = self.peek()
        if tok.kind == "name" or (tok.kind == "int" and tok.text == "0"):
            return self.take().text
        raise self.fail(f"a loop variable or 0 in the tile index of {owner}")

    def loop(self):
        first = self.peek()
        var = self.name("a loop variable")
        self.expect("in", f"after loop variable {var}")
        start = self.integer(f"the start of loop {var}")
        self.expect("..", f"after the start of loop {var}")
        stop = self.integer(f"the stop of loop {var}")
        step = self.integer(f"the step of loop {var}") if self.accept("step") else 1
        return self.make("Loop", first, var, start, stop, step)

    def item_compute(self, first: _Tok):
        cname = self.name("the compute stage's name")
        op = self.word("op", f"the op of compute {cname}")
        axis = self.integer(f"the axis of compute {cname}") if self.accept("axis") else None
        factor = self.number() if self.at_number() else None
        self.expect("(", f"to open the inputs of compute {cname}")
        ins = []
        while not self.accept(")"):
            if ins:
                self.expect(",", f"or ')' in the inputs of compute {cname}")
            ins.append(self.port(f"an input stream of compute {cname}"))
        over = self.over(cname)
        via = self.via(f"compute {cname}")
        self.expect("->", f"after the inputs of compute {cname}")
        fields = (cname, op, axis, factor, tuple(ins), self.ports_to_line_end(), via)
        return self.make("Compute", first, *fields, *over)

    def over(self, cname: str) -> tuple:
        """`over n`, the firings an accumulating compute sums over: the field, in an IL that
        has it (Stiled on)."""
        at = self.peek()
        n = self.integer(f"the firings compute {cname} accumulates over") \
            if self.accept("over") else None
        if "over" in self.lang["Compute"]._fields:
            return (n,)
        if n is not None:
            raise self._error(at.start, f"{self.lang.name} has no accumulating compute "
                                        f"('over' is from Stiled on)")
        return ()

    def item_scalar(self, first: _Tok):
        sname = self.name("the scalar stage's name")
        self.expect("(", f"to open the parameters of scalar {sname}")
        params, ins = [], []
        while not self.accept(")"):
            if params:
                self.expect(",", f"or ')' in the parameters of scalar {sname}")
            params.append(self.name(f"a parameter of scalar {sname}"))
            self.expect(":", f"after parameter {params[-1]}")
            ins.append(self.port(f"the input stream of parameter {params[-1]}"))
        self.expect("=", f"before the body of scalar {sname}")
        body = self.expr()[0]
        via = self.via(f"scalar {sname}")
        self.expect("->", f"after the body of scalar {sname}")
        return self.make("Scalar", first, sname, tuple(params), body, tuple(ins),
                         self.ports_to_line_end(), via)

    def via(self, owner: str):
        """`via T`: the element type a stage converts its operands to, when it has one."""
        return self.word("dtype", f"the element type {owner} converts its operands to") \
            if self.accept("via") else None

    def item_place(self, first: _Tok):
        stage = self.name("the placed stage's name")
        site = self.site(f"the site of stage {stage}")
        return self.make("Place", first, stage, site, self.name(f"the engine of stage {stage}"))

    def item_buffer(self, first: _Tok):
        stream = self.name("the buffer's stream")
        site = self.site(f"the site of buffer {stream}")
        self.expect("depth", f"after the site of buffer {stream}")
        depth = self.integer(f"the depth of buffer {stream}")
        self.expect("bytes", f"after the depth of buffer {stream}")
        return self.make("Buffer", first, stream, site, depth,
                         self.integer(f"the bytes of buffer {stream}"))

    def item_group(self, first: _Tok):
        gname = self.name("the group's name")
        stage = self.name(f"the stage of group {gname}")
        self.expect("->", f"after the stage of group {gname}")
        streams = []
        if not self.at_line_end():
            streams.append(self.name(f"a stream of group {gname}"))
            while self.accept(","):
                streams.append(self.name(f"a stream of group {gname}"))
        return self.make("Group", first, gname, stage, tuple(streams))

    def item_handshake(self, first: _Tok):
        buffer = self.name("the handshake's buffer")
        kind = self.word("handshake", f"the handshake kind of buffer {buffer}")
        credit = self.name(f"the credit semaphore of {buffer}") if self.accept("credit") else None
        data = self.name(f"the data semaphore of {buffer}") if self.accept("data") else None
        return self.make("Handshake", first, buffer, kind, credit, data)

    def item_semaphore(self, first: _Tok):
        sname = self.name("the semaphore's name")
        site = self.site(f"the site of semaphore {sname}")
        self.expect("initial", f"after the site of semaphore {sname}")
        return self.make("Semaphore", first, sname, site,
                         self.integer(f"the initial count of semaphore {sname}"))

    def item_schedule(self, first: _Tok):
        site = self.site("the site of the schedule")
        engine = self.name("the engine of the schedule")
        return self.make("Schedule", first, site, engine, self.block(f"schedule {engine}"))

    # Ports --------------------------------------------------------------------------------

    def port(self, what: str):
        first = self.peek()
        stream = self.name(what)
        rate = 1
        tok = self.peek()
        if tok.kind == "name" and _RATE.match(tok.text):
            rate = self.int64(self.take(), False, tok.text[1:])
        elif tok.kind == "name" and tok.text == "x":
            self.take()
            rate = self.integer(f"the rate of stream {stream} after 'x'")
        return self.make("Port", first, stream, rate)

    def ports_to_line_end(self) -> tuple:
        """The list after '->', up to the end of the line; it may be empty."""
        ports = []
        if not self.at_line_end():
            ports.append(self.port("an output stream"))
            while self.accept(","):
                ports.append(self.port("an output stream"))
        return tuple(ports)

    # Schedules ----------------------------------------------------------------------------

    def block(self, owner: str) -> tuple:
        open_ = self.expect("{", f"to open the ops of {owner}")
        self.nesting += 1
        if self.nesting > MAX_DEPTH:
            raise self._error(open_.start, f"repeats nested deeper than {MAX_DEPTH} levels")
        ops = []
        while True:
            self.skip_newlines()
            if self.accept("}"):
                break
            word = self.peek().text
            ops.append(self.op())
            if not self.at_line_end():
                raise self.fail(f"end of line after the {word} op")
        self.nesting -= 1
        return tuple(ops)

    def op(self):
        tok = self.peek()
        if tok.kind == "name" and tok.text == "repeat":
            self.take()
            count = self.integer("the count of the repeat")
            return self.make("Repeat", tok, count, self.block(f"repeat {count}"))
        prod = _OP_PRODS.get(tok.text) if tok.kind == "name" else None
        if prod is None:
            raise self.fail(f"a schedule op (repeat, {', '.join(_OP_PRODS)}) or '}}'")
        self.take()
        operands = []
        for f in self.lang[prod]._declared:
            what = f"the {f.name} of {tok.text}"
            operands.append(self.integer(what) if f.kind == "int" else self.name(what))
        return self.make(prod, tok, *operands)

    # Scalar bodies ------------------------------------------------------------------------
    # Each returns the node and the depth of its tree, bounded like the parser's own nesting.

    def expr(self) -> tuple:
        return self.infix(("+", "-"), self.term)

    def term(self) -> tuple:
        return self.infix(("*", "/"), self.unary)

    def infix(self, ops: tuple[str, ...], operand) -> tuple:
        first = self.peek()
        left, depth = operand()
        while self.peek().kind == "punct" and self.peek().text in ops:
            op = self.take()
            right, rdepth = operand()
            depth = self.deeper(op, max(depth, rdepth))
            left = self.make("Bin", first, op.text, left, right)
        return left, depth

    def deeper(self, tok: _Tok, depth: int) -> int:
        if depth >= MAX_DEPTH:
            raise self._error(tok.start, f"expression nested deeper than {MAX_DEPTH} levels")
        return depth + 1

    def unary(self) -> tuple:
        tok = self.peek()
        self.nesting = self.deeper(tok, self.nesting)
        if self.at_number():  # `-2` is the constant; `-(2)` and `-x` are negations
            result = self.make("Num", tok, self.number()), 1
        elif self.accept("-"):
            a, depth = self.unary()
            result = self.make("Un", tok, "-", a), self.deeper(tok, depth)
        else:
            result = self.primary()
        self.nesting -= 1
        return result

    def primary(self) -> tuple:
        tok = self.peek()
        if self.accept("("):
            inner = self.expr()
            self.expect(")", "to close the parenthesis")
            return inner
        if tok.kind != "name":
            raise self.fail("a scalar expression (a parameter, a constant, '(' or '-')")
        self.take()
        if not self.at("("):
            return self.make("Arg", tok, tok.text), 1
        if tok.text in ("max", "min"):
            return self.call(tok, "Bin", 2)
        if tok.text in ("exp", "recip"):
            return self.call(tok, "Un", 1)
        raise self._error(tok.start, f"unknown function {tok.text!r}: the scalar functions "
                                     f"are max, min (two arguments), exp, recip (one)")

    def call(self, fn: _Tok, prod: str, arity: int) -> tuple:
        self.take()
        args, depth = [], 0
        for i in range(arity):
            if i:
                self.expect(",", f"between the arguments of {fn.text}")
            arg, adepth = self.expr()
            args.append(arg)
            depth = max(depth, adepth)
        self.expect(")", f"after the {arity} argument{'s' if arity > 1 else ''} of {fn.text}")
        return self.make(prod, fn, fn.text, *args), self.deeper(fn, depth)


# Made when the module loads, so an item word of ITEM_FIELDS without its `item_` method fails
# at import rather than when a program first uses the word.
_ITEM_PARSERS = {word: getattr(_Parser, "item_" + word) for word in ITEM_FIELDS}
