/* The loops of closure.vx in C: the closure a function taking what it captures; the same
   data, the same order of operations, the same checksum, printed the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1048576
#define ROUNDS 800

static double poly(double a, double b, double v) {
  return (a * v + b) * v - 0.5;
}

int main(void) {
  double *x = calloc(N, sizeof *x), *y = calloc(N, sizeof *y);
  if (!x || !y) {
    return 1;
  }
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 2000 - 1000) * 0.001;
  }
  int64_t sum = 0;
  for (int r = 0; r < ROUNDS; r++) {
    double a = 0.25 + (double)(r % 5) * 0.125;
    double b = 1.0 - (double)(r % 3) * 0.5;
    for (int i = 0; i < N; i++) {
      y[i] = y[i] * 0.5 + poly(a, b, x[i]);
    }
    sum += (int64_t)(y[r] * 1000.0);
  }
  for (int i = 0; i < N; i++) {
    sum += (int64_t)(y[i] * 1000.0) * (int64_t)(i % 8 + 1);
  }
  printf("%lld\n", (long long)sum);
  return 0;
}
