"""Spatial targets: the shipped TOML files load and cite every figure; every kind of bad
file is a TargetError naming the file and the field; the mesh arithmetic; small_target."""

from __future__ import annotations

import dataclasses

import pytest

from nano_vx.spatial.target import (
    DTYPES, REQUIRED_ENGINES, TARGET_DIR, SpatialTarget, TargetError, describe_target,
    known_targets, load_target, small_target,
)

SHIPPED = ("fabric", "gpu-sm", "wormhole")
INT_FIGURES = ("rows", "cols", "sram_bytes", "granule", "semaphores", "buffers",
               "hop_cycles", "dram_latency_cycles")
REAL_FIGURES = ("sram_bytes_per_cycle", "link_bytes_per_cycle", "dram_bytes_per_cycle",
                "clock_ghz")


def test_the_shipped_targets_are_known():
    assert set(SHIPPED) <= set(known_targets())


@pytest.mark.parametrize("name", known_targets())
def test_a_shipped_target_loads_with_positive_figures(name):
    t = load_target(name)
    assert t.name == name
    assert set(REQUIRED_ENGINES) <= set(t.engines)
    for key in INT_FIGURES:
        value = getattr(t, key)
        assert isinstance(value, int) and value > 0, key
    for key in REAL_FIGURES:
        assert getattr(t, key) > 0, key
    assert t.rates and all(d in DTYPES and r > 0 for d, r in t.rates.items())
    assert t.links in ("noc", "fabric")


@pytest.mark.parametrize("name", known_targets())
def test_every_figure_of_a_shipped_target_cites_a_public_source(name):
    t = load_target(name)
    figures = INT_FIGURES + REAL_FIGURES + tuple(f"rates.{d}" for d in t.rates)
    for key in figures:
        assert "http" in t.sources[key], f"{name}: {key} cites no address"


def test_the_fabric_target_streams_and_the_others_use_semaphores():
    assert load_target("fabric").links == "fabric"
    assert load_target("wormhole").links == "noc"
    assert load_target("gpu-sm").links == "noc"


def test_a_path_loads_the_same_target_as_its_name():
    assert load_target(TARGET_DIR / "wormhole.toml") == load_target("wormhole")
    assert load_target(str(TARGET_DIR / "wormhole.toml")) == load_target("wormhole")


def test_an_unknown_name_lists_the_known_targets():
    with pytest.raises(TargetError) as info:
        load_target("cerebrass")
    message = str(info.value)
    assert "'cerebrass'" in message
    for name in SHIPPED:
        assert name in message


def test_a_missing_file_is_a_target_error(tmp_path):
    path = tmp_path / "absent.toml"
    with pytest.raises(TargetError, match="absent.toml"):
        load_target(path)


# --- bad files ----------------------------------------------------------------------------

def _valid() -> dict:
    t = small_target(2, 3)
    values = {f.name: getattr(t, f.name) for f in dataclasses.fields(t)}
    del values["matrix"]  # a small target has none, and TOML has no None
    values["engines"] = list(t.engines)
    values["semaphore_engines"] = list(t.semaphore_engines)
    values["rates"] = dict(t.rates)
    values["sources"] = dict(t.sources)
    return values


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return repr(v)


def _write(tmp_path, values: dict) -> str:
    lines = [f"{k} = {_toml_value(v)}" for k, v in values.items() if not isinstance(v, dict)]
    for table, items in values.items():
        if isinstance(items, dict):
            lines.append(f"[{table}]")
            lines += [f'"{k}" = {_toml_value(v)}' for k, v in items.items()]
    path = tmp_path / "bad.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _refused(tmp_path, values: dict) -> str:
    path = _write(tmp_path, values)
    with pytest.raises(TargetError) as info:
        load_target(path)
    message = str(info.value)
    assert path in message
    return message


def test_the_helper_writes_a_file_that_loads(tmp_path):
    assert load_target(_write(tmp_path, _valid())) == small_target(2, 3)


def test_a_missing_field_is_named(tmp_path):
    values = _valid()
    del values["hop_cycles"]
    assert "missing field 'hop_cycles'" in _refused(tmp_path, values)


@pytest.mark.parametrize("key, bad", [
    ("rows", "nine"), ("rows", True), ("rows", 2.5), ("clock_ghz", "fast"),
    ("multicast", "yes"), ("engines", "reader"), ("description", 3), ("rates", 4),
])
def test_a_wrong_type_is_named(tmp_path, key, bad):
    values = _valid()
    values[key] = bad
    assert f"field '{key}'" in _refused(tmp_path, values)


@pytest.mark.parametrize("key, bad", [
    ("granule", 0), ("sram_bytes", -4096), ("clock_ghz", -1.0), ("dram_bytes_per_cycle", 0.0),
])
def test_a_non_positive_figure_is_named(tmp_path, key, bad):
    values = _valid()
    values[key] = bad
    message = _refused(tmp_path, values)
    assert f"field '{key}'" in message and "positive" in message


def test_a_non_positive_rate_is_named(tmp_path):
    values = _valid()
    values["rates"]["f32"] = 0
    assert "field 'rates.f32'" in _refused(tmp_path, values)


def test_an_unknown_key_is_named(tmp_path):
    values = _valid()
    values["colour"] = 3
    assert "unknown key 'colour'" in _refused(tmp_path, values)


def test_an_unknown_element_type_is_named(tmp_path):
    values = _valid()
    values["rates"]["f8"] = 64
    values["sources"]["rates.f8"] = "test figure"
    assert "'f8'" in _refused(tmp_path, values)


@pytest.mark.parametrize("figure", ["hop_cycles", "clock_ghz", "rates.i64"])
def test_a_figure_without_a_source_is_named(tmp_path, figure):
    values = _valid()
    del values["sources"][figure]
    message = _refused(tmp_path, values)
    assert f"'{figure}'" in message and "[sources]" in message


def test_a_source_naming_no_field_is_refused(tmp_path):
    values = _valid()
    values["sources"]["hopcycles"] = "a typo"
    assert "'hopcycles'" in _refused(tmp_path, values)


def test_a_target_without_a_writer_engine_is_refused(tmp_path):
    values = _valid()
    values["engines"] = ["reader", "compute"]
    message = _refused(tmp_path, values)
    assert "'engines'" in message and "writer" in message


def test_semaphore_engines_default_to_every_engine(tmp_path):
    values = _valid()
    del values["semaphore_engines"]
    assert load_target(_write(tmp_path, values)).semaphore_engines == (
        "reader", "compute", "writer")


def test_semaphore_engines_must_be_engines_of_the_target(tmp_path):
    values = _valid()
    values["semaphore_engines"] = ["reader", "writer", "dma"]
    assert _refused(tmp_path, values) == (
        f"{tmp_path}/bad.toml: field 'semaphore_engines' names 'dma', which is not one of the "
        f"target's engines (reader, compute, writer)")


def test_semaphore_engines_must_keep_the_relay_engines(tmp_path):
    values = _valid()
    values["semaphore_engines"] = ["reader", "compute"]
    assert _refused(tmp_path, values) == (
        f"{tmp_path}/bad.toml: field 'semaphore_engines' lacks writer; a token that crosses a "
        f"semaphore handshake is relayed by the reader and writer engines, so they touch "
        f"semaphores")


def test_every_shipped_target_keeps_compute_off_semaphores():
    for name in SHIPPED:
        assert load_target(name).semaphore_engines == ("reader", "writer")


def test_an_unknown_link_kind_is_named(tmp_path):
    values = _valid()
    values["links"] = "bus"
    assert "field 'links'" in _refused(tmp_path, values)


def test_a_file_that_is_not_toml_is_refused(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("rows = = 3\n")
    with pytest.raises(TargetError, match="broken.toml: not valid TOML"):
        load_target(path)


# --- the mesh -----------------------------------------------------------------------------

def test_sites_are_every_site_in_row_major_order():
    t = small_target(2, 3)
    assert t.sites() == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))


def test_hops_is_the_manhattan_distance():
    t = small_target(3, 4)
    assert t.hops((0, 0), (2, 3)) == 5
    assert t.hops((2, 3), (0, 0)) == 5
    assert t.hops((1, 1), (1, 1)) == 0


@pytest.mark.parametrize("site", [(3, 0), (0, 4), (-1, 0), (0,), "a1"])
def test_a_site_off_the_mesh_is_refused(site):
    with pytest.raises(TargetError, match="3 x 4 mesh"):
        small_target(3, 4).hops(site, (0, 0))


def test_granules_round_up():
    t = small_target(1, 1, granule=32)
    assert [t.granules(n) for n in (0, 1, 32, 33, 64)] == [0, 1, 1, 2, 2]


@pytest.mark.parametrize("nbytes", [-1, 1.5, True])
def test_granules_refuse_a_size_that_is_not_a_byte_count(nbytes):
    with pytest.raises(TargetError, match="non-negative integer"):
        small_target(1, 1).granules(nbytes)


# --- small_target and the dataclass -------------------------------------------------------

def test_small_target_applies_overrides_and_sources_every_figure():
    t = small_target(2, 2, granule=64, rates={"f32": 4})
    assert (t.rows, t.cols, t.granule) == (2, 2, 64)
    assert dict(t.rates) == {"f32": 4.0}
    assert t.sources["rates.f32"] == "test figure"
    assert "rates.i32" not in t.sources
    assert all(t.sources[k] == "test figure" for k in INT_FIGURES + REAL_FIGURES)


def test_small_target_refuses_an_unknown_override():
    with pytest.raises(TargetError, match="unknown key 'colour'"):
        small_target(2, 2, colour="red")


def test_small_target_refuses_a_bad_override():
    with pytest.raises(TargetError, match="field 'rows'"):
        small_target(0, 2)


def test_constructing_a_target_checks_it():
    values = {f.name: getattr(small_target(1, 1), f.name)
              for f in dataclasses.fields(SpatialTarget)}
    values["buffers"] = 0
    with pytest.raises(TargetError, match="field 'buffers'"):
        SpatialTarget(**values)


def test_a_target_is_frozen_and_hashable():
    t = small_target(2, 2)
    assert {t: 1}[small_target(2, 2)] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.rows = 5


def test_describe_target_summarises_mesh_memory_rates_and_network():
    text = describe_target(load_target("wormhole"))
    for part in ("wormhole:", "9 x 8 (72 sites)", "1464 KiB", "16-byte granules",
                 "f32 32", "noc, 32 B/cycle", "9 cycles per hop", "288 B/cycle", "1 GHz"):
        assert part in text, part
