"""The layers of nano_vx (pyproject.toml's import-linter contracts, drawn in ARCHITECTURE.md):
imports go down, function-level imports included; the reference semantics import no pass; no
cycle among the subpackages or inside one. And every top-level module has a layer."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

import nano_vx

ROOT = Path(__file__).resolve().parents[1]


def _contracts() -> list[dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["importlinter"]["contracts"]


def test_every_contract_is_kept():
    lint = Path(sys.executable).with_name("lint-imports")  # import-linter's command
    done = subprocess.run([str(lint), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[done.stdout.find("Broken contracts"):] or done.stderr
    assert f"Contracts: {len(_contracts())} kept, 0 broken." in done.stdout


def test_every_top_level_module_has_a_layer():
    (layers,) = [c["layers"] for c in _contracts() if c["type"] == "layers"]
    placed = {name.strip() for layer in layers for name in layer.replace("|", ":").split(":")}
    modules = {m.name for m in pkgutil.iter_modules(nano_vx.__path__)}
    assert modules - placed == set(), "give each new module a layer in pyproject.toml"
    assert placed - modules == set(), "the contract names a module that is gone"


def test_the_contract_sees_function_level_imports():
    # A layer breach inside a function counts: grimp records imports wherever they are.
    graph = grimp.build_graph("nano_vx")
    details = graph.get_import_details(importer="nano_vx.cli.spatial",
                                       imported="nano_vx.spatial_driver.command")
    assert details, "cli imports the spatial command inside a function"
