"""load-machine-files: --machine and --host declarations join the program; E6012 for a name
declared by two inputs, E6016 for a machine file holding more than declarations; every
machine file of the fleet loads cleanly and cites its data sheet, and an edge without a cost
is priced from the fleet's bandwidths."""

from pathlib import Path

import pytest

from nano_vx.context import Compilation
from nano_vx.model import REFERENCE_BPS
from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.parser import parse_text
from nano_vx.pipeline import PIPELINE
from nano_vx.source import Source

ROOT = Path(__file__).parents[2]
MACHINES = sorted(p for p in (ROOT / "machines").glob("*.vx") if p.stem != "host-x86")
HOST = ROOT / "machines" / "host-x86.vx"
CASES = Path(__file__).parent / "cases" / "load_machine_files"
H100 = str(ROOT / "machines" / "h100-sxm.vx")

# case -> (machine, host, the codes reported)
RUNS = {
    "staging": (H100, "default", []),
    "e6012_twice": (H100, None, ["E6012", "E6012"]),
    "e6012_repaired": (H100, None, []),
}


def load(text: str, machine=None, host=None, upto="load-machine-files", name="case.vx"):
    """(tree after `upto`, diagnostics, ctx) with the flags given."""
    tree, diagnostics = parse_text(text, name)
    assert not diagnostics.has_errors, diagnostics.render()
    ctx = Compilation(Source(name, text), diagnostics, machine=machine, host=host)
    for p in PIPELINE.passes[1:PIPELINE.names().index(upto) + 1]:
        tree = p(tree, ctx)
    return tree, diagnostics, ctx


@pytest.mark.parametrize("case", sorted(RUNS))
def test_output(case, snapshot_txt, snapshot_dot):
    machine, host, codes = RUNS[case]
    tree, diagnostics, _ = load((CASES / f"{case}.vx").read_text(), machine, host)
    assert diagnostics.codes() == codes
    assert to_text(tree) == snapshot_txt
    assert to_dot(tree, title=f"load-machine-files: {case}") == snapshot_dot


@pytest.mark.parametrize("case", sorted(RUNS))
def test_diagnostics(case, snapshot_txt):
    machine, host, _ = RUNS[case]
    _, diagnostics, _ = load((CASES / f"{case}.vx").read_text(), machine, host, name=case)
    # Paths in the text are the machine file's: print them from the repository root.
    assert diagnostics.render().replace(str(ROOT) + "/", "") == snapshot_txt


def test_without_flags_the_program_is_untouched():
    text = "fn main() {}\n"
    tree, diagnostics = parse_text(text)
    ctx = Compilation(Source("case.vx", text), diagnostics)
    assert PIPELINE.passes[1](tree, ctx) is tree


def test_machine_items_keep_spans_into_the_machine_file():
    tree, _, _ = load("fn main() {}\n", H100)
    hbm = next(i for i in tree.items if i._prod == "MemoryDecl" and i.name == "HBM")
    assert hbm.span.source.name == H100 and hbm.span.line > 1


def test_host_default_declares_only_cpu_dram_with_no_capacity():
    _, diagnostics, ctx = load("fn main() {}\n", H100, "default",
                               upto="check-memory-declarations")
    assert not diagnostics.items
    cpu = ctx.model.spaces["CPU_DRAM"]
    assert cpu.capacity is None and cpu.managed == "explicit" and cpu.span is not None
    assert ctx.model.route("CPU_DRAM", "HBM").cost == 25  # 63 GB/s on the 1575 GB/s scale


def test_e6012_names_both_places():
    _, diagnostics, _ = load("Memory CPU_DRAM {}\nfn main() {}\n", None, "default")
    (d,) = diagnostics.items
    assert d.code == "E6012" and d.data["name"] == "CPU_DRAM"
    assert d.data["inputs"] == ["the program", "--host default"]
    assert "case.vx:1:1" in d.notes[0]


def test_e6016_a_machine_file_holds_only_declarations(tmp_path):
    bad = tmp_path / "bad.vx"
    bad.write_text("Memory HBM { scope: device }\nfn helper() {}\n")
    _, diagnostics, _ = load("fn main() {}\n", str(bad))
    assert diagnostics.codes() == ["E6016"]
    bad.write_text("Memory HBM { scope: device }\n")  # the repair
    _, diagnostics, _ = load("fn main() {}\n", str(bad))
    assert not diagnostics.items


@pytest.mark.parametrize("machine", [p.name for p in MACHINES])
@pytest.mark.parametrize("host", [None, "default", str(HOST)])
def test_every_machine_file_loads_cleanly(machine, host):
    _, diagnostics, ctx = load("fn main() {}\n", str(ROOT / "machines" / machine), host,
                               upto="check-memory-declarations")
    assert not diagnostics.items, diagnostics.render()
    model = ctx.model
    assert model.has_machine and not model.builtin
    assert {"HBM", "L2", "SMEM"} <= set(model.spaces) and "Device" in model.topologies
    assert model.spaces["L2"].within == "HBM" and model.spaces["L2"].managed == "cached"
    assert model.spaces["SMEM"].within == "L2" and model.spaces["SMEM"].scope == "sm"
    assert model.spaces["SMEM"].replicas > 1
    assert (model.route("CPU_DRAM", "HBM") is None) == (host is None)
    host_links = [e for e in model.edges if "CPU_DRAM" in (e.src, e.dst)]
    assert len(host_links) == (0 if host is None else 2)
    assert all(e.copy_engine and e.ordering is None for e in host_links)


@pytest.mark.parametrize("path", [*MACHINES, HOST], ids=lambda p: p.name)
def test_every_machine_file_cites_its_data_sheet(path):
    text = path.read_text().lower()
    assert "source:" in text and ("datasheet" in text or "data sheet" in text)


def test_the_fleet_figures():
    def hbm(machine):
        _, _, ctx = load("fn main() {}\n", str(ROOT / "machines" / machine),
                         upto="check-memory-declarations")
        return ctx.model.spaces["HBM"]

    assert hbm("a100-40.vx").capacity == 42_949_672_960
    assert hbm("a100-80.vx").bandwidth_bps == 2_039_000_000_000
    assert hbm("h100-sxm.vx").bandwidth_bps == 3_350_000_000_000
    assert hbm("b200.vx").capacity == 180_000_000_000
    assert hbm("mi300x.vx").capacity == 192_000_000_000


def test_the_command_line_takes_a_machine_and_a_host(tmp_path):
    import io

    from nano_vx.cli import main

    prog = tmp_path / "prog.vx"
    prog.write_text((CASES / "staging.vx").read_text())
    out, err = io.StringIO(), io.StringIO()
    argv = [str(prog), "--action", "check", "--host", "default", "--machine", H100]
    assert main(argv, out, err) == 0, err.getvalue()
    assert main([str(prog), "--action", "check", "--machine", str(tmp_path / "no.vx")],
                out, err) == 2
    assert "--machine: cannot read" in err.getvalue()


COPIER = "Topology Copier { memory: Memory::HBM, transfer Memory::HBM -> Memory::SMEM sync }\n"


@pytest.mark.parametrize("machine, bottleneck", [
    ("h100-sxm.vx", "HBM"),   # SMEM's 128 B/cyc has no clock: HBM's 3.35 TB/s bounds it
    ("h200.vx", "SMEM"),      # 128 B/cyc at 1.98 GHz, 253.44 GB/s, below HBM's 4.8 TB/s
])
def test_an_edge_without_a_cost_is_priced_by_the_narrowest_bandwidth(machine, bottleneck):
    _, diagnostics, ctx = load(COPIER + "fn main() {}\n", str(ROOT / "machines" / machine),
                               upto="check-memory-declarations")
    assert not diagnostics.items, diagnostics.render()
    (edge,) = [e for e in ctx.model.edges if e.topology == "Copier"]
    bps = ctx.model.spaces[bottleneck].bandwidth_bps
    assert edge.derived and edge.ordering == "sync" and edge.bandwidth_bps == bps
    assert edge.cost == REFERENCE_BPS / bps


def test_e6013_a_cost_written_beside_the_fleet_bandwidths():
    text = COPIER.replace("SMEM sync", "SMEM : 5") + "fn main() {}\n"
    _, diagnostics, _ = load(text, H100, upto="check-memory-declarations")
    (d,) = diagnostics.items
    assert d.code == "E6013" and d.data["bottleneck"] == "HBM"
    assert "gives the cost 5" in d.message and "0.4701" in d.message


def test_handwritten_rerun_on_its_own_output(run_pass):
    # Idempotence: the pass re-run on what it wrote with `--host default` meets the host's
    # declaration already in the program; a resumed run skips the pass (the dump's `after:`).
    ran = run_pass("load-machine-files", """
        // IL: Lsrc
        fn main() {
            print(1);
        }

        Memory CPU_DRAM { managed: explicit }
    """, host="default")
    assert [(d.code, d.message) for d in ran.diagnostics.items] == [
        ("E6012", "memory space 'CPU_DRAM' is declared in two inputs: the program and "
                  "--host default")]
    assert ran.text.count("Memory CPU_DRAM") == 1
