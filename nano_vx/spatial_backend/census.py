"""The census of a lowering (docs/spatial.md, "The census"): for every circular buffer, semaphore, kernel
and multicast group a backend emitted, the IR object it is the image of.

The IR objects that must be emitted, one image each:

- every buffer of the program (its stream's name): one circular buffer;
- every semaphore (its name): one semaphore, with the IR's initial value;
- every schedule (its (site, engine)): one kernel; an engine without a schedule has no work
  and gets none;
- every multicast group (its name): one staging area on the reader's site, which its `read`s
  fill and its `multicast`s copy from.

A backend may emit objects of its own kinds, each the image of something it names (the
tenstorrent backend's scaler circular buffer, one per core that reduces: the image of that
site); they are held to the same bijection.

A backend records each object as it writes its declaration (`Census.record`); the check
(`census_problems`) then holds the census against both the program and the text: every
declaration the backend's patterns find in the files is recorded once and every recorded one
is found once, and per kind the recorded images are exactly the objects above, each once.

A backend writing kernels through a vendor's compute API also counts, per kernel file, its
calls of each function of the API (`Census.count_calls`), and `call_problems` checks the count
against the text; `units` totals them per unit of the core (the matrix and the vector unit
apart).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

KINDS = ("buffer", "semaphore", "kernel", "group")


@dataclass(frozen=True)
class Entry:
    kind: str  # one of KINDS
    name: str  # the emitted object's name in the text
    image: object  # buffer, semaphore or group name; (site, engine) for a kernel
    file: str


@dataclass
class Census:
    entries: list = field(default_factory=list)
    calls: dict = field(default_factory=dict)  # file -> Counter of API function -> calls
    api: dict = field(default_factory=dict)  # API function -> its signature (with its unit)

    def record(self, kind: str, name: str, image, file: str) -> None:
        self.entries.append(Entry(kind, name, image, file))

    def count_calls(self, file: str, calls: Counter, api: dict) -> None:
        self.calls[file] = Counter(calls)
        self.api = api

    def units(self, file: str | None = None) -> Counter:
        """Calls per unit, of one file or of all."""
        out: Counter = Counter()
        for f, calls in self.calls.items():
            if file in (None, f):
                for name, n in calls.items():
                    out[self.api[name].unit] += n
        return out

    def lines(self) -> list[str]:
        """The census as text, one object a line, then each kernel's calls per unit."""
        out = []
        for e in self.entries:
            image = (f"schedule {e.image[0]} {e.image[1]}" if e.kind == "kernel"
                     else f"{e.kind} {e.image}")
            out.append(f"{e.kind:<9} {e.name:<28} <- {image}  ({e.file})")
        for file in self.calls:
            units = self.units(file)
            out.append(f"calls     {file:<28} " + ", ".join(
                f"{units[u]} {u}" for u in ("matrix", "vector", "move", "sync", "init")))
        return out


def required(graph) -> dict[str, list]:
    """Per kind, the IR objects that must be emitted."""
    return {
        "buffer": [b.stream for b in graph.buffers],
        "semaphore": [s.name for s in graph.semaphores],
        "kernel": [(s.site, s.engine) for s in graph.schedules],
        "group": [g.name for g in graph.groups],
    }


def scan(files: dict[str, str], patterns: dict[str, str],
         kinds=KINDS) -> list[tuple[str, str, str]]:
    """(kind, name, file) of every declaration a pattern finds (its group 1 is the name)."""
    found = []
    for file, text in sorted(files.items()):
        for kind in kinds:
            for m in re.finditer(patterns[kind], text, flags=re.M):
                found.append((kind, m.group(1), file))
    return found


def census_problems(census: Census, graph, files: dict[str, str],
                    patterns: dict[str, str], extra: dict | None = None) -> list[str]:
    """Why the census is not a bijection between the emitted objects and the IR objects (and
    the backend's `extra` images) that must be emitted; empty when it is."""
    problems: list[str] = []
    extra = extra or {}
    kinds = KINDS + tuple(extra)
    recorded = [(e.kind, e.name, e.file) for e in census.entries]
    found = scan(files, patterns, kinds)
    for item in sorted(set(recorded) | set(found)):
        r, f = recorded.count(item), found.count(item)
        if (r, f) != (1, 1):
            kind, name, file = item
            problems.append(f"{kind} '{name}' in {file}: declared {f} times in the text, "
                            f"recorded {r} times in the census")
    need = required(graph) | extra
    for kind in kinds:
        images = [e.image for e in census.entries if e.kind == kind]
        for image in need[kind]:
            n = images.count(image)
            if n != 1:
                problems.append(f"{kind} {image}: the image of {n} emitted objects")
        for image in images:
            if image not in need[kind]:
                problems.append(f"{kind} {image}: emitted but not an object of the program")
    return problems


def calls_in(text: str, api: dict) -> Counter:
    """Calls of each function of `api` in `text` (a name, its template arguments, then `(`)."""
    found: Counter = Counter()
    for m in re.finditer(r"\b(\w+)\s*(?:<[^<>()]*>)?\(", text):
        if m.group(1) in api:
            found[m.group(1)] += 1
    return found


def call_problems(census: Census, files: dict[str, str]) -> list[str]:
    """Where a kernel's counted API calls are not those its text makes."""
    problems = []
    for file, calls in census.calls.items():
        found = calls_in(files.get(file, ""), census.api)
        for name in sorted(set(found) | set(calls)):
            if found[name] != calls[name]:
                problems.append(f"{file}: {found[name]} calls of {name} in the text, "
                                f"{calls[name]} counted in the census")
    return problems
