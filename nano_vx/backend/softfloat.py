"""The conversions LLVM's x86 code generator calls out for instead of inlining, defined in
LLVM IR and linked into every program, so that no run depends on which libgcc the host has
(GCC 12's has no bf16 routines; an unresolved one is a null call in MCJIT's code).

  __truncdfhf2  f64 -> f16, rounded once, to nearest even
  __truncsfhf2  f32 -> f16 (through f64, which holds the f32 exactly)
  __extendhfsf2 f16 -> f32 (exact)
  __truncsfbf2  f32 -> bf16, to nearest even
  __truncdfbf2  f64 -> bf16 through f32, as the interpreter's bf16 rounding goes

Their bodies use integer operations and conversions between f32 and f64 only: a conversion
to or from f16 or bf16 here would be a call of the routine being defined.
"""

from __future__ import annotations

SOFTFLOAT_IR = r"""
define half @__truncdfhf2(double %x) {
entry:
  %b = bitcast double %x to i64
  %top = lshr i64 %b, 48
  %top16 = trunc i64 %top to i16
  %sign = and i16 %top16, -32768
  %ex = lshr i64 %b, 52
  %exp = and i64 %ex, 2047
  %mant = and i64 %b, 4503599627370495
  %special = icmp eq i64 %exp, 2047
  br i1 %special, label %nan_or_inf, label %finite

nan_or_inf:
  %isnan = icmp ne i64 %mant, 0
  %pattern = select i1 %isnan, i16 32256, i16 31744
  %special_bits = or i16 %sign, %pattern
  %special_half = bitcast i16 %special_bits to half
  ret half %special_half

finite:
  %e = sub i64 %exp, 1023
  %overflows = icmp sgt i64 %e, 15
  br i1 %overflows, label %infinity, label %round

infinity:
  %inf_bits = or i16 %sign, 31744
  %inf_half = bitcast i16 %inf_bits to half
  ret half %inf_half

round:
  ; The significand with its implicit bit (an f64 zero or subnormal is far below half's
  ; smallest subnormal and rounds to zero all the same), shifted right to half's precision:
  ; 42 bits for a normal half, one more per exponent below -14, at most 63.
  %sig = or i64 %mant, 4503599627370496
  %below = sub i64 -14, %e
  %is_normal = icmp slt i64 %below, 0
  %extra = select i1 %is_normal, i64 0, i64 %below
  %shift_wide = add i64 %extra, 42
  %too_far = icmp ugt i64 %shift_wide, 63
  %shift = select i1 %too_far, i64 63, i64 %shift_wide
  %q = lshr i64 %sig, %shift
  %unit = shl i64 1, %shift
  %mask = sub i64 %unit, 1
  %rest = and i64 %sig, %mask
  %shift_less = sub i64 %shift, 1
  %halfway = shl i64 1, %shift_less
  %above = icmp ugt i64 %rest, %halfway
  %tie = icmp eq i64 %rest, %halfway
  %odd = trunc i64 %q to i1
  %tie_up = and i1 %tie, %odd
  %up = or i1 %above, %tie_up
  %up64 = zext i1 %up to i64
  %rounded = add i64 %q, %up64
  ; A normal half: the exponent field less one, plus the significand with its implicit
  ; bit, so that a carry out of the significand (or into infinity) moves the exponent.
  %e14 = add i64 %e, 14
  %subnormal = icmp slt i64 %e14, 0
  %field = select i1 %subnormal, i64 0, i64 %e14
  %field_bits = shl i64 %field, 10
  %magnitude = add i64 %field_bits, %rounded
  %magnitude16 = trunc i64 %magnitude to i16
  %bits = or i16 %sign, %magnitude16
  %result = bitcast i16 %bits to half
  ret half %result
}

define half @__truncsfhf2(float %x) {
  %wide = fpext float %x to double
  %result = call half @__truncdfhf2(double %wide)
  ret half %result
}

define float @__extendhfsf2(half %x) {
  %h = bitcast half %x to i16
  %w = zext i16 %h to i32
  %sign16 = and i32 %w, 32768
  %sign = shl i32 %sign16, 16
  %ex = lshr i32 %w, 10
  %exp = and i32 %ex, 31
  %mant = and i32 %w, 1023
  %mant_bits = shl i32 %mant, 13
  ; infinity or NaN (payload kept)
  %special_body = or i32 %mant_bits, 2139095040
  ; normal: the exponent rebiased from 15 to 127
  %rebiased = add i32 %exp, 112
  %exp_bits = shl i32 %rebiased, 23
  %normal_body = or i32 %exp_bits, %mant_bits
  ; zero or subnormal: mant * 2^-24, exact in f32
  %mant_float = uitofp i32 %mant to float
  %tiny = fmul float %mant_float, 0x3E70000000000000
  %tiny_body = bitcast float %tiny to i32
  %is_special = icmp eq i32 %exp, 31
  %is_tiny = icmp eq i32 %exp, 0
  %finite_body = select i1 %is_tiny, i32 %tiny_body, i32 %normal_body
  %body = select i1 %is_special, i32 %special_body, i32 %finite_body
  %bits = or i32 %sign, %body
  %result = bitcast i32 %bits to float
  ret float %result
}

define bfloat @__truncsfbf2(float %x) {
  %b = bitcast float %x to i32
  %magnitude = and i32 %b, 2147483647
  %isnan = icmp ugt i32 %magnitude, 2139095040
  %low = lshr i32 %b, 16
  %odd = and i32 %low, 1
  %bias = add i32 %odd, 32767
  %rounded = add i32 %b, %bias
  %quiet = or i32 %b, 4194304
  %pick = select i1 %isnan, i32 %quiet, i32 %rounded
  %high = lshr i32 %pick, 16
  %bits = trunc i32 %high to i16
  %result = bitcast i16 %bits to bfloat
  ret bfloat %result
}

define bfloat @__truncdfbf2(double %x) {
  %narrow = fptrunc double %x to float
  %result = call bfloat @__truncsfbf2(float %narrow)
  ret bfloat %result
}
"""


def link_softfloat(module, llvm) -> None:
    """Link the routines into an llvmlite module (after its optimization: the code
    generator, not the optimizer, is what calls them)."""
    routines = llvm.parse_assembly(SOFTFLOAT_IR)
    routines.triple = module.triple
    routines.data_layout = module.data_layout
    module.link_in(routines)
