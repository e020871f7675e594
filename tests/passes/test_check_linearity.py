"""check-linearity: a transfer consumes its local; a later use is E4001."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.check_linearity import check_linearity
from nano_vx.placement.persistent_map import PersistentMap
from front import run_front

CASES = Path(__file__).parent / "cases" / "check_linearity"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {"straight", "branch", "loop", "unrolled", "match"}


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", check_linearity)
    assert ran.after is ran.before  # a check: the tree goes on as it came
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"check-linearity: {case}") == snapshot_dot


def _moved(diag):
    """(line, column, text) of the span the label names, and the label."""
    [label] = diag.labels
    sp = label.span
    return (*sp.source.line_col(sp.start), sp.source.text[sp.start:sp.end]), label.text


def _refusal(case):
    ran = run_front(CASES / f"{case}.vx", check_linearity)
    [diag] = ran.diagnostics.items
    assert diag.code == "E4001"
    text = diag.span.source.text
    return diag, (diag.span.line, text[diag.span.start:diag.span.end])


def test_a_use_after_the_transfer_names_the_variable_and_the_move():
    diag, where = _refusal("straight")
    assert where == (5, "host")
    assert diag.message == ("use of moved value 'host': it was moved to Memory::GPU_HBM "
                            "at line 4, column 15")
    assert _moved(diag) == ((4, 24, "host"), "'host' moved here")
    assert diag.notes == []
    assert diag.data == {"name": "host", "moved_to": "GPU_HBM",
                         "moved_at": {"line": 4, "column": 15}}


def test_the_move_is_drawn_under_its_line_as_a_secondary_label():
    diag, _ = _refusal("straight")
    assert diag.render() == (
        "error[E4001]: use of moved value 'host': it was moved to Memory::GPU_HBM at line 4, "
        "column 15\n"
        " --> straight.vx:5:11\n"
        "  |\n"
        "4 |     let dev = transfer(host, Memory::GPU_HBM);\n"
        "  |                        ---- 'host' moved here\n"
        "5 |     print(host[0]);\n"
        "  |           ^^^^\n"
        "  = help: read the value where it went (`let y = transfer(host, ..);` then `y`), or "
        "give 'host' a new value before this use")


def test_a_move_on_one_branch_counts_after_the_if():
    diag, where = _refusal("branch")
    assert where == (8, "t")
    assert "moved to Memory::NPU_HBM at line 6" in diag.message


def test_the_arms_of_a_match_are_branches():
    # The read in the other arm is not after the move; the one after the match is.
    diag, where = _refusal("match")
    assert where == (13, "t")
    assert "moved to Memory::NPU_HBM at line 7" in diag.message


def test_a_move_in_a_loop_of_an_outer_variable_fails_on_the_next_iteration():
    diag, where = _refusal("loop")
    assert where == (6, "t")
    assert "in an earlier iteration of the loop" in diag.message
    assert _moved(diag) == ((6, 26, "t"), "'t' moved here, in an earlier iteration")


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_interpreter_stops_on_the_refused_programs_too(case):
    before, after = run_front(CASES / f"{case}.vx", check_linearity).prints()
    assert "stopped: E9004" in before and after == before


def test_the_repaired_programs_are_admitted_and_run_unchanged():
    ran = run_front(CASES / "repaired.vx", check_linearity)
    assert not ran.diagnostics.items
    before, after = ran.prints()
    assert after == before == "1.5\n[2, 2]\n[1, 1]\n[4, 4]\n0\n"


def _refused_and_repaired(case, where, message):
    """The one refusal of `case`, at `where` with `message`, and the run of its repair, which
    is admitted."""
    diag, at = _refusal(case)
    assert (at, diag.message) == (where, message)
    repaired = run_front(CASES / f"{case}_repaired.vx", check_linearity)
    assert not repaired.diagnostics.items
    return diag, repaired


def test_a_tensor_assigned_to_an_element_moves_into_it_as_into_a_field():
    _, repaired = _refused_and_repaired(
        "moved_into_element", (6, "fresh"),
        "use of moved value 'fresh': it was moved into 'held.0' at line 5, column 5")
    assert repaired.prints() == ("2.5\n", "2.5\n")


def test_a_while_condition_that_reads_a_moved_value_is_refused():
    ran = run_front("fn main() { let t = Tensor<i32, [1]>::fill(1); let mut n = 0;\n"
                     "while t[0] > n { let d = transfer(t, Memory::NPU_HBM); n = n + 1; } }\n",
                     check_linearity)
    # Both uses on the second iteration: the condition, and the transfer itself.
    assert [d.code for d in ran.diagnostics.items] == ["E4001", "E4001"]
    assert [d.span.source.line_col(d.span.start) for d in ran.diagnostics.items] == [(2, 7), (2, 35)]
    assert all("earlier iteration" in d.message for d in ran.diagnostics.items)


def test_a_use_in_every_copy_of_an_unrolled_body_is_one_error():
    diag, where = _refusal("unrolled")
    assert where == (8, "t")
    assert _moved(diag) == ((7, 29, "t"), "'t' moved here")
    assert diag.notes == ["this applies to each of the 4 copies of this code that `unroll across` makes"]


@pytest.mark.parametrize("loop, refused", [
    # A `break` leaves the loop: what was moved before it is not moved on a next turn.
    ("for i in 0..3 { print(consume(t)); if i == 1 { break; } t = Tensor<i32, [2]>::fill(i); }",
     False),
    ("for i in 0..3 { if i == 1 { print(consume(t)); break; } } print(t);", True),
    # A `continue` goes on to the next turn.
    ("for i in 0..3 { print(consume(t)); if i == 1 { continue; } t = Tensor<i32, [2]>::fill(i); }",
     True),
])
def test_a_break_goes_on_after_the_loop_and_a_continue_to_the_next_turn(loop, refused):
    text = ("fn consume(t: Tensor<i32, [2]>) -> i32 { t[0] + t[1] }\n"
            f"fn main() {{\n    let mut t = Tensor<i32, [2]>::fill(1);\n    {loop}\n}}\n")
    codes = [d.code for d in run_front(text, check_linearity).diagnostics.items]
    assert codes == (["E4001"] if refused else [])


def test_a_for_variable_is_a_fresh_value_each_time_round():
    text = ("fn main() {\n    for i in 0..3 {\n        let k = transfer(i, Memory::NPU_HBM);\n"
            "    }\n}\n")
    assert not run_front(text, check_linearity).diagnostics.items


@pytest.mark.parametrize("closure", [
    "|x: Tensor<i32, [2]>| x",
    "|x: Tensor<i32, [2]>| { let y = x; y }",
])
def test_a_closure_parameter_is_a_fresh_value_at_each_call(closure):
    # A closure written in a loop's body returning (moving) its parameter: each turn's call
    # gives it a new value. Moving it twice within one call is still refused.
    text = ("fn main() {\n    for i in 0..2 {\n        let f = CLOSURE;\n"
            "        let u = f(Tensor<i32, [2]>::fill(i));\n        print(u[0]);\n    }\n}\n")
    ran = run_front(text.replace("CLOSURE", closure), check_linearity)
    assert not ran.diagnostics.items
    twice = run_front(text.replace("CLOSURE", "|x: Tensor<i32, [2]>| { let y = x; x }"),
                      check_linearity)
    [d] = twice.diagnostics.items
    assert d.code == "E4001" and "earlier iteration" not in d.message


def test_nested_loops_that_move_nothing_are_walked_once_each(monkeypatch):
    # Each loop walks its body twice to see the next iteration; without moves the second
    # walk repeats the first and is skipped, so nested loops cost their number, not 2^depth
    # (20 nested loops took 220 s).
    import nano_vx.passes.check_linearity as pass_module

    walks = []
    loop = pass_module._loop
    monkeypatch.setattr(pass_module, "_loop", lambda *a, **k: walks.append(1) or loop(*a, **k))
    depth = 16
    body = "".join("    " * i + "while x < 1 {\n" for i in range(1, depth + 1))
    body += "    " * (depth + 1) + "print(x);\n"
    body += "".join("    " * i + "}\n" for i in range(depth, 0, -1))
    text = f"fn main() {{\n    let x = 0;\n{body}}}\n"
    assert not run_front(text, check_linearity).diagnostics.items
    assert len(walks) == depth


# -- moves by a call ----------------------------------------------------------------------


def test_a_tensor_passed_by_value_moves_into_the_call():
    ran = run_front(CASES / "moved_by_call.vx", check_linearity)
    [diag] = ran.diagnostics.items
    text = diag.span.source.text
    assert (diag.span.line, text[diag.span.start:diag.span.end]) == (12, "t")
    assert diag.message == ("use of moved value 't': it was moved into the call of 'total' "
                            "at line 10, column 15")
    assert _moved(diag) == ((10, 21, "t"), "'t' moved here")
    assert diag.help == ["lend it instead (`&t`, with 'total' taking a reference), or give 't' "
                         "a new value before this use"]
    assert diag.data == {"name": "t", "moved_into": "total",
                         "moved_at": {"line": 10, "column": 15}}


def test_lending_the_tensor_moves_nothing_and_prints_the_same():
    ran = run_front(CASES / "lent_to_call.vx", check_linearity)
    assert not ran.diagnostics.items
    assert ran.prints() == ("1.5\n3\n1.5\n", "1.5\n3\n1.5\n")


def _moves(body: str, prelude: str = "") -> list[tuple[int, str]]:
    ran = run_front(f"{prelude}fn main() {{\n{body}\n}}\n", check_linearity)
    return [(d.span.line, d.message) for d in ran.diagnostics.items]


TAKE = "fn take(t: Tensor<i32, [2]>) -> i32 { t[0] }\n"
PAIR = "fn pair(a: Tensor<i32, [2]>, b: Tensor<i32, [2]>) -> i32 { a[0] + b[0] }\n"


@pytest.mark.parametrize("body,prelude,moves", [
    # A scalar is copied, a builtin reads, a reference is lent.
    ("let x = 1;\nlet y = id(x);\nprint(x + y);", "fn id(x: i32) -> i32 { x }\n", []),
    ("let t = Tensor<i32, [2]>::fill(1);\nprint(t);\nprint(t);", "", []),
    ("let t = Tensor<i32, [2]>::fill(1);\nlet p = &t;\nlet q = p;\nprint(look(p) + look(q));",
     "fn look(t: &Tensor<i32, [2]>) -> i32 { t[0] }\n", []),
    # The second argument reads what the first moved.
    ("let t = Tensor<i32, [2]>::fill(1);\nprint(pair(t, t));", PAIR,
     [(4, "use of moved value 't': it was moved into the call of 'pair' at line 4, column 7")]),
    # A call in a loop of a tensor made outside it moves it on the first iteration.
    ("let t = Tensor<i32, [2]>::fill(1);\nfor i in 0..2 {\nprint(take(t));\n}", TAKE,
     [(5, "use of moved value 't': it was moved into the call of 'take' in an earlier "
          "iteration of the loop at line 5, column 7")]),
    # A new value after the move is a new tensor to use.
    ("let mut t = Tensor<i32, [2]>::fill(1);\nprint(take(t));\nt = Tensor<i32, [2]>::fill(2);"
     "\nprint(take(t));", TAKE, []),
    # A closure takes what it is passed, as a function does.
    ("let f = |t: Tensor<i32, [2]>| t[0];\nlet t = Tensor<i32, [2]>::fill(1);\nprint(f(t));\n"
     "print(t[1]);", "",
     [(5, "use of moved value 't': it was moved into the call of 'f' at line 4, column 7")]),
    # The instance of a generic function is named as the generic is written.
    ("let t = Tensor<i32, [2]>::fill(1);\nprint(size(t));\nprint(t[0]);",
     "fn size<const N: i32>(t: Tensor<i32, [N]>) -> i32 { N }\n",
     [(5, "use of moved value 't': it was moved into the call of 'size' at line 4, column 7")]),
])
def test_what_a_call_moves(body, prelude, moves):
    assert _moves(body, prelude) == moves


def test_a_struct_owns_data_when_a_field_does():
    from nano_vx.languages import Ltraitless
    from nano_vx.placement.ownership import owns_data

    L = Ltraitless.nodes
    tensor = L["TensorType"](L["Scalar"]("f32"), (L["DimInt"](4),), None)
    i32 = L["Scalar"]("i32")
    pair = (L["Param"]("a", i32), L["Param"]("b", i32))
    structs = {"Pair": L["StructDecl"]("Pair", pair, (), True),
               "Moved": L["StructDecl"]("Moved", pair, (), False),
               "Tile": L["StructDecl"]("Tile", (L["Param"]("n", i32), L["Param"]("t", tensor)),
                                       (), False),
               "Loop": L["StructDecl"]("Loop", (L["Param"]("me", L["NamedType"]("Loop")),), (),
                                       True)}
    # A struct moves unless it is Copy, and desugar-traits admits Copy only for one that
    # holds nothing that moves.
    owns = {name: owns_data(L["NamedType"](name), structs) for name in structs}
    assert owns == {"Pair": False, "Moved": True, "Tile": True, "Loop": False}
    assert owns_data(L["TupleType"]((L["NamedType"]("Pair"), L["NamedType"]("Moved"))), structs)
    assert owns_data(L["PinnedType"](tensor, L["TopoRef"]("GPU", None, None)), structs)
    assert owns_data(L["TupleType"]((i32, tensor)), structs)
    assert not owns_data(L["TupleType"]((i32, i32)), structs)
    assert not owns_data(L["BorrowType"](tensor, True), structs)
    assert not owns_data(None, structs)


def test_a_struct_holding_a_tensor_moves_into_the_call_and_a_copy_struct_does_not():
    prelude = ("struct Tile { n: i32, t: Tensor<f32, [2]> }\n"
               "struct Pair { a: i32, b: i32 } trait Copy {} impl Copy for Pair {}\n"
               "fn size(x: Tile) -> i32 { x.n }\nfn sum(p: Pair) -> i32 { p.a + p.b }\n")
    assert _moves("let a = Tile { n: 2, t: Tensor<f32, [2]>::fill(1.0) };\nprint(size(a));\n"
                  "print(a.n);", prelude) == [
        (8, "use of moved value 'a': it was moved into the call of 'size' at line 7, column 7")]
    assert _moves("let p = Pair { a: 1, b: 2 };\nprint(sum(p));\nprint(p.a);", prelude) == []


def test_the_branches_of_an_if_value_and_the_cases_of_a_match_on_a_value_are_branches():
    # Each branch moves or reads x from the state before the `if`; after it, x is moved.
    text = ("fn main() {\n  let x = Tensor<f32, [4]>::fill(1.0);\n  let c = true;\n"
            "  let y = if c { transfer(x, Memory::CPU_DRAM) } else { x };\n"
            "  let z = Tensor<f32, [4]>::fill(2.0);\n"
            "  let w = match 3 { 0 => transfer(z, Memory::CPU_DRAM), _ => z };\n"
            "  print(y[0] + w[0]);\n}\n")
    assert not run_front(text, check_linearity).diagnostics.items
    after = text.replace("print(y[0] + w[0]);", "print(x[0] + z[0]);")
    said = [d.message for d in run_front(after, check_linearity).diagnostics.items]
    assert [m.split(":")[0] for m in said] == ["use of moved value 'x'", "use of moved value 'z'"]


# Hand-written Lrouted: matches on a value, which desugar-value-matches writes as `if` chains
# before this pass, one of them without a case (check-match-arms refuses it). A move in one
# case counts after the match, as one in a branch of an `if` does; no case moves nothing.
MOVED_IN_ONE_CASE = """
    // IL: Lrouted
    fn main() {
        let n: i32 = 2;
        let t: Tensor<f32, [2], Memory::CPU_DRAM> = Tensor<f32, [2]>::fill(1.0);
        match n {};
        match n {
            1 => {
                transfer[sync, CPU_DRAM -> GPU_HBM (50), cost 50](t, Memory::GPU_HBM);
            },
            _ => {},
        };
        @print(t);
    }
"""


def test_handwritten_a_move_in_one_case_of_a_value_match_counts_after(run_pass, snapshot_txt):
    ran = run_pass("check-linearity", MOVED_IN_ONE_CASE)
    assert ran.codes == ["E4001"]
    assert [d.message for d in ran.diagnostics.items] == [
        "use of moved value 't': it was moved to Memory::GPU_HBM at line 8, column 13"]
    assert ran.dump == snapshot_txt


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["set", "remove", "branch"]),
                          st.integers(0, 40), st.integers(1, 3))))
def test_the_persistent_map_of_moved_locals_acts_as_a_dict_copied_at_every_change(ops):
    """The map the walk threads, against a dict copied at every change: the same contents,
    the same union (the left map's value wins), the same equality, and an update leaves the
    map it started from as it was."""
    pm, d = PersistentMap(), {}
    for op, key, value in ops:
        before_pm, before_d = pm, dict(d)
        name = f"x{key}"
        if op == "set":
            pm, d = pm.set(name, value), {**d, name: value}
        elif op == "remove":
            pm, d = pm.remove(name), {k: v for k, v in d.items() if k != name}
        else:  # two branches from here, joined
            other_pm, other_d = pm.set(f"y{key}", value).remove(name), \
                {**{k: v for k, v in d.items() if k != name}, f"y{key}": value}
            pm, d = other_pm.union(pm), {**d, **other_d}
        assert all(before_pm.get(k) == v for k, v in before_d.items())
        assert all(pm.get(k) == v for k, v in d.items())
        assert all(pm.get(f"{p}{k}") is None for p in "xy" for k in range(41)
                   if f"{p}{k}" not in d)
        assert bool(pm) == bool(d)
        assert (pm == before_pm) == (d == before_d)


def test_a_struct_without_copy_moves_and_one_with_copy_is_copied():
    _refused_and_repaired("struct_moved", (14, "p"), "use of moved value 'p': it was moved "
                          "into the call of 'norm1' at line 13, column 11")


def test_a_let_moves_a_struct_without_copy_and_copies_one_with_copy():
    diag, _ = _refused_and_repaired(
        "struct_moved_by_let", (10, "a"),
        "use of moved value 'a': it was moved into 'b' at line 8, column 5")
    assert diag.data["moved_into"] == "b"
    assert _moved(diag) == ((8, 13, "a"), "'a' moved here")


@pytest.mark.parametrize("body, refused", [
    ("let mut b = S { x: 1 }; let a = S { x: 2 }; b = a; print(a.x);", True),
    ("let a = S { x: 2 }; let b = a; let a = S { x: 3 }; print(a.x); print(b.x);", False),
    ("let t = Tensor<f32, [2]>::fill(1.0); let u = t; print(t[0]); print(u[0]);", True),
    ("let t = Tensor<f32, [2]>::fill(1.0); let u = &t; print(t[0]); print(u[0]);", False),
    ("let t = Tensor<f32, [2]>::fill(1.0); let mut u = Tensor<f32, [2]>::fill(2.0); u = t; "
     "print(t[0]);", True),
    ("let e = E::On; let f = e; print(match e { E::On => 1, _ => 0 });", False),
    ("let h = H::Full(Tensor<f32, [2]>::fill(1.0)); let g = h; print(1); let k = h;", True),
])
def test_an_assignment_moves_as_a_let_does_and_only_what_owns_no_copy(body, refused):
    text = ("trait Copy {}\nstruct S { x: i32 }\nenum E { On, Off }\n"
            "enum H { Empty, Full(Tensor<f32, [2]>) }\n"
            f"fn main() {{ {body} }}\n")
    codes = run_front(text, check_linearity).diagnostics.codes()
    assert codes == (["E4001"] if refused else [])


def test_an_enum_carrying_a_tensor_moves_into_a_call_and_one_of_scalars_is_copied():
    text = ("enum H { Empty, Full(Tensor<f32, [2]>) }\nenum L { On, Off(i32) }\n"
            "fn take(h: H) -> i32 { 1 }\nfn look(l: L) -> i32 { 2 }\n"
            "fn main() { let h = H::Empty; let l = L::Off(3); print(take(h)); print(look(l)); "
            "print(look(l)); print(take(h)); }\n")
    [d] = run_front(text, check_linearity).diagnostics.items
    assert d.message.startswith("use of moved value 'h': it was moved into the call of 'take'")


def test_a_tensor_bound_to_another_name_is_moved_into_it():
    text = ("fn main() {\n  let t = Tensor<f32, [4]>::fill(1.0);\n  let u = t;\n"
            "  print(t[0]);\n  print(u[1]);\n}\n")
    [d] = run_front(text, check_linearity).diagnostics.items
    assert (d.code, d.message) == ("E4001", "use of moved value 't': it was moved into 'u' at "
                                            "line 3, column 3")
    assert d.help == ["read it through 'u', lend it (`&t`), or give 't' a new value before "
                      "this use"]
    repaired = text.replace("print(t[0])", "print(u[0])")
    assert not run_front(repaired, check_linearity).diagnostics.items


@pytest.mark.parametrize("body, message, help", [
    ("let mut h = H { t: Tensor<f32, [4]>::fill(1.0) }; let t = Tensor<f32, [4]>::fill(2.0); "
     "h.t = t; print(h.t[1] + t[1]);",
     "it was moved into 'h.t' at line 3, column 100",
     "read it through 'h.t', or give 't' a new value before this use"),
    ("let t = Tensor<f32, [4]>::fill(2.0); let h = H { t: t }; print(h.t[1] + t[1]);",
     "it was moved into the 'H' value at line 3, column 58",
     "read it through the 'H' value, or give 't' a new value before this use"),
    ("let t = Tensor<f32, [4]>::fill(2.0); let p = (t, 1); print(t[0]);",
     "it was moved into the tuple at line 3, column 58",
     "read it through the tuple, or give 't' a new value before this use"),
])
def test_a_tensor_put_in_a_field_a_struct_or_a_tuple_is_moved_into_it(body, message, help):
    text = f"struct H {{ t: Tensor<f32, [4]> }}\n\nfn main() {{ {body} }}\n"
    [d] = run_front(text, check_linearity).diagnostics.items
    assert (d.code, d.message, d.help) == ("E4001", f"use of moved value 't': {message}", [help])
    repaired = text.replace("+ t[1]", "").replace("print(t[0])", "print(p.0[0])")
    assert not run_front(repaired, check_linearity).diagnostics.items


def test_the_value_of_an_if_arm_moves_the_tensor_it_names():
    diag, repaired = _refused_and_repaired(
        "arm_value", (7, "a"),
        "use of moved value 'a': it was moved out as the value of its block at line 6, column 18")
    assert _moved(diag) == ((6, 20, "a"), "'a' moved here")
    assert diag.help == ["read it where that value went, or give 'a' a new value before this use"]
    assert diag.data == {"name": "a", "moved_into": "block value",
                         "moved_at": {"line": 6, "column": 18}}
    assert repaired.prints() == ("[1, 1]\n[1, 1]\n1\n",) * 2


T = "let a = Tensor<i32, [2]>::fill(1);\nlet c = true;\nlet n = 2;\n"
NEW = "Tensor<i32, [2]>::fill(2)"


@pytest.mark.parametrize("body, moved_at", [
    # else-if, the arm moving in the middle; a nested `if`; a match, as an `if` chain.
    (f"let t = if c {{ {NEW} }} else if n > 1 {{ a }} else {{ {NEW} }};\nprint(a);", (5, 58)),
    (f"let t = if c {{ if n > 1 {{ a }} else {{ {NEW} }} }} else {{ {NEW} }};\nprint(a);",
     (5, 25)),
    (f"let t = match n {{ 1 => {NEW}, _ => a }};\nprint(a);", (5, 56)),
    (f"let t = match n {{ 1 => {NEW}, _ => {{ let k = 3; a }} }};\nprint(a);", (5, 56)),
    # An `if` whose value is dropped still moves what its arm gives; so does a closure
    # returning what it captures, where it is made.
    (f"print(if c {{ a }} else {{ {NEW} }});\nprint(a);", (5, 12)),
    ("let f = || a;\nprint(a);", (5, 12)),
    # In a loop, the arm moves the outer tensor on the first iteration.
    (f"for i in 0..2 {{\nlet t = if c {{ a }} else {{ {NEW} }};\n}}", (6, 14)),
])
def test_an_arm_or_a_body_whose_value_is_an_owning_local_moves_it(body, moved_at):
    [(_, message)] = _moves(T + body)
    assert message.startswith("use of moved value 'a': it was moved out as the value of its "
                              "block")
    assert message.endswith("at line %d, column %d" % moved_at)


@pytest.mark.parametrize("body", [
    # Each arm reads what it gives, or gives a copy: scalars, references, Copy structs.
    f"let t = if c {{ a }} else {{ {NEW} }};\nprint(t);",
    "let k = 3;\nlet m = if c { k } else { 0 };\nprint(k + m);",
    "let r = if c { &a } else { &a };\nprint(r[0]);\nprint(a);",
    # `return a;` leaves: nothing after it on that path reads a.
    "if c { return; }\nprint(a);",
    # A new value after the move is a new tensor to read.
    f"let mut b = {NEW};\nlet t = if c {{ b }} else {{ {NEW} }};\nb = {NEW};\nprint(b);",
])
def test_an_arm_that_gives_a_copy_or_a_loan_moves_nothing(body):
    assert _moves(T + body) == []


def test_a_function_returning_its_parameter_from_an_arm_moves_it_out():
    text = ("fn pick(c: bool, a: Tensor<i32, [2]>) -> Tensor<i32, [2]> {\n"
            "  if c { return a; }\n  if !c { a } else { Tensor<i32, [2]>::fill(2) }\n}\n"
            "fn main() { print(pick(true, Tensor<i32, [2]>::fill(1))); }\n")
    assert not run_front(text, check_linearity).diagnostics.items


def test_a_tensor_moved_out_of_a_field_is_gone_and_the_other_fields_stay():
    diag, repaired = _refused_and_repaired(
        "field_moved", (9, "s.t"), "use of moved value 's.t': it was moved into 'u' at line 6, "
                                   "column 5")
    assert diag.data["name"] == "s.t"
    assert _moved(diag) == ((6, 13, "s.t"), "'s.t' moved here")
    before, after = repaired.prints()
    assert after == before == "[1, 2]\n3\n[4, 5]\n"


def test_a_struct_a_field_was_moved_out_of_is_not_used_whole():
    diag, repaired = _refused_and_repaired(
        "field_moved_partly", (15, "s"), "use of partially moved value 's': 's.t' was moved "
                                         "into the call of 'total' at line 14, column 11")
    assert diag.help == ["lend it instead (`&s.t`, with 'total' taking a reference), or give "
                         "'s.t' a new value before this use"]
    before, after = repaired.prints()
    assert after == before == "3\n3\n"


@pytest.mark.parametrize("body, refused", [
    ("let s = S { t: [1, 2], u: [3, 4], n: 1 }; let a = s.t; let b = s.u; print(s.n);", []),
    ("let s = S { t: [1, 2], u: [3, 4], n: 1 }; let a = s.n; print(s.t); print(s);", []),
    ("let s = S { t: [1, 2], u: [3, 4], n: 1 }; let a = s.t; print(s.t[0]);", ["s.t"]),
    ("let s = S { t: [1, 2], u: [3, 4], n: 1 }; let a = s.t; print(&s.t);", ["s.t"]),
    ("let s = S { t: [1, 2], u: [3, 4], n: 1 }; let a = s; print(s.t);", ["s"]),
    ("let s = S { t: [1, 2], u: [3, 4], n: 1 }; let a = s.t; let b = s;", ["s.t"]),
    ("let mut s = S { t: [1, 2], u: [3, 4], n: 1 }; let a = s.t; "
     "s = S { t: [5, 6], u: [7, 8], n: 2 }; print(s);", []),
    ("let s = S { t: [1, 2], u: [3, 4], n: 1 }; let a = if s.n > 0 { s.t } else { s.u }; "
     "print(s.u);", ["s.u"]),
    ("let s = S { t: [1, 2], u: [3, 4], n: 1 }; let p = (s.t, 1); print(p.1); print(s.t);",
     ["s.t"]),
    ("let mut s = S { t: [1, 2], u: [3, 4], n: 1 }; for i in 0..2 { let a = s.t; }", ["s.t"]),
    ("let mut s = S { t: [1, 2], u: [3, 4], n: 1 }; "
     "for i in 0..2 { let a = s.t; s.t = [i, i]; } print(s);", []),
    ("let o = O { s: S { t: [1, 2], u: [3, 4], n: 1 } }; let a = o.s.t; print(o.s.u); "
     "print(o.s);", ["o.s.t"]),
    ("let o = O { s: S { t: [1, 2], u: [3, 4], n: 1 } }; let a = o.s; print(o.s.t);", ["o.s"]),
    ("let p = ([1, 2], 3); let a = p.0; print(p.1); print(p.0);", ["p.0"]),
    ("let p = ([1, 2], S { t: [1, 2], u: [3, 4], n: 1 }); let a = p.1.t; print(p.1.n); "
     "print(p);", ["p.1.t"]),
])
def test_a_field_that_owns_data_moves_as_a_variable_does(body, refused):
    # The name each refusal gives is what moved: for a struct used whole, its field.
    text = ("struct S { t: Tensor<i32, [2]>, u: Tensor<i32, [2]>, n: i32 }\n"
            f"struct O {{ s: S }}\nfn main() {{ {body} }}\n")
    said = run_front(text, check_linearity).diagnostics.items
    assert [(d.code, d.data["name"]) for d in said] == [("E4001", name) for name in refused]


def test_a_second_call_of_a_closure_moving_what_it_captures_is_a_use_after_the_first():
    diag, repaired = _refused_and_repaired(
        "closure_called_twice", (11, "g()"),
        "use of moved value 't': it was moved by the call of 'g', whose body moves it, at "
        "line 10, column 11")
    assert _moved(diag) == ((10, 11, "g()"), "'t' moved here")
    assert diag.help == ["call 'g' once, or give 't' a new value before this use"]
    assert diag.data == {"name": "t", "moved_by_calling": "g",
                         "moved_at": {"line": 10, "column": 11}}
    assert repaired.prints() == ("2\n4\n6\n6\n",) * 2


def test_a_closure_handed_to_another_is_called_there():
    diag, repaired = _refused_and_repaired(
        "closure_handed_on_twice", (8, "keep(g)"),
        "use of moved value 't': it was moved by 'keep', which calls 'g' it is given, whose "
        "body moves it, at line 7, column 17")
    assert _moved(diag) == ((7, 22, "g"), "'t' moved here")
    assert diag.help == ["give 'keep' 'g' once, or give 't' a new value before this use"]
    assert diag.data == {"name": "t", "moved_by_calling": "g", "handed_to": "keep",
                         "moved_at": {"line": 7, "column": 17}}
    assert repaired.prints() == ("2\n2\n3\n",) * 2


ONCE = """fn consume(t: Tensor<i32, [2]>) -> i32 {{ t[0] }}

struct S {{ t: Tensor<i32, [2]>, n: i32 }}

fn main() {{
  let mut t = Tensor<i32, [2]>::fill(1);
  let mut s = S {{ t: Tensor<i32, [2]>::fill(2), n: 3 }};
  {body}
}}
"""


@pytest.mark.parametrize("body, refused", [
    # A call in a loop moves t again on the next turn, and an `if`'s call counts after it.
    ("let g = || consume(t); for i in 0..2 { print(g()); }",
     "by the call of 'g', whose body moves it, in an earlier iteration of the loop"),
    ("let g = || consume(t); if s.n > 2 { print(g()); } print(g());", "by the call of 'g'"),
    # Another name for the closure is the same closure; a field moves as a variable does.
    ("let g = || consume(t); let h = g; print(h()); print(g());", "by the call of 'h'"),
    ("let g = || consume(s.t); print(g()); print(g());", "value 's.t'"),
    ("let g = || t; let a = g(); let b = g();", "by the call of 'g'"),
    # What the body moves after the first call is told as what moved it.
    ("let g = || consume(t); print(g()); t = Tensor<i32, [2]>::fill(4); print(consume(t)); "
     "print(g());", "into the call of 'consume' at line 8"),
    ("let g = || consume(t); print(g()); t = Tensor<i32, [2]>::fill(4); print(g());", None),
    ("let g = || { let u = Tensor<i32, [2]>::fill(5); consume(u) }; print(g()); print(g());",
     None),
    ("let g = || consume(t); let mut k = g; k = || 7; print(k()); print(k()); print(g());",
     None),
    ("let g = |u: Tensor<i32, [2]>| consume(u); print(g(t)); print(g(s.t));", None),
    # A closure's own local is no variable around it, also on a loop's second walk; a
    # closure written in a loop's body is a new one, not yet called, on each turn.
    ("for i in 0..2 { let g = || { let u = Tensor<i32, [2]>::fill(i); consume(u) }; "
     "print(g()); print(g()); }", None),
    ("for i in 0..2 { let g = || consume(t); print(g()); t = Tensor<i32, [2]>::fill(i); }",
     None),
    # Each way into the call gives t a new value after any earlier call: a `continue` or a
    # `break` before the call is no second call.
    ("let g = || consume(t); for i in 0..3 { if i == 2 { continue; } print(g()); "
     "t = Tensor<i32, [2]>::fill(i); }", None),
    ("let g = || consume(t); for i in 0..3 { if i == 1 { break; } print(g()); "
     "t = Tensor<i32, [2]>::fill(i); } print(g());", None),
    ("let g = || consume(t); for i in 0..3 { print(g()); if i == 1 { break; } "
     "t = Tensor<i32, [2]>::fill(i); } print(g());", "by the call of 'g', whose body moves it, at"),
    ("let g = || consume(t); for i in 0..3 { if i == 2 { continue; } print(g()); }",
     "in an earlier iteration of the loop"),
    # A closure an `if` or a `match` chooses may be the one that moves t.
    ("let g = || consume(t); let h = if s.n > 2 { g } else { || 5 }; print(h()); print(h());",
     "by the call of 'h'"),
    ("let g = || consume(t); let h = match s.n { 1 => || 3, _ => g }; print(h()); "
     "t = Tensor<i32, [2]>::fill(4); print(h());", None),
    # A closure given a closure calls it as often as its body does: twice, or in a loop.
    ("let g = || consume(t); let twice = |h| h() + h(); print(twice(g));",
     "by 'twice', which may call 'g' it is given more than once, whose body moves it, at"),
    ("let g = || consume(t); let each = |h| { let mut k = 0; for i in 0..2 { k += h(); } k }; "
     "print(each(g));", "more than once"),
    ("let once = |h| h(); print(once(|| consume(t))); print(once(|| consume(t)));",
     "by 'once', which calls the closure it is given"),
    ("let g = || consume(t); let once = |h| h(); print(once(g)); print(g());",
     "by 'once', which calls 'g' it is given"),
    ("let g = || consume(t); let once = |h| h(); print(g()); print(once(g));",
     "by the call of 'g'"),
    # A closure handed on, or given to a closure that is itself a parameter, may be called
    # any number of times.
    ("let g = || consume(t); let on = |h| { let k = h; k() }; print(on(g));", "more than once"),
    ("let g = || consume(t); let via = |c, h| c(h); print(via(|k| k(), g));", "more than once"),
    # Called once per call, with a new value between, or never: admitted.
    ("let g = || consume(t); let once = |h| h(); print(once(g)); "
     "t = Tensor<i32, [2]>::fill(4); print(once(g));", None),
    ("let g = || consume(t); let skip = |h, n| n; print(skip(g, 1)); print(skip(g, 2));", None),
    ("let g = || consume(t); let pick = |h, n| if n > 1 { h() } else { 0 }; "
     "print(pick(g, 2));", None),
    # A closure that only transfers what it captures is checked when it runs (E9004).
    ("let g = || transfer(t, Memory::NPU_HBM); let once = |h| h(); let a = once(g); "
     "let b = once(g);", None),
])
def test_what_a_second_call_of_a_closure_moves(body, refused):
    ran = run_front(ONCE.format(body=body), check_linearity)
    codes = [(d.code, d.message) for d in ran.diagnostics.items]
    if refused is None:
        assert codes == []
    else:
        [(code, message)] = codes
        assert code == "E4001" and refused in message, message



def test_a_call_of_a_closure_reads_what_its_body_reads_where_it_is_called():
    diag, repaired = _refused_and_repaired(
        "closure_reads_after_move", (7, "read()"),
        "use of moved value 't': it was moved into 'u' at line 6, column 5")
    assert _moved(diag) == ((6, 13, "t"), "'t' moved here")
    assert repaired.prints() == ("8\n[4, 4]\n",) * 2
    diag, repaired = _refused_and_repaired(
        "closure_handed_reads_after_move", (12, "twice(write)"),
        "use of moved value 't': it was moved into the call of 'eat' at line 11, column 11")
    assert repaired.prints() == ("4\n[2, 4]\n",) * 2


@pytest.mark.parametrize("body, refused", [
    # What the closure reads or writes an element of is used at each call, and not before.
    ("let r = || t[0]; let u = t; print(r());", "into 'u'"),
    ("let w = |v: i32| { t[1] = v; }; print(consume(t)); w(3);", "into the call of 'consume'"),
    ("let r = || t[0]; let u = t; let k = 1;", None),
    ("let r = || s.t[0]; let u = s.t; print(r());", "value 's.t'"),
    ("let r = || s.n; let u = s.t; print(r());", None),
    # After a `transfer` the read is checked when it runs (E9004), as the closure might
    # not reach it.
    ("let r = || t[0]; let d = transfer(t, Memory::NPU_HBM); print(r());", None),
    # Through another closure that calls it, by name or given it, or one an `if` chose.
    ("let r = || t[0]; let q = || r() + 1; let u = t; print(q());", "into 'u'"),
    ("let r = || t[0]; let app = |h| h(); let u = t; print(app(r));", "into 'u'"),
    ("let r = || t[0]; let skip = |h, n| n; let u = t; print(skip(r, 1));", None),
    ("let r = || t[0]; let h = if s.n > 1 { r } else { || 2 }; let u = t; print(h());",
     "into 'u'"),
    # ... or one a call of another closure gives back, which moves what the first moves.
    ("let r = || t[0]; let mk = || r; let u = t; let g = mk(); print(g());", "into 'u'"),
    ("let r = || t[0]; let mk = || r; let g = mk(); print(g()); print(g());", None),
    ("let mk = || || consume(t); let g = mk(); print(g()); print(g());", "by the call of 'g'"),
    ("let mk = || || consume(t); let g = mk(); print(g());", None),
    # A new value in between, or one the closure gives t before it reads it.
    ("let r = || t[0]; let u = t; t = Tensor<i32, [2]>::fill(4); print(r());", None),
    ("let r = || { t = Tensor<i32, [2]>::fill(4); t[0] }; let u = t; print(r());", None),
    ("let r = || t[0]; for i in 0..2 { print(r()); let u = t; t = u; }", None),
    # On a loop's next turn both the call and the move use what the turn before moved.
    ("let r = || t[0]; for i in 0..2 { print(r()); let u = t; }",
     "in an earlier iteration of the loop"),
])
def test_what_a_call_of_a_closure_reads(body, refused):
    _refused_as(ONCE.format(body=body), refused)


def _refused_as(text, refused):
    """`text` admitted (`refused` None), or refused only with E4001s saying `refused`."""
    codes = [(d.code, d.message) for d in run_front(text, check_linearity).diagnostics.items]
    if refused is None:
        assert codes == []
    else:
        assert codes and all(code == "E4001" and refused in message
                             for code, message in codes), codes


def test_a_variant_moves_what_it_carries_and_a_case_binding_it_moves_it_out():
    diag, repaired = _refused_and_repaired(
        "moved_into_variant", (8, "t"),
        "use of moved value 't': it was moved into the 'E::Held' value at line 7, column 13")
    assert diag.data["moved_into"] == "E::Held"
    assert repaired.prints() == ("[5, 1]\n",) * 2
    diag, repaired = _refused_and_repaired(
        "moved_out_by_match", (12, "e"),
        "use of moved value 'e': it was moved out by a case of the 'match' at line 7, "
        "column 17")
    assert _moved(diag) == ((7, 23, "e"), "'e' moved here")
    assert repaired.prints() == ("3\n",) * 2


@pytest.mark.parametrize("body, refused", [
    ("let e = E::T(t); print(t);", "into the 'E::T' value"),
    ("let e = E::P(t, 1); let f = E::T(t);", "into the 'E::P' value"),
    ("let e = E::T(t); let f = e; print(e);", "into 'f'"),
    ("match E::T(t) { E::T(u) => print(u), _ => print(0) } print(t);", "into the 'E::T'"),
    # A case binding what owns data moves the scrutinee on its path; `_`, a scalar or a
    # case of another variant moves nothing.
    ("let e = E::T(t); match e { E::T(u) => print(u), _ => print(0) } print(e);",
     "out by a case of the 'match'"),
    ("let e = E::T(t); match e { x => print(1) } print(e);", "moved into"),
    ("let e = E::P(t, 1); match e { E::P(_, k) => print(k), _ => print(0) } print(e);", None),
    ("let e = E::T(t); match e { E::N(k) => print(k), _ => print(0) } print(e);", None),
    ("let e = E::T(t); let a = match e { E::T(u) => u[0], _ => 0 }; "
     "let b = match e { E::T(u) => u[1], _ => 0 };", "out by a case of the 'match'"),
    ("let mut e = E::T(t); for i in 0..2 { match e { E::T(u) => print(u), _ => print(0) } "
     "e = E::N(i); }", None),
    ("let e = E::T(t); for i in 0..2 { match e { E::T(u) => print(u), _ => print(0) } }",
     "in an earlier iteration of the loop"),
])
def test_what_an_enum_value_and_a_match_move(body, refused):
    text = ("enum E { T(Tensor<i32, [2]>), P(Tensor<i32, [2]>, i32), N(i32) }\n"
            f"fn main() {{ let t = Tensor<i32, [2]>::fill(1); {body} }}\n")
    _refused_as(text, refused)


def test_the_help_for_a_moved_enum_names_no_copy_for_a_struct():
    text = ("enum E { T(Tensor<i32, [2]>), N(i32) }\n"
            "fn main() { let e = E::N(1); let f = e; print(e); }\n")
    [diag] = run_front(text, check_linearity).diagnostics.items
    assert diag.help == ["read it through 'f', lend it (`&e`), or give 'e' a new value "
                         "before this use"]


def test_a_closure_a_maker_gives_moves_the_makers_own_variable_at_every_call():
    diag, repaired = _refused_and_repaired(
        "e4001_made_closure_moving_its_makers_parameter_called_twice", (13, "g()"),
        "use of moved value 'n': it was moved by the call of 'g', whose body moves it, at "
        "line 12, column 11")
    assert _moved(diag) == ((12, 11, "g()"), "'n' moved here")
    assert diag.data == {"name": "n", "moved_by_calling": "g",
                         "moved_at": {"line": 12, "column": 11}}
    assert repaired.prints() == ("2\n4\n3\n3\n",) * 2


def test_a_closure_giving_back_its_parameter_gives_the_closure_it_is_given():
    _, repaired = _refused_and_repaired(
        "e4001_closure_given_back_by_identity_called_twice", (13, "g()"),
        "use of moved value 't': it was moved by the call of 'k', whose body moves it, at "
        "line 12, column 11")
    assert repaired.prints() == ("2\n",) * 2


MK = "let mk = |n: Tensor<i32, [2]>| || consume(n); "


@pytest.mark.parametrize("body, refused", [
    # Each call of the maker gives its parameter (or a `let` of its body) a new value for
    # the closure it makes, which moves that one at each of its calls.
    (MK + "let g = mk(t); print(g()); print(g());", "value 'n': it was moved by the call of 'g'"),
    ("let mk = |n: Tensor<i32, [2]>| || n; let g = mk(t); let a = g(); let b = g();",
     "by the call of 'g'"),
    ("let mk = |n: Tensor<i32, [2]>| { let m = n; || consume(m) }; let g = mk(t); "
     "print(g()); print(g());", "value 'm'"),
    ("let mk = |s: S| || s.t; let g = mk(S { t: t, n: 3 }); let a = g(); let b = g();",
     "value 's.t'"),
    (MK + "let g = mk(t); for i in 0..2 { print(g()); }", "in an earlier iteration of the loop"),
    (MK + "let g = mk(t); let keep = |h| h(); print(keep(g)); print(keep(g));",
     "by 'keep', which calls 'g' it is given"),
    (MK + "let h = if s.n > 2 { mk(t) } else { mk(s.t) }; print(h()); print(h());",
     "by the call of 'h'"),
    (MK + "let g = mk(t); let h = g; print(h()); print(g());", "by the call of 'h'"),
    (MK + "let g = mk(t); let w = || g(); print(w()); print(w());", "by the call of 'w'"),
    ("let id = |h| h; " + MK + "let g = id(mk(t)); print(g()); print(g());",
     "by the call of 'g'"),
    # Two makes, a make per turn, or per call of the closure that makes: each its own.
    (MK + "let g = mk(t); let h = mk(s.t); print(g()); print(h());", None),
    (MK + "for i in 0..2 { let g = mk(Tensor<i32, [2]>::fill(i)); print(g()); }", None),
    (MK + "print(mk(t)()); print(mk(s.t)());", None),
    (MK + "let mut g = mk(t); print(g()); g = mk(s.t); print(g());", None),
    (MK + "let w = || { let g = mk(Tensor<i32, [2]>::fill(7)); g() }; print(w()); print(w());",
     None),
    ("let mk = |n: Tensor<i32, [2]>| || n[0]; let g = mk(t); print(g()); print(g());", None),
    ("let mk = |s: S| || s.n; let g = mk(S { t: t, n: 3 }); print(g()); print(g());", None),
    # What the maker's body moved of its own before giving back a closure written earlier
    # that reads or moves it is gone at every call of that closure: refused where it is
    # given back. One written after the move is refused where it reads it.
    ("let mk = |n: Tensor<i32, [2]>| { let r = || n[0]; let m = consume(n); r }; "
     "let g = mk(t);", "into the call of 'consume' at line 8, column 61"),
    ("let mk = |s: S| { let r = || s.t[0]; let m = consume(s.t); r };", "value 's.t'"),
    ("let mk = |n: Tensor<i32, [2]>| { let m = consume(n); || n[0] };", "into the call of"),
    ("let mk = |n: Tensor<i32, [2]>| { let r = || n[0]; let m = n[1]; r }; let g = mk(t); "
     "print(g());", None),
    ("let mk = |n: Tensor<i32, [2]>| { let r = || consume(n); r }; let g = mk(t); print(g());",
     None),
    ("let mk = |n: Tensor<i32, [2]>| { let r = || n[0]; "
     "let d = transfer(n, Memory::NPU_HBM); r };", None),
    # One moving the maker's own by `transfer` is checked when it runs (E9004).
    ("let mk = |n: Tensor<i32, [2]>| || transfer(n, Memory::NPU_HBM); let g = mk(t); "
     "let a = g(); let b = g();", None),
    # A closure giving back its parameter calls nothing: what it gives is called where it
    # goes.
    ("let g = || consume(t); let id = |h| h; print(id(g)());", None),
    ("let g = || consume(t); let id = |h| h; let k = id(g); print(k()); print(k());",
     "by the call of 'k'"),
    ("let g = || consume(t); let id = |h| h; print(id(g)()); print(id(g)());",
     "by the call of 'id(g)'"),
    ("let g = || consume(t); let id = |h| h; print(id(g)()); print(g());",
     "by the call of 'id(g)'"),
    ("let g = || consume(t); let id = |h| { let k = h; k }; print(id(g)());", "more than once"),
])
def test_what_a_made_closure_and_one_given_back_move(body, refused):
    _refused_as(ONCE.format(body=body), refused)
