"""Launches in the reference interpreter (Lkernels on): a kernel lent `&mut` of a launcher's
variable, which its `spawn` body assigned, reaches that variable as `*p`, and a `transfer` of
`*p` moves it, as the body's `transfer` did; elsewhere a `transfer(*p, ..)` copies."""

import io
import textwrap
from string import Template

import pytest

from nano_vx.diagnostics import Diagnostics
from nano_vx.oracle import run_program
from nano_vx.resume.read import read_source
from nano_vx.source import Source
from nano_vx.values.stops import RuntimeStop

from oracle_run import output


def run_il(text: str):
    """(printed text, the RuntimeStop or None) of hand-written IL."""
    diagnostics = Diagnostics()
    read = read_source(Source("case.il", textwrap.dedent(text).lstrip("\n")), diagnostics)
    assert read is not None, diagnostics.render()
    out = io.StringIO()
    try:
        run_program(read[1], out=out)
    except RuntimeStop as stop:
        return out.getvalue(), stop
    return out.getvalue(), None


# `let r = spawn on(Topology::CPU) { t = ..; let a = transfer(t, ..); a[0] };`, outlined
# (`$launch` the launch); in GIVEN_ON the move is an inner spawn's, given on the `*t` of the
# `t` the outer kernel was lent.
MAIN = """
    // IL: Lkernels
    fn main() {
        let mut t: Tensor<i32, [2], Memory::CPU_DRAM> = Tensor<i32, [2]>::fill(1);
        let second: ~_ = || {
            t[1]
        };
        let r: ~$launch;
        @print(r);
        @print(second());
    }
"""
MOVE = "transfer[sync, CPU_DRAM -> NPU_HBM (50), cost 50]"

LENT = Template(MAIN).substitute(
    launch="Pinned<i32, Topology::CPU> = launch main$kernel0 on(Topology::CPU)(&mut t)") + f"""
    fn main$kernel0(t: &mut Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU {{
        *t = Tensor<i32, [2]>::fill(2);
        let a: Tensor<i32, [2], Memory::NPU_HBM> = {MOVE}(*t, Memory::NPU_HBM);
        a[0]
    }}
"""

GIVEN_ON = Template(MAIN).substitute(
    launch="Pinned<Pinned<i32, Topology::CPU>, Topology::CPU> = "
           "launch main$kernel1 on(Topology::CPU)(&mut t)") + f"""
    fn main$kernel0(t: Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU {{
        let a: Tensor<i32, [2], Memory::NPU_HBM> = {MOVE}(t, Memory::NPU_HBM);
        a[0]
    }}

    fn main$kernel1(t: &mut Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU {{
        *t = Tensor<i32, [2]>::fill(2);
        launch main$kernel0 on(Topology::CPU)(*t)
    }}
"""

# The inner spawn assigns `t` too: the outer kernel gives its reference on, lending the
# inner one the launcher's `t`.
LENT_ON = Template(MAIN).substitute(
    launch="Pinned<i32, Topology::CPU> = launch main$kernel1 on(Topology::CPU)(&mut t)") + f"""
    fn main$kernel0(t: &mut Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU {{
        *t = Tensor<i32, [2]>::fill(1);
        let a: Tensor<i32, [2], Memory::NPU_HBM> = {MOVE}(*t, Memory::NPU_HBM);
        a[0]
    }}

    fn main$kernel1(t: &mut Tensor<i32, [2], Memory::CPU_DRAM>) on Topology::CPU {{
        *t = Tensor<i32, [2]>::fill(2);
        let inner: ~Pinned<i32, Topology::CPU> = launch main$kernel0 on(Topology::CPU)(t);
        inner + 1
    }}
"""


@pytest.mark.parametrize("text", [LENT, GIVEN_ON, LENT_ON], ids=["lent", "given_on", "lent_on"])
def test_a_transfer_through_the_mut_a_kernel_is_lent_moves_the_launchers_variable(text):
    printed, stop = run_il(text)
    assert printed == "2\n"
    assert stop is not None and stop.code == "E9004"
    assert stop.message.startswith("use of 't' after it moved to Memory::NPU_HBM")


def test_a_kernel_reading_the_variable_it_moved_through_its_mut_stops():
    text = LENT.replace("        a[0]\n    }", "        a[0] + (*t)[0]\n    }")
    printed, stop = run_il(text)
    assert printed == "" and stop.code == "E9004"


def test_a_kernel_given_a_reference_variable_copies_what_it_transfers_through_it():
    """A reference the launcher holds, given as it is, is no variable of the launcher's that
    the body names: `transfer(*p, ..)` copies there, as everywhere in Vx."""
    printed, stop = run_il(LENT.replace(
        "        let r: ~Pinned<i32, Topology::CPU> = launch main$kernel0 on(Topology::CPU)(&mut t);",
        "        let p: ~&mut Tensor<i32, [2], Memory::CPU_DRAM> = &mut t;\n"
        "        let r: ~Pinned<i32, Topology::CPU> = launch main$kernel0 on(Topology::CPU)(p);"))
    assert (printed, stop) == ("2\n2\n", None)


def test_a_transfer_through_a_reference_copies():
    assert output("""
fn take(p: &mut Tensor<i32, [2]>) -> i32 {
    let a = transfer(*p, Memory::NPU_HBM);
    a[0]
}
fn main() {
    let mut t = Tensor<i32, [2]>::fill(3);
    let p = &mut t;
    let a = transfer(*p, Memory::NPU_HBM);
    print(a[0] + take(&mut t));
    print(t[1]);
}
""") == "6\n3\n"


def test_a_raw_pointer_a_spawn_gives_is_indexed_and_dereferenced_like_the_pointer():
    """A spawn's value is placed (`Pinned<*mut i32, ..>`), read like the value inside it."""
    assert output("""
fn main() {
    let mut u = Tensor<i32, [3]>::fill(0);
    let p = spawn on(Topology::CPU) { u.as_mut_ptr() };
    unsafe {
        p[0] = 1;
        p[2] += 5;
        print(p[2]);
        *p = 4;
        print(*p);
    }
    print(u);
}
""") == "5\n4\n[4, 0, 5]\n"
