"""The runtime's sites: what vx_print prints and what vx_stop reports, from the payload bits."""

import math
import os
import struct

import pytest

from nano_vx.values.sites import allocation_limit, printed, site_table, stopped
from nano_vx.languages.lmlir import Lmlir
from nano_vx.source import Source, Span
from nano_vx.values.stops import RuntimeStop

PrintSite, StopSite = Lmlir["PrintSite"], Lmlir["StopSite"]


def f64_bits(v: float) -> int:
    return struct.unpack("=q", struct.pack("=d", v))[0]


def show(kind, type_, payload, dims=(), text=None, memory=b""):
    reads = []

    def read(address, nbytes):
        reads.append((address, nbytes))
        return memory[:nbytes]

    out = printed(PrintSite(1, kind, type_, text, dims), payload, read)
    return out, reads


@pytest.mark.parametrize("type_, payload, text", [
    ("i8", -128, "-128"), ("i8", 127, "127"),
    ("i16", -32768, "-32768"),
    ("i32", -2147483648, "-2147483648"), ("i32", 2147483647, "2147483647"),
    ("i64", -9223372036854775808, "-9223372036854775808"),
    ("u8", 255, "255"),
    ("u32", 4294967295, "4294967295"),
    ("u64", -1, "18446744073709551615"),
    ("u64", 1 << 63, "9223372036854775808"),
])
def test_integers_print_as_their_type(type_, payload, text):
    assert show("int", type_, payload) == (text, [])


def test_bools():
    assert show("bool", "bool", 0)[0] == "false"
    assert show("bool", "bool", 1)[0] == "true"


@pytest.mark.parametrize("type_, value, text", [
    ("f64", 0.1, "0.1"),
    ("f64", 1e20, "100000000000000000000"),
    ("f64", -0.0, "-0"),
    ("f32", struct.unpack("f", struct.pack("f", 0.1))[0], "0.1"),
    ("f32", 3.0, "3"),
    ("f16", 65504.0, "65500"),  # the shortest digits that read back as f16 max
    ("f16", 0.0999755859375, "0.1"),
    ("bf16", 0.10009765625, "0.1"),
    ("f32", math.inf, "inf"),
    ("f16", -math.inf, "-inf"),
    ("f64", math.nan, "NaN"),
    ("bf16", math.nan, "NaN"),
])
def test_floats_print_with_the_shortest_digits_of_their_type(type_, value, text):
    assert show("float", type_, f64_bits(value))[0] == text


def test_a_string_is_the_site_text():
    assert show("str", None, 12345, text="hello, {a}")[0] == "hello, {a}"


def test_a_2d_tensor_reads_its_bytes_row_major():
    memory = struct.pack("=6i", 1, -2, 3, 4, 5, -6)
    assert show("tensor", "i32", 4096, (2, 3), memory=memory) == (
        "[[1, -2, 3], [4, 5, -6]]", [(4096, 24)])


def test_a_bool_tensor_is_one_byte_per_element():
    assert show("tensor", "bool", 8, (3,), memory=bytes([1, 0, 1])) == (
        "[true, false, true]", [(8, 3)])


@pytest.mark.parametrize("type_, memory, text", [
    ("u8", bytes([255, 0]), "[255, 0]"),
    ("i8", bytes([255, 0]), "[-1, 0]"),
    ("u64", struct.pack("=2Q", 2 ** 64 - 1, 1), "[18446744073709551615, 1]"),
    ("f16", struct.pack("=2e", 0.5, -1.0), "[0.5, -1]"),
    ("bf16", struct.pack("=2H", 0x3DCD, 0x7F80), "[0.1, inf]"),
    ("f32", struct.pack("=2f", 0.1, 2.5), "[0.1, 2.5]"),
    ("f64", struct.pack("=2d", 0.1, math.nan), "[0.1, NaN]"),
])
def test_tensor_elements_of_each_storage(type_, memory, text):
    assert show("tensor", type_, 16, (2,), memory=memory)[0] == text


def test_an_empty_tensor_reads_nothing():
    assert show("tensor", "i32", 0, (2, 0)) == ("[[], []]", [])


def test_a_record_choice_prints_the_arm_its_slot_picks_and_reads_no_other_tensor():
    template = "(S {{ n: {i32} }}, {if}E::A({f32}){else}{if}E::B({i32[2]}){else}E::C{end}{end})"
    memory = {4096: struct.pack("=2i", 5, 6)}

    def line(*slots):
        memory[64] = struct.pack(f"={len(slots)}q", *slots)
        reads = []

        def read(address, nbytes):
            reads.append(address)
            return memory[address][:nbytes]
        out = printed(PrintSite(1, "record", None, template, ()), 64, read)
        return out, reads
    # slots: n, the first choice, A's f32, the second choice, B's tensor
    assert line(7, 1, f64_bits(0.5), 0, 4096) == ("(S { n: 7 }, E::A(0.5))", [64])
    assert line(7, 0, 0, 1, 4096) == ("(S { n: 7 }, E::B([5, 6]))", [64, 4096])
    assert line(7, 0, 0, 0, 4096) == ("(S { n: 7 }, E::C)", [64])


def test_a_stop_carries_its_code_span_and_operands():
    span = Span(Source("t.vx", "let q = a / b;"), 8, 13)
    site = StopSite(4, "E9001", "attempt to divide {a} by {b} (i8)", "i8", span=span)
    err = stopped(site, -128, 0)
    assert isinstance(err, RuntimeStop)
    assert (err.code, err.span, err.message) == (
        "E9001", span, "attempt to divide -128 by 0 (i8)")


def test_a_stop_reads_an_unsigned_operand_as_unsigned():
    site = StopSite(5, "E9003", "index {a} is out of bounds, {b} elements", "u64")
    assert stopped(site, -1, 3).message == \
        "index 18446744073709551615 is out of bounds, 3 elements"


def test_a_stop_prints_the_product_of_its_operands_past_64_bits():
    site = StopSite(7, "E9006", "a tensor of {a*b} elements is too large to address", "u64")
    assert stopped(site, -1, 1 << 32).message == \
        f"a tensor of {((1 << 64) - 1) << 32} elements is too large to address"


def test_a_stop_of_an_i128_reads_its_low_then_its_high_word():
    site = StopSite(8, "E9006", "a tensor extent must not be negative, found {a}", "i128")
    assert stopped(site, 8, -1).message == \
        "a tensor extent must not be negative, found -18446744073709551608"
    site = StopSite(9, "E9006", "a tensor of {a} elements is too large to address", "i128")
    assert stopped(site, 4, 1).message == \
        "a tensor of 18446744073709551620 elements is too large to address"


def test_a_stop_prints_the_product_of_the_words_its_operands_point_to():
    site = StopSite(8, "E9006", "a tensor of {a[0]*..*a[b-1]} elements is too large to "
                                "address", "u64")
    words = struct.pack("=3Q", (1 << 64) - 1, 3, 1 << 63)
    reads = []

    def read(address, nbytes):
        reads.append((address, nbytes))
        return words[:nbytes]
    assert stopped(site, 4096, 3, read).message == \
        f"a tensor of {((1 << 64) - 1) * 3 << 63} elements is too large to address"
    assert reads == [(4096, 24)]


def test_a_stop_prints_the_words_its_operands_point_to_as_an_element_s_indices():
    site = StopSite(9, "E9005", "read of element {[a[0]]..[a[b-1]]}, never written, of a "
                                "tensor made with ::uninit()", None)
    words = struct.pack("=5Q", 7, 8, 0, 1, 4000000000)
    assert stopped(site, 4096, 5, lambda address, nbytes: words[:nbytes]).message == \
        "read of element [7][8][0][1][4000000000], never written, of a tensor made with " \
        "::uninit()"


def test_a_stop_without_operands_keeps_its_message():
    site = StopSite(6, "E9002", "assumption failed in a kernel: {x}", None)
    assert stopped(site, 7, 8).message == "assumption failed in a kernel: {x}"


def test_the_site_table_indexes_sites_only():
    p1 = PrintSite(0, "str", None, "hi", ())
    s1 = StopSite(1, "E9005", "m", None)
    program = Lmlir["Module"]([Lmlir["Declare"]("vx_print", ["i32", "i64"], []), p1, s1])
    assert site_table(program) == {0: p1, 1: s1}


def test_the_allocation_limit_is_the_physical_memory():
    assert allocation_limit() == os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert allocation_limit() < 1 << 62


def test_a_record_reads_a_tensors_dynamic_extents_from_the_slots_after_its_address():
    # `({i32[?,2]}, {u8})`: slots 0x100 (the address), 3 (the `?` extent), 7 (the u8).
    slots = struct.pack("=3q", 0x100, 3, 7)
    elements = struct.pack("=6i", 1, 2, 3, 4, 5, 6)

    def read(address, nbytes):
        return slots[:nbytes] if address == 0x40 else elements[:nbytes]

    site = PrintSite(1, "record", None, "({i32[?,2]}, {u8})", ())
    assert printed(site, 0x40, read) == "([[1, 2], [3, 4], [5, 6]], 7)"
