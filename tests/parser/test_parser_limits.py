"""Nesting: up to the limit parses from any thread; past it is E1003, fast, never a crash."""

import threading

import pytest

from nano_vx.parser import MAX_DEPTH, parse_text, statements
from nano_vx.parser.limits import MAX_NESTING, MAX_TREE_DEPTH, tree_depth

# Slow (the whole suite's, not the inner loop's): inputs at and past the parser's nesting bound.
pytestmark = pytest.mark.slow


def parens(total_depth):
    """A program whose brackets nest `total_depth` deep (the fn body's `{` counts)."""
    n = total_depth - 1
    return "fn main() { let x = " + "(" * n + "1" + ")" * n + "; }"


def e1003(text):
    """(line, column, message) of the one diagnostic, which must be E1003."""
    _, d = parse_text(text)
    (diag,) = d.sorted()
    assert diag.code == "E1003", diag.render()
    return diag.span.line, diag.span.col, diag.message


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


def test_five_thousand_parens_are_e1003():
    _, d = parse_text(parens(5000))
    assert d.codes() == ["E1003"]


def test_unclosed_brackets_are_e1003_not_a_crash():
    assert parse_text("fn main() { " + "[" * 10_000)[1].codes() == ["E1003"]


def test_prefix_operator_runs():
    assert parse_text("fn main() { let x = " + "-" * MAX_DEPTH + "1; }")[1].codes() == []
    assert parse_text("fn main() { let x = " + "- " * 5000 + "1; }")[1].codes() == ["E1003"]
    assert parse_text("fn main() { let x = " + "&mut *" * (MAX_DEPTH // 2) + "y; }")[1] \
        .codes() == []
    assert parse_text("fn main() { let x = " + "&mut *" * 5000 + "y; }")[1].codes() == ["E1003"]


def test_else_if_chains():
    chain = lambda n: "fn main() { if a {} " + "else if a {} " * n + "}"  # noqa: E731
    assert parse_text(chain(MAX_DEPTH - 1))[1].codes() == []
    assert parse_text(chain(MAX_DEPTH + 1))[1].codes() == ["E1003"]


def test_a_long_else_if_chain_is_refused_reading_each_link_once(monkeypatch):
    # Refused where its link MAX_DEPTH + 1 starts, and skipped whole: resuming inside it
    # re-read the rest of the chain once per MAX_DEPTH links (quadratic: 10,000 links took
    # more than a minute).
    heads = []
    read = statements._IF_HEAD.parseImpl
    monkeypatch.setattr(statements._IF_HEAD, "parseImpl", lambda s, loc, do_actions=True:
                        heads.append(loc) or read(s, loc, do_actions))
    text = "fn main() { if a {} " + "else if a {} " * 10_000 + "else {} }\nfn next() {}\n"
    prog, d = parse_text(text)
    assert d.codes() == ["E1003"]
    assert len(heads) == MAX_DEPTH
    assert [(item.name, item.body.stmts) for item in prog.items] == [("main", ()), ("next", ())]


def test_else_if_links_count_across_chains_written_in_chains():
    # Each link nests blocks one level deeper, whichever chain it belongs to: chains within
    # chains would otherwise nest MAX_DEPTH times MAX_DEPTH blocks.
    half = MAX_DEPTH // 2 - 1
    nested = lambda n: ("fn main() { " + ("if a {} " + "else if a {} " * n + "else { ") * 2  # noqa: E731
                        + "} } }")
    assert parse_text(nested(half))[1].codes() == []
    line, col, message = e1003(nested(half + 1))
    assert message.endswith(f"`else if` links nest more than {MAX_DEPTH} deep (in one chain, "
                            f"or in chains within chains)")
    assert nested(half + 1)[col - 1:col + 1] == "if" and col > len(nested(half)) // 2


def test_nesting_without_brackets():
    closures = "fn main() { let f = " + "|x| " * (MAX_NESTING + 10) + "1; }\nfn ok() {}"
    prog, d = parse_text(closures)
    assert d.codes() == ["E1003"]
    assert [i.name for i in prog.items] == ["main", "ok"]
    types = "fn main() { let x: " + "Verified<" * 5000 + "i32" + ">" * 5000 + " = 1; }"
    assert parse_text(types)[1].codes() == ["E1003"]
    assert parse_text("fn main() { let x: " + "Verified<" * 200 + "i32" + ">" * 200
                      + " = 1; }")[1].codes() == []


# -- the depth of the tree (MAX_TREE_DEPTH): what every pass, dump and the interpreter walk --


def test_a_chain_of_operators_is_as_deep_as_it_is_long():
    # `fn main() { x; }` is Fn, Block, ExprStmt, then the chain: N operators, N levels.
    chain = lambda n: "fn main() { 1" + " + 1" * n + "; }"  # noqa: E731
    prog, d = parse_text(chain(MAX_TREE_DEPTH - 4))
    assert d.codes() == [] and tree_depth(prog.items[0]) == (MAX_TREE_DEPTH, None)
    assert e1003(chain(MAX_TREE_DEPTH - 3)) == (
        1, 13, f"this nests {MAX_TREE_DEPTH + 1} levels deep, past the limit of "
               f"{MAX_TREE_DEPTH} (every operator, call, index, field, cast, statement and "
               f"block is a level)")


def depth(text):
    prog, d = parse_text(text)
    assert d.codes() == [], d.render()
    return tree_depth(prog.items[0])[0]


def test_every_chain_read_in_a_loop_nests_one_level_per_link():
    for first, link in [("f", "()"), ("x", ".f"), ("x", "[0]"), ("1", " as i64"),
                        ("a", " && a < 2"), ("1", " * 2"), ("-1", " - 1")]:
        one, many = (depth(f"fn main() {{ let v = {first}{link * n}; }}") for n in (1, 101))
        assert many - one == 100, link
    dims = lambda n: f"fn main() {{ let t: Tensor<i32, [1{' + 1' * n}]> = f(); }}"  # noqa: E731
    assert depth(dims(101)) - depth(dims(1)) == 100
    assert e1003("fn main() { f" + "()" * MAX_TREE_DEPTH + "; }")[:2] == (1, 13)


def test_chains_nested_in_brackets_add_up():
    # Each part is far from its own limit; the tree they make together is past the depth.
    part = " + 1" * (MAX_TREE_DEPTH // 100)
    grouped = "fn main() { let v = " + "(" * 120 + "1" + (part + ")") * 120 + "; }"
    assert e1003(grouped)[:2] == (1, 141)  # where the innermost group's chain starts


def test_an_item_too_deep_is_dropped_and_the_next_one_kept():
    text = "fn f() { 1" + " + 1" * MAX_TREE_DEPTH + "; }\nfn main() { 1 + 1; }\n"
    prog, d = parse_text(text)
    assert d.codes() == ["E1003"] and [item.name for item in prog.items] == ["main"]
    assert "split the expression with `let` bindings" in d.render()
