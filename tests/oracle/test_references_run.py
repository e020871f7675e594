"""References in the reference interpreter: `&x` names a place, `*p` reads and writes it; run
in every IL of the front-end chain, and as native code where the pipeline lowers them (a
reference to a tensor)."""

from oracle_run import native, output, stops


def test_a_reference_reads_the_variable_as_it_is_now():
    assert output("""
fn main() {
    let mut x = 1;
    let p = &x;
    x = 2;
    print(*p);
    let q = &p;
    print(**q + 1);
}
""") == "2\n3\n"


def test_a_mutable_reference_writes_the_variable_it_names():
    text = """
fn bump(p: &mut i32) { *p += 1; }
fn swap(a: &mut i64, b: &mut i64) { let old = *a; *a = *b; *b = old; }
fn main() {
    let mut n = 1;
    bump(&mut n);
    bump(&mut n);
    let mut a: i64 = 3000000000;
    let mut b: i64 = 4;
    swap(&mut a, &mut b);
    print(n);
    print(a);
    print(b);
}
"""
    assert output(text) == "3\n4\n3000000000\n"
    assert native(text) == ("3\n4\n3000000000\n", 0)  # each reference the variable's cell


def test_in_native_code_a_reference_variable_given_another_value_lives_in_a_cell_too():
    text = """
fn flip(b: &mut bool) { *b = !*b; }
fn main() {
    let mut x = 1;
    let mut y = 2;
    let mut on = false;
    let mut p = &mut x;
    for i in 0..3 {
        *p += 10;
        p = &mut y;
        flip(&mut on);
    }
    print(x * 100 + y);
    print(on);
    print(p);
}
"""
    assert output(text) == "1122\ntrue\n22\n"
    assert native(text) == ("1122\ntrue\n22\n", 0)


def test_a_write_through_a_reference_keeps_the_variables_type():
    # The untyped literal takes u8 from the place it is written to, and wraps there.
    assert output("""
fn main() {
    let mut x: u8 = 250;
    let p = &mut x;
    *p = 255;
    *p += 2;
    print(x);
}
""") == "1\n"


def test_a_reference_to_an_element_writes_the_tensor():
    assert output("""
fn main() {
    let mut t = Tensor<i32, [2, 2]>::fill(1);
    let e = &mut t[1][0];
    *e = 7;
    *e *= 2;
    let row = &t[1];
    print(row[0] + (*row)[1]);
    print(t);
}
""") == "15\n[[1, 1], [14, 1]]\n"


def test_a_tensor_assigned_whole_through_a_reference_to_a_row_writes_that_row():
    # The row is a place in t's buffer, as `r[j] = x` through it shows: `*r = v` writes v's
    # elements there (it replaced a copy no one saw), lent to a function too.
    assert output("""
fn fill_row(r: &mut Tensor<i32, [2]>, v: i32) {
    *r = Tensor<i32, [2]>::fill(v);
}
fn main() {
    let mut t = Tensor<i32, [3, 2]>::fill(1);
    {
        let r = &mut t[0];
        *r = Tensor<i32, [2]>::fill(7);
        r[1] = 8;
    }
    fill_row(&mut t[2], 9);
    print(t);
}
""") == "[[7, 8], [1, 1], [9, 9]]\n"


def test_a_tensor_of_other_extents_assigned_to_a_row_through_a_reference_stops_the_run():
    stop = stops("""
fn fill_row(r: &mut Tensor<i32, [?]>, n: i32) {
    *r = Tensor<i32, [?]>::fill([n], 5);
}
fn main() {
    let mut t = Tensor<i32, [2, 3]>::fill(1);
    fill_row(&mut t[1], 3);
    print(t);
    fill_row(&mut t[0], 4);
}
""", "E9006")
    assert stop.message == "a tensor of extents [4] assigned whole to a row of extents [3]"


def test_a_tensor_lent_to_a_function_is_shared_not_copied():
    text = """
fn fill(t: &mut Tensor<f32, [3]>, v: f32) {
    for i in 0..3 { t[i] = v; }
}
fn total(t: &Tensor<f32, [3]>) -> f32 {
    t[0] + t[1] + t[2]
}
fn main() {
    let mut t = Tensor<f32, [3]>::new();
    fill(&mut t, 1.5);
    print(total(&t));
    let p = &mut t;
    (*p)[0] = 0.5;
    p[1] = 0.25;
    print(t);
}
"""
    assert output(text) == "4.5\n[0.5, 0.25, 1.5]\n"
    assert native(text) == ("4.5\n[0.5, 0.25, 1.5]\n", 0)  # the buffer is the reference


def test_a_const_generic_binds_from_a_lent_tensor():
    text = """
fn total<const N: i32>(t: &Tensor<i32, [N]>) -> i32 {
    let mut s = 0;
    for i in 0..N { s += t[i]; }
    s
}
fn main() {
    let a = Tensor<i32, [3]>::fill(2);
    let b = Tensor<i32, [5]>::fill(1);
    print(total(&a) * 10 + total(&b));
}
"""
    assert output(text) == "65\n"
    assert native(text) == ("65\n", 0)


def test_a_reference_to_a_temporary_holds_its_value():
    assert output("""
fn twice(x: i32) -> i32 { x * 2 }
fn main() {
    let p = &mut twice(4);
    *p += 1;
    print(*p);
    print(*&5);
}
""") == "9\n5\n"


def test_a_reborrow_names_the_same_place():
    assert output("""
fn main() {
    let mut x = 1;
    let p = &mut x;
    let q = &mut *p;
    *q = 4;
    print(x);
}
""") == "4\n"


def test_a_write_through_a_shared_reference_stops_the_run():
    # check-shared-writes refuses it (E4006); run unchecked, the interpreter stops rather than write.
    stop = stops("fn main() {\n    let x = 1;\n    let p = &x;\n    *p = 2;\n}\n", "E9006",
                 native_too=False)
    assert stop.message == "a write through a shared reference (`&`); it needs `&mut`"


def test_a_dereference_of_what_is_no_reference_stops_the_run():
    stop = stops("fn main() {\n    let x = 1;\n    print(*x);\n}\n", "E9006", native_too=False)
    assert stop.message == "cannot dereference a value of type i32"


def test_a_reference_to_a_moved_value_stops_where_it_is_read():
    stop = stops("""
fn main() {
    let t = Tensor<i32, [2]>::fill(1);
    let p = &t;
    let d = transfer(t, Memory::GPU_HBM);
    print(*p);
}
""", "E9004", native_too=False)
    assert stop.message.startswith("use of 't' after it moved to Memory::GPU_HBM")


def test_a_field_is_assigned_through_a_reference_to_its_struct():
    text = ("struct P { x: i32 }\n\nfn bump(p: &mut P) {\n  (*p).x += 1;\n  p.x *= 10;\n}\n\n"
            "fn main() {\n  let mut p = P { x: 1 };\n  bump(&mut p);\n  print(p.x);\n}\n")
    assert output(text) == "20\n"


def test_an_element_is_assigned_through_a_reference_to_its_tuple():
    text = ("fn bump(r: &mut (i32, (i32, i32))) {\n  (*r).0 += 1;\n  r.1.0 *= 10;\n"
            "  r.1.1 = 7;\n}\n\n"
            "fn main() {\n  let mut t = (1, (2, 3));\n  bump(&mut t);\n  print(t);\n}\n")
    assert output(text) == "(2, (20, 7))\n"


def test_a_path_of_fields_and_elements_changes_its_variable_and_no_other_name():
    text = ("struct P { x: i32, pair: (i32, i32) }\n\n"
            "fn main() {\n  let mut q = (P { x: 1, pair: (2, 3) }, 4);\n  let old = q;\n"
            "  q.0.pair.1 = 30;\n  q.0.x += 10;\n  q.1 -= 4;\n"
            "  print(q.0.x);\n  print(q.0.pair);\n  print(q.1);\n  print(old.0.pair);\n}\n")
    assert output(text) == "11\n(2, 30)\n0\n(2, 3)\n"


def test_an_element_past_a_tuples_end_assigned_stops_the_run():
    stop = stops("fn main() {\n    let mut t = (1, 2);\n    t.2 = 5;\n}\n", "E9006",
                 native_too=False)
    assert stop.message == "`.2` of tuple"  # as a read of `t.2` stops


def test_a_field_or_an_element_assigned_keeps_its_declared_type():
    text = ("struct S { a: u8, b: i64 }\n\n"
            "fn main() {\n  let mut s = S { a: 250, b: 1 };\n  s.a += 10;\n  s.b = 3000000000;\n"
            "  s.b *= 2;\n  let mut p: (u8, f32) = (250, 1.0);\n  p.0 += 10;\n  p.1 = 0.1;\n"
            "  p.1 += 0.2;\n  print(s.a);\n  print(s.b);\n  print(p);\n}\n")
    assert output(text) == "4\n6000000000\n(4, 0.3)\n"


def test_an_element_is_read_through_a_reference_to_its_tuple():
    # `r.1` reads through the reference as `p.x` does through one to a struct.
    assert output("""
fn second(r: &(i32, f64)) -> f64 { r.1 }
fn main() {
    let t = (1, 2.5);
    let r = &t;
    print(r.0);
    print(second(&t));
    let n = ((3, 4), 5);
    let q = &n;
    print(q.0.1);
}
""") == "1\n2.5\n4\n"


def test_a_mutable_reference_to_a_part_writes_that_part_of_its_variable():
    # As in Rust: `&mut p.x` names the field of p, not a copy of its value; through a
    # reference variable, the part of the place it names.
    assert output("""
struct P { x: i32, pair: (i32, f64) }
fn bump(n: &mut i32) { *n += 1; }
fn through(p: &mut P) { bump(&mut p.x); bump(&mut (*p).pair.0); }
fn main() {
    let mut p = P { x: 0, pair: (3, 5.0) };
    let old = p;
    bump(&mut p.x);
    through(&mut p);
    print(p);
    print(old.x);
    let mut t = (1, (2, 3));
    bump(&mut t.1.1);
    print(t);
}
""") == "P { x: 2, pair: (4, 5) }\n0\n(1, (2, 4))\n"


def test_an_extent_is_read_through_a_reference_to_its_tensor():
    assert output("""
fn count(t: &Tensor<i32, [?]>) -> i64 { t.extent(0) }
fn main() {
    let t = Tensor<i32, [?]>::uninit([3]);
    let r = &t;
    print(count(&t) + r.extent(0));
}
""") == "6\n"
