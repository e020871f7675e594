"""substitute-generic-parameters, monomorphize's helper rewrite, on one generic function and
one binding at a time: what each parameter's uses become."""

from nano_vx.dump.text import to_text
from nano_vx.languages import Lerased
from nano_vx.passes.erase_struct_arguments import erase_struct_arguments
from nano_vx.placement.substitute_generic_parameters import Substitution, substitute
from front import run_front

GENERIC = """
fn stage<T, const N: i32, const M: i64, A: Topology>(x: T, t: Tensor<f32, [N * 2]>) -> i64 {
    let p: Tensor<f32, [N], Topology::A> = Tensor<f32, [N]>::fill(1.0);
    let k: i32 = N + 1;
    return M;
}

fn main() { }
"""


def instance(binding: dict):
    ran = run_front(GENERIC, erase_struct_arguments)
    fn = next(i for i in ran.after.items if i._prod == "Fn" and i.name == "stage")
    out = substitute.rewrite(fn.replace(generics=()), ran.ctx,
                             state=Substitution(binding, "stage$inst", fn))
    return out, ran.diagnostics


def binding(n: int = 4):
    return {"T": Lerased["Scalar"]("f64"), "N": n, "M": 7,
            "A": Lerased["TopoRef"]("GPU", None, None)}


def test_every_parameter_becomes_what_the_instance_binds_it_to():
    out, diagnostics = instance(binding())
    assert not diagnostics.items
    text = to_text(out)
    assert "fn stage(x: f64, t: Tensor<f32, [8]>) -> i64 {" in text  # [N * 2] folded
    assert "let p: Tensor<f32, [4], Topology::GPU> = Tensor<f32, [4]>::fill(1.0);" in text
    assert "let k: i32 = 4 + 1;" in text  # an i32 const is its literal
    assert "return 7 as i64;" in text  # another type's is cast to it


def test_an_extent_that_folds_to_zero_is_e3047_naming_the_instance():
    _, diagnostics = instance(binding(n=0))
    assert diagnostics.codes() and set(diagnostics.codes()) == {"E3047"}
    assert all("in 'stage$inst' the extent" in d.message for d in diagnostics.items)
