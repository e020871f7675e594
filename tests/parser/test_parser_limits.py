"""Nesting: up to the limit parses from any thread; past it is E1003, fast, never a crash."""

import threading
import time

from nano_vx.parser import MAX_DEPTH, parse_text
from nano_vx.parser.limits import MAX_NESTING


def parens(total_depth):
    """A program whose brackets nest `total_depth` deep (the fn body's `{` counts)."""
    n = total_depth - 1
    return "fn main() { let x = " + "(" * n + "1" + ")" * n + "; }"


def test_nesting_at_the_limit_parses():
    prog, d = parse_text(parens(MAX_DEPTH))
    assert d.codes() == []
    value = prog.items[0].body.stmts[0].value
    assert value._prod == "Int"


def test_nesting_at_the_limit_parses_from_a_small_stack_thread():
    # run_deep inside parse moves the work to a big stack whatever the caller's thread.
    result = {}
    worker = threading.Thread(target=lambda: result.update(r=parse_text(parens(MAX_DEPTH))))
    old = threading.stack_size(256 * 1024)
    try:
        worker.start()
        worker.join()
    finally:
        threading.stack_size(old)
    assert result["r"][1].codes() == []


def test_mixed_brackets_at_the_limit_parse():
    n = (MAX_DEPTH - 1) // 3
    text = "fn main() { let x = " + "f(t[(" * n + "1" + ")])" * n + "; }"
    assert parse_text(text)[1].codes() == []


def test_one_past_the_limit_is_e1003():
    prog, d = parse_text(parens(MAX_DEPTH + 1))
    assert d.codes() == ["E1003"] and prog.items == ()
    (diag,) = d.sorted()
    assert diag.span.col == len("fn main() { let x = ") + MAX_DEPTH


def test_five_thousand_parens_are_e1003_fast():
    start = time.perf_counter()
    _, d = parse_text(parens(5000))
    assert d.codes() == ["E1003"]
    assert time.perf_counter() - start < 1.0


def test_unclosed_brackets_are_e1003_not_a_crash():
    assert parse_text("fn main() { " + "[" * 10_000)[1].codes() == ["E1003"]


def test_prefix_operator_runs():
    assert parse_text("fn main() { let x = " + "-" * MAX_DEPTH + "1; }")[1].codes() == []
    assert parse_text("fn main() { let x = " + "- " * 5000 + "1; }")[1].codes() == ["E1003"]


def test_else_if_chains():
    chain = lambda n: "fn main() { if a {} " + "else if a {} " * n + "}"  # noqa: E731
    assert parse_text(chain(MAX_DEPTH - 1))[1].codes() == []
    assert parse_text(chain(MAX_DEPTH + 1))[1].codes() == ["E1003"]


def test_nesting_without_brackets():
    closures = "fn main() { let f = " + "|x| " * (MAX_NESTING + 10) + "1; }\nfn ok() {}"
    prog, d = parse_text(closures)
    assert d.codes() == ["E1003"]
    assert [i.name for i in prog.items] == ["main", "ok"]
    types = "fn main() { let x: " + "Verified<" * 5000 + "i32" + ">" * 5000 + " = 1; }"
    assert parse_text(types)[1].codes() == ["E1003"]
    assert parse_text("fn main() { let x: " + "Verified<" * 200 + "i32" + ">" * 200
                      + " = 1; }")[1].codes() == []
