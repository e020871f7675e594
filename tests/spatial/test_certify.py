"""`certify` and its checkers on the lane's own programs: every reference program on every
shipped target gets a certificate the checker accepts; a refusal because a site cannot hold
its buffers (E7011) or semaphores (E7012), or a scheduled program that does not fit (E7030),
gets a refutation the checker accepts; and every mutation that breaks what a part proves (a
clause or a site dropped, an event dropped, two dependent events swapped, a depth claimed
higher or lower, a literal of an assignment flipped, an end of a buffer moved) makes the
checker refuse. Then the command line: --certificate and check-certificate.

All slow (the whole suite's, not the inner loop's): certify is the spatial lane's back end, not
a pass, and its codes are triggered and repaired by docs/diagnostics.md's examples."""

from __future__ import annotations

import copy
import io
import json
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nano_vx.cli import main
from nano_vx.oracle.checkers import form
from nano_vx.oracle.checkers.check_certificate import NotACertificate, check
from nano_vx.oracle.checkers.fit import check_site, encode
from nano_vx.oracle.checkers.replay import flat_ops
from nano_vx.oracle.tokens import Machine, State, run
from nano_vx.spatial_backend.certify import DoesNotFit, certify, certify_refusal
from nano_vx.spatial.context import SpatialContext
from nano_vx.spatial_pipeline import passes_from
from nano_vx.spatial.parse import parse_spatial
from nano_vx.spatial.reject import SpatialReject
from nano_vx.oracle.equivalence import corpus
from nano_vx.spatial.target import load_target, small_target
from nano_vx.spatial.text import language_of
from spatial_reference import CASES, EXAMPLES, IDS, inputs, step
from test_firings import SETTINGS, layered_graphs

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / "nano_vx" / "oracle" / "checkers" / "check_certificate.py"

# 64 KiB in one buffer; a fabric tile has 32 KiB (docs/diagnostics.md, E7011).
BIG = """\
spatial big: Splaced {
    tensor A: f32[128, 128] input
    tensor B: f32[128, 128] output
    stream a: f32
    load ld A[0, 0] tile [128, 128] -> a
    store st a -> B[0, 0] tile [128, 128]
    place ld (0, 0) reader
    place st (0, 0) writer
}
"""


def fan(receivers: int, sized: bool = True) -> str:
    """A multicast to `receivers` stores on one site: two semaphores each (E7012 past 8 on
    a Wormhole, which has 16). Unsized, it is a load with that many outputs, each a buffer
    of the site (E7011 past 8 on a gpu-sm)."""
    streams = [f"s{k}" for k in range(receivers)]
    lines = [
        f"spatial fan: {'Sfused' if sized else 'Splaced'} {{", "    tensor A: i32[8, 8] input",
        "    tensor B: i32[8, 8] output", *(f"    stream {s}: i32" for s in streams),
        f"    load ld A[0, 0] tile [8, 8] -> {', '.join(streams)}",
        *(f"    store w{k} s{k} -> B[0, 0] tile [8, 8]" for k in range(receivers)),
        "    place ld (0, 0) reader", *(f"    place w{k} (0, 0) writer" for k in range(receivers)),
        *(f"    buffer s{k} (0, 0) depth 1 bytes 256" for k in range(receivers)),
        f"    group fan ld -> {', '.join(streams)}", "}", ""]
    return "\n".join(line for line in lines if sized or not line.lstrip().startswith(
        ("buffer", "group")))


def deep(depth: int) -> str:
    """A copy written in Schoreographed whose one buffer holds `depth` tiles of 256 bytes:
    160 of them are 40 KiB, more than a fabric tile's 32."""
    return f"""\
spatial deep: Schoreographed {{
    tensor A: i32[1280, 8] input
    tensor B: i32[1280, 8] output
    stream a: i32
    load ld A[i, 0] tile [8, 8] for i in 0..160 -> a
    store st a -> B[i, 0] tile [8, 8] for i in 0..160
    place ld (0, 0) reader
    place st (0, 0) writer
    buffer a (0, 0) depth {depth} bytes {depth * 256}
    handshake a fifo
    schedule (0, 0) reader {{
        repeat 160 {{
            reserve a 1
            read ld a
            push a 1
        }}
    }}
    schedule (0, 0) writer {{
        repeat 160 {{
            wait_front a 1
            write a st
            pop a 1
        }}
    }}
}}
"""


@lru_cache(maxsize=None)
def certificate(program: str, target: str) -> str:
    graph = step(program, target, "schedule")[1]
    return json.dumps(certify(graph, load_target(target), inputs(program)))


def fresh(program: str = "gemv", target: str = "wormhole") -> dict:
    """A certificate as the checker reads it, to mutate."""
    return json.loads(certificate(program, target))


def refusal(text: str, target: str) -> dict:
    """The certificate of the refusal the lane makes of `text`."""
    graph, ctx = parse_spatial(text), SpatialContext(load_target(target))
    for p in passes_from(language_of(graph).name):
        try:
            graph = p(graph, ctx)
        except SpatialReject as reject:
            return json.loads(json.dumps(certify_refusal(graph, ctx.target, reject)))
    raise AssertionError("the lane admits the program")


def refused(doc: dict) -> str:
    accepted, lines = check(doc)
    assert not accepted, lines
    return lines[-1]


# -- every reference program on every target ---------------------------------------------------


@pytest.mark.parametrize("program, target", CASES, ids=IDS)
def test_every_reference_program_gets_a_certificate_the_checker_accepts(program, target):
    doc = fresh(program, target)
    accepted, lines = check(doc)
    assert accepted, lines
    assert lines[0] == f"certificate of {program} on {target}: the program is admitted"
    assert lines[-1] == "accepted"
    graph = step(program, target, "schedule")[1]
    assert len(doc["structure"]["buffers"]) == len(graph.buffers)
    assert len(doc["structure"]["semaphores"]) == len(graph.semaphores)
    assert len(doc["schedules"]) == len(graph.schedules)
    # The witness is the run the reference semantics makes: one event per step.
    assert len(doc["witness"]) == run(Machine(graph, inputs(program))).steps


def test_the_verdict_says_what_was_checked():
    assert check(fresh())[1] == [
        "certificate of gemv on wormhole: the program is admitted",
        "  structure: 64 buffers, 32 semaphores, 48 engines: one producer and one consumer "
        "engine per buffer, at most one waiting engine per semaphore",
        "  witness: 572 events replayed: every condition held, no buffer over its depth, "
        "every engine at its end",
        "  fit: 16 sites, each CNF satisfied (1536 clauses in all) and each placement aligned, "
        "in range and without overlap",
        "accepted",
    ]


def test_a_buffer_names_its_engines_and_a_semaphore_its_waiter():
    doc = fresh()
    s = doc["structure"]
    x = next(b for b in s["buffers"] if b["credit"] is not None)
    engines = s["engines"]
    # x is multicast by a reader and taken in by the reader that relays it (relay-tokens).
    assert engines[x["producer"]]["engine"] == "reader"
    assert engines[x["consumer"]]["engine"] == "reader"
    waiters = {sem["name"]: sem["waiter"] for sem in s["semaphores"]}
    assert (waiters[x["credit"]], waiters[x["data"]]) == (x["producer"], x["consumer"])
    assert x["bytes"] == x["depth"] * x["token_bytes"]


@SETTINGS
@given(layered_graphs(sites=((0, 0), (0, 1), (1, 0), (1, 1))), st.integers(4, 40),
       st.integers(2, 16))
def test_random_programs_get_certificates_the_checker_accepts_admitted_or_refused(
        text, granules, slots):
    """Random layered programs through the lane on a small 2 x 2 target: each admitted one's
    certificate, and each refusal's because a site cannot hold what it must, is accepted."""
    target = small_target(2, 2, sram_bytes=granules * 32, buffers=slots, semaphores=slots)
    graph, ctx = parse_spatial(text), SpatialContext(target)
    for p in passes_from(language_of(graph).name):
        try:
            graph = p(graph, ctx)
        except SpatialReject as reject:
            doc = certify_refusal(graph, target, reject)
            assert (doc is None) == (reject.code not in ("E7011", "E7012"))
            if doc is not None:
                assert check(json.loads(json.dumps(doc)))[0]
            return
    doc = certify(graph, target, corpus(graph, count=1)[0])
    accepted, lines = check(json.loads(json.dumps(doc)))
    assert accepted, lines


# -- refusals -----------------------------------------------------------------------------------


def test_a_site_that_cannot_hold_its_buffer_gets_a_refutation_the_checker_accepts():
    doc = refusal(BIG, "fabric")
    assert (doc["verdict"], doc["code"], doc["site"]) == ("refused", "E7011", [0, 0])
    assert check(doc) == (True, [
        "certificate of big on fabric: the program is refused (E7011) at site (0, 0)",
        "  fit: site (0, 0): does not fit (1 variables, 2 clauses, refuted in 2 steps): "
        "1 items need 4096 granules of 16 bytes, it has 2048",
        "accepted: the refusal is proved"])


def test_a_site_with_too_many_semaphores_gets_a_refutation_the_checker_accepts():
    doc = refusal(fan(9), "wormhole")
    assert (doc["code"], doc["site"]) == ("E7012", [0, 0])
    accepted, lines = check(doc)
    assert accepted
    assert lines[1].endswith("18 items need 18 semaphore slots, it has 16")
    assert lines[1].startswith("  fit: site (0, 0): does not fit (258 variables, 2404 "
                               "clauses, refuted in ")


def test_too_many_buffers_on_a_site_is_refuted_too():
    doc = refusal(fan(9, sized=False), "gpu-sm")  # 8 buffer slots
    assert doc["code"] == "E7011"
    accepted, lines = check(doc)
    assert accepted and lines[1].endswith("9 items need 9 buffer slots, it has 8")


def test_a_refusal_of_another_kind_has_no_certificate():
    graph = parse_spatial(fan(9))
    reject = SpatialReject("E7013", "schedule", "stuck", site=(0, 0))
    assert certify_refusal(graph, load_target("wormhole"), reject) is None


def test_a_scheduled_program_that_does_not_fit_is_refused_with_its_refutation():
    with pytest.raises(DoesNotFit) as caught:
        certify(parse_spatial(deep(160)), load_target("fabric"), {})
    assert caught.value.message == ("site (0, 0) cannot hold its buffers and semaphores: "
                                    "1 items need 2560 granules of 16 bytes, it has 2048")
    assert caught.value.document["code"] == "E7030"
    assert check(json.loads(json.dumps(caught.value.document)))[0]


def test_the_same_program_with_a_shallow_buffer_fits():
    import numpy as np

    given = {"A": np.ones((1280, 8), dtype=np.int32)}
    doc = json.loads(json.dumps(certify(parse_spatial(deep(2)), load_target("fabric"),
                                        given)))
    assert check(doc)[0]


# -- mutations: each one breaks what its part proves -------------------------------------------

@pytest.mark.parametrize("case, stride", [("gemv-wormhole", 1), ("E7011", 1), ("E7012", 7)])
def test_dropping_any_clause_of_a_site_is_refused(case, stride):
    doc = {"gemv-wormhole": fresh, "E7011": lambda: refusal(BIG, "fabric"),
           "E7012": lambda: refusal(fan(9), "wormhole")}[case]()
    for entry in doc["fit"]:
        clauses = entry["cnf"]["clauses"]
        for k in range(0, len(clauses), stride):
            mutant = dict(entry, cnf={"variables": entry["cnf"]["variables"],
                                      "clauses": clauses[:k] + clauses[k + 1:]})
            problem, _ = check_site(mutant)
            assert problem.startswith(f"site {tuple(entry['site'])}: the CNF is not the "
                                      f"encoding of its items (from clause {k}; "), problem


def test_a_refutation_without_its_empty_clause_is_refused():
    for doc in (refusal(BIG, "fabric"), refusal(fan(9), "wormhole")):
        entry = doc["fit"][0]
        assert entry["refutation"][-1] == []
        entry["refutation"].pop()
        assert refused(doc) == ("refused: fit: site (0, 0): the refutation fails: the proof "
                                "never derives the empty clause")


def test_a_refutation_of_a_site_that_fits_cannot_be_made():
    doc = refusal(fan(9), "wormhole")
    entry = doc["fit"][0]
    entry["resources"][2]["capacity"] = 18  # the site now has the slots it needs
    positions, clauses = encode(entry["resources"])
    entry.update(positions=positions, cnf={"variables": len(positions), "clauses": clauses})
    assert refused(doc).startswith("refused: fit: site (0, 0): the refutation fails: ")


def test_a_site_without_resources_is_refused_in_words():
    doc = refusal(BIG, "fabric")
    doc["fit"][0]["resources"] = []
    assert refused(doc) == ("refused: fit: site (0, 0): the resources are not sram, buffer "
                            "slots, semaphore slots, in this order")


def test_flipping_any_literal_of_an_assignment_is_refused():
    doc = fresh()
    for entry in doc["fit"]:
        for k in range(len(entry["assignment"])):
            mutant = copy.deepcopy(entry)
            mutant["assignment"][k] = -mutant["assignment"][k]
            problem, _ = check_site(mutant)
            assert re.match(r"site \([01], \d\): clause \d+ \[.*\] is false under the assignment",
                            problem), problem


def test_dropping_a_site_is_refused():
    doc = fresh()
    gone = doc["fit"].pop(3)
    assert refused(doc) == (
        f"refused: fit: buffer slots: '{gone['resources'][1]['items'][0]['name']}' of site "
        f"(0, 3) is placed 0 times")


@pytest.mark.parametrize("change", [+1, -1])
def test_claiming_any_buffer_deeper_or_shallower_is_refused(change):
    doc = fresh()
    buffers = doc["structure"]["buffers"]
    for b in range(len(buffers)):
        x = dict(buffers[b], depth=buffers[b]["depth"] + change)
        mutant = dict(doc, structure=dict(doc["structure"],
                                          buffers=buffers[:b] + [x] + buffers[b + 1:]))
        assert refused(mutant) == (
            f"refused: structure: buffer '{x['name']}': {x['bytes']} bytes do not hold "
            f"depth {x['depth']} of {x['token_bytes']}-byte tokens exactly")
    assert doc == fresh()  # the mutants share its other parts, which no check changed


def test_dropping_any_event_is_refused():
    doc = fresh()
    witness = doc["witness"]
    for n in range(len(witness)):
        mutant = dict(doc, witness=witness[:n] + witness[n + 1:])
        assert refused(mutant).startswith("refused: witness: ")
    assert doc == fresh()  # the mutants share its other parts, which no check changed


def runs(program: str, target: str, order: list) -> bool:
    """Does the reference semantics take these steps, each enabled and without a fault, to
    the end of every engine?"""
    machine = Machine(step(program, target, "schedule")[1], inputs(program))
    state = machine.initial()
    for e, _, _ in order:
        if not machine.enabled(state, e):
            return False
        state = machine.step(state, e)
        if not isinstance(state, State):
            return False
    return all(machine.finished(state, e) for e in range(len(machine.code)))


@pytest.mark.parametrize("program, target", [("gemv", "wormhole"), ("softmax", "fabric")])
def test_moving_an_event_earlier_is_refused_exactly_when_the_reference_cannot_take_it(
        program, target):
    """Each event moves to just after its engine's previous one, past the events of other
    engines in between (an engine's own order is fixed by its labels): the checker accepts
    the new order exactly when the reference semantics can take it."""
    doc = fresh(program, target)
    witness = doc["witness"]
    verdicts, last = [], {}
    for n, (e, _, _) in enumerate(witness[:300]):
        to = last.get(e, -1) + 1
        last[e] = n
        if to == n:
            continue
        order = witness[:to] + [witness[n]] + witness[to:n] + witness[n + 1:]
        verdicts.append(check(dict(doc, witness=order))[0])
        assert verdicts[-1] == runs(program, target, order), (n, witness[n])
    assert True in verdicts and False in verdicts  # independent events, and dependent ones


def test_a_wait_moved_before_the_signal_it_needs_is_refused():
    doc = fresh()
    ops = {e: list(flat_ops(sched)) for e, sched in enumerate(doc["schedules"])}
    witness = doc["witness"]
    # The first wait on a data semaphore that another engine signals (a relay on the
    # multicasting site waits on what its own engine signalled), and the signal that brings
    # the semaphore to what the wait takes: no semaphore here starts above 0.
    for n, (e, k, _) in enumerate(witness):
        if ops[e][k]["op"] == "wait" and ops[e][k]["sem"].endswith("_data"):
            signal = _needed_signal(ops, witness, n)
            if witness[signal][0] != e:
                break
    # The waiting engine's events up to the wait, in their order, all moved to just before
    # the signal: only the wait comes too early.
    mine = [ev for ev in witness[:n + 1] if ev[0] == e]
    rest = [ev for ev in witness[:n] if ev[0] != e]
    at = rest.index(witness[signal])
    order = rest[:at] + mine + rest[at:] + witness[n + 1:]
    said = re.fullmatch(rf"refused: witness: event {at + len(mine) - 1} "
                        rf"{re.escape(str(witness[n]))} \(wait\): waits for "
                        rf"{ops[e][k]['count']} on '{ops[e][k]['sem']}', which holds (\d+)",
                        refused(dict(doc, witness=order)))
    assert int(said.group(1)) < ops[e][k]["count"]


def _needed_signal(ops, witness, n: int) -> int:
    """The event of the signal without which the wait of event n cannot take its count."""
    e, k, _ = witness[n]
    sem = ops[e][k]["sem"]
    events = [ops[w[0]][w[1]] for w in witness[:n]]
    need = ops[e][k]["count"] + sum(op["count"] for op in events
                                    if op["op"] == "wait" and op["sem"] == sem)
    given = 0
    for m, op in enumerate(events):
        if op["op"] == "signal" and op["sem"] == sem:
            given += op["count"]
            if given >= need:
                return m
    raise AssertionError(f"the wait of event {n} is never satisfied")


def test_naming_another_producer_or_waiter_is_refused():
    doc = fresh()
    doc["structure"]["buffers"][0]["producer"] += 1
    name = doc["structure"]["buffers"][0]["name"]
    assert refused(doc).startswith(f"refused: structure: buffer '{name}': engines [")
    doc = fresh()
    sem = next(s for s in doc["structure"]["semaphores"] if s["waiter"] is not None)
    sem["waiter"] += 1
    assert refused(doc).startswith(f"refused: structure: semaphore '{sem['name']}': engines [")


def test_a_second_engine_taking_from_a_buffer_breaks_the_rule():
    doc = fresh()
    b = doc["structure"]["buffers"][0]
    other = next(e for e in range(len(doc["schedules"])) if e != b["consumer"])
    doc["schedules"][other].append({"op": "pop", "buffer": b["name"], "count": 1})
    assert refused(doc) == (
        f"refused: structure: buffer '{b['name']}': engines "
        f"{sorted([b['consumer'], other])} are its consumers; the certificate names engine "
        f"{b['consumer']}, and a buffer has one")


def test_a_document_that_is_not_a_certificate_is_said_to_be_so():
    with pytest.raises(NotACertificate, match="it is not a nano-vx choreography certificate"):
        check({"kind": "something else"})
    with pytest.raises(NotACertificate, match="schema 2; this checker reads 1"):
        check(dict(fresh(), schema=2))
    broken = fresh()
    del broken["witness"]
    with pytest.raises(NotACertificate, match=r"^'witness' is missing$"):
        check(broken)


# -- the form of a certificate (certificate.schema.json, then the names it uses) ----------------


def not_a_certificate(doc) -> str:
    with pytest.raises(NotACertificate) as caught:
        check(doc)
    return str(caught.value)


def test_a_part_missing_is_named_with_its_place():
    doc = fresh()
    del doc["structure"]["buffers"][2]["depth"]
    assert not_a_certificate(doc) == "'depth' is missing from structure.buffers[2]"
    doc = refusal(BIG, "fabric")
    del doc["code"]
    assert not_a_certificate(doc) == "'code' is missing"


def test_a_part_of_another_type_is_shown_with_the_type_it_must_have():
    doc = fresh()
    doc["structure"]["buffers"][2]["depth"] = "x"
    assert not_a_certificate(doc) == (
        'structure.buffers[2].depth is the string "x", not an integer')
    doc["structure"]["buffers"][2]["depth"] = "x" * 5000
    assert not_a_certificate(doc) == (
        'structure.buffers[2].depth is a string of 5000 characters ("xxxxxxxxxxxxxxxxxxxx"...), '
        'not an integer')
    doc = fresh()
    doc["schedules"][0] = {"op": "pop"}
    assert not_a_certificate(doc) == "schedules[0] is an object, not a list"


def test_a_word_of_the_wrong_choice_names_the_choices():
    doc = dict(fresh(), verdict="maybe")
    assert not_a_certificate(doc) == (
        'verdict is the string "maybe", not one of "admitted", "refused"')
    doc = fresh()
    doc["schedules"][0][0]["op"] = "jump"
    assert not_a_certificate(doc).startswith('schedules[0][0].op is the string "jump", not one '
                                             'of "repeat", "reserve",')


def test_a_number_out_of_range_is_summarised_with_its_bound():
    doc = fresh()
    doc["structure"]["buffers"][2]["depth"] = -1
    assert not_a_certificate(doc) == "structure.buffers[2].depth is the number -1, less than 0"
    doc["structure"]["buffers"][2]["depth"] = 10 ** 30
    assert not_a_certificate(doc) == ("structure.buffers[2].depth is a number of about 31 "
                                      "digits, more than 9007199254740991")
    doc["structure"]["buffers"][2]["depth"] = 10 ** 5000  # more than json reads from a file
    assert not_a_certificate(doc) == "a number in it has more digits than this checker reads"


def test_a_list_of_the_wrong_length_says_how_long_it_is():
    doc = fresh()
    doc["witness"][3] = [0, 1]
    assert not_a_certificate(doc) == "witness[3] has 2 items, fewer than 3"
    doc = fresh()
    doc["structure"]["engines"][1]["site"] = [0, 1, 2]
    assert not_a_certificate(doc) == "structure.engines[1].site has 3 items, more than 2"


def test_a_step_of_a_refutation_of_neither_form_says_so():
    doc = refusal(BIG, "fabric")
    doc["fit"][0]["refutation"].append("x")
    k = len(doc["fit"][0]["refutation"]) - 1
    assert not_a_certificate(doc) == (
        f'fit[0].refutation[{k}] is the string "x", which is none of the forms it may take')


def test_a_schedule_nested_past_what_the_checker_follows_says_so():
    doc = fresh()
    body: list = []
    doc["schedules"][0] = [{"op": "repeat", "count": 1, "body": body}]
    for _ in range(5000):
        body.append({"op": "repeat", "count": 1, "body": []})
        body = body[0]["body"]
    assert not_a_certificate(doc) == "its parts nest deeper than this checker follows"


def test_a_name_no_part_of_the_structure_declares_is_named():
    doc = fresh()
    op = next(op for op in flat_ops(doc["schedules"][0]) if "buffer" in op)
    op["buffer"] = "nowhere"
    assert re.fullmatch(r"engine 0: \w+ names the string \"nowhere\", which is no buffer of "
                        r"the structure", not_a_certificate(doc))
    doc = fresh()
    op = next(op for ops in doc["schedules"] for op in flat_ops(ops) if "into" in op)
    op["into"] = "nowhere"
    assert not_a_certificate(doc).endswith(
        'names the string "nowhere", which is no buffer or group of the structure')
    doc = fresh()
    doc["structure"]["groups"][0]["receivers"].append("nowhere")
    assert not_a_certificate(doc) == ('structure.groups[0].receivers names the string '
                                      '"nowhere", which is no buffer of the structure')


def test_an_engine_past_the_last_is_named():
    doc = fresh()
    engines = len(doc["structure"]["engines"])
    doc["structure"]["buffers"][1]["consumer"] = engines
    assert not_a_certificate(doc) == (f"structure.buffers[1].consumer is engine {engines}, but "
                                      f"the structure has {engines} engines")
    doc = fresh()
    doc["schedules"].append([])
    assert not_a_certificate(doc) == (f"there are {engines + 1} schedules for {engines} "
                                      f"engines")


def paths(value, at=()):
    """The place of every part of a document, itself included."""
    yield at
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, inner in items:
        yield from paths(inner, at + (key,))


def nested(depth: int):
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


MUTATIONS = {
    "drop": None, "string": "x", "long string": "x" * 5000, "float": 1.5, "null": None,
    "list": [], "object": {}, "boolean": True, "negative": -1, "huge": 10 ** 5000,
    "minus huge": -(10 ** 5000), "deep": "deep", "dangling": "no such name",
}


@lru_cache(maxsize=None)
def document(which: str) -> str:
    """An admitted program's certificate or a refusal's, small enough to break many times."""
    return json.dumps(fresh("gemv", "gpu-sm") if which == "admitted" else refusal(BIG, "fabric"))


@lru_cache(maxsize=None)
def places(which: str) -> list:
    return list(paths(json.loads(document(which))))


def broken(which: str, at: tuple, mutation: str, text=document) -> dict:
    """The document with the part at `at` dropped or replaced as `mutation` says."""
    doc = json.loads(text(which))
    parent = doc
    for key in at[:-1]:
        parent = parent[key]
    if mutation == "drop":
        del parent[at[-1]]
    else:
        value = MUTATIONS.get(mutation, 2.0)  # "integral float": an integer to the schema
        parent[at[-1]] = nested(5000) if mutation == "deep" else copy.deepcopy(value)
    return doc


@SETTINGS
@given(st.sampled_from(["admitted", "refused"]), st.data(), st.sampled_from(sorted(MUTATIONS)))
def test_any_broken_part_is_said_in_words_or_checked(which, data, mutation):
    """A part dropped, or replaced by a value of another type, a huge one, a deep one or a
    name nothing declares: the checker gives its verdict or says the document is not a
    certificate, and never with a Python exception's text."""
    doc = broken(which, data.draw(st.sampled_from(places(which)[1:])), mutation)
    try:
        accepted, lines = check(doc)
        said = "\n".join(lines)
    except NotACertificate as err:
        said = str(err)
    for word in ("Error", "Traceback", "KeyError"):
        assert word not in said
    assert "does not have the form" not in said, said


BULK = ("witness", "clauses", "assignment", "positions", "refutation", "schedules")


@SETTINGS
@given(st.sampled_from(["admitted", "refused"]), st.data(),
       st.sampled_from(sorted(MUTATIONS) + ["integral float"]))
def test_the_form_of_the_long_lists_is_read_as_jsonschema_reads_it(which, data, mutation):
    """form.py validates the document with its long lists of integers emptied when they keep
    their form: a break in or around them is said in the same words as when jsonschema reads
    them whole."""
    inside = [at for at in paths(json.loads(few_lists(which))) if set(at) & set(BULK)]
    doc = broken(which, data.draw(st.sampled_from(inside)), mutation, few_lists)
    assert form.schema_problem(form.skeleton(doc)) == form.schema_problem(doc)


@lru_cache(maxsize=None)
def few_lists(which: str) -> str:
    """The document with two sites, 30 events and one schedule: jsonschema reads it whole
    quickly, and its form is a certificate's (its names are not all declared: no matter to
    the schema)."""
    doc = json.loads(document(which))
    doc["fit"] = doc["fit"][:2]
    if which == "admitted":
        doc.update(witness=doc["witness"][:30], schedules=doc["schedules"][:1])
    return json.dumps(doc)


# -- the command line --------------------------------------------------------------------------


def cli(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in args], out, err)
    return code, out.getvalue(), err.getvalue()


def test_spatial_writes_the_certificate_and_check_certificate_accepts_it(tmp_path):
    path = tmp_path / "gemv.json"
    code, out, err = cli("spatial", EXAMPLES / "gemv.sdf", "--target", "wormhole",
                         "--certificate", path)
    assert (code, err) == (0, "")
    assert re.search(rf"^certificate: {re.escape(str(path))} \(64 buffers, 32 semaphores, "
                     rf"572 events, 16 sites fit; \d+\.\d\d s\)$", out, re.M)
    assert json.loads(path.read_text()) == fresh()
    code, out, err = cli("check-certificate", path)
    assert (code, err) == (0, "")
    assert out == "\n".join(check(fresh())[1]) + "\n"


def test_a_refusal_writes_its_certificate_and_says_where(tmp_path):
    program, path = tmp_path / "big.sdf", tmp_path / "big.json"
    program.write_text(BIG)
    code, out, err = cli("spatial", program, "--target", "fabric", "--certificate", path)
    assert (code, out) == (1, "")
    assert err.startswith("error[E7011]: size-buffers cannot apply: site (0, 0) needs ")
    assert f" = note: the certificate of this refusal is in {path}\n" in err
    code, out, err = cli("check-certificate", path)
    assert (code, err) == (0, "")
    assert out.endswith("accepted: the refusal is proved\n")


def test_a_scheduled_program_that_does_not_fit_is_e7030_with_its_refutation(tmp_path):
    program, path = tmp_path / "deep.sdf", tmp_path / "deep.json"
    program.write_text(deep(160))
    code, out, err = cli("spatial", program, "--target", "fabric", "--certificate", path,
                         "--error-format=json")
    assert (code, out) == (1, "")
    d = json.loads(err)["diagnostics"][0]
    assert (d["code"], d["site"]) == ("E7030", [0, 0])
    assert cli("check-certificate", path)[0] == 0
    program.write_text(deep(2))
    code, out, err = cli("spatial", program, "--target", "fabric", "--certificate", path)
    assert (code, err) == (0, "")
    assert cli("check-certificate", path)[0] == 0


STUCK = """\
spatial stuck: Shandshaked {
    tensor A: i32[8, 8] input
    tensor B: i32[8, 8] output
    stream a: i32
    load ld A[0, 0] tile [8, 8] -> a
    store st a -> B[0, 0] tile [8, 8]
    place ld (0, 0) reader
    place st (0, 0) writer
    buffer a (0, 0) depth 0 bytes 0
    handshake a fifo
}
"""


def test_a_refusal_of_another_kind_writes_no_certificate_and_says_so(tmp_path):
    program, path = tmp_path / "stuck.sdf", tmp_path / "stuck.json"
    program.write_text(STUCK)
    code, _, err = cli("spatial", program, "--target", "wormhole", "--certificate", path,
                       "--no-validate")
    assert code == 1 and err.startswith("error[E7013]: schedule cannot apply: ")
    assert (" = note: no certificate is written: only a refusal because a site cannot hold "
            "its buffers or semaphores (E7011, E7012) has one\n") in err
    assert not path.exists()
    code, _, err = cli("spatial", program, "--target", "wormhole", "--certificate", path)
    assert code == 1 and err.startswith("error[E7021]: ")  # refused as written: no pass ran
    assert not path.exists()


def test_certificate_needs_the_scheduled_program():
    code, out, err = cli("spatial", EXAMPLES / "gemv.sdf", "--target", "wormhole",
                         "--certificate", "x.json", "--stop-after=place")
    assert (code, out) == (2, "")
    assert err == ("nano-vx: error: --certificate certifies the scheduled program, but the "
                   "lane stops after place\n")


def test_a_certificate_that_cannot_be_written_is_an_error(tmp_path):
    path = tmp_path / "missing" / "gemv.json"
    code, _, err = cli("spatial", EXAMPLES / "gemv.sdf", "--target", "wormhole",
                       "--certificate", path)
    assert code == 2
    assert err == (f"nano-vx spatial: error: --certificate: cannot write {str(path)!r}: No "
                   f"such file or directory\n")


def test_check_certificate_refuses_a_broken_certificate_with_exit_1(tmp_path):
    doc = fresh()
    doc["witness"].pop()
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc))
    code, out, err = cli("check-certificate", path)
    assert (code, err) == (1, "")
    last = out.splitlines()[-1]
    assert re.fullmatch(r"refused: witness: engine \d+ does not reach its end: its op \d+ "
                        r"never runs", last)


@pytest.mark.parametrize("text, message", [
    ("not json", "{path!r} is not a certificate: Expecting value: line 1 column 1 (char 0)"),
    ('{"kind": "x"}', "{path!r} is not a certificate: it is not a nano-vx choreography "
                      "certificate"),
    ('{"kind": "nano-vx choreography certificate", "schema": 1, "verdict": "admitted"}',
     "{path!r} is not a certificate: 'program' is missing"),
])
def test_check_certificate_names_a_file_that_is_not_a_certificate(tmp_path, text, message):
    path = tmp_path / "c.json"
    path.write_text(text)
    code, out, err = cli("check-certificate", path)
    assert (code, out) == (1, "")
    assert err == "nano-vx: error: " + message.format(path=str(path)) + "\n"


def test_check_certificate_needs_a_readable_file(tmp_path):
    code, out, err = cli("check-certificate", tmp_path / "none.json")
    assert (code, out) == (2, "")
    assert err == (f"nano-vx check-certificate: error: cannot read "
                   f"{str(tmp_path / 'none.json')!r}: No such file or directory\n")
    code, out, err = cli("check-certificate")
    assert (code, out) == (2, "")
    assert err == ("nano-vx: error: check-certificate: no certificate (nano-vx "
                   "check-certificate FILE.json)\n")


def test_the_checker_runs_on_its_own(tmp_path):
    path = tmp_path / "gemv.json"
    path.write_text(certificate("gemv", "wormhole"))
    done = subprocess.run([sys.executable, CHECKER, path], capture_output=True, text=True,
                          cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "\n".join(check(fresh())[1]) + "\n"
    path.write_text(json.dumps(dict(fresh(), witness=[])))
    done = subprocess.run([sys.executable, CHECKER, path], capture_output=True, text=True,
                          cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == (
        "refused: witness: engine 0 does not reach its end: its op 0 never runs")
