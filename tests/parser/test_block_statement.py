"""A bare block `{ .. }` as a statement: a scope of its own, as in Rust, through every pass, the
reference interpreter and the compile-time evaluator."""

import io

from nano_vx.cli import main

# rustc prints the same (with println!): 2, 12, 2, 1, 100, 6, 2, 1.
SHADOWING = """\
fn main() {
  let x = 1;
  {
    let x = 2;
    print(x);
    {
      let x = x + 10;
      print(x);
    };
    print(x);
  }
  print(x);
  let mut y = 5;
  {
    y += 1;
    let y = 100;
    print(y);
  }
  print(y);
  let v = comptime { let mut s = 1; { let mut s = 10; s += 1; } s + 1 };
  print(v);
  comptime {
    let a = 1;
    { let a = 5; assert(a == 5); }
    assert(a == 1);
  }
  print(a_after());
}

fn a_after() -> i32 { let a = 1; { let a = 2; } a }
"""


def cli(path, *argv):
    out, err = io.StringIO(), io.StringIO()
    status = main([str(path), *argv], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_a_block_that_shadows_prints_what_rust_prints(tmp_path):
    path = tmp_path / "shadow.vx"
    path.write_text(SHADOWING)
    assert cli(path) == (0, "2\n12\n2\n1\n100\n6\n2\n1\n", "")


def test_every_pass_keeps_the_block_and_its_scope(tmp_path):
    path = tmp_path / "shadow.vx"
    path.write_text(SHADOWING)
    status, out, err = cli(path, "--action", "check", "--dump-after=all")
    assert (status, err) == (0, "")
    after_resolve = next(d for d in out.split("*** IR Dump After ")
                         if d.startswith("resolve-names"))
    # The inner `x`s are new names, and the `x` after the block is the outer one again.
    assert "let x#1 = 2;" in after_resolve and "let x#2 = x#1 + 10;" in after_resolve
    assert "@print(x#1);\n    }\n    @print(x);" in after_resolve
