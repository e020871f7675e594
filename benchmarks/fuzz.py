"""A long fuzz campaign on every core.

    python benchmarks/fuzz.py --minutes N [--jobs J] [--out DIR] [--seed S] [--bound SECONDS]

Each job draws inputs from tests/fuzz (generated programs, token mutants of them and of the
examples, good texts with bytes spliced in, raw bytes, mutated dumps of every IL of both
lanes in text and JSON, mutated spatial programs) and puts each through the whole pipeline
in a worker of its own, as `nano-vx FILE --action check` and, when admitted, `nano-vx FILE`
(a spatial input: `nano-vx spatial FILE --target wormhole`), each phase under a time bound
and the worker under a memory bound (tests/fuzz/runner.py). The first input of each
distinct failure (same kind, exception and frame) is minimized and saved under --out as
NAME.input.EXT, with NAME.txt beside it: the key, whether an open issue already names it
(tests/fuzz/known.py), the command that reproduces it, the traceback or the stacks, and the
input as found. The
first generated program refused with each set of codes is saved too, as
refused-generated-CODES.vx: the generator means them to be admitted, so each is a bug of the
compiler or of the generator.

A progress line comes every --progress seconds; at the end, the inputs tried, the failures
and inputs/s, and per kind of input how many were admitted, refused, ran past the bound (a
mutant's program may loop for ever: only its check must end) or failed. The exit status is
1 when a failure no open issue names was found, 2 when a job itself died (the harness's
fault: its traceback is in the output, and its inputs were never tried).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import re
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]  # the fuzz package, and nano_vx uninstalled

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from fuzz.inputs import KINDS, inputs  # noqa: E402
from fuzz.known import known_item  # noqa: E402
from fuzz.minimize import minimize  # noqa: E402
from fuzz.runner import Runner  # noqa: E402

ROUND = 200  # inputs per hypothesis run; each round of a job has a seed of its own
ENDS = ("admitted", "refused", "ran past bound", "failed")


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, required=True, help="how long to draw inputs")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel jobs (all cores)")
    ap.add_argument("--out", default="fuzz-failures", help="where failing inputs are saved")
    ap.add_argument("--seed", type=int, default=0, help="the campaign's seed")
    ap.add_argument("--bound", type=float, default=10.0,
                    help="seconds each phase (check, run) of one input may take")
    ap.add_argument("--minimize-seconds", type=float, default=180.0,
                    help="seconds spent minimizing one failure")
    ap.add_argument("--progress", type=float, default=30.0, help="seconds between progress lines")
    return ap.parse_args(argv)


def slug(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", key).strip("-")[:90]


def save(out: Path, key: str, item, small: bytes, outcome, known: str | None) -> Path:
    name = out / slug(key)
    form = item.form
    given = name.with_name(name.name + ".input" + Path(form.name).suffix)
    given.write_bytes(small)
    argv = form.run if outcome.phase == "run" else form.check
    command = " ".join(str(given) if a == form.name else a for a in argv)
    name.with_suffix(".txt").write_text(
        f"key: {key}\n"
        f"known: {known or 'no: a new failure'}\n"
        f"input: {item.kind}, {len(item.data)} bytes, minimized to {len(small)}\n"
        f"reproduce: nano-vx {command}\n\n"
        f"--- what the minimized input ends with ---\n{outcome.detail}\n"
        f"--- the input as found ---\n{item.text}\n", encoding="utf-8")
    return given


def job(index: int, args, deadline: float, events, claims, lock) -> None:
    """Draw and run inputs until the deadline; report each one's end on `events`."""
    warnings.simplefilter("ignore")
    out = Path(args.out)
    with Runner(check_bound=args.bound, run_bound=args.bound) as runner:

        def first(key: str) -> bool:
            """Whether no job met `key` before: that job alone saves its input."""
            with lock:
                new = key not in claims
                claims[key] = True
            return new

        def failed(item, outcome) -> None:
            known = known_item(outcome, item.data)
            events.put(("failure", outcome.key, item.kind, known))
            if not first(outcome.key):
                return
            budget = args.minimize_seconds if time.monotonic() < deadline else 30.0
            small = minimize(item.data, lambda data: runner.run(
                data, terminates=item.terminates, form=item.form).key == outcome.key,
                seconds=budget)
            last = runner.run(small, terminates=item.terminates, form=item.form)
            shown = last if last.key == outcome.key else outcome
            events.put(("saved", outcome.key, str(save(out, outcome.key, item, small, shown,
                                                        known))))

        for round_ in range(10**9):
            if time.monotonic() >= deadline:
                break

            @seed(args.seed * 1_000_003 + index * 10_007 + round_)
            @settings(max_examples=ROUND, database=None, deadline=None,
                      phases=[Phase.generate], suppress_health_check=list(HealthCheck))
            @given(inputs())
            def one(item):
                if time.monotonic() >= deadline:
                    return
                outcome = runner.run(item.data, terminates=item.terminates, form=item.form)
                end = "failed" if outcome.failed else outcome.kind
                refused = outcome.codes if item.kind == "generated" and end == "refused" else ()
                events.put(("input", item.kind, end, refused, outcome.seconds))
                if outcome.failed:
                    failed(item, outcome)
                if refused and first(f"refused {refused}"):  # a bug of the generator or not
                    (out / f"refused-generated-{'-'.join(refused)}.vx").write_bytes(item.data)

            one()
    events.put(("done", index))


class Tally:
    """What the parent learns from the jobs."""

    def __init__(self):
        self.ends = defaultdict(Counter)  # kind -> end -> count
        self.refusals = Counter()  # codes generated programs were refused with
        self.failures: dict[str, dict] = {}
        self.slowest = (0.0, "")

    @property
    def tried(self) -> int:
        return sum(sum(c.values()) for c in self.ends.values())

    def take(self, event) -> None:
        what, *rest = event
        if what == "input":
            kind, end, refused, seconds = rest
            self.ends[kind][end] += 1
            self.refusals.update(refused)
            if end in ("admitted", "refused"):
                self.slowest = max(self.slowest, (seconds, kind))
        elif what == "failure":
            key, kind, known = rest
            entry = self.failures.setdefault(key, {"count": 0, "kind": kind, "known": known,
                                                   "saved": None})
            entry["count"] += 1
        elif what == "saved":
            key, path = rest
            self.failures[key]["saved"] = path

    def line(self, elapsed: float) -> str:
        failed = sum(f["count"] for f in self.failures.values())
        new = sum(1 for f in self.failures.values() if not f["known"])
        return (f"[{int(elapsed // 60)}:{int(elapsed % 60):02d}] {self.tried:,} inputs, "
                f"{self.tried / max(elapsed, 1e-9):.1f}/s, {failed} failures "
                f"({len(self.failures)} distinct, {new} not known)")

    def summary(self, args, elapsed: float) -> str:
        width = max(map(len, KINDS)) + 1
        rows = [f"fuzzed {elapsed / 60:.1f} min with {args.jobs} jobs (seed {args.seed}, "
                f"bound {args.bound:g} s per phase)", self.line(elapsed), "",
                f"{'input':<{width}}" + "".join(f"{e:>16}" for e in ("tried", *ENDS))]
        for kind in KINDS:
            ends = self.ends[kind]
            total = sum(ends.values())
            cells = [f"{total:>16,}"] + [
                f"{ends[e]:>9,} {100 * ends[e] / max(total, 1):5.1f}%" for e in ENDS]
            rows.append(f"{kind:<{width}}" + "".join(cells))
        refused = ", ".join(f"{c} x{n}" for c, n in self.refusals.most_common())
        refused = f"{refused} (the first of each: {args.out}/refused-generated-*.vx)" if refused \
            else "none"
        rows += ["", f"generated programs refused with: {refused}",
                 f"slowest phase of an input that ended: {self.slowest[0]:.2f} s "
                 f"({self.slowest[1] or '-'})", ""]
        rows.append("distinct failures:" if self.failures else "no failures")
        for key, f in sorted(self.failures.items(), key=lambda kv: kv[1]["known"] or ""):
            tag = f"known: {f['known']}" if f["known"] else "NEW"
            rows.append(f"  [{tag}] {key}\n      x{f['count']}, first in a {f['kind']} input; "
                        f"minimized: {f['saved'] or 'not saved (minimizing when stopped)'}")
        return "\n".join(rows)


def main(argv=None) -> int:
    args = parse_args(argv)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    context = multiprocessing.get_context("fork")
    manager = context.Manager()
    claims, lock, events = manager.dict(), context.Lock(), context.Queue()
    start = time.monotonic()
    deadline = start + args.minutes * 60
    jobs = [context.Process(target=job, args=(i, args, deadline, events, claims, lock))
            for i in range(args.jobs)]
    for p in jobs:
        p.start()
    tally, running, next_line = Tally(), len(jobs), start + args.progress
    while running:
        try:
            event = events.get(timeout=1.0)
        except queue.Empty:
            if not any(p.is_alive() for p in jobs):
                break
            event = None
        if event is not None:
            if event[0] == "done":
                running -= 1
            else:
                tally.take(event)
        now = time.monotonic()
        if now >= next_line:
            late = " (drawing stopped; minimizing the last failures)" if now > deadline else ""
            print(tally.line(min(now, deadline) - start) + late, flush=True)
            next_line += args.progress
    for p in jobs:
        p.join()
    manager.shutdown()
    print(tally.summary(args, min(time.monotonic(), deadline) - start))
    died = [i for i, p in enumerate(jobs) if p.exitcode != 0]
    if died:
        # A job that died stopped drawing: its inputs were never tried, so "no failures" would
        # overstate the campaign. Its traceback is above, in the job's own output.
        print(f"job {', '.join(map(str, died))} of {len(jobs)} died (exit "
              f"{', '.join(str(jobs[i].exitcode) for i in died)}): the harness failed, "
              f"not the compiler", flush=True)
        return 2
    return 1 if any(not f["known"] for f in tally.failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
