"""spawn, unroll across, transfer and its methods, placement queries."""

from oracle_run import lowered, output, parse, run_one, stops


def test_spawn_runs_its_block_and_pins_the_value():
    assert output("""
fn main() {
    let v = spawn on(Topology::NPU[0]) { let u = Tensor<f32, [2]>::new(); u };
    assert(v.topology() == Some(Topology::NPU[0]));
    assert(v.topology() != Some(Topology::NPU[1]));
    assert(v.topology() != None);
    let w = spawn on(Topology::GPU) { 40 + 2 };
    assert(w.topology() == Some(Topology::GPU));
    print(w + 1);
    let i = 3;
    spawn on(Topology::AccCore[i]) { print(i); };
}
""") == "43\n3\n"


def test_spawn_writes_are_seen_after_it():
    # correlation program 5, with a main
    assert output("""
fn launch(kblk_start: i32, qblk_end: i32, x: f32) -> f32 {
  assert(kblk_start > qblk_end);
  let mut out = Tensor<f32, [64]>::uninit();
  spawn on(Topology::GPU) {
    let masked = kblk_start > qblk_end;
    for i in 0..64 {
      let mut e: f32 = x;
      for _k in 0..256 { e = e * x + 1.5; }
      if masked { out[i] = 0.0; } else { out[i] = e; }
    }
  };
  return out[0];
}
fn main() { print(launch(5, 3, 1.0)); }
""") == "0\n"


def test_unroll_across_runs_once_per_index():
    assert output("""
fn main() {
    unroll across(Topology::NPU[0..4]) { |i| print(i * 10); }
}
""") == "0\n10\n20\n30\n"


def test_transfer_tags_the_space_and_moves_its_source():
    assert output("""
fn main() {
    let t = Tensor<i32, [2]>::fill(4);
    let d = transfer(t, Memory::NPU_HBM);
    assert(d.topology() == Some(Topology::NPU[2]));
    let g = d.to_gpu();
    assert(g.topology() == Some(Topology::GPU));
    let back = transfer(g, Memory::CPU_DRAM);
    assert(back.topology() == Some(Topology::CPU));
    let r = transfer(back, Memory::Remote_HBM);
    assert(r.topology() == None);
    print(r);
}
""") == "[4, 4]\n"


def test_use_after_transfer_stops_naming_the_variable_and_destination():
    stop = stops("""
fn main() {
    let x = Tensor<f32, [4]>::new();
    let y = x.to_device_relaxed();
    print(x[0]);
}
""", "E9004")
    assert "'x'" in stop.message and "NPU_HBM" in stop.message
    assert stop.span is not None and stop.span.line == 5
    assert output("""
fn main() {
    let x = Tensor<f32, [4]>::new();
    let y = x.to_device_relaxed();
    print(y[0]);
}
""") == "0\n"


def test_a_shadowed_name_is_reported_as_written():
    text = """
fn main() {
    let x = 1;
    let x = Tensor<i32, [1]>::new();
    let y = transfer(x, Memory::GPU_HBM);
    print(x);
}
"""
    for name, tree in lowered(parse(text), text):
        _, stop = run_one(tree)
        assert stop.code == "E9004" and "'x'" in stop.message, name  # not 'x#1'


def test_the_chain_really_changes_the_tree():
    text = "fn main() { unroll across(Topology::NPU[0..2]) { |i| let t = i; } }"
    ils = dict(lowered(parse(text), text))
    assert "UnrollAcross" in repr(ils["Lsrc"]) and "UnrollAcross" not in repr(ils["Lunrolled"])
    assert "Local(" in repr(ils["Lresolved"])
