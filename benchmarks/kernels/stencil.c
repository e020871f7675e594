/* The loops of stencil.vx in C: the same data, the same order of operations, the same
   checksum, printed the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define ROUNDS 200

/* One Jacobi sweep of the 5-point stencil: each interior point of dst becomes the mean of
   the point and its four neighbours in src; the border stays as it is. */
static void __attribute__((noinline)) sweep(double (*src)[N], double (*dst)[N]) {
  for (int i = 1; i < N - 1; i++) {
    for (int j = 1; j < N - 1; j++) {
      dst[i][j] = 0.2 * (src[i][j] + src[i - 1][j] + src[i + 1][j] + src[i][j - 1]
                         + src[i][j + 1]);
    }
  }
}

int main(void) {
  double (*a)[N] = calloc(N, sizeof *a);
  double (*b)[N] = calloc(N, sizeof *b);
  if (!a || !b) {
    return 1;
  }
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      double v = (double)((i * 37 + j * 91) % 256);
      a[i][j] = v;
      b[i][j] = v;
    }
  }
  for (int r = 0; r < ROUNDS; r++) { /* two sweeps a round: a to b, then b back to a */
    sweep(a, b);
    sweep(b, a);
  }
  int64_t sum = 0;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      sum += (int64_t)(a[i][j] * 1000.0) * (int64_t)((i + j) % 8 + 1);
    }
  }
  printf("%lld\n", (long long)sum);
  return 0;
}
