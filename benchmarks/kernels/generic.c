/* The loops of generic.vx in C: one function per type, as the Vx instances are; the same
   data, the same order of operations, the same checksum, printed the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1048576
#define ROUNDS 150

static void __attribute__((noinline)) axpy_f64(double a, const double *x, double *y) {
  for (int i = 0; i < N; i++) {
    y[i] = a * x[i] + y[i];
  }
}

static void __attribute__((noinline)) axpy_i64(int64_t a, const int64_t *x, int64_t *y) {
  for (int i = 0; i < N; i++) {
    y[i] = a * x[i] + y[i];
  }
}

static double __attribute__((noinline)) total_f64(const double *x, double zero) {
  double s = zero;
  for (int i = 0; i < N; i++) {
    s = s + x[i];
  }
  return s;
}

static int64_t __attribute__((noinline)) total_i64(const int64_t *x, int64_t zero) {
  int64_t s = zero;
  for (int i = 0; i < N; i++) {
    s = s + x[i];
  }
  return s;
}

int main(void) {
  double *xf = calloc(N, sizeof *xf), *yf = calloc(N, sizeof *yf);
  int64_t *xi = calloc(N, sizeof *xi), *yi = calloc(N, sizeof *yi);
  if (!xf || !yf || !xi || !yi) {
    return 1;
  }
  for (int i = 0; i < N; i++) {
    xf[i] = (double)(i % 100 - 50) * 0.001;
    xi[i] = (int64_t)(i % 100 - 50);
  }
  int64_t checksum = 0;
  for (int r = 0; r < ROUNDS; r++) {
    axpy_f64(0.5, xf, yf);
    axpy_i64(3, xi, yi);
    checksum += (int64_t)(total_f64(yf, 0.0) * 10.0) + total_i64(yi, 0) % 1000003;
  }
  printf("%lld\n", (long long)checksum);
  return 0;
}
