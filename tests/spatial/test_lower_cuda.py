"""The cuda backend: the emitted text of a small program (snapshot), the image of each schedule
op, nvcc compiling what is emitted for every reference program on every target and for the
hand-written semaphore-pair and valid/ready programs, its refusals, and the command line."""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest

from choreographies import MULTICAST, MULTICAST_RELAYED, PIPE, VALID_READY
import spatial_reference as reference
from nano_vx.cli import main
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial_backend import lower, LowerError
from nano_vx.spatial_backend.cuda import MAX_SHARED
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial_passes.schedule import schedule

NVCC = shutil.which("nvcc")
needs_nvcc = pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH: the emitted CUDA "
                                                      "is not compiled")


def cuda_text(graph, target) -> str:
    lowered = lower(graph, target, "cuda")
    assert lowered.problems(graph) == []
    (text,) = lowered.files.values()
    return text


# A CUDA warp may wait on a flag whatever its engine: on a target that lets compute touch
# semaphores, the compute warps wait and signal themselves.
ALL_ENGINES = small_target(2, 2)


def test_a_small_program_snapshot(snapshot_txt):
    assert cuda_text(parse_spatial(MULTICAST), ALL_ENGINES) == snapshot_txt


def kernel(text: str, name: str) -> list[str]:
    """The lines of one engine's lambda, without its indentation."""
    lines = text.splitlines()
    start = next(i for i, x in enumerate(lines) if f"auto kernel_{name} = " in x)
    end = next(i for i in range(start, len(lines)) if lines[i] == "    };")
    return [x.strip() for x in lines[start + 1:end]]


def test_each_op_of_a_multicast_program():
    text = cuda_text(parse_spatial(MULTICAST), ALL_ENGINES)
    reader = kernel(text, "r0c0_reader")
    assert reader[2:12] == [
        "for (unsigned i0 = 0; i0 < 4u; ++i0) {",
        "// barrier g",
        "nvx_wait_for(&sem_x0_credit, taken_x0_credit, 1u);",
        "taken_x0_credit += 1u;",
        "held_x0 += 1u;",
        "nvx_wait_for(&sem_x1_credit, taken_x1_credit, 1u);",
        "taken_x1_credit += 1u;",
        "held_x1 += 1u;",
        "// read ldX g",
        "{"]
    assert "nvx_publish(&count_x0[1], 1u);" in reader
    assert "nvx_publish(&sem_x0_data, 1u);" in reader
    writer = kernel(text, "r0c1_writer")
    assert writer[3:6] == ["// wait_front y0 1", "nvx_wait_for(&count_y0[1], got_y0, 1u);",
                           "// write y0 stY0"]
    assert writer[-5:-1] == ["// pop y0 1", "nvx_publish(&count_y0[0], 1u);",
                             "got_y0 += 1u;", "}"]
    compute = kernel(text, "r0c1_compute")
    assert compute[3:9] == ["// wait x0_data 1", "nvx_wait_for(&sem_x0_data, taken_x0_data, 1u);",
                            "taken_x0_data += 1u;", "// reserve y0 1",
                            "nvx_reserve(&count_y0[0], put_y0 + held_y0 + 1u, 2u);",
                            "held_y0 += 1u;"]
    # x0 is filled from another site: a ring in global memory, read past L1.
    assert "__device__ int32_t ring_x0[32];  // buffer x0 on site (0, 1): depth 2" in text
    assert "(__ldcg(ring_x0 + ((got_x0 + j) % 2u) * 16u + c0 * 8u + c1)) * 2LL" in text


def _compile(tmp_path, text: str, name: str, mode: str, arch: str = "sm_90") -> None:
    """nvcc, warnings as errors, for the H100 of the gpu-sm target by default."""
    source = tmp_path / f"{name}.cu"
    source.write_text(text)
    out = tmp_path / f"{name}.{'o' if mode == '-c' else 'ptx'}"
    # PTX is checked for what nvcc accepts, not for how fast its optimizer makes it: the
    # device compiler at -O0 parses, checks and lowers the whole program (a fabric GEMM in
    # 2 s, not 10 s). Object code goes through every optimization, as a user builds it.
    fast = ["-Xcicc", "-O0"] if mode == "-ptx" else []
    done = subprocess.run([NVCC, mode, f"-arch={arch}", "-Werror", "all-warnings", *fast,
                           str(source), "-o", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert out.stat().st_size > 0


@needs_nvcc
@pytest.mark.slow
@pytest.mark.parametrize("program,target", reference.LOWERED, ids=reference.LOWERED_IDS)
def test_nvcc_compiles_every_reference_program(program, target, tmp_path):
    """Object code (device and host) on the GPU target; PTX elsewhere, which runs the whole
    device compiler (unoptimized, see _compile) but not the host's, to keep the suite quick."""
    graph = reference.step(program, target, "schedule")[1]
    mode = "-c" if target == "gpu-sm" else "-ptx"
    _compile(tmp_path, cuda_text(graph, load_target(target)), program, mode)


def valid_ready():
    target = small_target(2, 2, links="fabric")
    return schedule(parse_spatial(VALID_READY), SpatialContext(target)), target


@needs_nvcc
@pytest.mark.slow
def test_nvcc_compiles_sends_over_semaphore_pairs_and_links(tmp_path):
    pipe = parse_spatial(PIPE.replace("DEPTH", "2"))
    text = cuda_text(pipe, small_target(2, 2))
    assert kernel(text, "r0c0_reader")[15:19] == [
        "// send x 1", "nvx_publish(&count_x[1], 1u);",
        "put_x += 1u; held_x -= 1u; staged_x -= 1u;", "// signal x_data 1"]
    _compile(tmp_path, text, "pipe", "-c")
    graph, target = valid_ready()
    _compile(tmp_path, cuda_text(graph, target), "link", "-c")


def test_a_site_beyond_a_blocks_shared_memory_is_refused():
    big = 1 + MAX_SHARED // 64
    deep = MULTICAST.replace("buffer y0 (0, 1) depth 2 bytes 128",
                             f"buffer y0 (0, 1) depth {big} bytes {big * 64}")
    target = small_target(2, 2, sram_bytes=1 << 20)
    with pytest.raises(LowerError) as refused:
        lower(parse_spatial(deep), target, "cuda")
    assert (refused.value.code, refused.value.message) == (
        "E7041", f"site (0, 1) needs {_align(big * 64) + 16} bytes of shared "
                 f"memory; a CUDA block has at most {MAX_SHARED}")


def _align(n: int) -> int:
    return -(-n // 16) * 16


def test_the_command_line_prints_the_source(tmp_path):
    program = tmp_path / "bcast.sdf"
    program.write_text(MULTICAST_RELAYED)
    out, err = io.StringIO(), io.StringIO()
    status = main(["spatial", str(program), "--target", "wormhole", "--lower", "cuda"],
                  stdout=out, stderr=err)
    assert (status, err.getvalue()) == (0, "")
    text = cuda_text(parse_spatial(MULTICAST_RELAYED), load_target("wormhole"))
    assert out.getvalue() == f"// ---- bcast.cu ----\n{text}"


def test_the_command_line_writes_the_files(tmp_path):
    program = tmp_path / "bcast.sdf"
    program.write_text(MULTICAST_RELAYED)
    out, err = io.StringIO(), io.StringIO()
    where = tmp_path / "cuda"
    status = main(["spatial", str(program), "--target", "wormhole", "--lower", "cuda",
                   "--lower-dir", str(where)], stdout=out, stderr=err)
    assert (status, err.getvalue()) == (0, "")
    lines = out.getvalue().splitlines()
    text = (where / "bcast.cu").read_text()
    assert lines[:3] == [
        f"lowered to cuda in {where}: 1 file, census of 6 buffers, 4 semaphores, 7 kernels, "
        f"1 group (a bijection)",
        f"  wrote {where / 'bcast.cu'} ({text.count(chr(10))} lines)",
        f"  wrote {where / 'census.txt'} (18 lines)"]
    assert lines[3] == "bcast on wormhole (9 x 8 sites)"
    assert sorted(p.name for p in where.iterdir()) == ["bcast.cu", "census.txt"]


def test_lower_dir_needs_lower(tmp_path):
    program = tmp_path / "bcast.sdf"
    program.write_text(MULTICAST)
    err = io.StringIO()
    status = main(["spatial", str(program), "--target", "wormhole", "--lower-dir",
                   str(tmp_path)], stdout=io.StringIO(), stderr=err)
    assert (status, err.getvalue()) == (
        2, "nano-vx: error: --lower-dir names where --lower writes its files; give --lower "
           "BACKEND\n")
