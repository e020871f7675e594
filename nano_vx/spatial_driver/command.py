"""`nano-vx spatial PROGRAM --target TARGET`: read a spatial program, run the lane from the IL
it is written in, validate every pass (well-formed output, same outputs as its input on a
corpus of inputs), and report the outcome, its step count and where each stage runs.

Everything that can go wrong with the program or the target is a coded diagnostic: text that
does not parse (E7001), an ill-formed program (E7002), inconsistent rates (E7003), a bad target
(E7004), a pass that cannot apply (its SpatialReject's code), a rewrite that changed the
meaning (E7020), a program that fails on its own inputs (E7021).
"""

from __future__ import annotations

import os
import time
import zipfile
import zlib
from typing import TextIO

import numpy as np

from ..diagnostics import Diagnostics
from ..driver import DumpError, DumpWatch, InternalError, Ran, Watch, internal_errors, run_passes
from ..source import Source
from ..oracle.rewrites import IllFormed

EXIT_OK, EXIT_ERROR = 0, 1


# The bytes of tensors the lane runs a program on: inputs, outputs and a corpus of each.
RUN_LIMIT = 64 << 20


def _elements(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


class _Stop(Exception):
    """The run ends with the diagnostics reported so far."""


def run_spatial(args, stdout: TextIO, stderr: TextIO, usage) -> int:
    from ..compile import _pass_names, dump_options, read_input
    from ..spatial_pipeline import SPATIAL_PIPELINE, VX_PIPELINE

    if args.target is None:
        raise usage("spatial: no --target (a file in machines/spatial/ or its name)")
    if args.code is None:
        return _describe_target(args.target, stdout, stderr, args.error_format)
    lane = VX_PIPELINE if args.code.endswith(".vx") else SPATIAL_PIPELINE
    dumps = dump_options(args, usage, lane)
    if args.stop_after:
        _pass_names(args.stop_after, usage, lane)
    if args.certificate is not None and args.stop_after not in (None, "schedule"):
        raise usage(f"--certificate certifies the scheduled program, but the lane stops after "
                    f"{args.stop_after}")
    if args.lower_dir is not None and args.lower is None:
        raise usage("--lower-dir names where --lower writes its files; give --lower BACKEND")
    data = read_input(args.code, usage)
    try:
        text, bad = data.decode("utf-8"), None
    except UnicodeDecodeError as err:
        text, bad = "", err.start
    run = _Run(args, Source(args.code, text), stdout, stderr, dumps)
    try:
        if bad is not None:
            run.fail("E7001", f"the program is not UTF-8 text: byte 0x{data[bad]:02x} at "
                              f"offset {bad}")
        run.go()
    except _Stop:  # a file that cannot be written or a failing pass is the command line's
        pass
    if args.error_format == "json":
        stderr.write(run.diagnostics.to_json())
    elif run.diagnostics.items:
        stderr.write(run.diagnostics.render(color=args.color))
    return EXIT_ERROR if run.diagnostics.has_errors else EXIT_OK


def _describe_target(name: str, stdout: TextIO, stderr: TextIO, error_format: str) -> int:
    """`nano-vx spatial --target T` with no program: what the target is."""
    from ..spatial.target import TargetError, describe_target, load_target

    try:
        stdout.write(describe_target(load_target(name)) + "\n")
    except TargetError as err:
        diagnostics = Diagnostics()
        diagnostics.error("E7004", None, str(err))
        stderr.write(diagnostics.to_json() if error_format == "json" else diagnostics.render())
        return EXIT_ERROR
    return EXIT_OK


class _Validation(Watch):
    """Each rewrite of the lane checked against the token semantics on the inputs as it is
    made (unless --no-validate), and the report's line on each pass."""

    def __init__(self, run: _Run, target, inputs, outcomes, lines: list[str]):
        self.run, self.target, self.inputs = run, target, inputs
        self.outcomes, self.lines = outcomes, lines
        self.done: set[str] = set()
        self.graph = None  # the program the next pass gets

    def before(self, index: int, p, tree) -> None:
        self.graph = tree

    def after(self, ran: Ran) -> None:
        from ..spatial.load import check_work

        p = ran.p
        # A pass may cut tokens into many more tiles than the program had: its output is
        # evaluated (here, or as the lane's result) only within the same bounds.
        if not check_work(ran.after, self.run.diagnostics, after=p.name):
            raise _Stop
        checked = "not validated (--no-validate)"
        if not self.run.args.no_validate:
            start = time.perf_counter()
            with internal_errors(p, ran.before, expected=(_Stop,)):
                self.outcomes = self.run._validate(p, ran.before, ran.after, self.target,
                                                   self.inputs, self.outcomes)
            plural = "s" if len(self.inputs) != 1 else ""
            checked = (f"validated on {len(self.inputs)} input{plural} in "
                       f"{time.perf_counter() - start:.2f} s")
        ils = f"{p.input.name} -> {p.output.name}"
        self.lines.append(f"  {p.name:<22} {ils:<30} {ran.seconds * 1000:8.1f} ms   {checked}")
        self.done.add(p.name)


class _Run:
    def __init__(self, args, source: Source, out: TextIO, err: TextIO, dumps):
        self.args = args
        self.source = source
        self.out = out
        self.err = err
        self.dumps = dumps
        self.diagnostics = Diagnostics()

    def fail(self, code: str, message: str, *, span=None, notes=(), help=(), **data):
        self.diagnostics.error(code, span, message, notes=list(notes), help=list(help), **data)
        raise _Stop

    def go(self) -> None:
        from ..compile import print_timing
        from ..oracle.equivalence import corpus, evaluate
        from ..spatial.balance import RateError, repetitions
        from ..spatial.context import SpatialContext
        from ..spatial_pipeline import VX_PIPELINE, passes_from
        from ..spatial.load import check_program, read_program, read_target
        from ..spatial.program import Program
        from ..spatial.reject import SpatialReject
        from ..spatial.text import language_of
        from .vx_source import bridge

        target = read_target(self.args.target, self.diagnostics, self.args.math_fidelity)
        if target is None:
            raise _Stop
        kernel = None
        if self.source.name.endswith(".vx"):
            start = time.perf_counter()
            bridged = bridge(self.source, self.args.kernel, self.diagnostics)
            if bridged is None:
                raise _Stop
            graph, kernel = bridged
            bridging = time.perf_counter() - start
        else:
            if self.args.kernel is not None:
                self.fail("E7060", "--kernel names the function of a Vx program to lower; "
                                   "this program is already spatial")
            graph = read_program(self.source, self.diagnostics)
        if graph is None:
            raise _Stop
        # Tensors too large to hold are the first thing to say of a program, whatever else.
        self._refuse_too_large(graph)
        if not check_program(graph, target, self.diagnostics):
            raise _Stop
        if kernel is not None and not self.args.no_validate:
            self._refuse_too_long_to_interpret(graph, kernel.name)
        try:
            repetitions(Program(graph))
        except RateError as err:
            self.fail("E7003", str(err))
        inputs = self._inputs(graph, corpus)
        outcomes = []
        if not self.args.no_validate:
            outcomes = [evaluate(graph, given) for given in inputs]
            self._refuse_failing(outcomes, "as written")
            start = time.perf_counter()
            differs = kernel.divergence(graph, outcomes, inputs) if kernel is not None else None
            checking = time.perf_counter() - start
            if differs is not None:
                self.fail("E7020", f"from-vx changed what the kernel '{kernel.name}' computes: "
                                   f"{differs}",
                          help=["this is a bug in from-vx: rerun with --dump-after=from-vx to "
                                "see the graph it made"], **{"pass": "from-vx"})
        passes = [] if self.args.stop_after == "from-vx" else passes_from(language_of(graph).name)
        dumps = DumpWatch(self.dumps, self.out) if self.dumps is not None else None
        lines = []
        if kernel is not None:
            checked = "not validated (--no-validate)" if self.args.no_validate else (
                f"the interpreter agrees on {len(inputs)} input{'s' * (len(inputs) != 1)} "
                f"in {checking:.2f} s")
            lines.append(f"  {'from-vx':<22} {'Vx -> Sdataflow':<30} "
                         f"{bridging * 1000:8.1f} ms   {checked}")
        # Dump files are numbered by the lane's table in --list-passes, from-vx first.
        position = {p.name: i for i, p in enumerate(VX_PIPELINE, 1)}
        if kernel is not None and dumps:
            self._dump_bridge(dumps.dumper, kernel, graph, position["from-vx"])
        checks = _Validation(self, target, inputs, outcomes, lines)
        try:
            outcome = run_passes(passes, graph, SpatialContext(target),
                                 verify=not self.args.no_verify, stop_after=self.args.stop_after,
                                 watch=(checks, dumps) if dumps else (checks,),
                                 numbers=position, refusals=(SpatialReject,))
        except SpatialReject as reject:
            self._refused(next(p for p in passes if p.name not in checks.done), checks.graph,
                          target, reject)
        graph, outcomes, timings = outcome.tree, checks.outcomes, outcome.timings
        if self.args.timing and timings:
            print_timing(timings, self.err)
        if self.args.no_validate:
            outcomes = [evaluate(graph, inputs[0])]
        self._refuse_failing(outcomes, "after the lane" if lines else "as written")
        certified = self._certify(graph, target, inputs[0])
        if self.args.lower is not None:
            self._lower(graph, target)
        if self.dumps is None or self.dumps.banners:
            self._report(graph, target, lines, outcomes[0])
            if certified:
                self.out.write(certified + "\n")

    def _lower(self, graph, target) -> None:
        """--lower: the backend's files to --lower-dir, or to stdout instead of the report."""
        from ..spatial_backend import LowerError
        from ..spatial_backend.output import lower_program

        try:
            lower_program(graph, target, self.args.lower, self.args.lower_dir, self.out)
        except LowerError as err:
            self.fail(err.code, f"lowering to {self.args.lower}: {err.message}",
                      backend=self.args.lower)
        except OSError as err:
            raise DumpError(err.filename or self.args.lower_dir, err,
                            what=f"the {self.args.lower} program's file") from None
        except AssertionError as err:
            raise InternalError(f"lower-{self.args.lower}", err, None) from err
        if self.args.lower_dir is None:
            raise _Stop

    def _dump_bridge(self, dumper, kernel, graph, index: int) -> None:
        """The dumps asked of from-vx: the checked front-end program before it, the graph
        after it."""
        from ..spatial_passes.from_vx import from_vx

        if self.dumps.wants(self.dumps.before, "from-vx"):
            dumper.emit("Before", index, from_vx, kernel.tree)
        if self.dumps.wants(self.dumps.after, "from-vx"):
            if self.dumps.diff:
                dumper.emit_diff(index, from_vx, kernel.tree, graph)
            else:
                dumper.emit("After", index, from_vx, graph)

    def _refuse_too_long_to_interpret(self, graph, name: str) -> None:
        from ..spatial.bounds import INTERPRETED_LIMIT, asked, too_much_to_interpret

        work = asked(graph)
        refusal = too_much_to_interpret(work, name) if work is not None else None
        if refusal is not None:
            self.fail("E7063", refusal, help=[
                "run the kernel at a smaller size, or give --no-validate to skip the "
                "interpreter's run (and every other check on inputs)"],
                elements=work.total_elements, element_limit=INTERPRETED_LIMIT)

    def _refuse_too_large(self, graph) -> None:
        """The lane runs every program on real inputs (the oracle checks each pass), so its
        tensors must fit in memory here: counted, never allocated."""
        from ..spatial.ops import NUMPY_DTYPES

        sizes = {t.name: np.dtype(NUMPY_DTYPES[t.dtype]).itemsize * _elements(t.shape)
                 for t in graph.tensors}
        total = sum(sizes.values())
        if total > RUN_LIMIT:
            biggest = max(sizes, key=sizes.get)
            self.fail("E7062", f"the program's tensors take {total:,} bytes ('{biggest}' "
                               f"{sizes[biggest]:,}); nano-vx spatial runs a program on real "
                               f"inputs, and at most {RUN_LIMIT:,} bytes of tensors",
                      help=["run the program at a smaller size: the lane's decisions for "
                            "it are the same kind of decisions at any size"],
                      tensor=biggest, bytes=total, limit=RUN_LIMIT)

    def _inputs(self, graph, corpus) -> list[dict[str, np.ndarray]]:
        """The program's own inputs (--inputs, or the .npz beside it) first, then random ones
        from --seed, as many as --corpus asks."""
        given = self.args.inputs
        beside = os.path.splitext(self.args.code)[0] + ".npz"
        if given is None and os.path.isfile(beside):
            given = beside
        inputs = []
        if given is not None:
            inputs.append(self._load_inputs(graph, given))
        count = max(0, self.args.corpus - len(inputs))
        return inputs + corpus(graph, self.args.seed, count)

    def _load_inputs(self, graph, path: str) -> dict[str, np.ndarray]:
        """The input tensors of an .npz archive, each array's shape and type checked from its
        header before it is read (a small archive may unpack to any size)."""
        try:
            loaded = np.load(path, allow_pickle=False)
            if not isinstance(loaded, np.lib.npyio.NpzFile):
                self.fail("E7002", f"the inputs {path!r} are one array; give an .npz archive "
                                   f"with one array per input tensor, named as the tensor")
            with loaded as data:
                headers = {k: _array_header(data.zip, k) for k in data.files}
                wanted = [t for t in graph.tensors if t.role == "input"]
                for t in wanted:
                    if t.name not in headers:
                        self.fail("E7002", f"the inputs {path!r} have no array '{t.name}' "
                                           f"(they have {', '.join(sorted(headers)) or 'none'})")
                    shape, dtype = headers[t.name]
                    if shape != tuple(t.shape) or dtype not in _readable(t.dtype):
                        self.fail("E7002", f"input '{t.name}' in {path!r} is "
                                           f"{dtype}{list(shape)}; the program declares "
                                           f"{t.dtype}{list(t.shape)}")
                return {t.name: _as_format(data[t.name], t.dtype) for t in wanted}
        except OSError as err:
            self.fail("E7002", f"cannot read the inputs {path!r}: "
                               f"{(err.strerror or 'cannot be read').lower()}")
        # numpy's, zipfile's and zlib's words for bytes that are not an archive of arrays
        except (ValueError, EOFError, zipfile.BadZipFile, zlib.error):
            self.fail("E7002", f"cannot read the inputs {path!r}: they are not an .npz "
                               f"archive of numeric arrays (numpy.savez writes one)")

    def _refused(self, p, graph, target, reject) -> None:
        where = {k: v for k, v in (("stage", reject.stage), ("site", reject.site),
                                  ("buffer", reject.buffer)) if v is not None}
        self.fail(reject.code, f"{p.name} cannot apply: {reject.message}",
                  notes=self._certify_refusal(graph, target, reject),
                  **{"pass": p.name, **{k: list(v) if isinstance(v, tuple) else v
                                        for k, v in where.items()}})

    def _certify(self, graph, target, given) -> str | None:
        """Write the certificate --certificate asks for: the report's line on it, or E7030
        (with the refutation written) for a site that cannot hold what it must."""
        if self.args.certificate is None:
            return None
        from ..spatial_backend.certify import DoesNotFit, certify, summary, write

        start = time.perf_counter()
        try:
            document = certify(graph, target, given)
        except DoesNotFit as refusal:
            write(self.args.certificate, refusal.document)
            self.fail("E7030", refusal.message, site=list(refusal.site),
                      notes=[f"the certificate of this refusal is in {self.args.certificate}"])
        write(self.args.certificate, document)
        return (f"certificate: {self.args.certificate} ({summary(document)}; "
                f"{time.perf_counter() - start:.2f} s)")

    def _certify_refusal(self, graph, target, reject) -> list[str]:
        """Write the certificate of a refusal --certificate asks for: the note saying so."""
        if self.args.certificate is None:
            return []
        from ..spatial_backend.certify import certify_refusal, write

        document = certify_refusal(graph, target, reject)
        if document is None:
            return ["no certificate is written: only a refusal because a site cannot hold its "
                    "buffers or semaphores (E7011, E7012) has one"]
        write(self.args.certificate, document)
        return [f"the certificate of this refusal is in {self.args.certificate}"]

    def _validate(self, p, before, after, target, inputs, reference):
        from ..oracle.rewrites import check_rewrite

        outcomes: list = []
        problem = check_rewrite(before, after, target, inputs=inputs, reference=reference,
                                seen=outcomes)
        if problem is not None:
            kind = "IllFormed" if isinstance(problem, IllFormed) else type(problem).__name__
            self.fail("E7020", f"pass {p.name} changed what the program means "
                               f"({kind}): {problem.describe()}",
                      notes=[f"{p.input.name} -> {p.output.name}, checked on "
                             f"{len(inputs)} inputs"],
                      help=[_why(problem, before, p.name)],
                      **{"pass": p.name, "divergence": kind})
        return outcomes

    def _refuse_failing(self, outcomes, when: str) -> None:
        from ..oracle.outcomes import Finished

        for k, outcome in enumerate(outcomes):
            if not isinstance(outcome, Finished):
                self.fail("E7021", f"the program {when} does not finish on input {k}: "
                                   f"{outcome.describe()}")

    def _report(self, graph, target, lines, outcome) -> None:
        from ..spatial.elements import NARROW
        from ..spatial.program import Program

        w = self.out.write
        w(f"{graph.name} on {target.name} ({target.rows} x {target.cols} sites)\n")
        for line in lines:
            w(line + "\n")
        w(f"outcome: {outcome.describe()}\n")
        p = Program(graph)
        for name, value in sorted(outcome.outputs.items()):
            # A narrow format by its own name, summed in f64 (a bf16 sum would round).
            fmt = p.tensors[name].dtype
            if fmt in NARROW:
                value, shown = value.astype(np.float64), fmt
            else:
                shown = value.dtype
            w(f"output {name}: {shown}{list(value.shape)}, sum {value.sum():g}\n")
        if p.table("schedules"):
            from ..spatial_backend.periods import periods, report_lines

            for line in report_lines(periods(graph, target), target):
                w(line + "\n")
        if not p.places:
            return
        w("placement:\n")
        by_site: dict = {}
        for stage, (site, engine) in p.places.items():
            by_site.setdefault(site, {}).setdefault(engine, []).append(stage)
        for site in sorted(by_site):
            parts = "; ".join(f"{engine} {', '.join(stages)}"
                              for engine, stages in sorted(by_site[site].items()))
            w(f"  site {site}: {parts}\n")



def _array_header(archive: zipfile.ZipFile, name: str) -> tuple[tuple, np.dtype]:
    """The shape and element type array `name` of an .npz archive declares, read from its
    .npy header alone."""
    readers = {(1, 0): np.lib.format.read_array_header_1_0,
               (2, 0): np.lib.format.read_array_header_2_0}
    member = f"{name}.npy" if f"{name}.npy" in archive.namelist() else name
    with archive.open(member) as fh:
        version = np.lib.format.read_magic(fh)
        if version not in readers:
            raise ValueError(f"an .npy header of version {version}")
        shape, _, dtype = readers[version](fh)
    return shape, dtype


def _why(problem, program, pass_name: str) -> str:
    """What to make of a divergence: a float result may be the program's numerics (tiling
    reassociates sums); anything else is the pass's bug."""
    from ..oracle.equivalence import OutputDiffers
    from ..spatial.elements import ELEMENTS

    if isinstance(problem, OutputDiffers):
        dtype = next(t.dtype for t in program.tensors if t.name == problem.tensor)
        if ELEMENTS[dtype].is_float:
            return ("the pass reorders float additions: a result that cancels large terms "
                    "keeps only their low bits, which depend on the order; compute it in f64 "
                    "or without the cancellation")
    return (f"this is a bug in the pass: rerun with --dump-before={pass_name} and "
            f"--dump-after={pass_name} to see its input and output")


def _readable(dtype: str) -> tuple:
    """The array types --inputs takes for a tensor of `dtype`: its own; for a narrow float
    also f32 (numpy has no bf16 of its own), rounded to the format; for bf16 also the
    two-byte records numpy reads an ml_dtypes bfloat16 array back as."""
    from ..spatial.elements import ELEMENTS, NARROW

    own = np.dtype(ELEMENTS[dtype].storage)
    if dtype not in NARROW:
        return (own,)
    return (own, np.dtype(np.float32)) + ((np.dtype("V2"),) if dtype == "bf16" else ())


def _as_format(array: np.ndarray, dtype: str) -> np.ndarray:
    from ..spatial.elements import ELEMENTS

    elem = ELEMENTS[dtype]
    if array.dtype.kind == "V":
        return array.view(elem.storage)
    return elem.store(array) if array.dtype != np.dtype(elem.storage) or elem.block else array
