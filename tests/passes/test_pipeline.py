"""The pipeline tables: the IL chain they walk, written nowhere else. Each IL extends the one
before and lives in the module named after it; every IL module is an IL of a lane; every pass
says what it does in one line. (The order of the passes is the tables' own; the pages that
list them are held to it by tests/test_pass_tables.py.)"""

import importlib
import pkgutil

import nano_vx.languages
from nano_vx.nanopass import Language
from nano_vx.pipeline import LANGUAGES, NATIVE
from nano_vx.spatial_pipeline import SPATIAL_LANGUAGES, VX_PIPELINE

LANES = {**LANGUAGES, **SPATIAL_LANGUAGES}


def test_each_language_of_a_lane_extends_the_one_before():
    for chain in (list(LANGUAGES.values()), list(SPATIAL_LANGUAGES.values())):
        assert chain[0].parent is None or chain[0].name == "Sdataflow"
        for before, after in zip(chain, chain[1:]):
            assert after.parent is before, f"{after.name} extends {after.parent.name}"


def test_each_il_is_declared_in_the_module_named_after_it_which_starts_with_its_delta():
    for name, language in LANES.items():
        module = importlib.import_module(f"nano_vx.languages.{name.lower()}")
        assert getattr(module, name) is language, name
        assert (module.__doc__ or "").startswith(f"{name}: "), name


def test_every_il_module_is_an_il_of_a_lane():
    for info in pkgutil.iter_modules(nano_vx.languages.__path__):
        module = importlib.import_module(f"nano_vx.languages.{info.name}")
        own = [v for k, v in vars(module).items()
               if isinstance(v, Language) and k.lower() == info.name]
        # A module without an IL of its name is a helper of the ILs (tensor_calls.py).
        for language in own:
            assert LANES.get(language.name) is language, f"{info.name} is in no lane"


def test_each_pass_says_what_it_does_in_one_line():
    for p in [*NATIVE.passes[1:], *VX_PIPELINE.passes]:
        assert p.summary and p.summary.endswith("."), p.name
