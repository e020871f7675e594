"""Spatial targets (docs/spatial.md, "Targets"): a mesh of sites, each with engines, SRAM cut into
granules, semaphores, circular buffers and a compute rate per element type; a network
between sites; DRAM; a clock.

Shipped targets are TOML files in `machines/spatial/`; every numeric figure of a file cites
its public source in the file's `[sources]` table (a rate as `"rates.f32"`), and a figure
without one is refused. `load_target` takes a bare name or a path; `small_target` builds a
valid target for tests.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

from .elements import ELEMENTS
from .matrix import MatrixError, MatrixUnit, matrix_unit

DTYPES = tuple(ELEMENTS)
REQUIRED_ENGINES = ("reader", "compute", "writer")
# The engines that carry a relay (`relay-tokens`): they must be free to touch semaphores.
RELAY_ENGINES = ("reader", "writer")
LINK_KINDS = ("noc", "fabric")
TARGET_DIR = Path(__file__).resolve().parents[2] / "machines" / "spatial"

_INT_FIGURES = ("rows", "cols", "sram_bytes", "granule", "semaphores", "buffers",
                "hop_cycles", "dram_latency_cycles")
_REAL_FIGURES = ("sram_bytes_per_cycle", "link_bytes_per_cycle", "dram_bytes_per_cycle",
                 "clock_ghz")


class TargetError(Exception):
    """A target that cannot be used: a file that is missing, not TOML, or has a field that
    is missing, mistyped, not positive, unknown or unsourced; or an unknown target name."""


class FrozenMap(Mapping):
    """An immutable mapping that hashes, so that a target can key a dict or a cache."""

    def __init__(self, items: Mapping) -> None:
        self._items = dict(items)

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return repr(self._items)


@dataclass(frozen=True)
class SpatialTarget:
    """A machine as the spatial lane sees it. Memory, buffers, semaphores and rates are per
    site; bandwidths are bytes per cycle of `clock_ghz`; `rates` maps an element type to the
    element operations a site performs per cycle (a type without a rate is not supported);
    `links` is "noc" (buffers between sites handshake with semaphore pairs) or "fabric"
    (streaming valid/ready links); `semaphore_engines` are the engines that may wait on or
    signal a semaphore (every engine, unless the file says fewer); `matrix` the site's
    matrix unit, when it has one (`matrix.py`); `sources` cites every figure."""

    name: str
    description: str
    rows: int
    cols: int
    engines: tuple[str, ...]
    sram_bytes: int
    granule: int
    semaphores: int
    buffers: int
    rates: Mapping[str, float]
    sram_bytes_per_cycle: float
    link_bytes_per_cycle: float
    hop_cycles: int
    multicast: bool
    links: str
    dram_bytes_per_cycle: float
    dram_latency_cycles: int
    clock_ghz: float
    sources: Mapping[str, str] = field(repr=False)
    semaphore_engines: tuple[str, ...] | None = None
    matrix: MatrixUnit | None = None

    def __post_init__(self) -> None:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        for key, value in _checked(values, f"target {self.name!r}").items():
            object.__setattr__(self, key, value)

    def sites(self) -> tuple[tuple[int, int], ...]:
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    def hops(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Manhattan distance between two sites of the mesh."""
        self._on_mesh(a)
        self._on_mesh(b)
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def granules(self, nbytes: int) -> int:
        """How many allocation granules `nbytes` bytes occupy (rounded up)."""
        if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes < 0:
            raise TargetError(f"{self.name}: a size in bytes is a non-negative integer, "
                              f"not {nbytes!r}")
        return -(-nbytes // self.granule)

    def _on_mesh(self, site) -> None:
        ok = (isinstance(site, tuple) and len(site) == 2
              and all(isinstance(x, int) and not isinstance(x, bool) for x in site)
              and 0 <= site[0] < self.rows and 0 <= site[1] < self.cols)
        if not ok:
            raise TargetError(f"{self.name}: site {site!r} is not on the "
                              f"{self.rows} x {self.cols} mesh")


def known_targets() -> list[str]:
    return sorted(p.stem for p in TARGET_DIR.glob("*.toml"))


def load_target(name_or_path: str | os.PathLike) -> SpatialTarget:
    path = _target_path(name_or_path)
    try:
        with path.open("rb") as f:
            raw = tomllib.load(f)
    except OSError as error:
        raise TargetError(f"{path}: cannot be read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise TargetError(f"{path}: not valid TOML: {error}") from None
    return SpatialTarget(**_checked(raw, str(path)))


def small_target(rows: int, cols: int, **overrides) -> SpatialTarget:
    """A valid target for tests: every figure is small and its source is "test figure"."""
    values = {
        "name": f"small-{rows}x{cols}", "description": "a target for tests",
        "rows": rows, "cols": cols, "engines": REQUIRED_ENGINES,
        "sram_bytes": 64 * 1024, "granule": 32, "semaphores": 16, "buffers": 16,
        "rates": {dtype: 32 for dtype in DTYPES},
        "sram_bytes_per_cycle": 64, "link_bytes_per_cycle": 32, "hop_cycles": 2,
        "multicast": True, "links": "noc",
        "dram_bytes_per_cycle": 64, "dram_latency_cycles": 100, "clock_ghz": 1.0,
    }
    values.update(overrides)
    if "sources" not in overrides:
        rates = values["rates"] if isinstance(values["rates"], Mapping) else {}
        keys = _figure_keys(rates, values.get("matrix"))
        values["sources"] = {key: "test figure" for key in keys}
    return SpatialTarget(**_checked(values, f"small_target({rows}, {cols})"))


def describe_target(t: SpatialTarget) -> str:
    rates = ", ".join(f"{d} {_num(r)}" for d, r in t.rates.items())
    network = (f"{t.links}, {_num(t.link_bytes_per_cycle)} B/cycle per link, "
               f"{t.hop_cycles} cycles per hop, "
               + ("multicast to a rectangle" if t.multicast else "no multicast"))
    return "\n".join([
        f"{t.name}: {t.description}",
        f"  mesh      {t.rows} x {t.cols} ({t.rows * t.cols} sites), "
        f"engines {', '.join(t.engines)}" + (
            f" (only {', '.join(t.semaphore_engines)} touch semaphores)"
            if t.semaphore_engines != t.engines else ""),
        f"  SRAM      {_bytes(t.sram_bytes)} per site in {t.granule}-byte granules, "
        f"{_num(t.sram_bytes_per_cycle)} B/cycle; {t.buffers} buffers, "
        f"{t.semaphores} semaphores",
        f"  compute   {rates} element ops per cycle per site",
        *([_describe_matrix(t.matrix)] if t.matrix is not None else []),
        f"  network   {network}",
        f"  DRAM      {_num(t.dram_bytes_per_cycle)} B/cycle, "
        f"{t.dram_latency_cycles} cycles latency",
        f"  clock     {_num(t.clock_ghz)} GHz",
    ])


def _describe_matrix(m: MatrixUnit) -> str:
    cycles = ", ".join(f"{f} {c}" for f, c in m.cycles)
    reduces = (f"; reduces {m.reduce_block[0]} x {m.reduce_block[1]} a cycle of "
               f"{' '.join(m.reduce_formats)}" if m.reduce_block is not None else "")
    return (f"  matrix    {m.tile} x {m.tile} tiles of {' '.join(m.formats)}: cycles a tile "
            f"product {cycles}; at {m.fidelity}; {m.dst_tiles} destination tiles; unpack "
            f"{_num(m.unpack_bytes_per_cycle)}, pack {_num(m.pack_bytes_per_cycle)} B/cycle"
            f"{reduces}")


def _target_path(name_or_path: str | os.PathLike) -> Path:
    if isinstance(name_or_path, os.PathLike):
        return Path(name_or_path)
    if not isinstance(name_or_path, str) or not name_or_path:
        raise TargetError(f"a target is a name or a .toml path, not {name_or_path!r}")
    if name_or_path.endswith(".toml") or "/" in name_or_path or os.sep in name_or_path:
        return Path(name_or_path)
    path = TARGET_DIR / f"{name_or_path}.toml"
    if not path.is_file():
        raise TargetError(f"unknown target {name_or_path!r}; the known targets are "
                          f"{', '.join(known_targets()) or '(none)'}, the files of "
                          f"machines/spatial/, or give the path of a .toml file")
    return path


def _figure_keys(rates: Mapping, matrix=None) -> tuple[str, ...]:
    """The keys `[sources]` must have: every numeric figure, a rate as `rates.<dtype>`, a
    field of the matrix unit as `matrix.<field>`."""
    unit = tuple(f"matrix.{k}" for k in matrix.fields()) if matrix is not None else ()
    return _INT_FIGURES + _REAL_FIGURES + tuple(f"rates.{d}" for d in rates) + unit


def _checked(values: Mapping, origin: str) -> dict:
    """The fields of a target, checked and normalised; `origin` (a file, a call) starts
    every message, and every message names the field."""
    names = [f.name for f in fields(SpatialTarget)]
    for key in values:
        if key not in names:
            raise TargetError(f"{origin}: unknown key {key!r}; a target has the fields "
                              f"{', '.join(names)}")
    for key in names:
        if key not in values and key not in _OPTIONAL:
            raise TargetError(f"{origin}: missing field {key!r}")
    out = {key: _CHECKS[key](values[key], origin, key) for key in names if key not in _OPTIONAL}
    out["matrix"] = _matrix(values.get("matrix"), origin)
    _check_sources(out["sources"], out["rates"], out["matrix"], origin)
    out["semaphore_engines"] = _semaphore_engines(values.get("semaphore_engines"),
                                                  out["engines"], origin)
    return out


def _matrix(value, origin: str) -> MatrixUnit | None:
    if value is None or isinstance(value, MatrixUnit):
        return value
    try:
        return matrix_unit(value, DTYPES)
    except MatrixError as error:
        raise TargetError(f"{origin}: {error}") from None


def _refuse(origin: str, key: str, expected: str, value) -> TargetError:
    return TargetError(f"{origin}: field {key!r} must be {expected}, not {value!r}")


def _positive_int(value, origin: str, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _refuse(origin, key, "a positive integer", value)
    return value


def _positive_real(value, origin: str, key: str) -> float:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or value <= 0):
        raise _refuse(origin, key, "a positive number", value)
    return float(value)


def _text(value, origin: str, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _refuse(origin, key, "a non-empty string", value)
    return value


def _engines(value, origin: str, key: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not value:
        raise _refuse(origin, key, "a list of engine names", value)
    for engine in value:
        _text(engine, origin, key)
    if len(set(value)) != len(value):
        raise _refuse(origin, key, "a list of distinct engine names", value)
    missing = [e for e in REQUIRED_ENGINES if e not in value]
    if missing:
        raise TargetError(f"{origin}: field {key!r} lacks the engine(s) {', '.join(missing)}; "
                          f"every target has {', '.join(REQUIRED_ENGINES)}")
    return tuple(value)


def _semaphore_engines(value, engines: tuple[str, ...], origin: str) -> tuple[str, ...]:
    """Absent: every engine. Else engines of the target, the relay engines among them."""
    key = "semaphore_engines"
    if value is None:
        return engines
    if not isinstance(value, (list, tuple)) or not value:
        raise _refuse(origin, key, "a list of engine names", value)
    for engine in value:
        if engine not in engines:
            raise TargetError(f"{origin}: field {key!r} names {engine!r}, which is not one "
                              f"of the target's engines ({', '.join(engines)})")
    missing = [e for e in RELAY_ENGINES if e not in value]
    if missing:
        raise TargetError(f"{origin}: field {key!r} lacks {', '.join(missing)}; a token that "
                          f"crosses a semaphore handshake is relayed by the "
                          f"{' and '.join(RELAY_ENGINES)} engines, so they touch semaphores")
    return tuple(e for e in engines if e in value)


def _rates(value, origin: str, key: str) -> FrozenMap:
    if not isinstance(value, Mapping) or not value:
        raise _refuse(origin, key, "a table of element types to element ops per cycle", value)
    for dtype in value:
        if dtype not in DTYPES:
            raise TargetError(f"{origin}: field {key!r} has the unknown element type "
                              f"{dtype!r}; the element types are {' '.join(DTYPES)}")
    return FrozenMap({d: _positive_real(r, origin, f"{key}.{d}") for d, r in value.items()})


def _multicast(value, origin: str, key: str) -> bool:
    if not isinstance(value, bool):
        raise _refuse(origin, key, "true or false", value)
    return value


def _links(value, origin: str, key: str) -> str:
    if value not in LINK_KINDS:
        raise _refuse(origin, key, " or ".join(repr(k) for k in LINK_KINDS), value)
    return value


def _sources(value, origin: str, key: str) -> FrozenMap:
    if not isinstance(value, Mapping):
        raise _refuse(origin, key, "a table of field names to citations", value)
    return FrozenMap({k: _text(v, origin, f"{key}.{k}") for k, v in value.items()})


def _check_sources(sources: Mapping, rates: Mapping, matrix, origin: str) -> None:
    wanted = _figure_keys(rates, matrix)
    for key in wanted:
        if key not in sources:
            raise TargetError(f"{origin}: field {key!r} has no entry in [sources]; every "
                              f"figure cites where it comes from")
    allowed = set(wanted) | {f.name for f in fields(SpatialTarget)}
    for key in sources:
        if key not in allowed:
            raise TargetError(f"{origin}: unknown key {key!r} in [sources]; it names no "
                              f"field of the target")


_OPTIONAL = ("semaphore_engines", "matrix")
_CHECKS = {
    "name": _text, "description": _text, "engines": _engines, "rates": _rates,
    "multicast": _multicast, "links": _links, "sources": _sources,
    **{key: _positive_int for key in _INT_FIGURES},
    **{key: _positive_real for key in _REAL_FIGURES},
}


def _num(x: float) -> str:
    return f"{x:g}"


def _bytes(n: int) -> str:
    if n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} B"
