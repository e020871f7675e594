"""The spatial text form: one program per IL using every production of that IL, the round trip
text -> node -> text and node -> text -> node (hand-written and random graphs), the parser's
errors (position and words) and the printer's refusals."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nano_vx.dump.text import to_text
from nano_vx.languages.sdataflow import DTYPES, OPS, ROLES, SCALAR_BINOPS, SCALAR_UNOPS
from nano_vx.languages.shandshaked import HANDSHAKES
from nano_vx.nanopass import NodeError, descendants
from nano_vx.spatial.parse import (INT_MAX, INT_MIN, MAX_DEPTH, SpatialSyntaxError,
                                   parse_spatial)
from nano_vx.spatial.text import LANGUAGES, SpatialTextError, language_of, to_spatial_text

# Slow (the whole suite's, not the inner loop's): the spatial text form's round trips and errors.
pytestmark = pytest.mark.slow

Sdataflow, Stiled, Splaced, Ssized, Sfused, Shandshaked, Schoreographed = LANGUAGES

# Stages every IL has, with every form of a scalar body: constants int, float and negative,
# the negation of a constant, each binary and unary op, parentheses only where needed.
COMMON_STAGES = """\
    compute mm matmul_acc(a x4, b x4) -> c
    compute mx max axis 1 (x) -> m
    compute sm sum axis -1 (e x4) -> s
    compute sc scale -0.5 (s) -> y
    compute both max axis 0 2 (y) -> y2
    compute ad add(a, b) -> c2, d x2
    scalar sx(v: x2, w: m) = exp(v - w) * recip(max(w, 1.5e-07)) / -(2) -> e
    scalar body(a: p x3) = -a + min(a, -3) - (a - 2.0) * (a + 1) -> q x3
    scalar assoc(a: p, b: q) = a - (b - a) / (a * b) + -(a - b) -> r
    scalar neg(a: p) = --a - -2 + --0.5 ->
"""

SDATAFLOW = """\
spatial softmax: Sdataflow {
    tensor X: f32[8, 64] input
    tensor Y: f32[8, 64] output
    tensor T: i64[] input
    stream x: f32
    stream x2: f64
    load ldX X -> x, x2 x2
    load ld0 T ->
""" + COMMON_STAGES + """\
    store stY y -> Y
    store stT t x4 -> T
}
"""

TILED_STAGES = """\
    tensor A: i32[64, 64] input
    tensor C: i32[64, 64] output
    stream a: i32
    load ldA A[i, k] tile [16, 16] for i in 0..4, j in 0..4, k in 0..4 -> a
    load ldX X[i, 0] tile [8, 64] for i in 0..8 step 2, j in -1..-9 step -3 -> x1, x2 x2
    load ld0 T[] tile [] ->
""" + COMMON_STAGES + """\
    store stC c -> C[i, j] tile [16, 16] for i in 0..4, j in 0..4
    store st0 z x2 -> Z[0] tile [1]
"""

PLACES = """\
    place ldA (0, 0) reader
    place mm (1, 2) compute
"""
BUFFERS = """\
    buffer a (0, 1) depth 2 bytes 2048
    buffer c (1, 2) depth 1 bytes 1024
"""
GROUPS = """\
    group g ldA -> a0, a1
    group h ld0 ->
"""
HANDSHAKES_AND_SEMAPHORES = """\
    handshake a semaphore_pair credit a_credit data a_data
    handshake b fifo
    handshake c valid_ready data c_data
    semaphore a_credit (0, 0) initial 2
    semaphore c_data (1, 2) initial 0
"""
SCHEDULES = """\
    schedule (0, 0) reader {
        repeat 16 {
            reserve a 1
            read ldA a
            push a 1
            repeat 2 {
                send a 1
                multicast g 1
            }
        }
        wait_front a 1
        pop a 1
        wait a_credit 1
        signal a_credit 1
        barrier g
        write c stC
        fire mm
    }
    schedule (3, 4) writer {
    }
"""


def tiled(lang, *parts: str) -> str:
    return f"spatial gemm: {lang.name} {{\n" + TILED_STAGES + "".join(parts) + "}\n"


PROGRAMS = {
    Sdataflow: SDATAFLOW,
    Stiled: tiled(Stiled),
    Splaced: tiled(Splaced, PLACES),
    Ssized: tiled(Ssized, PLACES, BUFFERS),
    Sfused: tiled(Sfused, PLACES, BUFFERS, GROUPS),
    Shandshaked: tiled(Shandshaked, PLACES, BUFFERS, GROUPS, HANDSHAKES_AND_SEMAPHORES),
    Schoreographed: tiled(Schoreographed, PLACES, BUFFERS, GROUPS, HANDSHAKES_AND_SEMAPHORES,
                          SCHEDULES),
}
IDS = [lang.name for lang in PROGRAMS]


# Hand-written programs ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", PROGRAMS, ids=IDS)
def test_program_uses_every_production_and_prints_back(lang):
    g = parse_spatial(PROGRAMS[lang])
    assert type(g) is lang["Graph"] and language_of(g) is lang
    assert {n._prod for n in descendants(g)} == set(lang.productions)
    for n in descendants(g):
        assert type(n) is lang[n._prod]
    assert to_spatial_text(g) == PROGRAMS[lang]


def _stage(g, name):
    return next(s for s in g.stages if s.name == name)


def test_fields_read_from_the_text():
    g = parse_spatial(PROGRAMS[Schoreographed])
    S = Schoreographed
    ld = _stage(g, "ldX")
    assert ld.tensor == "X" and ld.tile == (8, 64) and ld.index == ("i", "0")
    assert ld.loops == (S["Loop"]("i", 0, 8, 2), S["Loop"]("j", -1, -9, -3))
    assert ld.outs == (S["Port"]("x1", 1), S["Port"]("x2", 2))
    assert _stage(g, "ld0").outs == () and _stage(g, "ld0").index == ()
    both = _stage(g, "both")
    assert (both.op, both.axis, both.factor) == ("max", 0, 2)
    assert _stage(g, "sc").factor == -0.5 and _stage(g, "mm").axis is None
    Num, Un = S["Num"], S["Un"]
    body = _stage(g, "sx").body
    assert body.b == Un("-", Num(2))  # `-(2)` is the negation, `-3` the constant
    assert _stage(g, "body").body.a.b.b == Num(-3)
    assert type(_stage(g, "body").body.b.a.b.value) is float
    assert g.handshakes[1].credit is None and g.handshakes[2].data == "c_data"
    sched = g.schedules[0]
    assert sched.site == (0, 0) and sched.ops[0].count == 16
    assert sched.ops[0].body[3].body[1] == S["Multicast"]("g", 1)
    assert g.schedules[1].ops == ()
    assert ld.span.line == 6 and ld.span.col == 5


def test_comments_blank_lines_item_order_and_default_language():
    text = """
        // a program with its items out of Graph order
        spatial p {   // no language: Sdataflow
            store st y -> Y

            stream y: f32  // trailing comment
            tensor Y: f32[4] output
        }
    """
    g = parse_spatial(text)
    assert language_of(g) is Sdataflow
    assert to_spatial_text(g) == ("spatial p: Sdataflow {\n    tensor Y: f32[4] output\n"
                                  "    stream y: f32\n    store st y -> Y\n}\n")


def test_one_line_blocks_and_loose_spacing():
    text = ("spatial p: Schoreographed {\n schedule ( 0 , 1 ) e { repeat 2 { fire f }\n pop b 1 }"
            "\n scalar s(a:p x 2)=- 2*a->q\n}")
    g = parse_spatial(text)
    S = Schoreographed
    assert g.schedules[0].ops == (S["Repeat"](2, (S["Fire"]("f"),)), S["Pop"]("b", 1))
    scalar = g.stages[0]
    assert scalar.ins == (S["Port"]("p", 2),)
    assert scalar.body == S["Bin"]("*", S["Num"](-2), S["Arg"]("a"))


def test_keywords_are_not_reserved():
    text = ("spatial load: Stiled {\n"
            "    tensor tile: i32[4] input\n"
            "    stream x4: i32\n"
            "    load tile tile[step] tile [4] for step in 0..4 step 1 -> x4 x4, x\n"
            "    scalar max(max: x4 x4, exp: x) = max(max, exp) - max -> x4\n"
            "}\n")
    g = parse_spatial(text)
    assert g.stages[0].outs == (Stiled["Port"]("x4", 4), Stiled["Port"]("x", 1))
    assert g.stages[0].loops[0].step == 1
    assert g.stages[1].params == ("max", "exp")
    assert parse_spatial(to_spatial_text(g)) == g


def test_dump_to_text_prints_spatial_graphs_in_the_spatial_form():
    for lang, text in PROGRAMS.items():
        g = parse_spatial(text)
        assert to_text(g) == to_spatial_text(g) == text


def _deep_repeats(n: int) -> str:
    return ("spatial p: Schoreographed {\n schedule (0, 0) e {\n"
            + "repeat 1 {\n" * n + "}\n" * n + "}\n}")


def test_nesting_below_the_limit_parses():
    parens = "(" * (MAX_DEPTH - 10) + "a" + ")" * (MAX_DEPTH - 10)
    g = parse_spatial(f"spatial p {{\n scalar s(a: p) = {parens} -> q\n}}")
    assert g.stages[0].body == Sdataflow["Arg"]("a")
    chain = " + ".join(["a"] * (MAX_DEPTH - 10))
    for text in [f"spatial p {{\n scalar s(a: p) = {chain} -> q\n}}",
                 _deep_repeats(MAX_DEPTH - 10)]:
        g = parse_spatial(text)
        assert parse_spatial(to_spatial_text(g)) == g


# Errors ------------------------------------------------------------------------------------

ERRORS = [
    ("spatial p: Sfoo {\n}", 1, 12,
     ["expected a spatial language (Sdataflow, Stiled, Splaced, Ssized, Sfused, Shandshaked, "
      "Schoreographed), found 'Sfoo'"]),
    ("spatial p: Sdataflow {\n    place ld (0, 0) reader\n}", 2, 5,
     ["'place' is not an item of Sdataflow", "places come with Splaced"]),
    ("spatial p: Sfused {\n    schedule (0, 0) e {\n    }\n}", 2, 5,
     ["'schedule' is not an item of Sfused", "schedules come with Schoreographed"]),
    ("spatial p: Ssized {\n    semaphore s (0, 0) initial 1\n}", 2, 5,
     ["semaphores come with Shandshaked"]),
    ("spatial p: Stiled {\n    load ldA A -> a\n}", 2, 16,
     ["expected '[' after the tensor name", "every load of Stiled has a tile index",
      "found '->'"]),
    ("spatial p: Splaced {\n    store st c -> C\n}", 2, 20,
     ["every store of Splaced has a tile index", "found end of line"]),
    ("spatial p: Sdataflow {\n    load ldA A[i] tile [4] for i in 0..4 -> a\n}", 2, 15,
     ["load ldA has a tile", "an Sdataflow load moves its whole tensor",
      "tiles come with Stiled"]),
    ("spatial p {\n    store st c -> C[0] tile [4]\n}", 2, 20, ["store st has a tile"]),
    ("spatial p: Stiled {\n    load ldA A[i] tile [4] for i in 0..4 x\n}", 2, 42,
     ["expected '->' after the load's access, found 'x'"]),
    ("spatial p: Ssized {\n    buffer a (0, 1) depth 2\n}", 2, 28,
     ["expected 'bytes' after the depth of buffer a, found end of line"]),
    ("spatial p {\n    tensor A: i32[4]\n}", 2, 21,
     ["expected the role of tensor A (input (given)", "found end of line"]),
    ("spatial p {\n  stream s: i33\n}", 2, 13,
     ["expected the dtype of stream s (i32 i64 f32 f64 bf16 f16 bfp8 bfp4), found 'i33'"]),
    ("spatial p {\n  compute c frob(a) -> b\n}", 2, 13,
     ["expected the op of compute c (matmul_acc add sub mul div scale exp sum max transpose), "
      "found 'frob'"]),
    ("spatial p {\n  compute c max axis (a) -> b\n}", 2, 22,
     ["expected the axis of compute c, found '('"]),
    ("spatial p: Shandshaked {\n  handshake a rendezvous\n}", 2, 15,
     ["expected the handshake kind of buffer a (fifo semaphore_pair", "found 'rendezvous'"]),
    ("spatial p {\n  scalar s(a: p) = foo(a) -> q\n}", 2, 20,
     ["unknown function 'foo'", "max, min (two arguments), exp, recip (one)"]),
    ("spatial p {\n  scalar s(a: p) = max(a) -> q\n}", 2, 25,
     ["expected ',' between the arguments of max, found ')'"]),
    ("spatial p {\n  scalar s(a: p) = -> q\n}", 2, 20,
     ["expected a scalar expression", "found '->'"]),
    ("spatial p {\n  scalar s(a: p) = (a -> q\n}", 2, 23,
     ["expected ')' to close the parenthesis, found '->'"]),
    ("spatial p {\n  compute c scale 1e999 (a) -> b\n}", 2, 19,
     ["the constant 1e999 is too large for a float"]),
    ("spatial p {\n  stream s: i32 @\n}", 2, 17, ["unexpected character '@'"]),
    ("spatial p {\n  stream s: i32 extra\n}", 2, 17,
     ["expected end of line after the stream item, found 'extra'"]),
    ("spatial p {\n  frob x\n}", 2, 3,
     ["expected an item of Sdataflow (tensor, stream, load, store, compute, scalar), "
      "found 'frob'"]),
    ("spatial p {\n  stream s: i32\n", 3, 1, ["expected '}' to close program p, found end of input"]),
    ("spatial p {\n}\nstream s: i32\n", 3, 1,
     ["expected end of input after the program's closing '}', found 'stream'"]),
    ("tensor A: i32[4] input", 1, 1, ["expected 'spatial' at the start of a spatial program"]),
    ("spatial p: Schoreographed {\n  schedule (0, 0) e {\n    jump 3\n  }\n}", 3, 5,
     ["expected a schedule op (repeat, read, write, reserve", "found 'jump'"]),
    ("spatial p: Schoreographed {\n  schedule (0, 0) e {\n    pop b\n  }\n}", 3, 10,
     ["expected the count of pop, found end of line"]),
    ("spatial p: Schoreographed {\n  schedule (0, 0) e {\n    fire f g\n  }\n}", 3, 12,
     ["expected end of line after the fire op, found 'g'"]),
    ("spatial p: Stiled {\n  load l A[3] tile [4] -> a\n}", 2, 12,
     ["expected a loop variable or 0 in the tile index of load l, found '3'"]),
    ("spatial p: Splaced {\n  place l (0, 0.5) reader\n}", 2, 15,
     ["expected an integer in the site of stage l, found '0.5'"]),
    ("spatial p {\n  load l A -> a x\n}", 2, 18,
     ["expected the rate of stream a after 'x', found end of line"]),
    ("spatial p {\n  scalar s(a: p) = " + "(" * (MAX_DEPTH + 5) + "a -> q\n}", 2, 20 + MAX_DEPTH,
     [f"expression nested deeper than {MAX_DEPTH} levels"]),
    ("spatial p {\n  scalar s(a: p) = " + "-" * (MAX_DEPTH + 5) + "a -> q\n}", 2, 20 + MAX_DEPTH,
     [f"expression nested deeper than {MAX_DEPTH} levels"]),
    ("spatial p {\n  scalar s(a: p) = a" + " * a" * (MAX_DEPTH + 5) + " -> q\n}", 2,
     18 + 4 * MAX_DEPTH, [f"expression nested deeper than {MAX_DEPTH} levels"]),
    (_deep_repeats(MAX_DEPTH + 5), MAX_DEPTH + 2, 10,
     [f"repeats nested deeper than {MAX_DEPTH} levels"]),
    # Integers past 64 bits, even past Python's 4,300-digit conversion limit.
    ("spatial p {\n  tensor A: i32[8, " + "9" * 5000 + "] input\n}", 2, 20,
     ["the integer 99999999999999999999... (5,000 digits) is out of range",
      "from -9223372036854775808 to 9223372036854775807"]),
    ("spatial p {\n  compute c add(a x9223372036854775808, b) -> q\n}", 2, 19,
     ["the integer 9223372036854775808 is out of range"]),
    ("spatial p {\n  load l A -> a x 99999999999999999999\n}", 2, 19,
     ["the integer 99999999999999999999 is out of range"]),
    ("spatial p {\n  scalar s(a: p) = a * -9223372036854775809 -> q\n}", 2, 25,
     ["the integer -9223372036854775809 is out of range"]),
]


@pytest.mark.parametrize("text, line, column, words", ERRORS)
def test_syntax_errors(text, line, column, words):
    with pytest.raises(SpatialSyntaxError) as info:
        parse_spatial(text, filename="k.spatial")
    err = info.value
    assert (err.line, err.column) == (line, column), err.message
    for w in words:
        assert w in err.message
    assert str(err).startswith(f"k.spatial:{line}:{column}: ")


def test_very_deep_input_is_an_error_not_a_crash():
    for text in ["spatial p {\n scalar s(a: p) = " + "(" * 100_000, _deep_repeats(100_000)]:
        with pytest.raises(SpatialSyntaxError, match="nested deeper than"):
            parse_spatial(text)


def test_node_errors_become_syntax_errors(monkeypatch):
    def refuse(*args, span=None):
        raise NodeError("Stream.dtype: expected dtype, got str 'q'")

    monkeypatch.setitem(Sdataflow.nodes, "Stream", refuse)
    with pytest.raises(SpatialSyntaxError) as info:
        parse_spatial("spatial p {\n\n  stream s: i32\n}")
    assert (info.value.line, info.value.column) == (3, 3)
    assert "Sdataflow refuses this Stream: Stream.dtype: expected dtype" in info.value.message


# Printer refusals --------------------------------------------------------------------------

def _graph(lang, stages):
    g = lang["Graph"]
    return g("p", (), (), tuple(stages), *[()] * (len(g._fields) - 4))


def test_printer_refuses_what_the_text_cannot_say():
    S, T = Sdataflow, Stiled
    port = S["Port"]("a", 1)
    cases = [
        (port, "not a spatial Graph: a Port node of Sdataflow"),
        ("spatial p {}", "not a spatial Graph: 'spatial p {}'"),
        (_graph(S, [S["Scalar"]("s", ("a", "b"), S["Arg"]("a"), (port,), (), None)]),
         "scalar s has 2 params but 1 input ports"),
        (_graph(S, [S["Compute"]("c", "scale", None, float("inf"), (port,), (), None)]),
         "compute c: the constant inf has no text form"),
        (_graph(S, [S["Scalar"]("s", (), S["Num"](float("nan")), (), (), None)]),
         "scalar s: the constant nan has no text form"),
        (_graph(Splaced, [S["Load"]("l", "A", ())]),
         "load l has no tile, but every load of Splaced needs one"),
        (_graph(T, [T["Store"]("s", "A", (1,), (), ("0",), port), S["Store"]("u", "B", port)]),
         "store u has no tile, but every store of Stiled needs one"),
    ]
    for node, words in cases:
        with pytest.raises(SpatialTextError) as info:
            to_spatial_text(node)
        assert words in str(info.value)


def test_language_of_decides_dataflow_and_tiled_by_loads_and_stores():
    S, T = Sdataflow, Stiled
    port = S["Port"]("a", 1)
    assert language_of(_graph(S, [])) is Sdataflow
    assert language_of(_graph(S, [S["Load"]("l", "A", (port,))])) is Sdataflow
    assert language_of(_graph(T, [T["Store"]("s", "A", (1,), (), ("0",), port)])) is Stiled
    for lang in LANGUAGES[2:]:
        assert language_of(_graph(lang, [])) is lang


# Random graphs -----------------------------------------------------------------------------

TRICKY_NAMES = ["x", "x4", "x0", "step", "tile", "for", "in", "axis", "max", "min", "exp",
                "recip", "load", "store", "tensor", "repeat", "credit", "data", "depth", "bytes",
                "initial", "spatial", "input", "i32", "fire", "_", "Sdataflow"]
NAMES = st.one_of(st.sampled_from(TRICKY_NAMES),
                  st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}", fullmatch=True))
INTS = st.one_of(st.integers(-3, 20), st.integers(INT_MIN, INT_MAX))
NUMBERS = st.one_of(INTS, st.floats(allow_nan=False, allow_infinity=False))
TERMINALS = {
    "name": NAMES, "int": INTS, "number": NUMBERS,
    "ints": st.lists(INTS, max_size=3).map(tuple),
    "index": st.lists(st.one_of(st.just("0"), NAMES), max_size=3).map(tuple),
    "dtype": st.sampled_from(DTYPES), "role": st.sampled_from(ROLES),
    "op": st.sampled_from(OPS), "sbinop": st.sampled_from(SCALAR_BINOPS),
    "sunop": st.sampled_from(SCALAR_UNOPS), "handshake": st.sampled_from(HANDSHAKES),
}


def _field(lang, f, children):
    if f.kind in children:
        base = children[f.kind]
    elif f.kind in TERMINALS:
        base = TERMINALS[f.kind]
    else:
        base = st.deferred(lambda: _nonterminal(lang, f.kind))
    if f.mult == "*":
        return st.lists(base, max_size=3).map(tuple)
    return st.none() | base if f.mult == "?" else base


def _node(lang, prod, children):
    cls = lang[prod]
    if prod == "Scalar":  # the text pairs each param with its input port
        pairs = st.lists(st.tuples(NAMES, _nonterminal(lang, "Port")), max_size=3)
        return st.builds(
            lambda n, ps, body, outs, via: cls(n, tuple(p for p, _ in ps), body,
                                               tuple(q for _, q in ps), outs, via),
            NAMES, pairs, _nonterminal(lang, "SExpr"), _field(lang, cls._declared[4], {}),
            _field(lang, cls._declared[5], {}))
    return st.builds(cls, *(_field(lang, f, children) for f in cls._declared))


def _nonterminal(lang, nt):
    prods = lang.nonterminals[nt].productions
    leaves = [p.name for p in prods if all(f.kind != nt for f in p.fields)]
    branches = [p.name for p in prods if p.name not in leaves]
    leaf = st.one_of([_node(lang, p, {}) for p in leaves])
    if not branches:
        return leaf
    return st.recursive(leaf, lambda child: st.one_of([_node(lang, p, {nt: child})
                                                       for p in branches]), max_leaves=12)


GRAPHS = {lang: _nonterminal(lang, "Program") for lang in LANGUAGES}


@pytest.mark.parametrize("lang", LANGUAGES, ids=[lang.name for lang in LANGUAGES])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_graphs_round_trip(lang, data):
    g = data.draw(GRAPHS[lang])
    # Stiled's own stages are its accesses and its compute (which may accumulate `over`
    # firings); a Stiled graph with neither reads as Sdataflow.
    own = any(s._prod in ("Load", "Store", "Compute") for s in g.stages)
    assert language_of(g) is (lang if own or lang is not Stiled else Sdataflow)
    text = to_spatial_text(g)
    back = parse_spatial(text)
    assert back == g
    assert to_spatial_text(back) == text


@settings(max_examples=200, deadline=None)
@given(st.integers(-(2 ** 80), 2 ** 80), st.integers(0, 5000))
def test_an_integer_reads_back_exactly_in_64_bits_and_is_refused_past_them(value, zeros):
    """An extent, a constant and a rate (which has no sign) take the 64-bit integers, leading
    zeros or not, and refuse any other as a syntax error, never Python's conversion error."""
    sign, digits = "-" * (value < 0), "0" * zeros + str(abs(value))
    positions = [
        (f"tensor A: i32[{sign}{digits}] input", value, lambda g: g.tensors[0].shape[0]),
        (f"scalar s(v: a) = v * {sign}{digits} -> q", value, lambda g: g.stages[0].body.b.value),
        (f"load l A -> a x{digits}", abs(value), lambda g: g.stages[0].outs[0].rate),
    ]
    for item, meant, read in positions:
        text = f"spatial p {{\n  {item}\n}}"
        if INT_MIN <= meant <= INT_MAX:
            assert read(parse_spatial(text)) == meant
        else:
            with pytest.raises(SpatialSyntaxError, match="is out of range: the integers of a "
                                                         "spatial program are 64-bit"):
                parse_spatial(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("{}()[],:=+-*/.@ \n0123456789xae")
                                + ["spatial p: Schoreographed {", "load ", "tile ",
                                   "scalar s(a: p) =", "->", "..", "repeat ",
                                   "schedule (0, 0) e", "//"]), max_size=40).map("".join))
def test_any_text_gives_a_graph_or_a_syntax_error(text):
    try:
        parse_spatial(text)
    except SpatialSyntaxError as err:
        assert err.line >= 1 and err.column >= 1 and err.message
