"""Tensors: lazy storage, constructors, indexing, element assignment, printing."""

from oracle_run import output, stops

from nano_vx.values.tensors import UNINIT, make_tensor


def test_a_50_gib_declaration_allocates_nothing():
    t = make_tensor("f16", [51200, 524288], "uninit", [], "CPU_DRAM", None)
    assert t.size() * 2 == 50 * 1024 ** 3
    assert t.store.data == {} and t.store.default is UNINIT
    row = t.locate([51199], None)
    row.write(row.locate([524287], None), 1.5, None)
    assert len(t.store.data) == 1
    assert t.read(t.locate([51199, 524287], None), None).v == 1.5


def test_the_50_gib_program_runs_at_once():
    assert output("""
fn main() -> i32 {
    let kv : Tensor<f16, [51200, 524288]> = Tensor<f16, [51200, 524288]>::uninit();
    kv[51199][524287] = 0.5;
    print(kv[51199][524287]);
    let _staged = transfer(kv, Memory::HBM);
    return 0;
}
""") == "0.5\n"


def test_new_uninit_fill_and_element_assignment():
    assert output("""
fn main() {
    let a = Tensor<i32, [2, 3]>::new();
    a[1][2] = 7;
    a[0][0] += 5;
    a[1][2] *= 2;
    print(a);
    print(a[1]);
    let b = Tensor<f32, [3]>::fill(0.1);
    b[2] += 1.0;
    print(b);
    let c = Tensor<bool, [2]>::uninit();
    c[0] = true; c[1] = false;
    print(c);
    let d = Tensor<u8, [2]>::fill(250);
    d[0] += 10;
    print(d);
}
""") == "[[5, 0, 0], [0, 0, 14]]\n[0, 0, 14]\n[0.1, 0.1, 1.1]\n[true, false]\n[4, 250]\n"


def test_tensors_are_shared_like_owned_buffers():
    assert output("""
fn fill_in(t: Tensor<i32, [3]>) { t[1] = 9; }
fn main() { let a = Tensor<i32, [3]>::new(); let b = a; fill_in(b); print(a); }
""") == "[0, 9, 0]\n"


def test_out_of_bounds_names_the_index_and_extent():
    stop = stops("fn main() { let t = Tensor<i32, [4, 3]>::new(); print(t[1][3]); }", "E9003")
    assert "index 3" in stop.message and "extent 3" in stop.message
    stops("fn main() { let t = Tensor<i32, [4]>::new(); let i = 0 - 1; t[i] = 1; }", "E9003")
    assert output("fn main() { let t = Tensor<i32, [4, 3]>::new(); print(t[3][2]); }") == "0\n"


def test_reading_an_unwritten_element_of_uninit_stops():
    # The interpreter's check: native code reads an unwritten element as zero.
    stop = stops("fn main() { let t = Tensor<f32, [2, 2]>::uninit(); t[0][0] = 1.0; "
                 "print(t[1][0]); }", "E9005", native_too=False)
    assert "[1][0]" in stop.message
    stops("fn main() { let t = Tensor<f32, [2]>::uninit(); t[0] += 1.0; }", "E9005",
          native_too=False)
    assert output("fn main() { let t = Tensor<f32, [2]>::uninit(); t[1] = 2.0; "
                  "print(t[1]); }") == "2\n"


def test_printing_a_huge_tensor_is_refused():
    stop = stops("fn main() { let t = Tensor<i32, [100, 100]>::new(); print(t); }", "E9006")
    assert "10000 elements" in stop.message
    assert output("fn main() { let t = Tensor<i32, [100, 100]>::new(); print(t[99][99]); }") \
        == "0\n"
