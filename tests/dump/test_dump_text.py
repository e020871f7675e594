"""The text dump: every production prints, the IL-specific forms, precedence, the generic
fallback, determinism, and deep trees."""

from __future__ import annotations

import pytest
from dump_samples import EXAMPLES, PRECEDENCE, L, block, example, i, mem, program, var

from nano_vx.dump import to_text
from nano_vx.dump.writer import FORMS
from nano_vx.languages import Lresolved, Lsrc, Ltransfers, Ltyped
from nano_vx.nanopass import Terminal, prod


@pytest.mark.parametrize("name", sorted(Lsrc.nodes))
def test_every_production_has_a_form_and_prints(name):
    node = example(name)
    assert (name, node._fields) in FORMS
    text = to_text(node)
    assert text.endswith("\n")
    assert f"{name}(" not in text  # not the generic form


def test_program_reads_like_vx():
    text = to_text(program())
    assert text.startswith(
        "import std::math;\n\n"
        "Memory HBM { capacity: 40 GiB, within: Memory::X, overcommit }\n\n"
        "Topology D { memory: Memory::HBM, transfer Memory::A -> Memory::B : 20, "
        "transfer Memory::B -> Memory::A sync }\n\n"
        "const N: i32 = 4;\n\n"
        "struct Pair<T> {\n    a: T,\n    b: i32,\n}\n\n"
        "impl<T> Pair<T> {\n    fn first(p: Self) -> T {\n        p.a\n    }\n}\n\n"
        "trait Shape {\n    fn area(s: Self) -> f32;\n\n    fn twice(s: Self) -> f32 {\n"
        "        2.0\n    }\n}\n\n"
        "impl<T> Shape for Pair<T> {\n    fn area(s: Self) -> f32 {\n        1.0\n    }\n}\n\n"
        "enum Shape {\n    Dot,\n    Rect(f32, f32),\n}\n\n"
        "fn stage<D: Topology, const N: i32>(x: Tensor<f32, [4, N]>) on Topology::D -> f32 "
        "where Reachable<CPU, D> {\n    return x;\n}\n\n"
    )
    for line in (
        "    unroll across(Topology::NPU[0..4]) { |i|\n        print(i);\n    }\n",
        "    } else if comptime c {\n        continue;\n    } else {\n",
        "    Tensor<f32, [4, N], Memory::GPU_HBM>::fill(1.0);\n",
        "    spawn on(Topology::NPU[0]) {\n        x\n    };\n",
        "    const N: i32 = 4;\n",  # ItemStmt: the item in place
        "    fn inner<T>() {}\n",
        "    0\n}\n",
    ):
        assert line in text
    assert not any(line != line.rstrip() for line in text.splitlines())


def test_marked_transfer_local_and_global():
    T = Lresolved.nodes
    call = T["Call"](T["Global"]("print"), (), (T["Local"]("x#1"),))
    moved = T["Transfer"](T["Local"]("x"), mem(), "sync")
    relaxed = Ltransfers["Transfer"](var("y"), mem("GPU_HBM"), "relaxed")
    let = T["Let"]("x#1", False, None, moved)
    assert to_text(call) == "@print(x#1)\n"
    assert to_text(let) == "let x#1 = transfer[sync](x, Memory::NPU_HBM);\n"
    assert to_text(relaxed) == "transfer[relaxed](y, Memory::GPU_HBM)\n"
    assert to_text(example("Transfer")) == "transfer(x, Memory::NPU_HBM)\n"


def test_an_opaque_type_prints_as_rust_writes_a_type_left_open():
    T = Ltyped.nodes
    closure = T["Closure"]((T["Param"]("a", None),), T["Block"]((), T["Local"]("a")))
    let = T["Let"]("f", False, T["OpaqueType"](), closure)
    assert to_text(let) == "let f: _ = |a| {\n    a\n};\n"


def test_a_match_prints_its_arms_and_a_typed_binding_its_type():
    T = Ltyped.nodes
    pinned = T["PinnedType"](T["Scalar"]("i32"), T["TopoRef"]("GPU", None, None))
    arm = T["Arm"]("Available", T["Param"]("p", pinned), T["Block"]((), T["Local"]("p")))
    match = T["Match"](T["Local"]("h"), (arm,))
    assert to_text(match) == ("match h {\n    Available(p: Pinned<i32, Topology::GPU>) => {\n"
                              "        p\n    }\n}\n")
    # With no arm, `match h {}` reads back as a match on a value, unless h pins.
    assert to_text(L["Match"](var("h"), ())) == "Match(scrutinee: h, arms: [])\n"
    pin = L["MethodCall"](var("x"), "try_pin", ())
    assert to_text(L["Match"](pin, ())) == "match x.try_pin() {}\n"
    # Block-like: an operand, or the scrutinee of another match, is parenthesised.
    empty = L["MatchValue"](var("h"), ())
    assert to_text(L["Binary"]("+", empty, i(1))) == "(match h {}) + 1\n"
    assert to_text(L["MatchValue"](empty, ())) == "match (match h {}) {}\n"


@pytest.mark.parametrize("tree, text", PRECEDENCE)
def test_parentheses_only_where_precedence_needs_them(tree, text):
    assert to_text(tree) == text + "\n"


@pytest.mark.parametrize("value", [0.1, 1.0, 1e-07, 2.5e+300, 1 / 3, float("inf")])
def test_floats_read_back(value):
    # What the surface cannot write (here, an infinity) is written after `const`.
    assert float(to_text(L["Float"](value)).removeprefix("const ")) == value


def test_strings_are_escaped():
    assert to_text(L["Str"]('a"b\\c\n\t\x01')) == '"a\\"b\\\\c\\n\\t\\u{1}"\n'


def test_headers_parenthesise_block_like_conditions():
    cond = L["Comptime"](block(value=L["Bool"](True)))
    text = to_text(L["While"](cond, block()))
    assert text == "while (comptime {\n    true\n}) {}\n"


def test_unknown_productions_print_generically():
    Lx = Ltransfers.extend(
        "Lx", "a made-up IL",
        terminals=[Terminal("color", lambda v: v in ("red", "blue"))],
        add={
            "Expr": [prod("Tagged", "color: color, what: Expr, also: Expr*, note: string?, "
                                    "maybe: Expr?")],
            "Stmt": [prod("Fence", "level: int")],
        },
    )
    X = Lx.nodes
    tagged = X["Tagged"]("red", X["Transfer"](var("x"), mem(), "sync"), (i(1), i(2)), "n, b",
                         None)
    assert to_text(tagged) == (
        'Tagged(color: red, what: transfer[sync](x, Memory::NPU_HBM), also: [1, 2], '
        'note: "n, b", maybe: _)\n')
    body = X["Block"]((X["Fence"](3), X["ExprStmt"](tagged)), None)
    assert to_text(body).splitlines()[1] == "    Fence(level: 3);"


def test_a_changed_shape_is_not_printed_by_the_old_printer():
    Lx = Lsrc.extend("Lx", "Let grows a field",
                     remove={"Stmt": ["Let"]},
                     add={"Stmt": [prod("Let", "name: name, value: Expr, home: Mem")]})
    let = Lx["Let"]("x", i(1), mem())
    assert to_text(let) == "Let(name: x, value: 1, home: Memory::NPU_HBM)\n"


def test_text_is_deterministic():
    assert to_text(program()) == to_text(program())
    assert to_text(program()) == to_text(program().replace())


def test_deep_trees_print():
    depth = 20_000
    tree = var("x")
    for k in range(depth):
        tree = L["Binary"]("-", i(k), tree)
    text = to_text(tree)
    assert text.count("(") == depth - 1

    nested = L["Block"]((), None)
    for _ in range(2_000):
        nested = block(L["ComptimeStmt"](nested))
    assert to_text(nested).count("comptime {") == 2_000


def test_every_example_is_used_by_the_program():
    seen = set()
    stack = [program()]
    while stack:
        node = stack.pop()
        seen.add(node._prod)
        for f in node._fields:
            value = getattr(node, f)
            stack.extend(v for v in (value if type(value) is tuple else (value,))
                         if hasattr(v, "_prod"))
    assert seen == set(Lsrc.nodes) == set(EXAMPLES)
