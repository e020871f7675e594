/* The loops of reduction.vx in C: the same data, the same order of operations, the same
   checksum, printed the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4194304
#define PASSES 150

static int64_t __attribute__((noinline)) total(int64_t *x) {
  int64_t s = 0;
  for (int i = 0; i < N; i++) {
    s += x[i];
  }
  return s;
}

int main(void) {
  int64_t *x = calloc(N, sizeof *x);
  if (!x) {
    return 1;
  }
  for (int i = 0; i < N; i++) {
    x[i] = (int64_t)((i % 1000) * 7919 % 2003 - 1000);
  }
  int64_t checksum = 0;
  for (int p = 0; p < PASSES; p++) {
    checksum += total(x);
    x[p] = x[p] + 1; /* each pass sums other data: no pass can be skipped */
  }
  printf("%lld\n", (long long)checksum);
  return 0;
}
