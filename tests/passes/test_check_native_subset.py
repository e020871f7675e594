"""check-native-subset: what native code does not lower is refused with E5010 (the default
action then runs the program in the interpreter, with W5001); the tree is unchanged."""

from pathlib import Path

import pytest

from nano_vx.passes.check_native_subset import check_native_subset
from front import assert_refused_then_repaired, run_front
# The cases native code refuses are type-scalars' (tests/test_native.py runs them too).
from test_type_scalars import CASES, REFUSED


def assert_refused_in_main(body: str, what: str):
    """`fn main() { body }` is refused once, E5010 naming `what`."""
    ran = run_front(f"fn main() {{\n    {body}\n}}\n", check_native_subset)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == \
        [("E5010", f"native code does not lower {what} (in 'main')")]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_native_code_does_not_lower_is_refused(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", check_native_subset, "E5010",
                                 REFUSED[case])


def test_a_refusal_leaves_the_tree_as_it_was_for_the_interpreter():
    ran = run_front(CASES / "e5010_counter_copied_in_a_loop_then_assigned_through_a_closure_"
                    "a_variable_may_hold.vx", check_native_subset)
    assert ran.diagnostics.codes() == ["E5010"]
    assert ran.after is ran.before


# check-casts refuses these where the types are written, or given alike by every call of a
# closure only called (`let g = |b| b as f32; print(g(true));` is E3011); a closure's other
# parameters are typed only by its calls, so the inference judges them again once every call
# is seen.
@pytest.mark.parametrize("text,what", [
    ("let f = |n| n as bool; print(f(5));", "a cast of _ to bool"),
    ("let g = |b| b as f32; let k = g; print(k(true));", "a cast of bool to f32"),
    # number-texts leaves the strings of a program printing one a call computes where no
    # `let` can go before it (in the value of an assignment to an element); the gate refuses
    # them in their own words
    ("let s = \"no\"; let f = || s; let g = |u| 1; let mut k = [0, 0];"
     " k[1] = g(print(f())); print(k);", "a variable holding a string"),
    ("let t = Tensor<i32, [2, 2]>::new(); let u = Tensor<i32, [2, 2]>::new(); let c = true;"
     " let g = |r| r[0]; let n = c && g(if c { t[0] } else { u[1] }) > 0;",
     "a row of a tensor used other than printed, given or lent to a function, bound by a "
     "`let` or returned"),
    ("let h = |x| -x; let y: u8 = 3; print(h(y)); print(h(4));", "'-' on u8"),
    ("let k = |a, b| a & b; print(k(1.5, 1.0));", "'&' on f64"),
])
def test_what_native_code_would_compute_differently_is_refused(text, what):
    ran = run_front(f"fn main() {{ {text} }}\n", check_native_subset)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5010" and what in diag.message


@pytest.mark.parametrize("body,what", [
    ("let x: i32 = 1;\n    let p = &x;\n    print(p == p);", "'==' on &i32"),
    ("let x = 1.5;\n    let p = &x;\n    print(-p);", "'-' on &{float}"),
    ("let x = 1;\n    let y = 2;\n    let mut p = &x;\n    let q = &mut p;\n    let r = q;\n"
     "    let f = |s: &mut &i32| { *s = &y; };\n    f(r);", "a reference to a reference"),
    # A temporary after a call, in an index of a tensor the statement computes
    # (name-borrowed-temporaries cannot move it ahead of that call).
    ("let g = |n: i32| n * 2;\n    print(Tensor<i32, [2]>::fill(g(3))[*&(0 + 1)]);",
     "a reference to a temporary value"),
    ("let x = 1;\n    let p = &x;\n    let d = transfer(p, Memory::GPU_HBM);",
     "a transfer of a reference"),
    ("let mut t = Tensor<i32, [2]>::fill(1);\n"
     "    let f = || { t = Tensor<i32, [2]>::fill(2); };\n    f();",
     "a closure that assigns to 't', which it captures and which holds Tensor<i32, [2]>"),
    # An element of a narrow tensor is a byte read as its value type, a variable's cell
    # the value type's: one reference reads one machine type.
    ("let mut t = Tensor<f8e4m3, [2]>::fill(1.0);\n    let mut x: f32 = 1.0;\n"
     "    let mut r = &mut t[0];\n    r = &mut x;\n    *r = 2.0;",
     "a reference to an element of a tensor of f8e4m3 where one to a place of f32 is "
     "expected"),
])
def test_what_native_code_does_not_lower_of_references(body, what):
    assert_refused_in_main(body, what)


# erase-raw-pointers makes a pointer the tensor it points into seen as one dimension, so
# every pointer must point into tensors of one element type as stored (specialize-storages
# gives a parameter a copy of its function per storage, and split-chosen-storages a `let`
# an `if` chooses between two its rest per arm, but a `let mut` pointer assigned one of the
# other storage is one variable).
@pytest.mark.parametrize("program,what", [
    ("fn get(p: *const f32) -> f32 {\n    unsafe { *p }\n}\n\nfn main() {\n"
     "    let a = Tensor<f32, [2]>::fill(1.0);\n    let b = Tensor<f4e2m1, [3, 2]>::fill(2.0);\n"
     "    let mut p = a.as_ptr();\n    if a[0] > 0.0 { p = b.as_ptr(); }\n"
     "    print(get(p));\n}\n",
     "a pointer into a tensor of f32 where one into a tensor of f4e2m1 is expected "
     "(in 'main')"),
    ("fn main() {\n    let t = Tensor<i32, [2]>::fill(1);\n    let p = t.as_ptr();\n"
     "    print(p);\n}\n", "a print of a raw pointer (in 'main')"),
    ("fn main() {\n    let t = Tensor<i32, [2]>::fill(1);\n    let p = t.as_ptr();\n"
     "    let v = 1 + unsafe { let k = 1; p[k] };\n    print(v);\n}\n",
     "an `unsafe` block with statements inside a larger expression (bind it with a `let` "
     "first) (in 'main')"),
])
def test_what_native_code_does_not_lower_of_raw_pointers(program, what):
    ran = run_front(program, check_native_subset)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == \
        [("E5010", f"native code does not lower {what}")]


# A pointer into a tensor of any rank, of `?` extents, of a narrow type, given to one
# parameter beside pointers into tensors of other sizes or to none; a reference to an element
# of a tensor of a narrow type; a row printed that starts past a `?` extent: all lowered.
@pytest.mark.parametrize("program", [
    "fn main() {\n    let t = Tensor<i32, [2, 2]>::fill(1);\n    let p = t.as_ptr();\n"
    "    print(unsafe { p[3] });\n}\n",
    "fn get(p: *const i32) -> i32 {\n    unsafe { *p }\n}\n\nfn main() {\n"
    "    let a = Tensor<i32, [2]>::fill(1);\n    let b = Tensor<i32, [3]>::fill(2);\n"
    "    print(get(a.as_ptr()) + get(b.as_ptr()));\n}\n",
    "fn get(p: *const i32) -> i32 {\n    unsafe { *p }\n}\n\nfn main() {\n    print(1);\n}\n",
    "fn main() {\n    let n = 2;\n    let t = Tensor<i32, [?]>::new([n]);\n"
    "    let p = t.as_ptr();\n}\n",
    "fn main() {\n    let t = Tensor<u4, [2]>::fill(1);\n    let p = t.as_ptr();\n}\n",
    "fn main() {\n    let mut t = Tensor<f8e4m3, [2]>::fill(1.0);\n    let r = &mut t[0];\n"
    "    *r = 2.0;\n}\n",
    "fn main() {\n    let n = 2;\n    let t = Tensor<i32, [?, ?]>::new([n, 2]);\n"
    "    print(t[0]);\n}\n",
    "fn main() {\n    let n = 2;\n    let t = Tensor<i32, [?, ?, 2]>::new([n, n, 2]);\n"
    "    print(t[0][1]);\n}\n",
])
def test_what_native_code_lowers_of_pointers_narrow_elements_and_rows(program):
    assert run_front(program, check_native_subset).diagnostics.items == []


def test_pointers_and_unsafe_native_code_lowers_pass_the_gate():
    ran = run_front("fn get(p: *const i32, i: i32) -> i32 {\n    unsafe { p[i] }\n}\n\n"
                    "fn main() {\n    let mut t = Tensor<i32, [2]>::fill(1);\n"
                    "    let q = t.as_mut_ptr();\n    unsafe {\n        *q = 3;\n    }\n"
                    "    print(get(t.as_ptr(), 0) + get(q, 1));\n}\n", check_native_subset)
    assert ran.diagnostics.items == []


def test_a_function_returning_a_reference_to_an_element_passes_the_gate():
    ran = run_front("fn first(t: &Tensor<i32, [2]>) -> &i32 {\n    &t[0]\n}\n\n"
                    "fn main() {\n    let t = Tensor<i32, [2]>::fill(1);\n    print(*first(&t));\n}\n",
                    check_native_subset)
    assert ran.diagnostics.items == []


@pytest.mark.parametrize("returned", ["&x", "if x > 0 { p } else { &x }", "&*q"])
def test_a_reference_returned_that_may_name_a_local_is_refused(returned):
    ran = run_front(f"fn pick(p: &i32, x: i32) -> &i32 {{\n    let q = p;\n    {returned}\n}}\n\n"
                    "fn main() {\n    let y = 2;\n    print(*pick(&y, 1));\n}\n",
                    check_native_subset)
    assert [d.message for d in ran.diagnostics.items] == [
        "native code does not lower a reference returned that may name a local variable of "
        "its function (in 'pick')"]


def test_an_assignment_of_a_whole_tensor_through_a_closures_reference_is_refused():
    # a function's is copied into the buffer (copy-into-lent-tensors), a closure's is not
    ran = run_front("fn main() {\n    let mut t = Tensor<i32, [2]>::fill(1);\n"
                    "    let set = |p: &mut Tensor<i32, [2]>| {\n"
                    "        *p = Tensor<i32, [2]>::fill(2);\n    };\n    set(&mut t);\n}\n",
                    check_native_subset)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5010" and diag.span.line == 4
    assert diag.message == ("native code does not lower an assignment of a whole tensor "
                            "through a reference (in 'main')")


def test_a_tensor_whose_bytes_no_address_reaches_is_refused_not_compiled():
    # MLIR would abort on the memref's size; the interpreter makes it (its element count
    # fits an i64: one that does not is erase-unaddressable-extents' stop).
    ran = run_front("fn main() { let t = Tensor<f32, [100000000000, 50000000]>::new(); }\n",
                    check_native_subset)
    [diag] = ran.diagnostics.items
    assert diag.code == "E5010"
    assert "a tensor of 20000000000000000000 bytes, more than an address reaches" in diag.message



# Hand-written Lsplit: a match on a value, which desugar-value-matches writes as an `if`
# chain in the front end; native code has no lowering of its own for it.
VALUE_MATCH = """
    // IL: Lsplit
    fn main() {
        let n: i32 = 2;
        match n {
            1 => {
                @print(10);
            },
            _ => {
                @print(20);
            },
        };
    }
"""


def test_handwritten_a_value_match_is_refused(run_pass, snapshot_txt):
    ran = run_pass("check-native-subset", VALUE_MATCH)
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E5010", "native code does not lower a `match` on a value (in 'main')")]
    assert ran.dump == snapshot_txt


# A closure value is a number within the function that makes it; what it cannot be there.
@pytest.mark.parametrize("body,what", [
    # one a variable holds printed, or two compared first in their statement,
    # halt-closure-prints makes a stop; a parameter only where the arguments it is given
    # are all closures or all functions, or each call's argument clearly is one or the
    # other (copy-closures-per-argument-kind copies the closure per kind, to a fixed point):
    # not one given a variable a `let mut` binds to a function and an `if` in a loop may
    # assign a closure (rebind-assigned-closure-variables rebinds one its own block's
    # statements assign, or an `if`'s that copy-rest-into-closure-assigning-arms wrote with
    # the rest of the block in each arm)
    ("fn add(a: i32, b: i32) -> i32 { a + b }\n"
     "    let show = |h, y: i32| { print(h(y, y)); print(h); };\n"
     "    let mut g = add;\n    let mut i = 0;\n"
     "    while i < 2 { show(g, i); if i > 0 { g = |a: i32, b: i32| a - b; } i += 1; }",
     "printing a closure"),
    # one a `let` binds copy-closures-into-kernels makes again in the kernel, and one a
    # `let mut` binds choose-closures-in-kernels binds so, but for one launched in a closure
    # another closure calls before the `let` of a tensor a closure it is given reads (bind-
    # launching-closures-again binds a launching closure called by name or by a closure
    # calling it, not one a closure made inside another names as a value: it may be called
    # later; hoist-lets-of-chosen-closures binds a scalar so read to its zero before the
    # `let mut`, a tensor not)
    ("let mut f = |x: i32| x;\n    let run = || spawn on(Topology::CPU) { f(2) };\n"
     "    let again = || { let h = || run(); let k = h; k() };\n    print(again());\n"
     "    let m = Tensor<i32, [1]>::fill(1);\n"
     "    f = |x: i32| x + m[0];\n    print(again());", "a closure passed to a function"),
    ("let f = |g, x: i32| g(g, x);", "a closure whose type holds itself"),
    ("let f = |x: i32| x;\n    let g = |x: i32| x;\n    let n = 2;\n"
     "    let same = n > 1 && f == g;\n    print(same);", "'==' on a closure"),
])
def test_what_native_code_does_not_lower_of_closure_values(body, what):
    assert_refused_in_main(body, what)


def test_tensors_of_dynamic_extents_pass_the_gate():
    # `malloc(n)` is a rank-1 tensor of `?` extent; a rank-2 one mixes `?` and a number.
    ran = run_front(Path(__file__).parent / "cases" / "desugar_malloc" / "old_spellings.vx",
                    check_native_subset)
    assert ran.diagnostics.items == []
    ran = run_front("fn main() {\n    let n = 2;\n    let t = Tensor<f32, [?, 3]>::fill([n, 3], 1.0);"
                    "\n    print(t[1][2]);\n    print(t[1]);\n    print(t);\n}\n",
                    check_native_subset)
    assert ran.diagnostics.items == []


# Native code reads a `?` extent from the buffer where it indexes, prints or asks for it; what
# would need it elsewhere while compiling (where a row past it starts, a pointer's size) it
# does not lower.
@pytest.mark.parametrize("body,what", [
    ("let t = Tensor<i32, [?, 2]>::new([n, n]);", "an extent other than the 2 its tensor's type "
                                                  "says"),
])
def test_what_native_code_does_not_lower_of_dynamic_extents(body, what):
    assert_refused_in_main(f"let n = 2;\n    {body}", what)
