"""hoist-nested-items: items written in blocks move to the top level, in source order."""

from pathlib import Path

import pytest

from nano_vx.dump.dot import to_dot
from nano_vx.dump.text import to_text
from nano_vx.passes.hoist_nested_items import hoist_nested_items
from front import _printed

CASES = Path(__file__).parent / "cases" / "hoist_nested_items"
NAMES = sorted(p.stem for p in CASES.glob("*.vx"))
REFUSED = {"name_clash"}  # the cases this pass reports errors on


@pytest.mark.parametrize("case", NAMES)
def test_output(case, front, snapshot_txt, snapshot_dot):
    ran = front(CASES / f"{case}.vx", hoist_nested_items)
    assert to_text(ran.after) == snapshot_txt
    assert to_dot(ran.after, title=f"hoist-nested-items: {case}") == snapshot_dot


@pytest.mark.parametrize("case", [c for c in NAMES if c not in REFUSED])
def test_the_output_prints_what_the_input_printed(case, front):
    before, after = front(CASES / f"{case}.vx", hoist_nested_items).prints()
    assert after == before


def test_items_follow_their_enclosing_item_in_source_order(front):
    ran = front(CASES / "playground.vx", hoist_nested_items)
    assert [i.name for i in ran.after.items] == ["main", "pipeline", "helper", "LIMIT",
                                                 "untouched"]
    assert not list(ran.nodes("ItemStmt"))
    assert not ran.diagnostics.items
    # The untouched function is shared with the input, not copied.
    assert ran.after.items[-1] is ran.before.items[-1]


def test_a_program_with_nothing_nested_is_returned_as_is(front):
    ran = front(CASES / "nothing_nested.vx", hoist_nested_items)
    assert ran.after is ran.before


def test_a_hoisted_name_clash_is_e2005_at_the_hoisted_item(front):
    ran = front(CASES / "name_clash.vx", hoist_nested_items)
    [diag] = ran.diagnostics.items
    assert diag.code == "E2008"
    assert diag.message == "the name 'helper' is declared twice"
    assert diag.span.line == 2
    assert diag.span.source.text[diag.span.start:].startswith("fn helper")
    assert diag.notes == ["the other 'helper' is declared at name_clash.vx:8:1"]
    # Both are kept, so the tree is still a whole program.
    assert [i.name for i in ran.after.items] == ["main", "helper", "helper"]


def test_the_renamed_clash_is_accepted(front):
    text = (CASES / "name_clash.vx").read_text().replace("fn helper() -> i32 {\n    return 2",
                                                          "fn other() -> i32 {\n    return 2")
    ran = front(text, hoist_nested_items)
    assert not ran.diagnostics.items
    assert [i.name for i in ran.after.items] == ["main", "helper", "other"]


def test_memory_and_topology_names_do_not_clash_with_values(front):
    text = "Memory Scratch { capacity: 4 KiB }\nfn main() { fn Scratch() { } Scratch(); }\n"
    ran = front(text, hoist_nested_items)
    assert not ran.diagnostics.items


def test_handwritten_item_nested_in_a_const(run_pass, snapshot_txt):
    # A function declared inside a closure in a const's value, outside every function: it is
    # hoisted after the const that held it, and the const still calls it.
    ran = run_pass("hoist-nested-items", """
        // IL: Lunpacked
        const N: i32 = (|| {
            fn three() -> i32 {
                3
            }
            three()
        })();
        fn main() {
            print(N);
        }
    """)
    assert ran.codes == []
    assert [i.name for i in ran.tree.items] == ["N", "three", "main"]
    assert _printed(ran.tree) == "3\n"
    assert ran.dump == snapshot_txt


@pytest.mark.parametrize("decl", ["struct str { a: i32 }", "enum str { A, B }"])
def test_a_type_named_str_is_e2008_and_renamed_is_accepted(front, decl):
    main = "fn main() { let s: str = \"a\"; print(s); }\n"
    ran = front(f"{decl}\n{main}", hoist_nested_items)
    [diag] = ran.diagnostics.items
    assert (diag.code, diag.span.line) == ("E2008", 1)
    assert diag.message == "the type name 'str' is declared twice: it is built in, the type of text"
    ran = front(f"{decl.replace(' str ', ' Text ')}\n{main}", hoist_nested_items)
    assert not ran.diagnostics.items


def test_a_variable_or_function_may_be_called_str(front):
    ran = front("fn str() -> i32 { 1 }\nfn main() { let str = str(); print(str); }\n",
                hoist_nested_items)
    assert not ran.diagnostics.items
