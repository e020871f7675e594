"""The registry of every diagnostic code, with the paragraph `nano-vx explain CODE` prints.

A code is added here before any pass may report it (Diagnostic refuses unknown codes), and
every code here has a test that triggers it and a test that admits the repaired program.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str
    title: str
    explanation: str


_ENTRIES = [
    # -- E1xxx: the text does not parse -------------------------------------------------
    Code("E1001", "syntax error",
         "The parser expected something else at this point of the text. The message names "
         "what it expected and what it found. The parser resumes at the next item or "
         "statement, so one run reports several syntax errors, not only the first."),
    Code("E1002", "unterminated string literal",
         "A string literal opened with '\"' does not close before the end of its line."),
    Code("E1003", "nesting too deep",
         "Brackets (more than 256 deep), chains read without brackets (`else if` links, "
         "prefix operators) or the tree of one item (more than 20,000 levels: every "
         "operator, call, index, field, cast, statement and block is a level) nest deeper "
         "than the compiler accepts. Deep nesting is refused with this diagnostic rather "
         "than risking a crash of any pass; split the expression with `let` bindings."),
    Code("E1004", "the input is not Vx text",
         "The file is not UTF-8 text, or holds characters (NUL and other control "
         "characters) that cannot appear in a Vx program. The diagnostic names the first "
         "offending byte or character."),
    Code("E1005", "the file is empty",
         "The file holds no items: nothing but white space and comments. A program needs at "
         "least `fn main() { }`."),
    Code("E1006", "invalid literal",
         "A numeric literal that cannot be read, such as an integer too large for any "
         "integer type (more than 64 bits) or a malformed float."),
    Code("E1007", "an IL dump that does not read back",
         "A dump given back to nano-vx (the text `--dump-after` writes, or its JSON) must be a "
         "sentence of the IL its first line names (`// IL: Lresolved`; a JSON dump's "
         "\"language\"). The message names the line and column where the text stopped "
         "fitting, what the production being read expected there and after what: a dump "
         "edited by hand must keep the notation the IL is printed in. Before any pass takes "
         "it, a dump is also checked as data: its state lines (a `// reported by` line holds "
         "a diagnostic object), and a typed back-end IL's (Lscalars to Lcells) rules of scope "
         "and type: every local, constant, function and block label it names is there, and "
         "every type it writes is the one its operands give."),
    # -- E2xxx: names ----------------------------------------------------------------------
    Code("E1012", "a tensor whose elements are no scalars",
         "A tensor holds numbers or bools (`i32`, `f32`, `bool`, .., and the narrow storage "
         "types): `Tensor<S, [4]>` of a struct S, or of a vector, a tuple, text or another "
         "tensor, has no layout of elements to give. Keep such values in a struct's fields "
         "or a tuple, or keep one tensor per field (`xs: Tensor<f32, [4]>, ys: "
         "Tensor<f32, [4]>`)."),
    Code("E2001", "undefined name",
         "A name is used where no variable, parameter, function, constant or declaration of "
         "that name is in scope. Names are visible from their `let` to the end of the "
         "enclosing block; functions and declared items are visible everywhere. A method "
         "call names a built-in method (`.to_device()`, `.topology()`, `.try_pin(..)`, "
         "`.extent(i)`, ..): Vx has no others, so a function of an impl block is called "
         "through its type, `Vec2::dot(&a, &b)`, and a built-in function as one, `abs(x)`."),
    Code("E2002", "no main function",
         "The program is to be run, but it declares no `fn main`. Write `fn main() { ... }` "
         "or `fn main() -> i32 { ... return 0; }`."),
    Code("E2003", "unknown enum",
         "`E::V` (a value, or a pattern of a `match`) names an enum E the program does not "
         "declare. Declare it, `enum E { V, W(i32) }`, or fix the name."),
    Code("E2004", "unknown variant",
         "`E::V` names a variant the enum E does not declare, or gives it another number of "
         "values than its declaration carries (`Circle(f32)` carries one). The message lists "
         "the enum's variants."),
    Code("E2005", "a field the value does not have",
         "`s.f` reads, and `S { f: .. }` gives, a field its struct declares; a value of any "
         "other type has no named fields (a tuple's elements are `.0`, `.1`, a vector's "
         "lanes and a tensor's elements `[i]`), and `t.i` reads an element a tuple has: "
         "`.0` to one less than its length. The message names the type and the field."),
    Code("E2008", "name declared twice",
         "Two items (functions, constants, structs, enums, memory spaces or topologies) of "
         "one program share a name, or two fields of one struct, or two variants of one "
         "enum, or a struct literal gives one field twice, or a struct or enum is named `str`, "
         "the built-in type of text. Rename (or drop) one of them."),
    # -- E3xxx: desugaring -----------------------------------------------------------------
    Code("E3050", "`unroll across` needs constant bounds",
         "`unroll across(Topology::X[a..b])` is replaced by one `spawn on` per index while "
         "compiling, so `a` and `b` must be integer constants (literals, constant items, or "
         "arithmetic on them), with a <= b. For bounds known only at run time, loop with `for` "
         "around a `spawn on` (which picks no unit by a run-time index: that is W1030)."),
    Code("E3051", "`unroll across` range too large",
         "`unroll across` copies its body once per index while compiling, so a range of "
         "more than 4096 indices is refused rather than letting the program grow without "
         "bound. Nested unrolls multiply: a body is copied once per index of its own range "
         "times the indices of every `unroll across` around it, and more than 4096 copies in "
         "all is refused too. For a range that large, loop with `for` around a `spawn on` "
         "(which picks no unit by a run-time index: that is W1030)."),
    Code("E3001", "a `let` whose value has another type",
         "The value bound by `let x: T = v;` must be of type T, and so must a `const`'s value "
         "and a value assigned with `=`. An unsuffixed literal takes the type it meets, as in "
         "Rust (`let x: u8 = 3;` is fine, `let x: u8 = 3.0;` and `let y: f32 = 1;` are not), "
         "and so does a variable bound to one without a written type (`let n = 0;` is "
         "whatever integer its uses make it). A tensor's type includes its element type, "
         "its extents and its memory space. A string is text (`str` in a message), which "
         "`print`, an `assert`'s message and a variable bound to it without a written type "
         "take, and nothing else (an operator, a condition, a cast or an argument refuses it "
         "with its own code). The message names both types; convert a number with `as`, or "
         "write the type the value has."),
    Code("E3002", "a `return` that does not match the function's result",
         "`return v;` and the last expression of a body (without `;`) give the function's "
         "result, so v must be of its declared type; `return;` gives none, so it is refused "
         "in a function declared `-> T`, and a function declared without a result gives no "
         "value. The message names the function and both types."),
    Code("E3003", "a call argument of another type than its parameter",
         "An argument must be of its parameter's type: the same scalar type (an unsuffixed "
         "literal fits any integer or float type), or a tensor with the same element type, "
         "extents and memory space (the space is part of the type). Binding the result of a "
         "function that returns nothing is refused too. The math built-ins take numbers: "
         "`exp`, `log` and `sqrt` a float, `max` and `min` two of one type. The message names "
         "both types."),
    Code("E3004", "an arithmetic or bitwise operator on operands of two types",
         "`+ - * / %`, `& | ^` and a compound assignment (`x += v`) take two operands of one "
         "type, so mixing i32 with i64 or an integer with a float is refused, as Rust "
         "refuses it; an unsuffixed literal takes the other side's type. The message names "
         "both types. Convert one side with `as`. (An operand of a type the operator does "
         "not take at all is E3030.)"),
    Code("E3030", "an operator on an operand of a type it does not take",
         "`+ - * / %` take numbers; `& | ^` integers or bools; `<< >>` an integer, shifted by "
         "an integer of any type; prefix `-` a signed number; a compound assignment (`x %= "
         "v`) what its operator takes. So arithmetic on a bool (`%` included), a bitwise "
         "operator or a shift on a float, a reference as an operand (read it: `*p + 1`), text, "
         "and negating an unsigned integer are refused, as Rust refuses them. `==` and `!=` "
         "compare numbers, bools, topologies and memory spaces: Vx defines no equality of a "
         "struct, a tuple or an enum, so comparing one is refused (compare the fields one by "
         "one). An index of a tensor or a raw pointer, `t[i]`, is an integer, and `*` reads "
         "through a reference or a raw pointer only. The message names the operator and the "
         "type it does not take."),
    Code("E3005", "a comparison of values of different types",
         "`== != < <= > >=` compare two values of one type: comparing an i32 with an i64, an "
         "integer with a float or a bool with a number is refused (an unsuffixed literal "
         "takes the other side's type). Convert one side with `as`. Comparisons do not "
         "chain: `a < b < c` compares a bool with c. A `match` case compares too: on an "
         "enum, its pattern names a variant of that enum."),
    Code("E3006", "a logical operator on a value that is not a bool",
         "`&&` and `||` take two bools; `!` takes a bool, or an integer whose bits it flips "
         "(as in Rust), never a float. Write the comparison you mean (`n != 0`)."),
    Code("E3007", "an `if` or `match` whose arms differ in type, or a condition that is not a "
         "bool",
         "An `if` used as a value gives the value of the branch that runs, so its branches "
         "must agree on one type (an unsuffixed literal takes the other branch's); a branch "
         "that leaves by `return`, `break` or `continue` has no value to agree. So do the "
         "arms of a `match` used as a value, a name a pattern binds having the type of what "
         "it binds. The "
         "condition of `if`, `while` and `assert` must be a bool: a number is not true or "
         "false, so write the comparison (`n != 0`)."),
    Code("E3008", "an integer literal out of range for its type",
         "An unsuffixed integer literal takes the type its context fixes, as in Rust: a "
         "`let`'s type, the variable an assignment writes, a parameter, the function's "
         "result, a tensor's element type, the other operand of arithmetic or of a "
         "comparison, the argument a generic struct's field of type `T` is given (`let c: "
         "Cell<u8> = Cell { v: 300 };`), and i32 where nothing fixes one (`print(2147483648)`). A literal that "
         "type cannot hold is refused rather than wrapped (`let x: u8 = 260;` would be 4); "
         "so is a suffixed literal its suffix cannot hold (`256u8`). `-N` is the one literal "
         "-N, so `let m: i8 = -128;` fits. The message names the literal, the type and its "
         "range; write a type that holds the value, or a cast (`300 as u8` converts, on "
         "purpose)."),
    Code("E3009", "a `main` the program cannot start with",
         "A program starts by calling `main()`, with no arguments, so `main` takes no "
         "parameters. The value it returns becomes the process's exit status, so `main` "
         "returns nothing (`fn main()`) or an integer (`fn main() -> i32`; the status is the "
         "value modulo 256). A float, a bool, a tensor or any other result is refused: print "
         "the value, and return an integer if the status should say something."),
    Code("E3010", "a call with the wrong number of arguments",
         "A call passes exactly as many arguments as the function has parameters. The "
         "message names the parameters' types and how many arguments the call passes. A "
         "tensor constructor too: `::new()` and `::uninit()` take nothing, `::fill(v)` one "
         "value (after the list of extents a tensor with `?` extents takes first), and Tensor "
         "has no other constructor. The math built-ins take one argument (`exp`, `log`, "
         "`sqrt`, `abs`) or two (`max`, `min`); the built-in methods none (`.to_device()`, "
         "`.to_gpu()`, their `_relaxed` forms, `.topology()`) or one (`.try_pin(Topology::X)`, "
         "`.extent(i)`)."),
    Code("E3011", "an unsupported cast",
         "`as` converts a number to a number (wrapping, truncating or rounding as Rust "
         "does) and a bool to an integer (`true as i32` is 1). Nothing converts to a bool "
         "(compare instead: `n != 0`), a bool does not convert to a float (go through an "
         "integer: `b as i32 as f32`), and a tensor, a string or a call that returns "
         "nothing is not a number."),
    Code("E3026", "a tensor extent that names a value other than an integer",
         "An extent counts elements, so a name in one (`Tensor<i32, [n]>`, `[n * 2]`) is an "
         "integer variable, parameter or `const` (an item or a generic parameter). A bool, a "
         "float, a reference (`&i32`: the extent does not read through it) or any other value "
         "is refused. The message names "
         "the extent and the type of what it names; convert the value into an integer "
         "variable first (`let m = x as i32;`, `let m = *r;`) and write `[m]`."),
    Code("E3028", "a function with a result whose body can end without one",
         "A function declared `-> T` ends in its value (a last expression without `;`) or "
         "leaves by `return` on every path, as in Rust. A path ends at `return`, at an `if` "
         "with an `else` whose branches both end, and at `loop { .. }` (or `while true`) "
         "with no `break` out of it; any other loop may run no turn, and `assert(false)` "
         "does not count as a return. Add the value or the `return` the path is missing."),
    Code("E3020", "a `match` that misses a variant",
         "`x.try_pin(Topology::X)` gives `Available(p)` when a unit of X was free to pin (p "
         "is the value pinned on it, held until the arm ends) and `Saturated(v)` when every "
         "unit was taken (v is the value, not pinned). Which one comes back depends on what "
         "else holds X while the program runs, so a `match` on it needs an arm for each. The "
         "message names the arm that is missing; add it, even if all it does is report. "
         "A `match` on a value covers every value as well: each variant of an enum, `true` "
         "and `false` of a bool, and for an integer a last case `_ => ..` (or a name) that "
         "takes what the others do not list; the message names what no case covers."),
    Code("E3012", "a struct field or a variant's value given a value of another type",
         "A struct literal gives each field a value of the field's declared type (an "
         "unsuffixed literal fits any type of its kind), and `E::V(..)` each value V carries "
         "one of the type V declares. The message names the struct or the variant, the "
         "field or the value's position and both types. A field whose type is a generic "
         "parameter of the struct takes a value of the type the struct's arguments make it "
         "(`Cell<i32> { v: true }` is refused), those the literal writes or those of the "
         "type it is given as; without any, every field naming that parameter takes the same "
         "type. A generic struct's arguments are part of its type: a `Cell<f64>` given where "
         "a `Cell<i32>` is asked for is refused with the code of the place (E3001, E3002, "
         "E3003, E3007)."),
    Code("E3013", "a struct literal that misses a field",
         "`S { a: 1, b: t }` builds a value of struct S, so it gives every field S declares: "
         "the message names the ones missing. (A struct has no default values.)"),
    Code("E3018", "an array or list literal of the wrong shape",
         "`[a, b, c]` is a rank-1 tensor of scalars: it needs at least one element (its "
         "length and element type come from them) and its elements are scalars. A nested "
         "list initialises a tensor instead: `Tensor<f32>([[1.0, 2.0], [3.0, 4.0]])`, whose "
         "rows all have the same extents, and which, when the type writes its extents "
         "(`Tensor<f32, [2, 2]>([..])`), has exactly those."),
    Code("E3019", "a `match` case whose integer its scrutinee's type cannot hold",
         "A case `300 => ..` of a `match` on a u8 can never be chosen: no u8 is 300. The "
         "message names the literal and the scrutinee's type with its range. Drop the case, "
         "or match on a wider type (`match x as i32 { .. }`)."),
    Code("E3053", "a narrow storage type used other than as a tensor's element type",
         "`i4`, `u4`, `f8e4m3`, `f8e5m2` and `f4e2m1` are the formats of a tensor's elements, "
         "packed as an accelerator stores them: `Tensor<f8e4m3, [64]>` is one. An element is "
         "read and written as a value of a scalar type (`f32` for the narrow floats, `i8` for "
         "`i4`, `u8` for `u4`), so no variable, parameter, result, field, cast or generic "
         "argument is of a narrow type: the message names it. Write the scalar type there, "
         "or keep the values in a tensor of the narrow type."),
    Code("E3023", "a shaped tensor initialised from a single value",
         "`Tensor<T, [..]>(x)` takes a nested list of the tensor's elements, or nothing (a "
         "tensor of zeros). To give every element one value, write `Tensor<T, [..]>::fill(v)`."),
    Code("E3024", "`.shape` on a tensor",
         "A tensor has no `.shape` field to index: its extents are part of its type. Write "
         "`t.extent(i)` for the extent of axis i."),
    Code("E3025", "`.extent(i)` with an index that is not a literal below the rank",
         "`t.extent(i)` is the extent of axis i of t, so i must be an integer literal from 0 "
         "to the tensor's rank minus one: the message names the rank. A `?` extent is read "
         "when the program runs; a written one is a constant."),
    Code("E3029", "a type name that names no type",
         "A parameter, a result, a struct field or a constant is given a type by name, so "
         "the name is "
         "one the program declares (a struct, an enum, a generic parameter in scope) or a "
         "type nano-vx knows (`i32`, `f32`, `bool`, `str`, ..). The message names it: "
         "declare it, or fix a misspelling."),
    Code("E3054", "`break` or `continue` outside a loop",
         "`break` leaves and `continue` restarts the innermost `for`, `while` or `loop` around "
         "it in the same body. A closure's body is a function of its own and a `spawn`'s body "
         "a kernel of its own, so a loop written around the closure or the spawn is not one "
         "they can leave: move the loop inside, or leave the body with `return`."),
    Code("E3032", "runaway instantiation of a generic function",
         "monomorphize makes one instance of a generic function per distinct list of "
         "generic arguments. When an instance calls its generic with new arguments each time "
         "(`f<N + 1>` inside `f<N>`: polymorphic recursion), instances never stop coming, so "
         "the compiler stops after 64 generic calls deep along one chain, or 4096 instances "
         "in all, and names the chain. A run-time `if` does not stop it; an `if comptime` "
         "does, since the branch it does not take asks for no instance. Or make the "
         "recursion call the same instance, or pass the changing value as an ordinary "
         "argument."),
    Code("E3044", "a constant without a value, or one that depends on itself",
         "A `const` item is its value, computed while compiling, so it has one (`const N: "
         "i32 = 4;`) and that value does not need the constant itself, directly or through "
         "other constants (`const A: i32 = B + 1; const B: i32 = A * 2;`). The message names "
         "the chain that leads back."),
    Code("E3046", "a const dimension bound twice to different extents",
         "A `const` generic used as a tensor extent (`fn scores<const S: i32>(q: "
         "Tensor<f32, [S]>, k: Tensor<f32, [S]>)`) states that the arguments agree there. S "
         "binds once, from the first argument that names it (on any axis) or from `f<4>`; "
         "every later argument must have the same extent. The message names the parameter, "
         "the extent it is bound to and by which argument, and the argument that differs."),
    Code("E3014", "a vector type whose lane count or lane type is not one",
         "`<N x T>` is a vector of N lanes of the scalar type T: N is an integer literal "
         "from 1 to 4096 as written (not a `const`, a generic parameter or arithmetic, and "
         "not `?`) and T a scalar type (`f32`, `i32`, `bool`, ..), not a tensor, a struct "
         "or another vector. The message names the type and what is wrong in it."),
    Code("E3015", "a vector lane out of range, or written",
         "`v[i]` reads lane i of a vector `<N x T>`: i an integer from 0 to N - 1. An index "
         "that is no integer (a float, a bool, a vector) is refused; one written as "
         "a literal is judged while compiling (one computed when the program runs and out "
         "of range stops it, E9003). A vector's lanes are read, not written: `v[i] = x` is "
         "refused; build the new vector (`vec<N x T>(..)`) instead."),
    Code("E3016", "a generic parameter a call does not determine",
         "Each generic parameter of a called function must be given (`f<4>(x)`, "
         "`f<i32>(y)`, `f<Topology::GPU>(p)`) or deducible from an argument's type (a type "
         "from the argument in its place, a topology from `Pinned<_, Topology::A>`, a const "
         "from a tensor extent). A parameter that neither gives, such as a type parameter "
         "used only in the body (`fn free_width<T>() -> i32 { sizeof<T>() }` called as "
         "`free_width()`), has nothing to be instantiated with. The message names the "
         "parameter and the function; write the generic arguments out "
         "(`free_width<f32>()`). `splat(v)` is generic the same way, in its vector type: "
         "where nothing around it says the type (a typed `let`, a field, a parameter, a "
         "result, the other operand of `+ - * /`), write it: `let s: <4 x f32> = "
         "splat(v);`."),
    Code("E3047", "a generic argument that cannot be worked out or does not fit",
         "A generic argument must be of its parameter's kind and make a valid instance (a "
         "parameter no argument determines is E3016). Refused: a generic function named "
         "without a call (each call gets its own instance), more generic arguments than "
         "parameters, a type "
         "where a const is expected (or the reverse), generic arguments to a function that "
         "is not generic, an instance whose const arithmetic (`[N - 4]`) makes an extent "
         "zero, negative, or a division by zero, and a struct's const argument not known "
         "while compiling (`Row<n>` with n a run-time local)."),
    Code("E3033", "a `comptime` block that does not fold",
         "A `comptime` block is run while compiling and replaced by its value (or removed, "
         "in statement position), so it must run to the end and leave nothing behind. The "
         "message says which rule it broke: it cannot be finished while compiling (it "
         "prints, spawns, transfers, or leaves through `return`); it writes to a variable "
         "declared outside it (named); it holds a check, an `assert` or an integer `/` or "
         "`%`, that the compiler cannot show to pass (one on a path taken only for some "
         "run-time values, or one depending on a run-time value); or its value depends on "
         "a value known only at run time (named) or on an integer result outside its type "
         "(a cast that changes a value, `-1i64 as u64`, included); an `unsafe` block or "
         "`unsafe fn` runs only with the program. Reading a run-time value is allowed when nothing the block produces depends on it."),
    Code("E3034", "a `comptime` block inside another",
         "The outer block already runs while compiling, so the inner `comptime` asks for "
         "nothing more: remove it. A lambda whose body is a `comptime` block, written "
         "inside a block, is a function of its own and not a nested block."),
    Code("E3052", "a call of a comptime lambda that cannot fold",
         "A lambda whose body is a `comptime` block (`|x: i32| comptime { .. }`) runs while "
         "compiling: every call is replaced by its value, and the lambda then disappears. A "
         "call whose arguments are not all known while compiling has no value to be "
         "replaced by, and there is no falling back to a run-time call. The lambda must be "
         "bound with `let` and only called, not passed around as a value."),
    Code("E3060", "a differentiated function with an integer or bool parameter or result",
         "`grad(f, x)`, `vjp(f, x, s)` and `jvp(f, x, t)` differentiate f with respect to "
         "its parameter, so f takes one float or tensor of floats and returns one (`grad` "
         "a float: the derivative of a tensor result needs a seed, `vjp`). An integer or a "
         "bool has no derivative. The message names the function and the parameter or the "
         "result; differentiate a function of the float alone that calls f with the rest. "
         "A function f calls is differentiated with respect to its float parameters only, "
         "and may take integers."),
    Code("E3061", "a construct differentiation cannot follow",
         "The derivative of a function, and of every function it calls with a float, is "
         "generated from its code, statement by statement. Some constructs have no rule: a "
         "`transfer` or `spawn` (the derivative would have to move between memory spaces "
         "with the value), a closure, a struct, a tuple, a `match`, a reference to a scalar, "
         "`%` on floats, a function that runs on another topology, a generic function "
         "named directly, a derivative inside a differentiated function. The reverse "
         "sweep of `grad` and `vjp` must also run the function backwards, so it refuses "
         "`break`, `continue` and `return` inside a loop (the trip count must be known "
         "when the loop starts), a tensor made inside a loop or a branch or assigned whole, "
         "a tensor moved into a call (lend it, `&t`), and a tensor result that is not a "
         "local variable returned at the end. The message names the function and the "
         "construct; a note says why the function is differentiated."),
    Code("E3062", "a `while` loop whose trip count depends on the differentiated value",
         "A loop that turns a number of times depending on the value being differentiated "
         "makes the function a different computation on each side of every point where "
         "the count changes, and the derivative of the count itself is not defined. A "
         "`while` whose condition (or a `break` or `return` under a condition) depends on "
         "the differentiated parameter is refused, naming the function. Write a `for` "
         "loop whose bounds are known when it starts; a `while` over integers that do not "
         "depend on the parameter is followed."),
    # -- E4xxx: ownership ----------------------------------------------------------------
    Code("E4001", "use of a value after a move",
         "`transfer(x, M)` consumes a uniquely owned local: the data leaves x's space, and x "
         "may not be used again. Passing x by value to a function of the program (`f(x)`) "
         "moves it too when x owns data (a tensor, or a struct holding one): the callee has "
         "it now. Scalars and references are copied, and `&x` lends x without moving it. A "
         "move on one branch of an `if` counts after the `if`, and a move inside a loop of a "
         "variable declared outside it is a use on the next iteration. A field that owns "
         "data (`s.t`, a tuple's `p.0`) moves the same ways: then it is gone, and so is s as a whole, while s's "
         "other fields stay. Use the transferred "
         "value under its new name, lend x to the function (`f(&x)`, with a parameter of type "
         "`&T`), or assign x a new value first (`x = ...`)."),
    # A loan (`&x`, `&mut x`) lasts, lexically, from the `let` that binds it to the end of
    # that `let`'s block, or, passed as an argument, while its call runs (check-loans; E4005 is
    # check-dangling-references', E4006 check-shared-writes').
    # The split follows Rust's: E0499 -> E4002, E0502 -> E4003 (a shared borrow) or E4004 (a
    # mutable one), E0506 and E0505 -> E4004, E0597 -> E4005, E0594 and E0596 (through a `&`)
    # -> E4006.
    Code("E4002", "a mutable borrow while another mutable borrow lasts",
         "`&mut x` needs x to itself: no other mutable loan of x may last where it is taken. "
         "A loan bound by `let p = &mut x;` lasts to the end of the block holding the `let`, "
         "and one passed as an argument while its call runs, so `f(&mut x, &mut x)` and "
         "`let p = &mut x; let q = &mut x;` are refused (against a shared loan, `&mut x` is "
         "E4004). The message names the loan in the way and how long it lasts. End it first: "
         "put the first borrow and its uses in a block `{ .. }` of their own."),
    Code("E4003", "a shared borrow while a mutable borrow lasts",
         "`&x` may not be taken while a `&mut x` lasts (see E4002 for how long a loan "
         "lasts): the mutable reference could change x under the shared one. Any number of "
         "shared loans may last at once. The message names the mutable loan and how long it "
         "lasts."),
    Code("E4004", "changing a variable while it is borrowed",
         "While a loan of x lasts (see E4002), x may not be assigned (`x = ..`, `x += ..`, "
         "`x[i] = ..`), moved by `transfer`, nor passed by value to a function that takes "
         "it: the reference would see its value change under it, or go. Nor may `&mut x` be "
         "taken while a shared loan of x lasts (`let p = &x; let q = &mut x;`, `f(&x, &mut "
         "x)`): writing through it would change x under the shared reference. Reading x is "
         "allowed. Assign through the reference instead (`*p = ..`), or end the loan first."),
    Code("E4005", "a reference read after the variable it names has gone",
         "A reference to x (or a struct or tuple holding one) given to a variable of a block "
         "outside x's, `r = &x;` or `h.t = &mut x;`, outlives x: when x's block ends, the "
         "reference names a variable that is gone. Reading the holder after that (or in a loop "
         "around x's block, whose next turn reads it before giving it a new value) is refused, "
         "as Rust's E0597 refuses it. The message names x, where its block ends and the read. "
         "Declare x in the holder's block or an outer one, or give the holder a new value "
         "(`r = &y;`) before it is read again. A reborrow through a reference (`&*p`, `&p[i]`) "
         "names what p names, and does not end with p."),
    Code("E4006", "a write through a shared reference or a `*const` pointer",
         "A `&T` reference reads: `*p = ..`, `p[i] = ..` and `&mut *p` through it are "
         "refused. Take a mutable reference (`&mut x`, a parameter of type `&mut T`) where "
         "the value is to be changed. So does a `*const T` pointer: write through a `*mut T` "
         "(`t.as_mut_ptr()`)."),
    Code("E4010", "a variable read before every path has assigned it",
         "`let x: T;` declares x without a value; a later `x = ..` gives it one. A read of x "
         "(or `x += ..`, or a closure that reads it) is refused when some path from the "
         "declaration reaches it without an assignment: an `if` without `else` that assigns "
         "only in its block, a `match` with a case that does not, a `while` or `for` whose "
         "body may not run. Assign x on every path first, or give it its value where it is "
         "declared. The message names where x was declared."),
    Code("E4011", "a variable declared without a value of a type that has none to write",
         "`let x: T;` becomes `let mut x: T = v;` with a value v of T that no read sees "
         "(check-definite-assignment has shown it), and nano-vx writes one for numbers, "
         "bools, tensors of known extents, and tuples, structs and enums of them. For a type "
         "parameter, a reference, a generic struct, a placed scalar or `void` it writes "
         "none: give x its value where it is declared."),
    # -- E5xxx: native code (the back end's passes) ------------------------------------
    Code("E5010", "native code does not lower this construct",
         "The program is correct, but the back end (check-native-subset and the passes after "
         "it) cannot turn this construct into native code that does exactly what the "
         "interpreter does. The message names the construct and its function. What is left is "
         "narrow: particular uses of hardware states, closures, generic structs, tensors made "
         "by `::uninit()`, raw pointers, moved captures, strings and references to "
         "temporaries; docs/backend.md, \"What runs in the interpreter instead (W5001)\", "
         "lists each with its reason. `--action emit-mlir` and `emit-llvm` stop here; `--action interpret` runs "
         "the program in the reference interpreter, and the default action does so too, after "
         "warning W5001."),
    Code("W5001", "run in the reference interpreter instead of native code",
         "The program is run (the default action) but native code does not lower one of its "
         "constructs (E5010 names it): nano-vx runs it in the reference interpreter, which "
         "gives the same output and exit status, only slower. `--action interpret` asks for "
         "the interpreter and says nothing."),
    # -- E6xxx, memory model: declarations, machine files, routing (check-memory-declarations,
    # load-machine-files, resolve-sub-space-ancestors) ----------------------------------
    Code("E6001", "a call that runs a function on another topology",
         "A function declared `fn f(..) on Topology::X` runs on X: its tensors are made in "
         "X's memory and its code is compiled for X. Calling it from code that runs on "
         "another topology (the host, or a `spawn on` block of another device) would run it "
         "in the wrong place. The message names both topologies. Call it inside "
         "`spawn on(Topology::X) { .. }`."),
    Code("E6002", "no transfer path",
         "A `transfer` moves a value between two memory spaces that no chain of declared "
         "transfer edges connects (a space without edges of its own is reached through its "
         "`within:` ancestors). The compiler never stages the copy through a third space on "
         "its own: declare an edge (`transfer Memory::A -> Memory::B : cost` in a Topology), "
         "or write the intermediate transfer."),
    Code("E6004", "a relaxed transfer whose kernel depends on the data",
         "With --verify-seams: `x.to_device_relaxed()` moves a tensor without the release "
         "that makes what was written before it visible on the device, and a kernel "
         "(`spawn on`) asserts something of the moved data. The assert is an obligation on "
         "the seam: z3 looks for contents as written that make it true and contents the "
         "kernel may read stale that make it false. When it finds them the transfer is "
         "refused, naming the value and the seam (the two spaces), with the counterexample "
         "as a note. Move it with `x.to_device()`, which releases the buffer first."),
    Code("E6006", "`within:` cycle",
         "The `within:` fields of memory spaces form a containment tree; following them "
         "from this space comes back to it. The message names the cycle. Break it: the "
         "outermost space (device memory) has no `within:`."),
    Code("E6007", "sub-space larger than its parent",
         "A memory space declared `within:` another declares a larger capacity than the "
         "space that contains it. One replica of a per-SM space is compared, not the sum "
         "over replicas. The message gives both sizes in bytes."),
    Code("E6008", "non-positive size, bandwidth or cost",
         "A capacity, bandwidth, clock, granule, replica count or transfer cost in a memory "
         "or topology declaration is zero. Every such figure must be positive: a zero "
         "capacity admits nothing and a zero bandwidth moves nothing."),
    Code("E6015", "a granule larger than its space's capacity",
         "A memory space declares an allocation granule larger than its capacity. Every "
         "tile placed there is rounded up to whole granules, so not even the smallest fits, "
         "and each would be E6009. The message names both sizes. Make the granule no larger "
         "than the capacity (a sub-scratchpad's granule is a fraction of it)."),
    Code("E6011", "sub-space scope wider than its parent's",
         "Scopes nest device > sm > cta > thread. A space `within:` another is private to "
         "the same execution level as its parent or a narrower one; a space private to one "
         "SM cannot contain one shared by the whole device. The message names both scopes."),
    Code("E6012", "memory space or topology declared in two inputs",
         "A memory space or topology of this name is declared by two of the inputs of one "
         "compilation (the program, the `--machine` file, the `--host` file). Machine and "
         "host files are added beside the program, so a name may come from only one of "
         "them: drop the program's copy, or compile without the flag that declares it."),
    Code("E6014", "host staging without a host",
         "A machine model is in force (a `--machine` file or a space declared `scope: "
         "device`), no input declares `CPU_DRAM`, and a transfer would stage through it: it "
         "moves a value to or from `CPU_DRAM`, or between two spaces whose only route runs "
         "through the machine's host links (two cards that each link to the host and not to "
         "each other). A machine file describes the accelerator, not the computer it hangs "
         "off, so no host memory is assumed. The message names the route; `--host` declares "
         "the host: `--host default` (this computer, `Memory CPU_DRAM { managed: explicit "
         "}`) or `--host FILE`."),
    Code("E6016", "malformed memory or topology declaration",
         "A field of a `Memory` or `Topology` declaration is not one the compiler knows, is "
         "given twice, or has a value of the wrong kind (a size where a bandwidth belongs, "
         "an unknown scope, a fractional byte count), or a required field (a topology's "
         "`memory:`) is missing. The message names the field and what it accepts. A "
         "transfer edge with an unknown flag, with both `relaxed` and `sync`, or with no "
         "cost where none can be derived (its spaces are not in one `within:` tree, or no "
         "space between them declares a bandwidth in bytes per second) is refused the same "
         "way, and so is a `--machine` or `--host` file that holds anything but Memory and "
         "Topology declarations."),
    Code("E6013", "an explicit cost on an edge whose cost is derived",
         "A transfer edge between two spaces of one `within:` tree, where some space on the "
         "containment path between them declares a bandwidth, has its cost derived: the "
         "cost of a link at the narrowest of those bandwidths (the bottleneck), on the scale "
         "of declared costs. Writing a cost as well would give the edge two prices. The "
         "message names the edge, the cost written and the one derived. Drop the cost "
         "(`transfer Memory::HBM -> Memory::L2`), or change the bandwidths it derives from."),
    # -- E6xxx, placement: visibility and capacity (check-visibility, check-capacity) ---
    Code("E6003", "a read of memory the reading topology cannot see",
         "A value's memory space is part of its type, and each topology may read only the "
         "spaces it declares `visible:` (the host, CPU, sees CPU_DRAM and NPU_HBM in the "
         "built-in model). Indexing, printing, arithmetic or a condition on a value in "
         "another space is refused, and so is capturing such a value in a `spawn on` block. "
         "The message names the value, its space, what the reader sees, and the cost of "
         "the transfer that fixes it on the declared path: write that `transfer` and read "
         "the copy. A transfer itself is not a read; `managed: cached` spaces are exempt."),
    Code("E6009", "a tile larger than its memory space",
         "A statically shaped tensor placed into a bounded space by `transfer` is larger "
         "than the space's capacity (after rounding up to whole granules when the space "
         "declares a `granule:`; against one replica when it declares `replicas:`). The "
         "message gives both numbers in bytes. Split the tensor, or place it in a larger "
         "space."),
    Code("E6010", "a working set larger than its memory space",
         "The tiles one function holds in a space at the same time do not fit it. A tile is "
         "resident from the `transfer` that places it to the last use of the value, each "
         "rounded up to the space's granule when it has one; the working set is the peak of "
         "their sum. The message gives the tile count, the granule, the sum and the "
         "capacity in bytes. Let a tile die (transfer it out, or stop using it) before "
         "placing the next, or declare the space `overcommit` if they never coexist."),
    Code("E6025", "a placement that names no declared location",
         "A tensor type places its value in `Memory::X` or on `Topology::X`, or `spawn on` "
         "runs code on `Topology::X`, and no input declares X: not the program, not a "
         "machine or host file, not the built-in model (in force when no machine is given). "
         "The message names the location and the note lists the declared ones."),
    Code("E6026", "a tensor of an element type its device does not represent",
         "A topology declares the element types its device represents (`dtypes: [f16, i8]`, "
         "narrow ones such as `i4` and `f8e4m3` included), and a tensor is placed in the "
         "memory that topology holds, or on the device by name, with another element type: "
         "by its type, by `transfer`, or made by code running there. "
         "The message names the type, the device and its list. Convert the tensor to one of "
         "the listed types, or list its type."),
    Code("E6027", "a working set that overflows only along a call path",
         "Each function on a chain of calls fits the space alone, but the tiles a caller "
         "holds across a call add up with what the callee places while it runs. A tile "
         "held across a call is one placed before it and used in its arguments or after it; "
         "sequential calls compose by max, a held tile by +. The message names the path "
         "(`main -> stage$i32`), the peak and the capacity, and the notes say what each "
         "function holds. Let the caller's tile die before the call (transfer it out, or "
         "stop using it afterwards), or split the work."),
    Code("E6028", "recursion that places tiles in a bounded space",
         "A function on a cycle of calls places tiles in a memory space that has a "
         "capacity. Each activation holds its tiles while the recursion goes deeper, and "
         "the depth is not known while compiling, so no bound can be proved. The message "
         "names the cycle and the bytes each activation holds. Place the tiles outside the "
         "recursion and pass them in, or write the recursion as a loop."),
    Code("E6030", "a device region that hands out a tensor it made",
         "A `spawn on(Topology::X) { .. }` region runs on X and ends there, so what it "
         "hands back to the code around it must be memory that code owns: a tensor made "
         "before the region and transferred into X's memory there, not one the region "
         "made itself (a constructor, a literal or a `transfer` run inside it, or a call "
         "that makes its result). Where the value comes from is followed through `let`s, "
         "assignments, branches, fields, references and the program's functions, which "
         "pass on the parameters they return. The message names where the tensor is made. "
         "Make it before the region: `let d = transfer(Tensor<f32, [4]>::fill(0.0), "
         "Memory::GPU_HBM); let t = spawn on(Topology::GPU) { .. d };`."),
    Code("E6040", "an unmet `where Reachable<A, B>` at a call",
         "`where Reachable<A, B>` on a generic function states that data can get from the "
         "memory topology A holds to the memory B holds, along the declared transfer graph "
         "(the routing transfers use). The clause is discharged at every call, for the "
         "topologies the call binds A and B to. The message names the clause as written, "
         "the callee, and the two topologies with no path between their spaces; the "
         "clauses that hold are not reported. Declare a transfer edge, or call the function "
         "with devices that can reach each other."),
    Code("W1029", "an `arch:` this compiler does not know",
         "A topology's `arch:` names its target, and the set of targets is open: a name "
         "nano-vx does not know (it knows nvptx64, amdgcn, x86_64, aarch64, thumbv7em, "
         "applegpu, riscv64, wasm32, spirv64 and a few more) is kept as written, with this "
         "warning in case it is a misspelling. `arch:` is recorded, not used to generate "
         "code."),
    Code("W1030", "a `spawn on` index that is not a compile-time constant",
         "`spawn on(Topology::X[i])` places the block on unit i of X, which the compiler "
         "must know: an index that is not a compile-time integer (a literal, a `const` item, "
         "a const generic parameter, or + - * / % of those) falls back to index 0, and the "
         "expression is not evaluated. The warning names the expression. Write a constant "
         "index, or `unroll across(Topology::X[a..b])` for one spawn per unit."),
    Code("W1031", "an import nano-vx does not follow",
         "nano-vx compiles one file: `import a::b;` is read, and warned about, but brings no "
         "names with it. A name the program uses from it is then E2001 where it is used; "
         "declare what the program needs in the file itself."),
    Code("W1028", "an over-capacity working set in an `overcommit` space",
         "The working set of a function exceeds the capacity of a space declared "
         "`overcommit`, which would be E6010 otherwise: the declaration asserts that the "
         "tiles never all coexist, so the compiler warns and admits the program."),
    # -- E70xx: the spatial lane -----------------------------------------------------------
    Code("E7001", "spatial text does not parse",
         "A spatial program (`nano-vx spatial PROGRAM`) is not in the text form of its IL: "
         "the message says what was expected and what was found, at the line and column. "
         "The header `spatial NAME: IL {` names the IL; an item the IL does not have yet "
         "(a `place` in an Sdataflow program) is refused with the IL that introduces it."),
    Code("E7002", "an ill-formed spatial program",
         "The program breaks a structural rule its meaning depends on: a stream with other "
         "than one producer and one consumer, a cycle, an undeclared name, a tile that does "
         "not divide its tensor, tokens an op cannot combine, a stage off the mesh, a "
         "buffer with two producing engines, a stage whose operands are of different element "
         "types and that does not say `via T`. Every problem is reported, each naming the "
         "item (an element-wise op's broadcast or a transpose that does not fit is E7005). The "
         "inputs given with --inputs must match the program's input tensors (a "
         "narrow float's may be f32, rounded to it)."),
    Code("E7003", "inconsistent dataflow rates",
         "The balance equations of the graph (for every stream, firings of the producer "
         "times the tokens it puts = firings of the consumer times the tokens it takes) have "
         "no positive solution: along two paths the graph asks one stage to fire at two "
         "different rates, so tokens would pile up on one path and starve on the other. A "
         "tiled access that walks a number of tiles the equations do not allow is refused "
         "too."),
    Code("E7004", "a target that cannot be used",
         "The --target of `nano-vx spatial` names no file in machines/spatial/, or its file "
         "is not a valid target: a missing or unknown field, a non-positive figure, or a "
         "figure without its source in [sources]. The message names the file and the field. "
         "--math-fidelity asks for a fidelity of the target's matrix unit, so a target "
         "without one ([matrix]) refuses it."),
    Code("E7005", "a broadcast or a transpose whose tokens do not fit",
         "An element-wise compute stage (`add`, `sub`, `mul`, `div`) and a scalar stage "
         "combine their operands element by element, broadcasting as numpy does: the shapes "
         "are aligned at their last axis, and along each axis the extents are equal or 1, an "
         "operand of one row ([1, n]) going down every row of the other and one of one "
         "column ([m, 1]) across every column. Two extents that are neither equal nor 1 meet "
         "nowhere: a bias of the wrong width, a row maximum that is a row rather than a "
         "column. A `transpose` swaps the two axes of a matrix, so its tokens are of rank 2. "
         "The message names the stage, the shapes of its tokens and the axis where they "
         "part."),
    Code("E7010", "no tiling fits a site",
         "`tile` found no tile shapes with which every stream's tile, double-buffered, fits "
         "the SRAM of one site of the target. The message gives the bytes the smallest tiles "
         "need, the site's capacity and the largest stream. A graph whose rates or "
         "broadcasts keep whole-tensor tiles needs its whole tensors on one site."),
    Code("E7011", "buffers do not fit a site",
         "`size-buffers` needs, for some site, more SRAM (granule-rounded bytes of every "
         "buffer at its deadlock-free depth) or more buffers than the target gives a site; "
         "or `relay-tokens` does, once it adds the buffers of its relays. "
         "The message names the site, the bytes needed and the capacity, and the largest "
         "buffers with their depths."),
    Code("E7012", "too many semaphores on a site",
         "`synthesize-handshakes` gives every buffer between sites, and every receiver of a "
         "multicast, a credit semaphore on its producer's site and a data semaphore on its "
         "consumer's; some site needs more than the target has. The message names the site "
         "and the count."),
    Code("E7013", "no deadlock-free schedule",
         "`schedule` simulated the engines, each firing one stage at a time, with the "
         "buffers' depths, and some engines can go no further. The message names each stuck "
         "engine, the stage it would fire and what it waits for. `nano-vx spatial` runs the "
         "program as given first (E7021), so this is reported when --no-validate skips that."),
    Code("E7020", "a pass changed what the program means",
         "After each pass of the spatial lane the compiler runs the pass's input and output "
         "on a corpus of inputs (the program's own and random ones) and compares them: the "
         "output must be well formed and finish with the same output tensors (floats within "
         "a relative 1e-4). The message names the pass and how they parted company: an "
         "output that differs (the input, the tensor, the first element, both values), or "
         "one side deadlocking or overflowing. For an integer result, or a deadlock, it is "
         "a bug in the pass. A float result may also differ because tiling reorders "
         "additions: a sum that cancels large terms keeps only their low bits, which "
         "depend on the order; compute it in f64 or without the cancellation."),
    Code("E7021", "the spatial program does not finish",
         "The program as given deadlocks (engines each waiting for another), overflows (a "
         "token put into a slot its producer had not reserved) or underflows (a token read "
         "before it arrived) on one of its inputs, so it has no meaning to preserve. The "
         "message names the engines and the ops they wait at, or the buffer and the step."),
    Code("E7030", "a scheduled program does not fit its target",
         "With --certificate, the compiler places the buffers and semaphores of every site of "
         "the scheduled program in the site's SRAM granules, buffer slots and semaphore slots, "
         "by a SAT solver (docs/certificate.md). A program the lane sized itself always fits "
         "(a site that cannot hold its buffers is E7011, its semaphores E7012); one written "
         "in Schoreographed, with its own depths and bytes, may not. The message names the "
         "site and what it lacks; the certificate written holds the site's CNF and the "
         "solver's refutation of it, which `nano-vx check-certificate` checks."),
    Code("E7060", "a Vx kernel the bridge into the spatial lane does not read",
         "`nano-vx spatial prog.vx` reads one function of the program (--kernel NAME, or the "
         "one with tensor parameters) as a dataflow graph. Its parameters are tensors (inputs) "
         "and `&mut` tensors (outputs) of i32, i64, f32 or f64 with extents known while "
         "compiling; its body is loop nests, `spawn` blocks (an `unroll across`) holding them, "
         "and `let`s of numbers and of tensors made with `::new()`. A nest's innermost body "
         "is an element assignment `OUT[i][j] = ..` (arithmetic over elements read at the same "
         "indices, or at 0 along an axis of extent 1), a matrix product (`acc += A[i][k] * "
         "B[k][j]`) or a sum along an axis (`s += X[i][j]`); loops around it that index no "
         "axis are loops over tiles, whose variables appear only in bounds. The message names "
         "the construct and what was expected there."),
    Code("E7061", "a tensor a Vx kernel's loops do not write exactly once",
         "The bridge makes one stage per tensor the kernel writes, so the pieces that write "
         "a tensor (one per `unroll across` index and per iteration of the loops over tiles) "
         "must compute it the same way and write each of its elements exactly once: the "
         "message names the elements written twice, or how many of the tensor's elements the "
         "loops write, or the tensor read before it is complete, or the output never "
         "written."),
    Code("E7040", "a program lowering cannot take",
         "`--lower` writes source text for a verified choreography only: a Schoreographed "
         "program (the lane run through `schedule`; not one stopped earlier with "
         "--stop-after) that is well formed on its target and finishes on its inputs. The "
         "message says which of these the program is not."),
    Code("E7041", "a construct the backend cannot express",
         "The program holds something the chosen backend has no way to write: for "
         "tenstorrent, a `send` to a buffer on another core (semaphore pairs and the "
         "valid/ready links of a fabric target), 64-bit element types, the narrow formats "
         "(bf16, f16, bfp8, bfp4; cuda refuses them too), an engine other than "
         "reader, compute and writer, more circular buffers or semaphores than a Tensix core "
         "has, a compute schedule that waits on or signals a semaphore or sends or "
         "multicasts (a tt-metal compute kernel has no semaphore or NoC calls; on a target "
         "whose `semaphore_engines` leave compute out the lane relays such tokens); for "
         "cuda, more shared memory or engines than a thread block has; for both, a "
         "token staged (by `read` or `fire`) before its producer holds a slot for it, since "
         "both write tokens in place. The message names the op and the site. Another backend "
         "or target may take the program."),
    Code("E7062", "a spatial program too large to run here",
         "`nano-vx spatial` runs every program it compiles on real inputs: the token "
         "semantics validates each pass, and the report gives the outcome. Its tensors, "
         "inputs and outputs, must therefore fit in memory: at most 64 MiB in all, counted "
         "from their shapes before anything is allocated. The message names the largest "
         "tensor. The lane's decisions (tiles, placement, depths, schedules) are of the same "
         "kind at a smaller size, which is how to check a program shaped like a large one."),
    Code("E7063", "a spatial program that asks for too much work",
         "`nano-vx spatial` runs a spatial program and each pass's output on real tensors, "
         "and rates, loop bounds, repeat counts and extents multiply into the work of one run. "
         "Before anything runs, the work is counted from the text: its steps (each firing and "
         "each token it takes or puts, each op a schedule executes, each point of a tiled "
         "access's loop nest) and its element operations (each tile loaded or stored and each "
         "stage's arithmetic, a matmul one per row, inner and column of each pair of tiles). "
         "At most 500,000 steps and 2^28 (268,435,456) element operations a run are "
         "evaluated, for the program as loaded (by every command that loads one) and for each "
         "pass's output (a pass may cut tokens into many tiles). The message gives both "
         "figures and the stage or engine asking the most. A Vx kernel (`nano-vx spatial "
         "prog.vx`) is also run by the reference interpreter, to check from-vx, at some "
         "microseconds an element operation: its graph may take at most 2^22 (4,194,304) "
         "(--no-validate skips that run). Lower the rates or counts that multiply, or run the "
         "program at a smaller size: the lane's decisions are of the same kind at any size."),
    # -- E8xxx: compile-time evaluation and contracts (verify-contracts) ----------------
    Code("E8001", "a postcondition that does not hold",
         "An `ensures` clause does not follow from the function's `requires` clauses and its "
         "body: z3 found values of the parameters, given in a note, for which the body "
         "returns a result that makes the clause false. Integers wrap at their width as they "
         "do when the program runs, so a clause true of unbounded integers may still be "
         "refused (`return > x` for `x + 1` at x = 2147483647). A call in the body is known "
         "by its callee's contract only, a loop by its invariants: strengthen them, require "
         "more of the caller, or fix the body."),
    Code("E8003", "an index out of range while compiling",
         "A `comptime` block indexes an array or a tensor outside its extent, on a path that "
         "always runs. The message names the index and the extent. The same index at run "
         "time would stop the program (E9003)."),
    Code("E8006", "a precondition not established at a call",
         "A call passes arguments for which the callee's `requires` clause can be false: z3 "
         "found values, given in a note, that reach the call and make the clause false. The "
         "caller must establish it: test it (`if`, `assert`) or require it in its own "
         "contract. `main` has no caller, so its own `requires` must hold by itself. A call "
         "made while compiling (in a `comptime` block) folds away, so its precondition is "
         "checked there, on the values it is called with."),
    Code("E8007", "a loop invariant false on entry",
         "A loop's `invariant` can be false before the first iteration: the note gives "
         "values, on entry to the loop, that make it false. Establish it before the loop, "
         "or weaken it."),
    Code("E8008", "a loop invariant not preserved",
         "An iteration that starts with the `invariant` true (and the loop's condition: in a "
         "`for`, the variable below its end) can end with it false; the note gives the "
         "values at the start of such an iteration. Only the invariants are known of the "
         "variables a loop changes, so an invariant too weak to carry itself across an "
         "iteration is refused here too: strengthen it with what the iteration needs."),
    Code("W8001", "a contract left unverified",
         "verify-contracts encodes integers (wrapping at their width), booleans and floats, "
         "their operators and casts, `if`, loops by their invariants and calls by their "
         "callees' contracts. Anything else (a tensor element, a field, a math built-in, a "
         "variable lent with `&mut`) stands for any value of its type. When a contract's "
         "proof depends on such a value, the contract is neither proved nor refused: this "
         "warning names it and the construct. `--check-contracts` checks it as the program "
         "runs."),
    Code("W8002", "a contract the solver did not decide in time",
         "z3 neither proved nor refuted the contract within `--contract-timeout-ms` "
         "milliseconds (10000 unless given), so it is left unverified. Give the solver more "
         "time, or simplify what it must reason about: a product of two variables, and "
         "float arithmetic, are the usual cost."),
    Code("E8002", "an assertion is false while compiling",
         "An `assert` the compiler decides was false: one in a `comptime` block on a path "
         "that always runs, or an assert over a placement query (`x.topology() == "
         "Some(Topology::GPU)`), which the checker always decides. A true one is removed."),
    Code("E8004", "compile-time evaluation too deeply nested",
         "Evaluating a `comptime` block made more than 256 nested calls. The bound is "
         "counted by the compiler, so unbounded recursion stops here rather than exhausting "
         "the compiler."),
    Code("E8005", "compile-time evaluation ran too long",
         "A `comptime` block took more than 1,000,000 steps in all (steps: loop iterations "
         "and calls; every loop and call of the block and of the functions it calls "
         "counts, so a recursion that branches, shallow as it may be, is bounded too). "
         "Compute less while compiling (an iterative function instead of one that calls "
         "itself twice), or leave the computation to run time."),
    # -- E9xxx: the program stops at run time ------------------------------------------
    Code("E9001", "integer division stopped the program",
         "An integer `/` or `%` had a zero divisor, or divided the minimum value of its type "
         "by -1 (the quotient does not fit). Integer arithmetic otherwise wraps, but these "
         "two stop the program."),
    Code("E9002", "assertion failed",
         "An `assert(cond)` found its condition false while the program ran."),
    Code("E9003", "index out of bounds",
         "A tensor was indexed outside its extent on some dimension. The message names the "
         "index and the extent."),
    Code("E9004", "use of a moved value",
         "A value was read after `transfer` moved it to another memory space; the source is "
         "gone. The checker refuses this statically (E4001) where it sees the move; a "
         "closure that moves what it captures, called twice, stops the run at the second "
         "call's read, in the interpreter and in native code alike."),
    Code("E9005", "read of an uninitialised element",
         "An element of a tensor made with `::uninit()` was read before anything was "
         "written to it."),
    Code("E9006", "the program stopped at run time",
         "A run-time operation that Vx defines as an error, other than the ones with codes "
         "of their own: a call of something that is not a function, a shift by too much, "
         "a tensor too large to address, or a value of the wrong kind reaching an operator."),
    Code("E9007", "a contract is false at run time",
         "With `--check-contracts`, the reference interpreter checks every contract as the "
         "program runs: a `requires` when its function is entered, an `ensures` when it "
         "returns (over the result and the parameters' values on entry), a loop `invariant` "
         "at the start of every iteration. The message names the clause as written. "
         "verify-contracts proves them while compiling, so a program it admits trips none "
         "of them; a clause it could only report as unverified (W8001, W8002) may."),
    # -- traits and Copy (desugar-traits) ------------------------------------------------
    Code("E3031", "`Copy` for a type that holds a tensor",
         "A struct the program implements `Copy` for is copied wherever it is used, so each "
         "of its fields must copy too: a scalar, a reference, an enum, a Copy struct, a "
         "tuple of these. A tensor owns its elements and moves, and so does a struct without "
         "`Copy`; a Copy struct holding one would duplicate what only one owner may hold. "
         "Remove `impl Copy for S {}` (S then moves when passed by value, and `&S` lends "
         "it), or hold the tensor elsewhere. The same holds of an enum whose variant carries "
         "one (an enum is copied unless what it carries moves), and of a generic Copy "
         "struct given a tensor for a field of type T: each literal is judged."),
    Code("E3035", "a function several impl blocks of one type define",
         "A type's functions are called through it, `P::make()`, so each name is defined "
         "once among all its impl blocks: two `impl P` blocks both writing `make`, or two "
         "traits with a method of one name both implemented for P, leave `P::make` meaning "
         "either. The message names the function and the note the other definition; keep "
         "one, or rename one. (One impl block declaring a name twice is E2008.)"),
    Code("E3037", "an impl that does not match its trait",
         "`impl Trait for Type { .. }` writes every method the trait declares without a "
         "default body, and no method the trait does not declare. The message names the "
         "methods missing, or the one the trait lacks. A method of the type's own goes in "
         "`impl Type { .. }`."),
    # -- raw pointers and `unsafe` (check-unsafe, check-calls) ------------------------------
    Code("E5001", "a call of an `unsafe fn` outside `unsafe`",
         "A function declared `unsafe fn` assumes something of its caller that no check "
         "follows (typically that a pointer it takes is valid): its calls stand inside "
         "`unsafe { .. }`, or in the body of another `unsafe fn`, where the caller takes on "
         "what it assumes."),
    Code("E5002", "a read or write through a raw pointer outside `unsafe`",
         "`*p`, `*p = v` and `p[i]` for a raw pointer p (`*const T`, `*mut T`, made by "
         "`t.as_ptr()` or `t.as_mut_ptr()`) touch memory that no check follows: nothing "
         "says p still points into its tensor, or that the index stays inside it. Write them "
         "inside `unsafe { .. }` (an expression: `let v = unsafe { *p };`) or in the body of "
         "an `unsafe fn`. Making a pointer and passing it on are safe."),
    Code("E6029", "a pointer into device memory passed where host memory is wanted",
         "A raw pointer carries the memory space it points into: `t.as_ptr()` points where "
         "t lives. A parameter written `*const T` or `*mut T` points into host memory, so "
         "passing a pointer into a device's memory to it would let the host dereference "
         "memory it cannot reach. Transfer the tensor to host memory first and take the "
         "pointer there."),
]

CODES: dict[str, Code] = {c.code: c for c in _ENTRIES}


def explain(code: str) -> str | None:
    entry = CODES.get(code.upper())
    if entry is None:
        return None
    return f"{entry.code}: {entry.title}\n\n{entry.explanation}\n"
