"""hoist-captured-lets: a variable of a block or a loop that a closure value may read after
the block is over is bound at the top of its function, where the interpreter's frame holds
it, and its `let` (or its loop) assigns it there."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.hoist_captured_lets import hoist_captured_lets
from front import _printed, assert_native_as_interpreted, assert_prints_the_same, run_front

CASES = Path(__file__).parent / "cases" / "hoist_captured_lets"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt, snapshot_dot):
    ran = run_front(CASES / f"{case}.vx", hoist_captured_lets)
    assert not ran.diagnostics.items
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"hoist-captured-lets: {case}") == snapshot_dot


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", hoist_captured_lets)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_runs_it_as_the_interpreter_does(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_the_variables_a_value_reads_after_their_block_are_bound_first():
    main = run_front(CASES / "outliving.vx", hoist_captured_lets).after.items[0]
    hoisted = [s.name for s in main.body.stmts if s._prod == "Let"][:6]
    assert hoisted == ["k", "big", "w", "acc", "j", "g"]
    text = to_text(main)
    assert "let mut w: f64 = 0.0f64;" in text and "let mut big: ~i32 = 0i32;" in text
    assert "        k = i * 5i32;" in text and "        acc = n * 10i32;" in text
    assert "for j#1: i32 in 0i32..4i32 {\n        j = j#1;" in text


def test_a_tensor_of_a_loop_kept_by_a_closure_is_bound_first_to_one_of_its_extents():
    text = to_text(run_front(CASES / "tensor.vx", hoist_captured_lets).after)
    assert text.startswith("fn main() -> void {\n    let mut t: Tensor<i32, [2], "
                           "Memory::CPU_DRAM> = Tensor<i32, [2], Memory::CPU_DRAM>::new();")
    assert "        t = Tensor<i32, [2]>([i, i * 5i32]);" in text


def test_a_tensor_of_unknown_extents_is_bound_first_to_one_of_extents_zero():
    text = to_text(run_front(CASES / "tensor_of_unknown_extents.vx", hoist_captured_lets).after)
    assert "let mut t: Tensor<i32, [?, 3], Memory::CPU_DRAM> = Tensor<i32, [?, 3], " \
        "Memory::CPU_DRAM>::new(Tensor<i32, [2]>([0i32, 3i32]));" in text
    assert "let mut u: Tensor<f32, [?], Memory::CPU_DRAM> = Tensor<f32, [?], " \
        "Memory::CPU_DRAM>::new(Tensor<i32, [1]>([0i32]));" in text
    assert "        u = Tensor<f32, [?]>::new(Tensor<i32, [1]>([j + 2i32]));" in text


def test_a_closure_called_only_where_its_variables_are_leaves_them_in_their_block():
    ran = run_front(CASES / "confined.vx", hoist_captured_lets)
    assert ran.after is ran.before


# Hand-written Lscalars: a loop's variable and a `let` of its body read by a closure value
# after the loop, where the loop variable's first choice of fresh name, `i#1`, is taken.
LOOP_READ_AFTER = """
    // IL: Lscalars
    fn main() -> void {
        let mut g: fn(i32) -> i32 = |x: i32| -> i32 {
            x
        };
        for i: i32 in 0i32..3i32 {
            let i#1: i32 = i *[i32] 10i32;
            g = |x#1: i32| -> i32 {
                x#1 +[i32] i +[i32] i#1
            };
        }
        @print(g(1i32));
    }
"""


# Hand-written Lscalars: a tensor of a block read by a closure value after the block, and a
# scalar of the same block: each bound at the top, the tensor to `::new()` of its type.
BLOCK_TENSOR_READ_AFTER = """
    // IL: Lscalars
    fn main() -> void {
        let mut g: fn() -> f32 = || -> f32 {
            0.0f32
        };
        if true {
            let t: Tensor<f32, [3]> = Tensor<f32, [3]>::fill(2.5f32);
            let k: i32 = 2i32;
            g = || -> f32 {
                t[k]
            };
        }
        @print(g());
    }
"""


# Hand-written Lscalars: a tensor of `?` extents of a loop read by a closure value after the
# loop, bound at the top to `::new()` of extents 0 (no closure reads that one).
LOOP_TENSOR_OF_UNKNOWN_EXTENTS = """
    // IL: Lscalars
    fn main() -> void {
        let mut g: fn() -> i32 = || -> i32 {
            0i32
        };
        for i: i32 in 0i32..3i32 {
            let t: Tensor<i32, [?, 2]> = Tensor<i32, [?, 2]>::new(Tensor<i32, [2]>([i +[i32] 1i32, 2i32]));
            g = || -> i32 {
                t.extent[i32](0)
            };
        }
        @print(g());
    }
"""


# Hand-written Lscalars: a variable of a loop's body holding a closure value returning a
# closure value (an `if` may assign it another), read by a closure value after the loop:
# bound at the top to a closure of its type returning a closure of its result's type, and
# the variable the values read with it.
LOOP_CLOSURE_READ_AFTER = """
    // IL: Lscalars
    fn main() -> void {
        let mut g: fn(i32) -> i32 = |x: i32| -> i32 {
            x
        };
        for i: i32 in 0i32..3i32 {
            let k: i32 = i *[i32] 10i32;
            let mut pick: fn(i32) -> fn(i32) -> i32 = |y: i32| -> fn(i32) -> i32 {
                |z: i32| -> i32 {
                    z +[i32] k
                }
            };
            if i > 1i32 {
                pick = |y#1: i32| -> fn(i32) -> i32 {
                    |z#1: i32| -> i32 {
                        z#1 *[i32] k
                    }
                };
            }
            g = |x#1: i32| -> i32 {
                pick(x#1)(x#1)
            };
        }
        @print(g(1i32));
    }
"""


@pytest.mark.parametrize("program,shown,printed", [
    (LOOP_READ_AFTER, ["for i#2: i32 in 0i32..3i32 {\n        i = i#2;\n        i#1 = "], "23\n"),
    (BLOCK_TENSOR_READ_AFTER, ["let mut t: Tensor<f32, [3]> = Tensor<f32, [3]>::new();",
                               "t = Tensor<f32, [3]>::fill(2.5f32);"], "2.5\n"),
    (LOOP_TENSOR_OF_UNKNOWN_EXTENTS,
     ["let mut t: Tensor<i32, [?, 2]> = Tensor<i32, [?, 2]>::new(Tensor<i32, [2]>([0i32, 2i32]));"],
     "3\n"),
    (LOOP_CLOSURE_READ_AFTER,
     ["let mut k: i32 = 0i32;",
      "let mut pick: fn(i32) -> fn(i32) -> i32 = |_: i32| -> fn(i32) -> i32 {\n"
      "        |_#1: i32| -> i32 {\n            0i32\n        }\n    };"], "20\n"),
], ids=["loop_variable", "blocks_tensor", "tensor_of_unknown_extents", "blocks_closure_value"])
def test_handwritten_variables_read_after_their_block(program, shown, printed, run_pass,
                                                      snapshot_txt):
    ran = run_pass("hoist-captured-lets", program)
    assert ran.codes == []
    assert all(text in ran.dump for text in shown)
    assert _printed(ran.before) == _printed(ran.tree) == printed
    assert ran.dump == snapshot_txt


def test_a_reference_is_bound_first_to_a_zero_of_its_own():
    text = to_text(run_front(CASES / "reference.vx", hoist_captured_lets).after)
    assert "    let r#1: ~i32 = 0i32;\n    let mut r: ~&i32 = &r#1;\n" in text
    assert "    let mut w#1: ~i32 = 0i32;\n    let mut w: ~&mut i32 = &mut w#1;\n" in text
    assert "        r = &k;\n" in text and "        e = &t[1i32];\n" in text


def test_a_closure_the_body_only_calls_is_not_hoisted_but_what_it_reads_is():
    main = run_front(CASES / "through_called_closures.vx", hoist_captured_lets).after.items[0]
    hoisted = [s.name for s in main.body.stmts if s._prod == "Let"][:3]
    assert sorted(hoisted) == ["c", "i", "k"]


@pytest.mark.parametrize("case,shown", [
    # what the closures kept in them read is bound first too
    ("closure_values",
     ["    let mut add: ~fn(f64) -> f64 = |_: f64| -> f64 {\n        0.0f64\n    };\n",
      "    let mut show: ~fn() -> void = || -> void {};\n",
      "    let mut k: f64 = 0.0f64;\n    let mut s: ~i32 = 0i32;\n",
      "        add = |x#1: f64| -> f64 {\n"]),
    ("closure_returning_a_reference",
     ["    let mut h: ~fn(i32) -> &mut i32 = |_: i32| -> &mut i32 {\n"
      "        let mut zero: ~i32 = 0i32;\n        &mut zero\n    };\n"]),
    ("vector",
     ["    let mut v: <2 x f32> = splat::<2 x f32>(0.0f32);\n",
      "    let r#1: ~<2 x f32> = splat::<2 x f32>(0.0f32);\n    let mut r: ~&<2 x f32> = &r#1;\n"]),
])
def test_a_closure_value_or_a_vector_is_bound_first_to_a_zero_of_its_type(case, shown):
    text = to_text(run_front(CASES / f"{case}.vx", hoist_captured_lets).after)
    assert all(line in text for line in shown)
