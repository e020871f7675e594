"""monomorphize: generic functions become instances (`stage$i32`); a const dimension binds once
(E3046); a generic parameter a call does not determine (E3016), generic arguments that do not
fit (E3047); a float const in an extent (E3026); runaway instantiation (E3032);
the branch an instance's `if comptime` does not take is pruned. Generic structs are
erase-struct-arguments' (before it), `sizeof` fold-sizeof's and the names of a kept branch
check-deferred-names' (after it)."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.languages.linstances import Linstances, as_written
from nano_vx.passes.monomorphize import MAX_DEPTH, monomorphize
from nano_vx.resume.read import read_dump
from front import (_printed, assert_prints_the_same, assert_refused_from_the_command_line,
                   assert_refused_then_repaired, run_front)

CASES = Path(__file__).parent / "cases" / "monomorphize"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {
    "shared_dimension": ("E3046", "'S' is bound to 4 by argument 1, but argument 2 has "
                                  "extent 7"),
    "undeducible": ("E3016", "const parameter 'N' of 'zeros' is not determined by this call: no "
                             "argument's type names it and no generic argument gives it"),
    "free_width": ("E3016", "type parameter 'T' of 'free_width' is not determined by this call: "
                            "no argument's type names it and no generic argument gives it"),
    "erased_struct_argument": ("E3016", "type parameter 'T' of 'swap' is not determined by "
                                        "this call: argument 1 is a 'Pair', a generic struct, "
                                        "whose scalar arguments a value does not keep"),
    "kept_erased_argument": ("E3016", "type parameter 'A' of 'second' is not determined by "
                                      "this call: argument 1 is a 'Two', a generic struct, "
                                      "whose scalar arguments a value does not keep"),
    "literal_tuple_argument": ("E3016", "type parameter 'T' of 'first' is not determined by "
                                        "this call: argument 1, whose parameter's type names "
                                        "it, has no type known yet"),
    "float_const_extent": ("E3026", "in 'ones$2.5' the extent `X` names the const parameter "
                                    "'X', of type f32, not an integer"),
    "runaway": ("E3032", "instantiating 'depth' went 64 generic calls deep and was stopped: "
                         "main -> depth$1 -> depth$2 -> ... -> depth$63 -> depth$64"),
}


def _refused(text: str):
    [d] = run_front(text, monomorphize).diagnostics.items
    return d


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", monomorphize)
    code = REFUSED.get(case, (None,))[0]
    assert ran.diagnostics.codes() == ([code] if code else [])
    assert to_text(ran.after) + ran.diagnostics.render() == snapshot_txt
    assert to_dot(ran.after, title=f"monomorphize: {case}") == snapshot_dot


@pytest.mark.parametrize("case", [n for n in NAMES if n not in REFUSED])
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", monomorphize)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_then_repaired(case):
    assert_refused_then_repaired(CASES / f"{case}.vx", monomorphize, *REFUSED[case])


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_from_the_command_line(case, capsys):
    assert_refused_from_the_command_line(CASES / f"{case}.vx", REFUSED[case][0], capsys)


def test_instances_replace_their_generics_in_the_order_they_are_asked_for():
    ran = run_front(CASES / "instances.vx", monomorphize)
    names = [i.name for i in ran.after.items if i._prod == "Fn"]
    assert names == ["first$i32", "first$f64", "total$3", "total$4", "widen$3", "home$GPU",
                     "main"]


def test_the_json_form_says_what_bound_the_dimension():
    d = run_front(CASES / "shared_dimension.vx", monomorphize).diagnostics.items[0]
    assert d.data == {"parameter": "S", "bound": 4, "bound_by": 1, "argument": 2,
                      "extent": 7, "callee": "scores"}


def test_a_dimension_written_as_a_generic_argument_binds_before_the_arguments():
    d = _refused("fn f<const N: i32>(t: Tensor<i32, [N]>) -> i32 { N }\n"
                 "fn main() { print(f<3>(Tensor<i32, [5]>::fill(1))); }")
    assert (d.code, d.message) == ("E3046", "'N' is bound to 3 by the generic argument `<..>`, "
                                            "but argument 1 has extent 5")


def test_a_dimension_binds_from_any_axis_of_the_first_argument_naming_it():
    d = _refused("fn f<const N: i32>(a: Tensor<i32, [2, N]>, b: Tensor<i32, [N]>) -> i32 { N }\n"
                 "fn main() { print(f(Tensor<i32, [2, 6]>::fill(1), "
                 "Tensor<i32, [5]>::fill(1))); }")
    assert d.message == "'N' is bound to 6 by argument 1, but argument 2 has extent 5"


@pytest.mark.parametrize("call, says", [
    ("f<1, 2>(t)", "'f' takes 1 generic argument, but this call gives it 2"),
    ("f<i32>(t)", "'N' of 'f' is a const i32, but this call gives it `i32`"),
    ("g<4>(t)", "'g' is not generic, but this call gives it 1 generic argument"),
    ("f<0>(Tensor<i32, [0]>::new())", "the extent `N - 1` is `0 - 1`, which is -1"),
])
def test_generic_arguments_that_do_not_fit_are_refused(call, says):
    d = _refused("fn f<const N: i32>(t: Tensor<i32, [N]>) -> i32 {\n"
                 "    let u = Tensor<i32, [N - 1]>::new(); N }\n"
                 "fn g(t: Tensor<i32, [4]>) -> i32 { 1 }\n"
                 f"fn main() {{ let t = Tensor<i32, [4]>::fill(1); print({call}); }}")
    assert d.code == "E3047" and says in d.message, d.message


def test_a_part_of_an_extents_arithmetic_may_be_zero():
    # `[N - K + 1]` for N = K is `[1]`: only the whole extent counts elements.
    ran = run_front("fn w<const N: i32, const K: i32>() -> i32 {\n"
                    "    let t = Tensor<i32, [N - K + 1]>::fill(3); t[0] }\n"
                    "fn main() { print(w<4, 4>()); }", monomorphize)
    assert ran.diagnostics.codes() == []
    assert ran.prints() == ("3\n", "3\n")


def test_a_const_bound_to_a_negative_number_is_no_extent():
    d = _refused("fn zeros<const N: i32>() -> i32 { let t = Tensor<f32, [N]>::new(); N }\n"
                 "fn main() { print(zeros<-2>()); }")
    assert (d.code, d.message) == ("E3047", "in 'zeros$-2' the extent `N` is -2; an extent "
                                            "must not be negative")


def test_a_const_bound_to_a_negative_number_is_a_value_in_the_body():
    ran = run_front("fn f<const N: i32>() -> i32 { let t = Tensor<f32, [N + 3]>::new(); N }\n"
                    "fn main() { print(f<-2>()); }", monomorphize)
    assert ran.prints() == ("-2\n", "-2\n")


def test_a_bool_const_makes_an_instance_per_value_and_is_a_value_in_the_body():
    ran = run_front("fn flag<const B: bool>() -> i32 { if comptime B { 1 } else { 0 } }\n"
                    "fn pick<const B: bool>(a: i32, b: i32) -> i32 { let q = B; "
                    "if q { a } else { flag<B>() + b } }\n"
                    "fn main() { print(pick<true>(3, 4)); print(pick<false>(3, 4)); }",
                    monomorphize)
    assert [i.name for i in ran.after.items if i._prod == "Fn"] == [
        "flag$true", "flag$false", "pick$true", "pick$false", "main"]
    assert ran.prints() == ("3\n4\n", "3\n4\n")


@pytest.mark.parametrize("call, says", [
    ("flag<1>()", "'B' of 'flag' is a const bool, but this call gives it `1`"),
    ("num<true>()", "'N' of 'num' is a const i32, but this call gives it `true`"),
])
def test_a_bool_const_takes_true_or_false_and_only_it_does(call, says):
    d = _refused("fn flag<const B: bool>() -> i32 { if comptime B { 1 } else { 0 } }\n"
                 "fn num<const N: i32>() -> i32 { N }\n"
                 f"fn main() {{ print({call}); }}")
    assert (d.code, d.message) == ("E3047", says)


@pytest.mark.parametrize("call, value, type_", [
    ("small<300>()", "300", "u8"), ("big<-1>()", "-1", "u64"),
    ("wide<2147483648>()", "2147483648", "i32"), ("sized(Tensor<f32, [300]>::new())", "300", "u8"),
])
def test_an_integer_const_bound_outside_its_type_is_e3008_not_wrapped(call, value, type_):
    d = _refused("fn small<const N: u8>() -> u8 { N }\nfn big<const N: u64>() -> u64 { N }\n"
                 "fn wide<const N: i32>() -> i32 { N }\n"
                 "fn sized<const N: u8>(t: Tensor<f32, [N]>) -> u8 { N }\n"
                 f"fn main() {{ print({call}); }}")
    assert d.code == "E3008"
    assert d.message.startswith(f"literal out of range for `{type_}`: `{value}` does not fit")


def test_a_bool_const_in_an_extent_is_e3026():
    ran = run_front("fn f<const B: bool>() -> i32 { let t = Tensor<f32, [B]>::new(); 1 }\n"
                    "fn main() { print(f<true>()); }", monomorphize)
    [d] = ran.diagnostics.items
    assert (d.code, d.message) == ("E3026", "in 'f$true' the extent `B` names the const "
                                            "parameter 'B', of type bool, not an integer")


def test_a_generic_function_named_but_not_called_is_refused():
    d = _refused("fn id<T>(x: T) -> T { x }\nfn main() { let f = id; print(id(1)); }")
    assert (d.code, d.message) == ("E3047", "'id' is generic, so it can only be called: each "
                                            "call gets the instance its generic arguments ask "
                                            "for")


def test_an_instance_over_a_tensor_type_is_named_by_that_type():
    ran = run_front("fn id<T>(x: T) -> T { x }\n"
                    "fn main() { print(id(Tensor<f32, [2]>::fill(1.5))[1]); }", monomorphize)
    assert ran.after.items[0].name == "id$Tensor<f32,[2],Memory::CPU_DRAM>"
    assert ran.prints() == ("1.5\n", "1.5\n")


def test_an_instance_over_a_reference_or_a_pointer_has_a_name_that_reads_back():
    ran = run_front(CASES / "reference_arguments.vx", monomorphize)
    names = [i.name for i in ran.after.items if i._prod == "Fn"]
    assert names == ["id$&i32", "id$&mut-i32", "id$*mut-f32-in-Memory::CPU_DRAM",
                     "id$*const-f32-in-Memory::CPU_DRAM", "id$Tensor<i32,[?],Memory::CPU_DRAM>",
                     "id$<&mut-Cell$Point>", "first$&f64$&i32", "main"]
    text = to_text(ran.after, Linstances)
    assert to_text(read_dump(text)[1], Linstances) == text
    assert [as_written(n) for n in names[1:3]] == ["id<&mut i32>",
                                                   "id<*mut f32 in Memory::CPU_DRAM>"]
    assert as_written(names[5]) == "id<&mut Cell<Point>>"


@pytest.mark.parametrize("written, instance", [
    ("NPU", "f$NPU"), ("Topology::NPU", "f$NPU"), ("Topology::NPU[1]", "f$NPU[1]")])
def test_a_topology_parameter_takes_a_topology_or_its_bare_name(written, instance):
    ran = run_front("fn f<A: Topology>() -> i32 { let p = spawn on(Topology::A) { 1 }; 2 }\n"
                    f"fn main() {{ print(f<{written}>()); }}", monomorphize)
    assert [i.name for i in ran.after.items if i._prod == "Fn"] == [instance, "main"]
    assert ran.prints() == ("2\n", "2\n")


def test_a_topology_is_not_a_type_argument():
    d = _refused("fn id<T>(x: T) -> T { x }\nfn main() { print(id<Topology::GPU>(1)); }")
    assert (d.code, d.message) == ("E3047", "'T' of 'id' is a type, but this call gives it "
                                            "`Topology::GPU`")


def test_a_const_used_as_a_value_becomes_its_value_in_its_own_type():
    ran = run_front("fn f<const N: i64>(t: Tensor<i32, [N]>) -> i64 { N }\n"
                    "fn main() { print(f(Tensor<i32, [2]>::fill(1))); }", monomorphize)
    assert "fn f$2(t: Tensor<i32, [2]>) -> i64 {\n    2 as i64\n}" in to_text(ran.after)


def test_the_instance_of_correlation_program_2_is_named_in_the_path():
    root = Path(__file__).parents[2]
    ran = run_front(root / "examples" / "correlation" / "02_working_set_across_a_call.vx",
                    monomorphize)
    assert [i.name for i in ran.after.items if i._prod == "Fn"] == ["stage$i32", "main"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_one_instance_per_distinct_extent_and_each_runs_as_the_generic_did(extents):
    calls = "\n".join(f"    print(size(Tensor<i32, [{n}]>::fill({n})));" for n in extents)
    text = (f"fn size<const N: i32>(t: Tensor<i32, [N]>) -> i32 {{ N * t[0] }}\n"
            f"fn main() {{\n{calls}\n}}\n")
    ran = run_front(text, monomorphize)
    instances = [i.name for i in ran.after.items if i._prod == "Fn"][:-1]
    assert instances == [f"size${n}" for n in dict.fromkeys(extents)]
    before, after = ran.prints()
    assert after == before == "".join(f"{n * n}\n" for n in extents)


def test_recursion_that_repeats_its_instance_is_one_instance():
    ran = run_front("fn down<const N: i32>(t: Tensor<i32, [N]>, k: i32) -> i32 {\n"
                    "    if k == 0 { return N; } down(t, k - 1) }\n"
                    "fn main() { print(down(Tensor<i32, [3]>::fill(0), 5)); }", monomorphize)
    assert not ran.diagnostics.items
    assert [i.name for i in ran.after.items if i._prod == "Fn"] == ["down$3", "main"]
    assert ran.prints() == ("3\n", "3\n")


def test_the_chain_is_refused_at_the_depth_bound_with_every_function_on_it():
    # The run-time `if` does not stop instantiation: every instance asks for the next.
    d = _refused("fn up<const N: i32>(t: Tensor<i32, [N]>) -> i32 {\n"
                 "    if N >= 3 { return N; } up(Tensor<i32, [N + 1]>::fill(0)) }\n"
                 "fn main() { print(up(Tensor<i32, [1]>::fill(0))); }")
    assert d.code == "E3032"
    assert d.data["chain"] == ["main"] + [f"up${n}" for n in range(1, MAX_DEPTH + 1)]


def test_the_binding_of_an_available_arm_deduces_its_topology():
    ran = run_front("fn on_it<A: Topology>(p: Pinned<i32, Topology::A>) -> i32 { 1 }\n"
                    "fn main() {\n"
                    "    match 5.try_pin(Topology::GPU) {\n"
                    "        Available(p) => { print(on_it(p)); }\n"
                    "        Saturated(v) => { print(0); }\n"
                    "    }\n"
                    "}", monomorphize)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert [i.name for i in ran.after.items if i._prod == "Fn"] == ["on_it$GPU", "main"]
    assert ran.prints() == ("1\n", "1\n")


def test_the_branch_an_if_comptime_prunes_may_name_what_does_not_exist():
    """`if comptime N > 1` in a const-generic body: for N = 1 the branch is pruned before any
    check, so the name it holds is never looked up (the case's snapshot shows the pruning)."""
    ran = run_front(CASES / "if_comptime_prunes_a_name.vx", monomorphize)
    assert not ran.diagnostics.items
    assert ran.prints()[1] == "1\n"


def test_a_kept_branch_that_names_what_does_not_exist_is_left_to_check_deferred_names():
    text = (CASES / "if_comptime_prunes_a_name.vx").read_text()
    ran = run_front(text.replace("count<1>", "count<2>"), monomorphize)
    assert not ran.diagnostics.items
    assert "return 2 + @helper_that_does_not_exist();" in to_text(ran.after)


def test_a_float_const_takes_a_float_argument_and_names_its_instance_by_it():
    ran = run_front("fn scale<const S: f32>(x: f32) -> f32 { x * S }\n\n"
                    "fn main() { print(scale<2.5>(2.0)); print(scale<-0.5>(4.0)); }\n",
                    monomorphize)
    assert not ran.diagnostics.items
    assert [i.name for i in ran.after.items] == ["scale$2.5", "scale$-0.5", "main"]
    assert ran.prints() == ("5\n-2\n", "5\n-2\n")


def test_a_const_argument_may_be_zero_or_negative_and_an_if_comptime_ending_a_body_is_its_value():
    # `count<N - 1>()` reaches count<0>, whose `if comptime` keeps the else branch; the
    # argument is a value, not an extent, so 0 (and N - 1 in the pruned branch) is no error.
    text = ("fn count<const N: i32>() -> i32 {\n"
            "  if comptime N > 0 { N + count<N - 1>() } else { 0 }\n}\n\n"
            "fn main() { print(count<3>()); }\n")
    ran = run_front(text, monomorphize)
    assert not ran.diagnostics.items
    assert [i.name for i in ran.after.items] == ["count$3", "count$2", "count$1", "count$0",
                                                 "main"]
    assert ran.prints() == ("6\n", "6\n")


def test_the_builtin_sizeof_keeps_its_type_the_instance_s_for_fold_sizeof():
    ran = run_front("fn bytes_of<T>(x: T) -> i64 { sizeof<T>() }\n"
                    "fn main() { print(bytes_of(2.5f32)); print(sizeof<i64>()); }\n",
                    monomorphize)
    assert not ran.diagnostics.items
    assert "fn bytes_of$f32(x: f32) -> i64 {\n    @sizeof<f32>()\n}" in to_text(ran.after)
    assert "@print(@sizeof<i64>());" in to_text(ran.after)
    assert ran.prints() == ("4\n8\n", "4\n8\n")


def test_handwritten_uncalled_generic_naming_nothing(run_pass, snapshot_txt):
    # A generic function calling `@nowhere`, which no item declares (resolve-names refuses
    # it first, E2001). Nothing calls the generic, so it disappears unchecked.
    ran = run_pass("monomorphize", """
        // IL: Lerased
        fn broken<T>(x: T) -> T {
            @nowhere(x)
        }
        fn main() {
            @print(1);
        }
    """)
    assert ran.codes == []
    assert [i.name for i in ran.tree.items] == ["main"]
    assert _printed(ran.tree) == "1\n"
    assert ran.dump == snapshot_txt


def test_the_note_says_which_arguments_a_struct_passed_keeps():
    erased = run_front(CASES / "erased_struct_argument.vx", monomorphize).diagnostics.items[0]
    kept = run_front(CASES / "kept_erased_argument.vx", monomorphize).diagnostics.items[0]
    assert erased.notes == ["a generic struct applied to scalars is erased: 'p' is a 'Pair' "
                            "whatever they are (applied to a struct, an enum, a tuple or a "
                            "tensor, it is an instance, `Pair<Point>`, which keeps them)"]
    assert kept.notes == ["argument 1 is a 'Two<_, Point>': an instance keeps the arguments "
                          "that are structs, enums, tuples or tensors, and a scalar one, `_` "
                          "there, is erased"]


def test_a_struct_instance_passed_gives_the_parameters_its_arguments_name():
    ran = run_front(CASES / "nested_struct_instance_arguments.vx", monomorphize)
    assert ran.diagnostics.codes() == []
    fns = {i.name: i for i in ran.after.items if i._prod == "Fn"}
    assert list(fns) == ["unwrap2$Point", "first$Point$<Wrapper$Point>",
                         "second$Point$<Wrapper$Point>", "main"]
    assert to_text(fns["first$Point$<Wrapper$Point>"].params[0].type).strip() == \
        "&Two$Point$<Wrapper$Point>"
    assert ran.prints() == ("2\n3\n5\n", "2\n3\n5\n")


def test_handwritten_a_parameter_applied_to_the_functions_own_deduced_from_an_instance(
        run_pass, snapshot_txt):
    # `w: Wrapper<T>` as erase-struct-arguments keeps it: the `Wrapper$Point` passed binds T
    # from its field `inner: Point`; the instance's parameter names the struct's instance.
    ran = run_pass("monomorphize", """
        // IL: Lerased
        struct Point {
            x: f32,
            y: f32,
        }
        struct Wrapper<T> {
            inner: T,
            tag: i32,
        }
        struct Wrapper$Point {
            inner: Point,
            tag: i32,
        }
        fn unwrap<T>(w: Wrapper<T>) -> T {
            w.inner
        }
        fn main() {
            let w = Wrapper$Point { inner: Point { x: 1.0, y: 2.0 }, tag: 1 };
            @print(@unwrap(w).y);
        }
    """)
    assert ran.codes == []
    assert "fn unwrap$Point(w: Wrapper$Point) -> Point {" in ran.text
    assert _printed(ran.tree) == "2\n"
    assert ran.dump == snapshot_txt


def test_handwritten_a_parameter_applied_given_the_struct_erased_is_refused(run_pass):
    ran = run_pass("monomorphize", """
        // IL: Lerased
        struct Wrapper<T> {
            inner: T,
            tag: i32,
        }
        fn unwrap<T>(w: Wrapper<T>) -> T {
            w.inner
        }
        fn main() {
            let w = Wrapper { inner: 1.5, tag: 1 };
            @print(@unwrap(w));
        }
    """)
    assert ran.codes == ["E3016"]
