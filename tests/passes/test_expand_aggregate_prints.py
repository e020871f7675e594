"""expand-aggregate-prints: each `print` of a struct, tuple or enum prints the literal of its
parts, an `if` in it choosing the variant of each enum it holds; native code prints the
literal as one line, through a record print site with a choice per `if`."""

import io
from pathlib import Path

import pytest

from nano_vx.cli import main
from nano_vx.dump.text import to_text
from nano_vx.passes.expand_aggregate_prints import expand_aggregate_prints
from front import (_printed, assert_native_as_interpreted, assert_prints_the_same, run_cli,
                   run_front)

CASES = Path(__file__).parent / "cases" / "expand_aggregate_prints"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(CASES / f"{case}.vx", expand_aggregate_prints)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("case", NAMES)
def test_the_output_prints_what_the_input_printed(case):
    assert_prints_the_same(CASES / f"{case}.vx", expand_aggregate_prints)


@pytest.mark.parametrize("case", NAMES)
@pytest.mark.slow  # tests/test_native.py runs every case both ways too
def test_native_code_prints_what_the_interpreter_prints(case):
    assert_native_as_interpreted(CASES / f"{case}.vx")


def test_a_struct_holding_enums_grows_with_their_variants_not_their_combinations():
    ran = run_front(CASES / "many_enums.vx", expand_aggregate_prints)
    text = to_text(ran.after)
    # Four enums of three variants: 81 combinations, one `print` of an `if` chain on each.
    assert text.count("@print(") == 1
    assert text.count(" is Tri::") == 4 * 2


def _lowered(case, tmp_path):
    assert main([str(case), "--dump-after", "select-instructions", "--dump-dir",
                 str(tmp_path), "--action", "emit-mlir"], stdout=io.StringIO(),
                stderr=io.StringIO()) == 0
    [dump] = tmp_path.iterdir()
    return dump


# A record site of each case, as the dump after select-instructions writes it: scalars, a
# choice of each enum's variant as the program runs, tensors.
SITES = [("prints", 'record "Placed::At(Point {{ x: {i32}, y: {f32} }})"'),
         ("choices", 'record "Four {{ a: {if}Tri::A{else}{if}Tri::B{else}Tri::C{end}{end}, '),
         ("tensor_prints",
          'record "S {{ n: {i32}, t: {f32[2]}, flags: {bool[2]}, w: {f64[2,2]} }}"')]


@pytest.mark.parametrize("case, site", SITES, ids=[c for c, _ in SITES])
def test_a_record_print_site_prints_its_line_through_every_lowered_il(case, site, tmp_path):
    case = CASES / f"{case}.vx"
    dump = _lowered(case, tmp_path)
    assert site in dump.read_text()
    expected = run_cli(case, "--action", "interpret")
    assert run_cli(dump) == run_cli(dump, "--action", "interpret") == expected


def test_an_aggregate_holding_a_tensor_too_large_to_print_stops_as_the_interpreter_does():
    status, printed, err = run_cli(CASES / "tensor_too_large.vx")
    assert (status, printed) == (1, "1\n") and "W5001" not in err
    assert "refusing to print a tensor of 5000 elements" in err


def test_a_record_print_site_whose_text_is_no_line_of_holes_is_refused(tmp_path):
    (tmp_path / "out").mkdir()
    dump = _lowered(CASES / "prints.vx", tmp_path / "out")
    bad = tmp_path / "bad.txt"
    for wrong in ("{xx}", "{xx[2]}", "{f32[2}", "{if}{f32}", "{else}{f32}",
                  "{end}{f32}", "{if}{f32}{else}{f32}{else}{f32}{end}"):
        bad.write_text(dump.read_text().replace("Shape::Circle({f32})",
                                                f"Shape::Circle({wrong})"))
        status, printed, err = run_cli(bad)
        assert (status, printed) == (1, "") and "error[E1007]" in err
        assert "a record print site whose text" in err


# Hand-written Lmatched: a tuple holding an enum, printed from a read of a local.
PAIR = """
    // IL: Lmatched
    enum Light {
        Off,
        On(bool),
    }

    fn main() {
        let pair: (i32, Light) = (3, Light::On(true));
        @print(pair);
    }
"""


def test_handwritten_a_tuple_holding_an_enum(run_pass):
    ran = run_pass("expand-aggregate-prints", PAIR)
    assert ran.codes == []
    assert "@print((pair.0, if pair.1 is Light::Off {" in ran.text
    assert "Light::On(pair.1.Light::On.0)\n    }));" in ran.text
    assert _printed(ran.before) == _printed(ran.tree) == "(3, Light::On(true))\n"
