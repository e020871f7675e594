"""The narrow floats of tensors' elements (f8e4m3, f8e5m2, f4e2m1) converted to and from f32 in
integer operations, as ml_dtypes converts them (values/narrow.py): no target has instructions
for them that every CPU shares, and LLVM has no such types at all.

Native code stores such an element in a byte of its tensor's buffer (an f4e2m1 in the low
four bits of one) and reads it through `arith.extf` from its MLIR type (f8E4M3FN, f8E5M2,
f4E2M1FN) to f32, writes it through `arith.truncf` from f32; narrow_in_integers rewrites each
of those into the integer operations below before the MLIR is lowered.

Writing rounds to nearest, ties to even, subnormals included; a magnitude past the largest
finite value (infinity too) becomes NaN in f8e4m3 (which has no infinity), infinity in f8e5m2,
and the largest finite value in f4e2m1 (which has neither); a NaN becomes the format's NaN
(f4e2m1 has none: ml_dtypes writes it as a zero whose sign is the NaN's flipped). Reading is
exact; a NaN reads as f32's quiet NaN of the same sign.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import BackendBug


@dataclass(frozen=True)
class Format:
    exponent: int  # bits
    mantissa: int  # bits
    bias: int
    largest: int  # the magnitude bits of the largest finite value
    overflow: int  # the magnitude bits a value past it becomes
    nan: int  # the bits a positive NaN becomes, xor-ed with the sign bit for a negative one
    specials: str  # "nan": the top pattern is NaN; "ieee": the top exponent is inf and NaN

    @property
    def bits(self) -> int:
        return 1 + self.exponent + self.mantissa


FORMATS = {
    "f8E4M3FN": Format(4, 3, 7, 0x7E, 0x7F, 0x7F, "nan"),
    "f8E5M2": Format(5, 2, 15, 0x7B, 0x7C, 0x7E, "ieee"),
    "f4E2M1FN": Format(2, 1, 1, 0x7, 0x7, 0x8, ""),
}


def narrow_in_integers(conversions) -> None:
    """Rewrite each of the ops `conversions` (arith.extf and arith.truncf) that converts from
    a narrow float or to one."""
    from mlir import ir

    for op in conversions:
        source, result = op.operands[0], op.results[0]
        narrow = str(source.type if op.operation.name == "arith.extf" else result.type)
        if narrow not in FORMATS:
            continue
        wide = result.type if op.operation.name == "arith.extf" else source.type
        if not isinstance(wide, ir.F32Type):
            raise BackendBug(f"a conversion between {narrow} and {wide}: only f32 converts")
        with ir.InsertionPoint(op), op.location:
            if op.operation.name == "arith.extf":
                value = _widen(source, FORMATS[narrow])
            else:
                value = _round(source, FORMATS[narrow], result.type)
        result.replace_all_uses_with(value)
        op.erase()


def _widen(value, f: Format):
    from mlir import ir
    from mlir.dialects import arith

    i32, f32 = ir.IntegerType.get_signless(32), ir.F32Type.get()

    def c(v):
        return arith.constant(i32, v)

    def eq(a, b):
        return arith.cmpi(arith.CmpIPredicate.eq, a, b)

    small = arith.bitcast(ir.IntegerType.get_signless(f.bits), value)
    b = arith.extui(i32, small)
    sign = arith.shli(arith.shrui(b, c(f.bits - 1)), c(31))
    field = arith.andi(arith.shrui(b, c(f.mantissa)), c((1 << f.exponent) - 1))
    mant = arith.andi(b, c((1 << f.mantissa) - 1))
    mant_bits = arith.shli(mant, c(23 - f.mantissa))
    normal = arith.ori(arith.shli(arith.addi(field, c(127 - f.bias)), c(23)), mant_bits)
    # zero or subnormal: mant * 2^(1 - bias - mantissa), exact in f32
    scale = arith.constant(f32, 2.0 ** (1 - f.bias - f.mantissa))
    tiny = arith.bitcast(i32, arith.mulf(arith.uitofp(f32, mant), scale))
    body = arith.select(eq(field, c(0)), tiny, normal)
    top = (1 << f.exponent) - 1
    if f.specials == "nan":
        body = arith.select(eq(arith.andi(b, c((1 << (f.bits - 1)) - 1)), c(f.overflow)),
                            c(0x7FC00000), body)
    elif f.specials == "ieee":
        special = arith.select(eq(mant, c(0)), c(0x7F800000), c(0x7FC00000))
        body = arith.select(eq(field, c(top)), special, body)
    return arith.bitcast(f32, arith.ori(sign, body))


def _round(value, f: Format, narrow_type):
    from mlir import ir
    from mlir.dialects import arith

    i32 = ir.IntegerType.get_signless(32)

    def c(v):
        return arith.constant(i32, v)

    def cmp(pred, a, b):
        return arith.cmpi(getattr(arith.CmpIPredicate, pred), a, b)

    bits = arith.bitcast(i32, value)
    sign = arith.shli(arith.shrui(bits, c(31)), c(f.bits - 1))
    magnitude = arith.andi(bits, c(0x7FFFFFFF))
    exp = arith.shrui(magnitude, c(23))
    # An f32 subnormal has the exponent of the smallest normal and no implicit bit.
    e = arith.subi(arith.maxui(exp, c(1)), c(127))
    implicit = arith.select(cmp("eq", exp, c(0)), c(0), c(1 << 23))
    sig = arith.ori(arith.andi(magnitude, c(0x7FFFFF)), implicit)
    # The significand shifted right to the format's precision: 23 - mantissa bits for a
    # normal result, one more per exponent below the smallest normal's; past 31 the value
    # rounds to zero all the same (sig < 2^24 is below half of 2^31).
    extra = arith.maxsi(arith.subi(c(1 - f.bias), e), c(0))
    shift = arith.minsi(arith.addi(extra, c(23 - f.mantissa)), c(31))
    q = arith.shrui(sig, shift)
    unit = arith.shli(c(1), shift)
    rest = arith.andi(sig, arith.subi(unit, c(1)))
    halfway = arith.shrui(unit, c(1))
    odd = cmp("ne", arith.andi(q, c(1)), c(0))
    up = arith.ori(cmp("ugt", rest, halfway),
                   arith.andi(cmp("eq", rest, halfway), odd))
    rounded = arith.addi(q, arith.extui(i32, up))
    # The exponent field less one, plus the significand with its implicit bit: a carry out
    # of the significand moves the exponent (into the overflow at the top).
    field = arith.maxsi(arith.addi(e, c(f.bias - 1)), c(0))
    result = arith.addi(arith.shli(field, c(f.mantissa)), rounded)
    result = arith.select(cmp("ugt", result, c(f.largest)), c(f.overflow), result)
    result = arith.ori(sign, result)
    nan = cmp("ugt", magnitude, c(0x7F800000))
    result = arith.select(nan, arith.xori(sign, c(f.nan)), result)
    small = arith.trunci(ir.IntegerType.get_signless(f.bits), result)
    return arith.bitcast(narrow_type, small)
