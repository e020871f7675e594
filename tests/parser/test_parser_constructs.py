"""Every construct of the surface syntax (vx-reference §1, §2) maps onto its Lsrc node."""

from pathlib import Path

import pytest

from nano_vx.languages.lsrc import Lsrc
from nano_vx.parser import parse_text

N = Lsrc.nodes
CASES = Path(__file__).parent / "cases"

I32, F32 = N["Scalar"]("i32"), N["Scalar"]("f32")


def V(name):
    return N["Var"](name)


def Int(v):
    return N["Int"](v)


def B(op, left, right):
    return N["Binary"](op, left, right)


def Topo(name, index=None, end=None):
    return N["TopoRef"](name, index, end)


def program(text):
    prog, diags = parse_text(text)
    assert not diags.codes(), diags.render()
    return prog


def body(text):
    """The statements of `fn main() { text }`."""
    return program(f"fn main() {{ {text} }}").items[0].body


def stmt(text):
    (only,) = body(text).stmts
    return only


def expr(text):
    return stmt(f"let v = {text};").value


# -- items ---------------------------------------------------------------------------------


def test_fn_signature_with_generics_placement_return_and_bounds():
    fn = program("fn f<A: Topology, T, const S: i32>(x: T) on Topology::GPU -> i32 "
                 "where Reachable<A, B>, Reachable<B, C> { }").items[0]
    assert fn == N["Fn"](
        "f",
        (N["TypeParam"]("A", True), N["TypeParam"]("T", False), N["ConstParam"]("S", I32)),
        (N["Param"]("x", N["NamedType"]("T")),),
        Topo("GPU"), I32,
        (N["ReachableBound"]("A", "B"), N["ReachableBound"]("B", "C")),
        N["Block"]((), None))


def test_struct_and_const_items():
    struct, const = program("struct P { x: i32, y: f32, }\nconst N: i32 = 4;").items
    assert struct == N["StructDecl"]("P", (N["Param"]("x", I32), N["Param"]("y", F32)), ())
    assert const == N["ConstItem"]("N", I32, Int(4))


def test_playground_form_nests_items_and_ignores_attributes():
    (main,) = program((CASES / "playground.vx").read_text()).items
    (item_stmt,) = main.body.stmts
    assert item_stmt._prod == "ItemStmt"
    fn = item_stmt.item
    assert [g.name for g in fn.generics] == ["A", "B", "C"]
    assert fn.params[0].type == N["PinnedType"](I32, Topo("A"))
    assert fn.bounds == (N["ReachableBound"]("A", "B"), N["ReachableBound"]("B", "C"))


def test_declarations():
    hbm, smem, dram, device = program((CASES / "declarations.vx").read_text()).items
    Q, F = N["Quantity"], N["DeclField"]
    assert hbm == N["MemoryDecl"]("HBM", (
        F("capacity", Q("80", "GiB")), F("bandwidth", Q("3.35", "TB/s")),
        F("scope", N["Word"]("device"))))
    assert smem.fields == (
        F("within", N["MemRef"]("L2")), F("capacity", Q("228", "KiB")),
        F("bandwidth", Q("128", "B/cyc")), F("clock", Q("1.98", "GHz")),
        F("replicas", Q("132", None)), F("overcommit", None))
    assert dram == N["MemoryDecl"]("CPU_DRAM", ())
    assert device.fields == (
        F("arch", N["Word"]("nvptx64")), F("memory", N["MemRef"]("HBM")),
        F("visible", N["DeclList"]((N["MemRef"]("HBM"), N["MemRef"]("SMEM")))),
        F("dtypes", N["DeclList"]((N["Word"]("f32"), N["Word"]("f16")))),
        N["TransferEdge"](N["MemRef"]("CPU_DRAM"), N["MemRef"]("HBM"), Q("20", None), ()),
        N["TransferEdge"](N["MemRef"]("HBM"), N["MemRef"]("CPU_DRAM"), Q("31.5", "GB/s"), ()))


def test_transfer_edges_without_a_cost_and_with_flags():
    (device,) = program("""Topology D {
  memory: Memory::HBM,
  transfer Memory::HBM -> Memory::L2,
  transfer Memory::L2 -> Memory::HBM sync copy_engine
  transfer Memory::CPU_DRAM -> Memory::HBM : 20 relaxed
  transfer Memory::HBM -> Memory::CPU_DRAM : 63 GB/s copy_engine  // a comment
  replicas: 2
}
""").items
    E, M, Q = N["TransferEdge"], N["MemRef"], N["Quantity"]
    assert device.fields == (
        N["DeclField"]("memory", M("HBM")),
        E(M("HBM"), M("L2"), None, ()),
        E(M("L2"), M("HBM"), None, ("sync", "copy_engine")),
        E(M("CPU_DRAM"), M("HBM"), Q("20", None), ("relaxed",)),
        E(M("HBM"), M("CPU_DRAM"), Q("63", "GB/s"), ("copy_engine",)),
        N["DeclField"]("replicas", Q("2", None)))


# -- statements ----------------------------------------------------------------------------


def test_block_with_trailing_expression():
    fn = program("fn sq(n: i32) -> i32 { let m = n; m * m }").items[0]
    assert fn.body == N["Block"]((N["Let"]("m", False, None, V("n")),), B("*", V("m"), V("m")))


def test_let_mut_with_type():
    assert stmt("let mut x: Tensor<f32, [4]> = 1;") == N["Let"](
        "x", True, N["TensorType"](F32, (N["DimInt"](4),), None), Int(1))


@pytest.mark.parametrize("op", ["=", "+=", "-=", "*=", "/="])
def test_assignment_to_places(op):
    target = N["Index"](N["Index"](V("t"), V("i")), V("j"))
    assert stmt(f"t[i][j] {op} 1;") == N["Assign"](target, op, Int(1))
    assert stmt(f"p.x {op} 1;") == N["Assign"](N["FieldGet"](V("p"), "x"), op, Int(1))


def test_for_and_while():
    assert stmt("for i in a..b { }") == N["For"]("i", V("a"), V("b"), N["Block"]((), None))
    assert stmt("for i in 0..S { }").end == V("S")
    assert stmt("while x < 3 { x += 1; }") == N["While"](
        B("<", V("x"), Int(3)), N["Block"]((N["Assign"](V("x"), "+=", Int(1)),), None))


def test_if_else_if_else_nests_in_else_blocks():
    b = lambda v: N["Block"]((N["ExprStmt"](Int(v)),), None)  # noqa: E731
    got = stmt("if a { 1; } else if b { 2; } else { 3; }")
    inner = N["If"](V("b"), False, b(2), b(3))
    assert got == N["If"](V("a"), False, b(1), N["Block"]((inner,), None))
    assert stmt("if comptime c { }") == N["If"](V("c"), True, N["Block"]((), None), None)


def test_return_break_continue_assert():
    assert body("return 1; return; break; continue;").stmts == (
        N["Return"](Int(1)), N["Return"](None), N["Break"](), N["Continue"]())
    assert body('assert(c); assert(c, "a\\n\\t\\\\\\"b");').stmts == (
        N["Assert"](V("c"), None), N["Assert"](V("c"), 'a\n\t\\"b'))


def test_comptime_statement_and_expression():
    block = N["Block"]((N["ExprStmt"](Int(1)),), None)
    assert body("comptime { 1; };").stmts == (N["ComptimeStmt"](block),)
    assert body("comptime { 1; } let x = 2;").stmts[0] == N["ComptimeStmt"](block)
    assert expr("comptime { 1; }") == N["Comptime"](block)
    # At the end of a block without `;` it is the block's value.
    assert body("comptime { 4 }").value == N["Comptime"](N["Block"]((), Int(4)))


def test_a_bare_block_is_a_statement():
    let = lambda name, v: N["Let"](name, False, None, Int(v))  # noqa: E731
    inner = N["BlockStmt"](N["Block"]((let("x", 3),), None))
    got = body("let x = 1; { let x = 2; { let x = 3; }; } {} x")
    assert got == N["Block"]((
        let("x", 1), N["BlockStmt"](N["Block"]((let("x", 2), inner), None)),
        N["BlockStmt"](N["Block"]((), None))), V("x"))
    # Its value, as an `if`'s, is evaluated for its effects: it is not the enclosing block's.
    assert body("{ 1 }") == N["Block"]((N["BlockStmt"](N["Block"]((), Int(1))),), None)


def test_unroll_across():
    got = stmt("unroll across(Topology::NPU[0..4]) { |i| t[i] = i; };")
    assert got == N["UnrollAcross"](
        Topo("NPU", Int(0), Int(4)), "i",
        N["Block"]((N["Assign"](N["Index"](V("t"), V("i")), "=", V("i")),), None))


def test_semicolon_optional_after_block_like_statements():
    stmts = body("spawn on(Topology::GPU) { } if a { } for i in 0..2 { } while b { } "
                 "comptime { } let z = 0;").stmts
    assert [s._prod for s in stmts] == ["ExprStmt", "If", "For", "While", "ComptimeStmt", "Let"]
    assert stmts[0].expr == N["Spawn"](Topo("GPU"), N["Block"]((), None))


def test_semicolon_allowed_after_loops_as_in_rust():
    with_semi = body("for i in 0..2 { }; while b { }; loop { break; }; { };").stmts
    assert with_semi == body("for i in 0..2 { } while b { } loop { break; } { }").stmts


# -- expressions ---------------------------------------------------------------------------


def test_precedence_and_associativity():
    assert expr("a || b && c == d + e * f") == B(
        "||", V("a"), B("&&", V("b"), B("==", V("c"), B("+", V("d"), B("*", V("e"), V("f"))))))
    assert expr("a - b - c") == B("-", B("-", V("a"), V("b")), V("c"))
    assert expr("a / b % c") == B("%", B("/", V("a"), V("b")), V("c"))
    assert expr("a < b != c >= d") == B(">=", B("!=", B("<", V("a"), V("b")), V("c")), V("d"))
    # As in Rust, prefix operators bind tighter than `as`: `-1 as u32` is `(-1) as u32`.
    assert expr("-x as f32 * 2") == B("*", N["Cast"](N["Unary"]("-", V("x")), F32), Int(2))
    assert expr("!a.b() as i64") == N["Cast"](
        N["Unary"]("!", N["MethodCall"](V("a"), "b", ())), N["Scalar"]("i64"))
    assert expr("!(a <= b)") == N["Unary"]("!", B("<=", V("a"), V("b")))


def test_calls_generic_calls_methods_index_fields():
    assert expr("f(a, b)") == N["Call"](V("f"), (), (V("a"), V("b")))
    assert expr("f<4>(a)") == N["Call"](V("f"), (N["DimArg"](N["DimInt"](4)),), (V("a"),))
    assert expr("f<i32>(x)") == N["Call"](V("f"), (N["TypeArg"](I32),), (V("x"),))
    assert expr("f<S*2>(x)").targs == (N["DimArg"](N["DimBinary"](
        "*", N["DimName"]("S"), N["DimInt"](2))),)
    assert expr("f<Topology::NPU[1]>(p)") == N["Call"](
        V("f"), (N["TopoArg"](N["TopoRef"]("NPU", Int(1), None)),), (V("p"),))
    assert expr("a < b") == B("<", V("a"), V("b"))
    assert expr("a < b && c > d") == B("&&", B("<", V("a"), V("b")), B(">", V("c"), V("d")))
    assert expr("x.m(a)") == N["MethodCall"](V("x"), "m", (V("a"),))
    assert expr("x.to_device()") == N["MethodCall"](V("x"), "to_device", ())
    assert expr("x.f[0]") == N["Index"](N["FieldGet"](V("x"), "f"), Int(0))


def Dim(text):
    """The dimension `f<text>()` gives."""
    (targ,) = expr(f"f<{text}>()").targs
    return targ.dim


@pytest.mark.parametrize("text", ["f::<4>(a)", "f :: < 4 > (a)"])
def test_a_call_may_give_its_generic_arguments_with_a_turbofish(text):
    assert expr(text) == N["Call"](V("f"), (N["DimArg"](N["DimInt"](4)),), (V("a"),))


def test_a_call_through_a_type_may_give_the_types_arguments_with_a_turbofish():
    assert expr("Pair::<i32>::new(1, 2)") == N["PathCall"](
        "Pair", (N["TypeArg"](I32),), "new", (), (Int(1), Int(2)))


def test_a_turbofish_followed_by_neither_a_call_nor_a_struct_literal_says_what_may_follow():
    _, diags = parse_text("fn main() { let x = f::<4>; }")
    assert diags.codes() == ["E1001"]
    assert "expected '(' (a call) or '{' (a struct literal) after generic arguments" in \
        diags.items[0].message


def test_a_const_argument_may_be_negative_the_minus_negating_its_first_term():
    zero = N["DimInt"](0)
    assert Dim("-3") == N["DimBinary"]("-", zero, N["DimInt"](3))
    assert Dim("-2 * 3 + 1") == N["DimBinary"]("+", N["DimBinary"](
        "-", zero, N["DimBinary"]("*", N["DimInt"](2), N["DimInt"](3))), N["DimInt"](1))
    assert expr("a < -3") == B("<", V("a"), N["Unary"]("-", Int(3)))


def test_a_bool_const_argument_is_true_or_false():
    assert expr("f<true, false>()").targs == (N["BoolArg"](True), N["BoolArg"](False))
    assert expr("f<truth>()").targs == (N["TypeArg"](N["NamedType"]("truth")),)


def test_a_tuple_let_reads_a_bindings_mut_as_a_let_does():
    assert stmt("let (a, mut b) = t;") == N["LetTuple"](("a", "b"), V("t"))
    assert stmt("let (mut a, b,) = t;") == N["LetTuple"](("a", "b"), V("t"))


def test_a_shape_takes_no_negative_extent():
    _, diags = parse_text("fn main() { let t = Tensor<f32, [-3]>::new(); }")
    assert diags.codes() == ["E1001"]


def test_tensor_constructors_and_placements():
    def ty(place=None, dims=(N["DimInt"](4), N["DimInt"](4))):
        return N["TensorType"](F32, dims, place)

    assert expr("Tensor<f32, [4, 4]>::new()") == N["TensorNew"](ty(), "new", ())
    assert expr("Tensor<f32, [4, 4]>::uninit()") == N["TensorNew"](ty(), "uninit", ())
    assert expr("Tensor<f32, [4, 4]>::fill(v)") == N["TensorNew"](ty(), "fill", (V("v"),))
    dims = (N["DimName"]("S"), N["DimInt"](4))
    assert expr("Tensor<f32, [S, 4], Memory::GPU_HBM>::new()").type == ty(
        N["MemRef"]("GPU_HBM"), dims)
    assert expr("Tensor<f32, [S, 4], Topology::GPU>::new()").type == ty(Topo("GPU"), dims)
    dim = expr("Tensor<f32, [S*2+1]>::new()").type.dims[0]
    assert dim == N["DimBinary"]("+", N["DimBinary"]("*", N["DimName"]("S"), N["DimInt"](2)),
                                 N["DimInt"](1))


def test_vx_forms():
    assert expr("transfer(x, Memory::CPU_DRAM)") == N["Transfer"](V("x"), N["MemRef"]("CPU_DRAM"))
    assert expr("spawn on(Topology::NPU[i]) { 1 }") == N["Spawn"](
        Topo("NPU", V("i")), N["Block"]((), Int(1)))
    assert expr("grad(f, x)") == N["Grad"]("f", V("x"))
    assert expr("vjp(f, x, v)") == N["Vjp"]("f", V("x"), V("v"))
    assert expr("jvp(f, x, v)") == N["Jvp"]("f", V("x"), V("v"))
    assert expr("Reachable<Topology::A, Topology::B>") == N["ReachableQ"](Topo("A"), Topo("B"))
    assert expr("Some(Topology::GPU)") == N["SomeTopo"](Topo("GPU"))
    assert expr("None") == N["NoneTopo"]()
    assert expr("Memory::X") == N["MemRef"]("X")
    assert expr("Topology::NPU[0..4]") == Topo("NPU", Int(0), Int(4))
    assert expr("x.topology() == Some(Topology::GPU)") == B(
        "==", N["MethodCall"](V("x"), "topology", ()), N["SomeTopo"](Topo("GPU")))


def test_match_on_a_try_pin_result():
    def arm(variant, name, *stmts, value=None):
        return N["Arm"](variant, N["Param"](name, None), N["Block"](stmts, value))

    pin = N["MethodCall"](V("x"), "try_pin", (Topo("GPU"),))
    got = body("match x.try_pin(Topology::GPU) { Available(p) => { f(p); }, "
               "Saturated(v) => { } }").value  # last in its block, without `;`: its value
    assert got == (N["Match"](pin, (
        arm("Available", "p", N["ExprStmt"](N["Call"](V("f"), (), (V("p"),)))),
        arm("Saturated", "v"))))
    # Either order, the path spelling, the comma between arms and after the last optional;
    # a match is an expression whose value is its arm's.
    assert expr("match h { HardwareState::Saturated(v) => { 1 } Available(p) => { 2 }, }") == \
        N["Match"](V("h"), (arm("Saturated", "v", value=Int(1)),
                            arm("Available", "p", value=Int(2))))
    assert expr("match x.try_pin(Topology::GPU) {}") == N["Match"](pin, ())
    # Without a `try_pin` or its patterns, a match is on a value.
    assert expr("match h {}") == N["MatchValue"](V("h"), ())
    # As a statement it ends with its block, like `spawn on`: the `;` after it is optional.
    assert [s._prod for s in body("match h {} let z = 0;").stmts] == ["ExprStmt", "Let"]


def test_match_is_reserved():
    _, d = parse_text("fn main() { let match = 1; }")
    assert d.codes() == ["E1001"]


def test_closures():
    assert expr("|x: i32| x + 1") == N["Closure"](
        (N["Param"]("x", I32),), N["Block"]((), B("+", V("x"), Int(1))))
    assert expr("|x| { x }") == N["Closure"]((N["Param"]("x", None),), N["Block"]((), V("x")))
    assert expr("|x: i32| comptime { x }") == N["Closure"](
        (N["Param"]("x", I32),), N["Block"]((), N["Comptime"](N["Block"]((), V("x")))))
    assert expr("|| 0") == N["Closure"]((), N["Block"]((), Int(0)))
    assert expr("a || || 0") == B("||", V("a"), N["Closure"]((), N["Block"]((), Int(0))))


def test_types():
    def ty(text):
        return stmt(f"let v: {text} = 0;").type

    assert ty("Pinned<i32, Topology::GPU>") == N["PinnedType"](I32, Topo("GPU"))
    assert ty("Verified<f32>") == N["VerifiedType"](F32)
    assert ty("HardwareState<T, Topology::X>") == N["HardwareStateType"](
        N["NamedType"]("T"), Topo("X"))
    assert ty("Ref<T, Memory::X>") == N["RefType"](N["NamedType"]("T"), N["MemRef"]("X"))
    assert ty("Verified<Pinned<i32, Topology::GPU>>") == N["VerifiedType"](
        N["PinnedType"](I32, Topo("GPU")))
    for s in ("i8", "i16", "i64", "u8", "u32", "u64", "f16", "bf16", "f64", "bool", "void"):
        assert ty(s) == N["Scalar"](s)


def test_literals():
    assert expr("1_000") == Int(1000)
    assert expr("0xFF") == Int(255)
    assert expr(str(2**64 - 1)) == Int(2**64 - 1)
    assert expr("1.5") == N["Float"](1.5)
    assert expr("1e3") == N["Float"](1000.0)
    assert expr("2.5e-3") == N["Float"](0.0025)
    assert expr("true") == N["Bool"](True) and expr("false") == N["Bool"](False)
    assert expr('"a\\tb"') == N["Str"]("a\tb")


def test_comments_are_ignored():
    assert body("// a comment\nlet x = 1; // another\n").stmts == (N["Let"]("x", False, None,
                                                                                 Int(1)),)


# -- spans ---------------------------------------------------------------------------------


def test_spans_line_and_column():
    prog = program("fn main() {\n  let x = a + f(b)[2];\n}\n")
    let = prog.items[0].body.stmts[0]
    assert (let.span.line, let.span.col) == (2, 3)
    value = let.value
    assert (value.span.line, value.span.col) == (2, 11)
    call_index = value.right
    src = prog.items[0].span.source.text
    assert src[call_index.span.start:call_index.span.end] == "f(b)[2]"
    assert src[let.span.start:let.span.end] == "let x = a + f(b)[2];"


def test_every_node_has_a_span():
    from nano_vx.nanopass.verify import children

    prog = program((CASES / "playground.vx").read_text() + (CASES / "declarations.vx")
                   .read_text())
    stack = [prog]
    while stack:
        node = stack.pop()
        assert node.span is not None, node
        stack.extend(child for _, _, child in children(node))


# -- the surface of the public Vx compiler (vx-surface): first forms -------------------------


def test_remainder_assignment_is_a_compound_assignment_not_a_remainder():
    assert stmt("x %= 5;") == N["Assign"](V("x"), "%=", Int(5))
    assert stmt("t[1] %= 4;") == N["Assign"](N["Index"](V("t"), Int(1)), "%=", Int(4))
    assert expr("a % b") == B("%", V("a"), V("b"))


def test_print_with_a_bang_is_print():
    assert stmt("print!(7);") == N["ExprStmt"](N["Call"](V("print"), (), (Int(7),)))
    assert stmt("print! (7);") == stmt("print(7);")
    assert expr("print != 3") == B("!=", V("print"), Int(3))


def test_an_unsafe_block_is_an_expression_and_a_statement():
    block = N["Block"]((N["Assign"](N["Var"]("x"), "=", N["Int"](1)),), None)
    assert body("unsafe { x = 1; }").value == N["Unsafe"](block)  # ending a block: its value
    assert stmt("unsafe { x = 1; };") == N["ExprStmt"](N["Unsafe"](block))
    let = stmt("let y = unsafe { *p };")
    assert let.value == N["Unsafe"](N["Block"]((), N["Deref"](N["Var"]("p"))))


def test_an_unsafe_fn_is_marked_after_its_contracts():
    fn = program("unsafe fn f(x: i32) requires x > 0 { g(); }").items[0]
    assert [s._prod for s in fn.body.stmts] == ["Requires", "UnsafeFn", "ExprStmt"]


def test_pointer_types_and_as_ptr():
    let = stmt("let p: *mut f32 = t.as_mut_ptr();")
    assert let.type == N["PtrType"](N["Scalar"]("f32"), True, None)
    assert let.value == N["AsPtr"](N["Var"]("t"), True)
    assert stmt("let q: *const i32 = t.as_ptr();").value == N["AsPtr"](N["Var"]("t"), False)


def test_transfer_is_the_older_spelling_of_the_reachable_bound():
    old = program("fn f<A: Topology, B: Topology>() where Transfer<A, B> { }").items[0]
    new = program("fn f<A: Topology, B: Topology>() where Reachable<A, B> { }").items[0]
    assert old == new and old.bounds == (N["ReachableBound"]("A", "B"),)


# -- literal suffixes (vx-surface: `0i64`, `10f32`, `3u8`) ----------------------------------


@pytest.mark.parametrize("text,value,suffix", [
    ("0i64", N["Int"](0), "i64"), ("3u8", N["Int"](3), "u8"), ("1_000_u32", N["Int"](1000), "u32"),
    ("0xFFu8", N["Int"](255), "u8"), ("10f32", N["Float"](10.0), "f32"),
    ("2.5f64", N["Float"](2.5), "f64"), ("1e3f32", N["Float"](1000.0), "f32"),
    ("7bf16", N["Float"](7.0), "bf16"),
])
def test_a_literal_may_carry_its_type(text, value, suffix):
    assert expr(text) == N["Suffixed"](value, suffix)


def test_a_hexadecimal_literal_ending_in_f32_is_one_number_as_in_rust():
    assert expr("0x1f32") == Int(0x1F32)


@pytest.mark.parametrize("text", ["1.5i32", "0x10f32x", "3u7", "2.0u8"])
def test_an_unknown_or_misplaced_suffix_is_e1006(text):
    _, diags = parse_text(f"fn main() {{ let v = {text}; }}")
    assert diags.codes() == ["E1006"]


# `a <` before a literal is first tried as the start of a generic call `a<2>(..)`; a
# literal with a suffix is no dimension, so that attempt fails quietly.
@pytest.mark.parametrize("text,tree", [
    ("a << 2i32", B("<<", V("a"), N["Suffixed"](Int(2), "i32"))),
    ("a < 0xFFu8", B("<", V("a"), N["Suffixed"](Int(255), "u8"))),
    ("a < 10f32", B("<", V("a"), N["Suffixed"](N["Float"](10.0), "f32"))),
    ("a < 0x1f32", B("<", V("a"), Int(0x1F32))),
])
def test_a_suffixed_literal_after_a_less_than_is_compared_or_shifted(text, tree):
    assert expr(text) == tree


# -- bitwise operators and shifts, with Rust's precedence -----------------------------------


@pytest.mark.parametrize("text,tree", [
    ("1 + 2 << 3", B("<<", B("+", Int(1), Int(2)), Int(3))),
    ("a & b == 8", B("==", B("&", V("a"), V("b")), Int(8))),
    ("a | b ^ c & d", B("|", V("a"), B("^", V("b"), B("&", V("c"), V("d"))))),
    ("a << 1 >> 2", B(">>", B("<<", V("a"), Int(1)), Int(2))),
    ("a < b << 1", B("<", V("a"), B("<<", V("b"), Int(1)))),
    ("a || b | c", B("||", V("a"), B("|", V("b"), V("c")))),
])
def test_bitwise_operators_bind_as_in_rust(text, tree):
    assert expr(text) == tree


@pytest.mark.parametrize("op", ["&=", "|=", "^=", "<<=", ">>=", "%="])
def test_every_binary_operator_has_its_compound_assignment(op):
    assert stmt(f"x {op} 2;") == N["Assign"](V("x"), op, Int(2))


def test_a_closure_is_still_a_closure_beside_bitwise_or():
    f = expr("|x| x | 1")
    assert f._prod == "Closure" and f.body.value == B("|", V("x"), Int(1))


def test_loop_is_a_statement_and_a_reserved_word():
    assert stmt("loop { break; }") == N["Loop"](N["Block"]((N["Break"](),), None))
    _, diags = parse_text("fn main() { let loop = 1; }")
    assert diags.codes() == ["E1001"]


def test_a_variant_may_be_named_anything_some_and_none_included():
    prog = program("enum Option { Some(i32), None } enum K { fn, Tensor }")
    opt, k = prog.items
    assert [v.name for v in opt.variants] == ["Some", "None"]
    assert [v.name for v in k.variants] == ["fn", "Tensor"]
    assert expr("Option::Some(42)") == N["PathCall"]("Option", (), "Some", (), (Int(42),))
    assert expr("Option::None") == N["EnumValue"]("Option", "None")
    assert expr("K::fn") == N["EnumValue"]("K", "fn")


def test_some_and_none_alone_are_still_topology_values():
    assert expr("Some(Topology::GPU)") == N["SomeTopo"](Topo("GPU"))
    assert expr("None") == N["NoneTopo"]()


@pytest.mark.parametrize("text", ["Array<f32, N> { data: t }", "Array::<f32, N> { data: t }"])
def test_a_struct_literal_may_give_its_generic_arguments(text):
    args = (N["TypeArg"](F32), N["TypeArg"](N["NamedType"]("N")))
    assert expr(text) == N["StructLit"]("Array", args, (N["FieldInit"]("data", V("t")),))


def test_less_than_and_greater_than_stay_comparisons_before_a_block():
    (s,) = body("if a < b && c > d { x }").stmts
    assert s.cond == B("&&", B("<", V("a"), V("b")), B(">", V("c"), V("d")))


def test_a_let_without_a_value_declares_its_variable():
    assert stmt("let x: i32;") == N["Declare"]("x", False, I32)
    assert stmt("let mut t: f32;") == N["Declare"]("t", True, F32)


def test_a_let_without_a_value_or_a_type_is_e1001():
    _, diags = parse_text("fn main() { let x; }")
    assert diags.codes() == ["E1001"]
    assert "needs a type" in diags.items[0].message


@pytest.mark.parametrize("word", ["Reachable", "Transfer"])
def test_a_route_question_takes_topologies_or_memory_spaces(word):
    assert expr(f"{word}<Topology::CPU, Memory::GPU_HBM>") == \
        N["ReachableQ"](Topo("CPU"), N["MemRef"]("GPU_HBM"))


def test_transfer_is_a_name_when_no_place_follows():
    assert expr("Transfer + 1") == B("+", V("Transfer"), Int(1))
    assert expr("Transfer < limit") == B("<", V("Transfer"), V("limit"))


def test_the_older_tensor_spelling_names_a_space_and_no_shape():
    let = stmt("let b: Tensor<f32, CPU_DRAM> = malloc(4);")
    assert let.type == N["TensorType"](N["Scalar"]("f32"), (N["DimAny"](),),
                                       N["MemRef"]("CPU_DRAM"))
    assert stmt("let c: Tensor<f32, [4], Memory::CPU_DRAM> = t;").type.dims == (N["DimInt"](4),)
