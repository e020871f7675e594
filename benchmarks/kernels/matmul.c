/* The loops of matmul.vx in C: the same data, the same order of operations, the same
   checksum, printed the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define REPS 2

/* c += a * b, in the i-k-j order whose inner loop runs along rows of b and c. */
static void __attribute__((noinline)) matmul(float (*a)[N], float (*b)[N], float (*c)[N]) {
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < N; k++) {
      float aik = a[i][k];
      for (int j = 0; j < N; j++) {
        c[i][j] = c[i][j] + aik * b[k][j];
      }
    }
  }
}

int main(void) {
  float (*a)[N] = calloc(N, sizeof *a);
  float (*b)[N] = calloc(N, sizeof *b);
  float (*c)[N] = calloc(N, sizeof *c);
  if (!a || !b || !c) {
    return 1;
  }
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      a[i][j] = (float)((i * 7 + j * 3) % 17 - 8);
      b[i][j] = (float)((i * 5 + j * 11) % 13 - 6);
    }
  }
  for (int r = 0; r < REPS; r++) {
    matmul(a, b, c);
  }
  int64_t sum = 0;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      sum += (int64_t)c[i][j] * (int64_t)((i * 31 + j) % 1000);
    }
  }
  printf("%lld\n", (long long)sum);
  return 0;
}
