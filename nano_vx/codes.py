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
    # -- E2xxx: names ----------------------------------------------------------------------
    Code("E2001", "undefined name",
         "A name is used where no variable, parameter, function, constant or declaration of "
         "that name is in scope. Names are visible from their `let` to the end of the "
         "enclosing block; functions and declared items are visible everywhere."),
    Code("E2002", "no main function",
         "The program is to be run, but it declares no `fn main`. Write `fn main() { ... }` "
         "or `fn main() -> i32 { ... return 0; }`."),
    Code("E2003", "name declared twice",
         "Two items (functions, constants, structs, memory spaces or topologies) of one "
         "program share a name. Rename one of them."),
    # -- E3xxx: desugaring -----------------------------------------------------------------
    Code("E3040", "`unroll across` needs constant bounds",
         "`unroll across(Topology::X[a..b])` is replaced by one `spawn on` per index while "
         "compiling, so `a` and `b` must be integer constants (literals, constant items, or "
         "arithmetic on them), with a <= b. Use a `for` loop with `spawn on` for bounds known "
         "only at run time."),
    Code("E3041", "`unroll across` range too large",
         "`unroll across` copies its body once per index while compiling, so a range of "
         "more than 4096 indices is refused rather than letting the program grow without "
         "bound. Nested unrolls multiply: a body is copied once per index of its own range "
         "times the indices of every `unroll across` around it, and more than 4096 copies in "
         "all is refused too. Use a `for` loop with `spawn on` for a range that large."),
    Code("E3001", "an integer literal out of range for its type",
         "An unsuffixed integer literal takes the type its context fixes, as in Rust: a "
         "`let`'s type, the variable an assignment writes, a parameter, the function's "
         "result, a tensor's element type, the other operand of arithmetic or of a "
         "comparison, and i32 where nothing fixes one (`print(2147483648)`). A literal that "
         "type cannot hold is refused rather than wrapped (`let x: u8 = 260;` would be 4). "
         "`-N` is the one literal -N, so `let m: i8 = -128;` fits. The message names the "
         "literal, the type and its range; write a type that holds the value, or a cast "
         "(`300 as u8` converts, on purpose)."),
    Code("E3003", "a call that does not match its function",
         "A call passes a different number of arguments than the function has parameters, "
         "an argument of another type than its parameter (another scalar type, or a tensor "
         "with another element type, other extents or another memory space: the space is "
         "part of the type), or binds the result of a function that returns nothing. The "
         "message names both types. An unsuffixed literal fits any integer or float type."),
    Code("E3020", "a `match` that misses a variant",
         "`x.try_pin(Topology::X)` gives `Available(p)` when a unit of X was free to pin (p "
         "is the value pinned on it, held until the arm ends) and `Saturated(v)` when every "
         "unit was taken (v is the value, not pinned). Which one comes back depends on what "
         "else holds X while the program runs, so a `match` on it needs an arm for each. The "
         "message names the arm that is missing; add it, even if all it does is report."),
    Code("E3032", "runaway instantiation of a generic function",
         "monomorphize makes one instance of a generic function per distinct list of "
         "generic arguments. When an instance calls its generic with new arguments each time "
         "(`f<N + 1>` inside `f<N>`: polymorphic recursion), instances never stop coming, so "
         "the compiler stops after 64 generic calls deep along one chain, or 4096 instances "
         "in all, and names the chain. A run-time `if` does not stop it; an `if comptime` "
         "does, since the branch it does not take asks for no instance. Or make the "
         "recursion call the same instance, or pass the changing value as an ordinary "
         "argument."),
    Code("E3046", "a const dimension bound twice to different extents",
         "A `const` generic used as a tensor extent (`fn scores<const S: i32>(q: "
         "Tensor<f32, [S]>, k: Tensor<f32, [S]>)`) states that the arguments agree there. S "
         "binds once, from the first argument that names it (on any axis) or from `f<4>`; "
         "every later argument must have the same extent. The message names the parameter, "
         "the extent it is bound to and by which argument, and the argument that differs."),
    Code("E3047", "a generic argument that cannot be worked out or does not fit",
         "Each generic parameter of a called function must be given (`f<4>(x)`, "
         "`f<i32>(y)`, `f<Topology::GPU>(p)`) or deducible from an argument's type (a type "
         "from the argument in its place, a topology from `Pinned<_, Topology::A>`, a const "
         "from a tensor extent). "
         "Refused: a parameter nothing gives, more generic arguments than parameters, a type "
         "where a const is expected (or the reverse), generic arguments to a function that "
         "is not generic, and an instance whose const arithmetic (`[N - 4]`) makes an extent "
         "zero, negative, or a division by zero."),
    Code("E3033", "a `comptime` block that does not fold",
         "A `comptime` block is run while compiling and replaced by its value (or removed, "
         "in statement position), so it must run to the end and leave nothing behind. The "
         "message says which rule it broke: it cannot be finished while compiling (it "
         "prints, spawns, transfers, or leaves through `return`); it writes to a variable "
         "declared outside it (named); it holds a check, an `assert` or an integer `/` or "
         "`%`, that the compiler cannot show to pass (one on a path taken only for some "
         "run-time values, or one depending on a run-time value); or its value depends on "
         "a value known only at run time (named) or on an integer result outside its type. "
         "Reading a run-time value is allowed when nothing the block produces depends on it."),
    Code("E3034", "a `comptime` block inside another",
         "The outer block already runs while compiling, so the inner `comptime` asks for "
         "nothing more: remove it. A lambda whose body is a `comptime` block, written "
         "inside a block, is a function of its own and not a nested block."),
    Code("E3035", "a call of a comptime lambda that cannot fold",
         "A lambda whose body is a `comptime` block (`|x: i32| comptime { .. }`) runs while "
         "compiling: every call is replaced by its value, and the lambda then disappears. A "
         "call whose arguments are not all known while compiling has no value to be "
         "replaced by, and there is no falling back to a run-time call. The lambda must be "
         "bound with `let` and only called, not passed around as a value."),
    # -- E4xxx: ownership ----------------------------------------------------------------
    Code("E4001", "use of a value after `transfer` moved it",
         "`transfer(x, M)` consumes a uniquely owned local: the data leaves x's space, and x "
         "may not be used again. A move on one branch of an `if` counts after the `if`, and a "
         "move inside a loop of a variable declared outside it is a use on the next "
         "iteration. Use the transferred value under its new name, or assign x a new value "
         "first (`x = ...`)."),
    # -- E5xxx: native code (the back end's passes) ------------------------------------
    Code("E5001", "native code does not lower this construct",
         "The program is correct, but the back end (type-scalars and the passes after it) "
         "does not turn this construct into native code yet: a `match` on a hardware state and "
         "the `try_pin` that makes it, a topology or memory space used as a value, struct "
         "fields, differentiation, a closure used other than by calling it. `--action "
         "emit-mlir` and `emit-llvm` stop here; `--action interpret` runs the program in the "
         "reference interpreter, and the default action does so too, after warning W5001."),
    Code("W5001", "run in the reference interpreter instead of native code",
         "The program is run (the default action) but native code does not lower one of its "
         "constructs (E5001 names it): nano-vx runs it in the reference interpreter, which "
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
         "A transfer moves a value to or from `CPU_DRAM` while a machine model is in force "
         "(a `--machine` file or a space declared `scope: device`), and no input declares "
         "`CPU_DRAM`. A machine file describes the accelerator, not the computer it hangs "
         "off, so no host memory is assumed: pass `--host default` (or `--host FILE`)."),
    Code("E6015", "malformed memory or topology declaration",
         "A field of a `Memory` or `Topology` declaration is not one the compiler knows, is "
         "given twice, or has a value of the wrong kind (a size where a bandwidth belongs, "
         "an unknown scope or architecture, a fractional byte count), or a required field "
         "(a topology's `memory:`) is missing. The message names the field and what it "
         "accepts. A `--machine` or `--host` file that holds anything but Memory and "
         "Topology declarations is refused with this code too."),
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
         "memory that topology holds, or on the device by name, with another element type. "
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
    Code("E6030", "an unmet `where Reachable<A, B>` at a call",
         "`where Reachable<A, B>` on a generic function states that data can get from the "
         "memory topology A holds to the memory B holds, along the declared transfer graph "
         "(the routing transfers use). The clause is discharged at every call, for the "
         "topologies the call binds A and B to. The message names the clause as written, "
         "the callee, and the two topologies with no path between their spaces; the "
         "clauses that hold are not reported. Declare a transfer edge, or call the function "
         "with devices that can reach each other."),
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
         "buffer with two producing engines. Every problem is reported, each naming the "
         "item. The inputs given with --inputs must match the program's input tensors."),
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
         "figure without its source in [sources]. The message names the file and the field."),
    Code("E7010", "no tiling fits a site",
         "`tile` found no tile shapes with which every stream's tile, double-buffered, fits "
         "the SRAM of one site of the target. The message gives the bytes the smallest tiles "
         "need, the site's capacity and the largest stream. A graph whose rates or "
         "broadcasts keep whole-tensor tiles needs its whole tensors on one site."),
    Code("E7011", "buffers do not fit a site",
         "`size-buffers` needs, for some site, more SRAM (granule-rounded bytes of every "
         "buffer at its deadlock-free depth) or more buffers than the target gives a site. "
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
    # -- E8xxx: compile-time evaluation --------------------------------------------------
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
         "gone. The checker refuses this statically (E4001) once linearity checking is on; "
         "the reference interpreter stops on it regardless."),
    Code("E9005", "read of an uninitialised element",
         "An element of a tensor made with `::uninit()` was read before anything was "
         "written to it."),
    Code("E9006", "the program stopped at run time",
         "A run-time operation that Vx defines as an error, other than the ones with codes "
         "of their own: a call of something that is not a function, a shift by too much, "
         "a tensor too large to address, or a value of the wrong kind reaching an operator."),
]

CODES: dict[str, Code] = {c.code: c for c in _ENTRIES}


def explain(code: str) -> str | None:
    entry = CODES.get(code.upper())
    if entry is None:
        return None
    return f"{entry.code}: {entry.title}\n\n{entry.explanation}\n"
