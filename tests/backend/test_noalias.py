"""A tensor parameter that, at every call, gets a buffer no other argument shares is marked
llvm.noalias in the MLIR, and LLVM gets `noalias` on the pointer its loads and stores use;
one that may share its buffer with another argument is not marked."""

from __future__ import annotations

import io
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from nano_vx.backend.buffers import _follow
from nano_vx.cli import main

KERNEL = """
fn axpy(x: &Tensor<f32, [8]>, y: &mut Tensor<f32, [8]>) {
    for i in 0..8 {
        y[i] = y[i] + 2.0 * x[i];
    }
}

fn read2(x: &Tensor<f32, [8]>, y: &Tensor<f32, [8]>) -> f32 {
    x[0] + y[1]
}
"""


def _emit(tmp_path, main_body: str, *, extra: str = "", action: str = "emit-mlir") -> str:
    path = tmp_path / "p.vx"
    path.write_text(KERNEL + extra + "fn main() {\n" + main_body + "\n}\n")
    out, err = io.StringIO(), io.StringIO()
    assert main([str(path), "--action", action], stdout=out, stderr=err) == 0, err.getvalue()
    return out.getvalue()


def _marked(mlir: str) -> dict:
    """Function -> for each argument, whether it is marked llvm.noalias."""
    return {m.group(1): ["llvm.noalias" in a for a in m.group(2).split("%")[1:]]
            for m in re.finditer(r"func\.func @(\w+)\((.*)\)", mlir)}


def test_buffers_of_distinct_locals_are_marked_and_reach_llvm(tmp_path):
    body = """
    let a = Tensor<f32, [8]>::fill(1.0);
    let mut b = Tensor<f32, [8]>::fill(2.0);
    axpy(&a, &mut b);
    print(read2(&a, &b));"""
    marked = _marked(_emit(tmp_path, body))
    assert marked["axpy"] == [True, True] and marked["read2"] == [True, True]
    llvm = _emit(tmp_path, body, action="emit-llvm")
    define = next(line for line in llvm.splitlines() if line.startswith("define void @vx.axpy"))
    assert define.count("ptr noalias") == 2


def test_one_buffer_passed_twice_is_not_marked(tmp_path):
    body = """
    let a = Tensor<f32, [8]>::fill(1.0);
    let b = Tensor<f32, [8]>::fill(2.0);
    print(read2(&a, &b));
    print(read2(&a, &a));"""
    assert _marked(_emit(tmp_path, body))["read2"] == [False, False]


def test_a_local_bound_to_another_is_its_buffer(tmp_path):
    body = """
    let a = Tensor<f32, [8]>::fill(1.0);
    let r = &a;
    print(read2(r, &a));"""
    assert _marked(_emit(tmp_path, body))["read2"] == [False, False]


def test_the_callers_own_parameters_may_be_one_buffer(tmp_path):
    extra = """
fn outer(p: &Tensor<f32, [8]>, q: &Tensor<f32, [8]>) -> f32 {
    read2(p, q)
}
"""
    body = """
    let a = Tensor<f32, [8]>::fill(1.0);
    let b = Tensor<f32, [8]>::fill(2.0);
    print(outer(&a, &b));"""
    marked = _marked(_emit(tmp_path, body, extra=extra))
    assert marked["outer"] == [True, True] and marked["read2"] == [False, False]


NAMES = st.sampled_from("abcdefgh")


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(NAMES, NAMES), st.dictionaries(NAMES, st.sampled_from(["p", "q"])))
def test_each_local_takes_the_buffer_its_chain_of_aliases_ends_at(alias, known):
    """Followed once per link, the chains give what walking each from its start gives: the
    buffer of the name the chain ends at, or of the first name it comes back to (a cycle,
    which only a dump can write)."""
    def walk(name):
        seen = set()
        while name in alias and name not in seen:
            seen.add(name)
            name = alias[name]
        return known.get(name)
    assert _follow(alias, known) == {name: walk(name) for name in {*known, *alias}}


SET = """
unsafe fn set(p: *mut f32, e: &mut f32) {
    p[0] = 1.0;
    *e = 2.0;
}
"""


def test_a_pointer_beside_a_reference_into_its_buffer_is_not_marked(tmp_path):
    # Raw pointers escape the loan checks: `e` may name an element of the buffer `p` is.
    body = """
    let mut a = Tensor<f32, [8]>::fill(1.0);
    let mut b = Tensor<f32, [8]>::fill(1.0);
    let p = a.as_mut_ptr();
    unsafe { set(p, &mut a[0]); }
    let mut y: f32 = 3.0;
    unsafe { set(b.as_mut_ptr(), &mut y); }
    print(a[0] + y);"""
    assert _marked(_emit(tmp_path, body, extra=SET))["set"] == [False, False]


def test_a_pointer_beside_a_variable_or_another_buffer_is_marked(tmp_path):
    body = """
    let mut a = Tensor<f32, [8]>::fill(1.0);
    let mut b = Tensor<f32, [8]>::fill(1.0);
    let mut y: f32 = 3.0;
    unsafe { set(b.as_mut_ptr(), &mut y); }
    unsafe { set(b.as_mut_ptr(), &mut a[1]); }
    print(a[1] + b[0] + y);"""
    assert _marked(_emit(tmp_path, body, extra=SET))["set"] == [True, False]


COPY = """
unsafe fn copy(src: *const f32, dst: *mut f32, n: i32) {
    for i in 0..n {
        dst[i] = src[i];
    }
}
"""


def test_pointers_seen_flat_are_the_buffers_they_view(tmp_path):
    # Pointers into a rank-2 tensor and one of `?` extents are views of their buffers
    # (`t.flatten()`): apart when the tensors are, not when they are one.
    body = """
    let a = Tensor<f32, [2, 4]>::fill(1.0);
    let n = 8;
    let mut b = Tensor<f32, [?]>::fill([n], 2.0);
    let p = a.as_ptr();
    unsafe { copy(p, b.as_mut_ptr(), 8); }
    print(b[7]);"""
    assert _marked(_emit(tmp_path, body, extra=COPY))["copy"] == [True, True, False]
    body = """
    let mut a = Tensor<f32, [2, 4]>::fill(1.0);
    let p = a.as_mut_ptr();
    unsafe { copy(a.as_ptr(), p, 4); }
    print(a[1][3]);"""
    assert _marked(_emit(tmp_path, body, extra=COPY))["copy"] == [False, False, False]
