/* The loops of dispatch.vx in C: the enum a tagged struct, its match a switch; the same data,
   the same order of operations, the same checksum, printed the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1048576
#define ROUNDS 500

typedef struct {
  int tag; /* 0 Scale(a), 1 Shift(a), 2 Clamp(a, b) */
  double a, b;
} Op;

static Op op_of(int code, double k) {
  if (code == 0) {
    return (Op){0, k, 0.0};
  } else if (code == 1) {
    return (Op){1, k, 0.0};
  }
  return (Op){2, -k, k};
}

static double apply(Op op, double v) {
  switch (op.tag) {
  case 0:
    return v * op.a;
  case 1:
    return v + op.a;
  default:
    return v < op.a ? op.a : v > op.b ? op.b : v;
  }
}

/* One round: every element through its operation. */
static void __attribute__((noinline)) round_all(const int32_t *codes, double *x, double k) {
  for (int i = 0; i < N; i++) {
    x[i] = apply(op_of(codes[i], k), x[i]);
  }
}

int main(void) {
  int32_t *codes = calloc(N, sizeof *codes);
  double *x = calloc(N, sizeof *x);
  if (!codes || !x) {
    return 1;
  }
  for (int i = 0; i < N; i++) {
    codes[i] = (i * 7 + i / 3) % 3;
    x[i] = (double)(i % 200 - 100);
  }
  for (int r = 0; r < ROUNDS; r++) {
    round_all(codes, x, 0.5 + (double)(r % 4) * 0.25);
  }
  int64_t sum = 0;
  for (int i = 0; i < N; i++) {
    sum += (int64_t)(x[i] * 1000.0) * (int64_t)(i % 8 + 1);
  }
  printf("%lld\n", (long long)sum);
  return 0;
}
