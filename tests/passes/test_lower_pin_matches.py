"""lower-pin-matches: the `match` on a hardware state is an `if` on whether it took a pin, the
`Available` arm giving the pin back however it ends (its end, `return`, a `break` or
`continue` leaving it); the program prints what it printed before lower-pins."""

from pathlib import Path

import pytest

from nano_vx.nanopass import descendants
from nano_vx.dump.text import to_text
from nano_vx.passes.lower_pin_matches import lower_pin_matches
from nano_vx.passes.lower_pins import lower_pins
from front import assert_prints_the_same, run_front

# lower-pins' and lower-state-tuples' cases: what lower-pins tells each `match` is what this
# pass writes out.
CASES = Path(__file__).parent / "cases" / "lower_pins"
TUPLES = Path(__file__).parent / "cases" / "lower_state_tuples"
PATHS = {p.stem: p for d in (CASES, TUPLES) for p in d.glob("*.vx")
         if not p.stem.startswith("e5010_")}
NAMES = sorted(PATHS)
ELSEWHERE = [Path(__file__).parent / "cases" / p for p in (
    "infer_placement/try_pin.vx", "check_match_arms/nested_repaired.vx",
    "check_match_arms/unrolled_repaired.vx", "check_visibility/pinned_repaired.vx")]


@pytest.mark.parametrize("case", NAMES)
def test_output(case, snapshot_txt):
    ran = run_front(PATHS[case], lower_pin_matches)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    assert "PinMatch" not in {n._prod for n in ran.nodes()}
    assert to_text(ran.after) == snapshot_txt


@pytest.mark.parametrize("path", [PATHS[c] for c in NAMES] + ELSEWHERE,
                         ids=lambda p: p.stem)
def test_the_output_prints_what_the_input_printed(path):
    # lower-pins' output (a `pin_match`) does not run in the interpreter: its input does.
    assert_prints_the_same(path, lower_pin_matches, since=lower_pins)


def test_every_pin_is_given_back_only_while_its_state_holds_it():
    ran = run_front(CASES / "leaving.vx", lower_pin_matches)
    releases = [n for n in ran.nodes() if n._prod == "If" and any(
        s._prod == "ReleasePin" for s in n.then.stmts)]
    assert releases
    for r in releases:
        clear, _ = r.then.stmts
        assert (clear._prod, clear.target, clear.value.value) == ("Assign", r.cond, False)
    # taken: the arm's `return` and its end; main: `continue`, `break` and the end of three
    # arms.
    by_fn = {f.name: sum(n._prod == "ReleasePin" for n in descendants(f))
             for f in ran.after.items if f._prod == "Fn"}
    assert by_fn == {"taken": 2, "main": 5}


# Hand-written Ltaken: a `break` of a loop inside the arm stays in the arm and gives nothing
# back; the `break` leaving the arm gives the pin back first, and so does the `return` of a
# closure's caller, not the closure's own.
HANDWRITTEN = """
    // IL: Ltaken
    fn main() -> i32 {
        let n: i32 = 4;
        while true {
            let s: i32 = n;
            let s_took: bool = take_pin NPU of 1;
            let mut s_held: bool = s_took;
            pin_match s on Topology::NPU, took s_took, held s_held {
                Available(p: Pinned<i32, Topology::NPU>) => {
                    while true {
                        break;
                    }
                    let f: _ = |k: i32| {
                        return k;
                    };
                    if p > 2 {
                        return f(p);
                    }
                    break;
                }
                Saturated(v: Verified<i32>) => {
                    @print(v);
                }
            };
        }
        0
    }
"""


def test_handwritten_a_break_or_return_leaving_the_arm_gives_the_pin_back(run_pass,
                                                                           snapshot_txt):
    ran = run_pass("lower-pin-matches", HANDWRITTEN)
    assert not ran.diagnostics.items, ran.diagnostics.render()
    inner, closure, arm = ran.text.split("release_pin NPU;")[0].split("break;")[0], \
        ran.text.split("return k;")[0], ran.text.split("let f")[1]
    assert "release_pin" not in inner and "release_pin" not in closure
    assert arm.count("release_pin NPU;") == 3  # before the `return`, the `break`, at the end
    assert "let returned: ~_ = f(p);" in arm
    assert ran.dump == snapshot_txt
