"""The value forms of the larger Vx surface: `if` as a value, tuples, array literals, the tensor
constructors (`Tensor<T>([..])` as written, nested lists, `[]` and `?` extents), a tuple's
element as a place (`p.0 = v`), each read into the tree its text means and printed back to that
text; and the syntax errors among them, each with its repair. (What a `Tensor<..>(..)` call means is desugar-tensor-constructors'.)"""

import pytest

from nano_vx.diagnostics import Diagnostics
from nano_vx.nanopass import descendants
from nano_vx.dump.text import to_text
from nano_vx.parser import parse
from nano_vx.source import Source


def _parse(body: str):
    d = Diagnostics()
    tree = parse(Source("t.vx", f"fn main() {{\n{body}\n}}\n"), d)
    return tree, [(x.code, x.message) for x in d.items]


def _main_text(tree) -> str:
    return to_text(tree).split("\n", 1)[1].rsplit("\n}", 1)[0]


# (as written, as printed: the canonical form the tree holds)
FORMS = [
    ("let x = if c { 1 } else { 2 };",
     "    let x = if c {\n        1\n    } else {\n        2\n    };"),
    ("let x = if c { 1 } else if d { 2 } else { return; };",
     "    let x = if c {\n        1\n    } else if d {\n        2\n    } else {\n"
     "        return;\n    };"),
    ("if c { 1 } else { 2 }", "    if c {\n        1\n    } else {\n        2\n    }"),
    ("if c { 1 } else { 2 };", "    if c {\n        1\n    } else {\n        2\n    };"),
    ("let a = [1, 2, 3];", "    let a = [1, 2, 3];"),
    ("let m = Tensor<f32>([[1.0, 2.0], [3.0, 4.0]]);",
     "    let m = Tensor<f32>([[1.0, 2.0], [3.0, 4.0]]);"),
    ("let z = Tensor<f32>([n, 4]);", "    let z = Tensor<f32>([n, 4]);"),
    ("let e = Tensor<f32, [2, 2]>();", "    let e = Tensor<f32, [2, 2]>();"),
    ("let k = Tensor<f32, [2], Memory::X>(1.0);", "    let k = Tensor<f32, [2], Memory::X>(1.0);"),
    ("let s = Tensor<f32, []>::fill(1.0);", "    let s = Tensor<f32, []>::fill(1.0);"),
    ("let g = Tensor<f32, [?, ?]>::uninit([n, m]);",
     "    let g = Tensor<f32, [?, ?]>::uninit([n, m]);"),
    ("let h = Tensor<i32, [3], Topology::GPU>([1, 2, 3]);",
     "    let h = Tensor<i32, [3], Topology::GPU>([1, 2, 3]);"),
    ("let n = [[1, 2], []];", "    let n = [[1, 2], []];"),
    ("let t = (1, 2.5, (true, x));", "    let t = (1, 2.5, (true, x));"),
    ("let (a, b) = t;", "    let (a, b) = t;"),
    ("print(t.0 + t.2.1);", "    print(t.0 + t.2.1);"),
    ("print(t.0(2, 3) + t.1 . 0());", "    print(t.0(2, 3) + t.1.0());"),
    ("let u: (i32, (f32, bool)) = (1, (x, true));",
     "    let u: (i32, (f32, bool)) = (1, (x, true));"),
    ("let g = f<(N + 1)>(x);", "    let g = f<N + 1>(x);"),
    ("let c: Cell<Cell<Point>> = c;", "    let c: Cell<Cell<Point>> = c;"),
    ("let p: Pair<Cell<i32>, Cell<Cell<f32>>> = p;",
     "    let p: Pair<Cell<i32>, Cell<Cell<f32>>> = p;"),
    ("let q = inner<Cell<Point>>(c);", "    let q = inner<Cell<Point>>(c);"),
    ("let s = a >> b > c;", "    let s = a >> b > c;"),
    ("p.0 = 5;", "    p.0 = 5;"),
    ("p.1 += 2;", "    p.1 += 2;"),
    ("s.pair.0 = v;", "    s.pair.0 = v;"),
    ("p.1.x *= 2;", "    p.1.x *= 2;"),
    ("t.0.1 = 3;", "    t.0.1 = 3;"),
    ("(*r).0 = 7;", "    (*r).0 = 7;"),
    ("r.0 -= 1;", "    r.0 -= 1;"),
    ("v[i].0 = 1;", "    v[i].0 = 1;"),
]


@pytest.mark.parametrize("text, printed", FORMS, ids=[f[0] for f in FORMS])
def test_each_form_reads_prints_and_reads_back(text, printed):
    tree, said = _parse(text)
    assert said == []
    assert _main_text(tree) == printed
    assert all(n._prod != "TensorLit" for n in descendants(tree))  # the parser reads, only
    again, said = _parse(printed)
    assert said == [] and again == tree


def test_a_tuple_part_given_arguments_is_called_not_read():
    tree, said = _parse("print(t.0(2, 3));")
    call = next(n for n in descendants(tree) if n._prod == "Call" and n.callee._prod != "Var")
    assert said == [] and call.callee._prod == "TupleGet" and len(call.args) == 2
    assert (call.callee.span.start, call.callee.span.end) == \
        (call.span.start, call.span.start + len("t.0"))


def test_an_if_ending_a_block_is_its_value_and_a_semicolon_keeps_it_a_statement():
    tree, _ = _parse("if c { 1 } else { 2 }")
    body = tree.items[0].body
    assert body.value._prod == "IfExpr" and body.stmts == ()
    tree, _ = _parse("if c { 1 } else { 2 };")
    body = tree.items[0].body
    assert body.value is None and body.stmts[0]._prod == "If"


REFUSED = [
    ("let x = if c { 1 };", "let x = if c { 1 } else { 0 };", "E1001",
     "an `if` used as a value needs an `else`, and each branch must end in its value (an "
     "expression without `;`) or leave with `return`, `break` or `continue`"),
    ("let t = (1, 2, 3, 4, 5, 6, 7);", "let t = (1, 2, 3, 4, 5, 6);", "E1001",
     "a tuple has 2 to 6 elements, this one 7"),
    ("let g = Tensor<f32, [?, 2]>::new();", "let g = Tensor<f32, [?, 2]>::new([n, 2]);", "E1001",
     "a tensor with `?` extents takes all 2 of its extents first, as a list: `::new([n, n])`"),
    ("(a, b).0 = 3;", "let mut t = (a, b); t.0 = 3;", "E1001",
     "expected a place (a variable, an index, `*p`, or a field or a tuple element of a place) "
     "on the left of '=', found an expression"),
    ("f().1 += 3;", "let mut t = f(); t.1 += 3;", "E1001",
     "expected a place (a variable, an index, `*p`, or a field or a tuple element of a place) "
     "on the left of '+=', found an expression"),
    ("Point { x: 1, y: 2 }.x = 3;", "let mut p = Point { x: 1, y: 2 }; p.x = 3;", "E1001",
     "expected a place (a variable, an index, `*p`, or a field or a tuple element of a place) "
     "on the left of '=', found an expression"),
]


@pytest.mark.parametrize("text, repaired, code, message", REFUSED, ids=[r[0] for r in REFUSED])
def test_each_refusal_and_its_repair(text, repaired, code, message):
    assert _parse(text)[1] == [(code, message)]
    assert _parse(repaired)[1] == []
