"""resolve-names: Local names unique per function, Global items and builtins, E2001."""

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.cli import main as cli_main
from nano_vx.context import Compilation
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.languages import Lresolved, Ltransfers
from nano_vx.nanopass import Node, children
from nano_vx.passes.resolve_names import resolve_names
from nano_vx.source import Source

CASES = Path(__file__).parent / "cases" / "resolve_names"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {"undefined"}  # the cases this pass reports errors on
R = Lresolved.nodes


@pytest.mark.parametrize("case", NAMES)
def test_output(case, front, snapshot_txt, snapshot_dot):
    ran = front(CASES / f"{case}.vx", resolve_names)
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"resolve-names: {case}") == snapshot_dot


@pytest.mark.parametrize("case", [c for c in NAMES if c not in REFUSED])
def test_the_output_prints_what_the_input_printed(case, front):
    before, after = front(CASES / f"{case}.vx", resolve_names).prints()
    assert after == before


def _walk(node):
    """Every node below `node`, in source order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed([c for _, _, c in children(n)]))


def _bindings(fn):
    """The names a function binds, in source order."""
    names = [g.name for g in fn.generics if g._prod == "ConstParam"]
    for n in _walk(fn):
        if n._prod in ("Let", "Param"):
            names.append(n.name)
        elif n._prod == "For":
            names.append(n.var)
    return names


def test_shadowing_gets_numbered_names(front):
    ran = front(CASES / "shadowing.vx", resolve_names)
    assert not ran.diagnostics.items
    scale, _, main = ran.after.items
    assert _bindings(scale) == ["S", "x", "n", "x#1", "i", "x#2", "add", "x#3", "n#1"]
    assert _bindings(main) == ["x", "x#1"]
    body = scale.body.stmts
    assert body[0].value == R["Local"]("S")  # the const generic, as a value
    assert body[1].value.left == R["Local"]("x")  # `let x = x * n` reads the parameter
    assert body[-1].value == R["Local"]("x#1")  # `return x` after the loop's shadow ended
    loop_print = body[2].body.stmts[1].expr
    assert (loop_print.callee, loop_print.args[0]) == (R["Global"]("print"), R["Local"]("x#2"))
    assert main.body.stmts[1].value.left.callee == R["Global"]("scale")
    assert main.body.stmts[1].value.right == R["Global"]("LIMIT")


def test_a_match_arm_binds_its_name_for_its_own_block(front):
    ran = front(CASES / "match_arms.vx", resolve_names)
    assert not ran.diagnostics.items
    [main] = ran.after.items
    assert _bindings(main) == ["p", "p#1", "v", "p#2"]
    available, saturated = main.body.stmts[1].expr.arms
    assert available.body.stmts[0].expr.args == (R["Local"]("p#1"),)
    assert saturated.body.stmts[1].expr.args == (R["Local"]("p#2"),)
    assert main.body.stmts[2].expr.args == (R["Local"]("p"),)  # the arm's `p` has ended
    ran = front("fn main() { match 1.try_pin(Topology::NPU) { Available(q) => { } "
                "Saturated(w) => { print(q); } } print(w); }", resolve_names)
    assert [d.message for d in ran.diagnostics.items] == [
        "cannot find value 'q' in this scope", "cannot find value 'w' in this scope"]


def test_undefined_names_are_e2001_at_each_use(front):
    ran = front(CASES / "undefined.vx", resolve_names)
    diags = ran.diagnostics.items
    assert [d.code for d in diags] == ["E2001"] * 3
    assert [d.message for d in diags] == [
        "cannot find value 'inner' in this scope",
        "cannot find value 'missing' in this scope",
        "cannot find value 'late' in this scope",
    ]
    text = diags[0].span.source.text
    assert [(d.span.line, text[d.span.start:d.span.end]) for d in diags] == [
        (6, "inner"), (6, "missing"), (7, "late")]
    # The unresolved names are Globals, so the tree is a valid Lresolved program.
    assert {g.name for g in ran.nodes("Global")} == {"print", "inner", "missing", "late"}


def test_the_repaired_program_resolves_cleanly(front):
    ran = front(CASES / "repaired.vx", resolve_names)
    assert not ran.diagnostics.items


def test_memory_and_topology_names_are_not_variables(front):
    ran = front("fn main() { let t = Tensor<f32, [4]>::new(); "
                "let u = transfer(t, Memory::NPU_HBM); spawn on(Topology::NPU[0]) { }; }\n",
                resolve_names)
    assert not ran.diagnostics.items
    assert [m.name for m in ran.nodes("MemRef")] == ["NPU_HBM"]


# -- property: unique bindings, and erasing the numbers gives back the input --------------

T = Ltransfers.nodes
LETTERS = st.sampled_from(["x", "y", "n"])
I32 = T["Scalar"]("i32")

exprs = st.recursive(
    st.one_of(st.integers(0, 9).map(T["Int"]), LETTERS.map(T["Var"])),
    lambda inner: st.builds(T["Binary"], st.just("+"), inner, inner),
    max_leaves=4,
)


def _block(stmts):
    return st.builds(T["Block"], st.lists(stmts, max_size=4), st.none() | exprs)


def _sized(name, mutable, extent):
    """`let name: Tensor<i32, [extent]> = extent;`: the extent and the value read one name at
    one place."""
    return T["Let"](name, mutable, T["TensorType"](I32, (T["DimName"](extent),), None),
                    T["Var"](extent))


stmts = st.recursive(
    st.one_of(
        st.builds(T["Let"], LETTERS, st.booleans(), st.none(), exprs),
        st.builds(_sized, LETTERS, st.booleans(), LETTERS),
        st.builds(lambda e: T["ExprStmt"](T["Call"](T["Var"]("print"), (), (e,))), exprs),
    ),
    lambda inner: st.one_of(
        st.builds(T["For"], LETTERS, st.just(T["Int"](0)), exprs, _block(inner)),
        st.builds(T["If"], exprs, st.just(False), _block(inner), st.none()),
        st.builds(
            lambda ps, body: T["ExprStmt"](T["Closure"](ps, body)),
            st.lists(st.builds(T["Param"], LETTERS, st.just(I32)), max_size=2),
            _block(inner),
        ),
        st.builds(
            lambda e, arms: T["ExprStmt"](T["Match"](e, tuple(arms))),
            exprs,
            st.lists(st.builds(T["Arm"], st.sampled_from(["Available", "Saturated"]),
                               st.builds(T["Param"], LETTERS, st.none()), _block(inner)),
                     max_size=2),
        ),
    ),
    max_leaves=8,
)

fns = st.builds(
    lambda generics, params, body: T["Fn"]("f", generics, params, None, None, (), body),
    st.lists(st.builds(T["ConstParam"], LETTERS, st.just(I32)), max_size=1),
    st.lists(st.builds(T["Param"], LETTERS, st.just(I32)), max_size=2),
    _block(stmts),
)


def _erase(node):
    """Back to Ltransfers: Local and Global become Var, unique names lose their `#n`."""
    if node._prod in ("Local", "Global"):
        return T["Var"](node.name.partition("#")[0])
    values = []
    for f in type(node)._declared:
        v = getattr(node, f.name)
        if f.mult == "*":
            v = tuple(_erase(x) for x in v)
        elif isinstance(v, Node):
            v = _erase(v)
        elif f.kind == "uname":
            v = v.partition("#")[0]
        values.append(v)
    return T[node._prod](*values)


@settings(max_examples=50, deadline=None)
@given(fns)
def test_every_binding_in_a_function_is_unique(fn):
    program = T["Program"]((fn,))
    ctx = Compilation(Source("generated.vx", ""))
    out = resolve_names(program, ctx)
    names = _bindings(out.items[0])
    assert len(names) == len(set(names)), names
    # Only names changed, and every Local names a binding of its function.
    assert _erase(out) == program
    assert {n.name for n in _walk(out) if n._prod == "Local"} <= set(names)
    # E2001 exactly once per use of a name that is neither local nor global (an extent's
    # too: a sized `let`'s value reads the name its extent does).
    unknown = [n for n in _walk(out) if n._prod == "Global" and n.name not in ("f", "print")]
    unknown += [n for n in _walk(out) if n._prod == "Let" and n.type is not None
                and n.value._prod == "Global"]
    assert ctx.diagnostics.codes() == ["E2001"] * len(unknown)


@settings(max_examples=50, deadline=None)
@given(fns)
def test_an_extent_names_the_binding_a_read_of_its_name_there_names(fn):
    out = resolve_names(T["Program"]((fn,)), Compilation(Source("generated.vx", "")))
    sized = [n for n in _walk(out) if n._prod == "Let" and n.type is not None]
    assert [n.type.dims[0].name for n in sized] == [n.value.name for n in sized]



PRUNED = Path(__file__).parent / "cases" / "monomorphize" / "if_comptime_prunes_a_name.vx"


def test_an_unknown_name_under_an_if_comptime_on_a_generic_waits_for_the_instance(front):
    assert not front(PRUNED, resolve_names).diagnostics.items


def test_an_unknown_name_under_any_if_comptime_waits_for_the_pruning(front):
    # Every `if comptime` is decided before the checks (monomorphize prunes each function):
    # its branch not taken may name what does not exist, and check-deferred-names judges the
    # branch that is kept.
    text = "fn main() {\n    if comptime 1 > 2 {\n        missing();\n    }\n}\n"
    assert not front(text, resolve_names).diagnostics.items


def test_handwritten_return_outside_an_ensures(run_pass, snapshot_txt):
    # `return` as a value outside an `ensures`: Ltransfers' ReturnValue may stand anywhere,
    # the parser reads it only in that clause. It names no result here: E2001.
    ran = run_pass("resolve-names", """
        // IL: Ltransfers
        fn main() {
            print(return);
        }
    """)
    assert ran.codes == ["E2001"]
    assert ran.dump == snapshot_txt


def test_a_function_or_a_local_named_splat_shadows_the_vector_builtin(front, tmp_path):
    text = ("fn splat(x: i32) -> i32 { x * 2 }\n\nfn main() {\n  print(splat(21));\n"
            "  let v: <2 x f32> = splat::<2 x f32>(1.5);\n  print(v[1]);\n}\n")
    ran = front(text, resolve_names)
    assert not ran.diagnostics.items
    call = ran.after.items[1].body.stmts[0].expr.args[0]
    assert (call._prod, call.callee) == ("Call", R["Global"]("splat"))
    typed = ran.after.items[1].body.stmts[1].value
    assert typed._prod == "Splat"  # with its vector type written: the builtin
    case = tmp_path / "splat.vx"
    case.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    assert cli_main([str(case), "--action", "interpret"], stdout=out, stderr=err) == 0
    assert out.getvalue() == "42\n1.5\n"
    local = front("fn main() {\n  let splat = |x: i32| x + 1;\n  print(splat(41));\n}\n",
                  resolve_names)
    assert not local.diagnostics.items
    assert local.after.items[0].body.stmts[1].expr.args[0].callee == R["Local"]("splat")



def test_an_undefined_name_close_to_one_in_scope_names_it(front):
    ran = front("fn add(a: i32, b: i32) -> i32 { a + b }\n"
                "fn main() { let count = 3; print(cout); print(ad(1, 2)); print(zzz); }\n",
                resolve_names)
    assert [d.help for d in ran.diagnostics.items] == [
        ["a name in scope is close: 'count'"], ["a name in scope is close: 'add'"], []]
    assert ran.diagnostics.codes() == ["E2001"] * 3


def test_an_extent_naming_nothing_in_a_body_is_e2001(front):
    ran = front("const N: i32 = 2;\nstruct S<const K: i32> { a: Tensor<i32, [K]> }\n"
                "fn f<const M: i32>(t: Tensor<i32, [M]>) -> i32 {\n"
                "    let n = 3;\n    let u = Tensor<i32, [M]>::fill(1);\n"
                "    let v = Tensor<i32, [n]>::fill(2);\n    let w = Tensor<i32, [N]>::fill(3);\n"
                "    let z = Tensor<i32, [zz]>::fill(4);\n    t[0]\n}\n"
                "fn main() { }\n", resolve_names)
    [diag] = ran.diagnostics.items
    assert (diag.code, diag.message) == ("E2001", "cannot find value 'zz' in this scope")
