/* The loops of particles.vx in C: the same data, the same order of operations, the same
   checksum, printed the same way; a particle is a struct passed and returned by value. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 262144
#define STEPS 2000

typedef struct { double x, y, vx, vy; } Particle;

static Particle step(Particle p, double dt) {
  double vy = p.vy - 9.81 * dt;
  double y = p.y + vy * dt;
  if (y < 0.0) {
    y = -y;
    vy = -0.9 * vy;
  }
  Particle q = {p.x + p.vx * dt, y, p.vx, vy};
  return q;
}

/* One step of every particle. */
static void __attribute__((noinline)) advance(double *px, double *py, double *vx, double *vy) {
  for (int i = 0; i < N; i++) {
    Particle p = step((Particle){px[i], py[i], vx[i], vy[i]}, 0.01);
    px[i] = p.x;
    py[i] = p.y;
    vx[i] = p.vx;
    vy[i] = p.vy;
  }
}

int main(void) {
  double *px = calloc(N, sizeof *px), *py = calloc(N, sizeof *py);
  double *vx = calloc(N, sizeof *vx), *vy = calloc(N, sizeof *vy);
  if (!px || !py || !vx || !vy) {
    return 1;
  }
  for (int i = 0; i < N; i++) {
    px[i] = (double)(i % 1000);
    py[i] = (double)(i % 97) + 1.0;
    vx[i] = (double)(i % 13 - 6);
    vy[i] = (double)(i % 7 - 3);
  }
  for (int s = 0; s < STEPS; s++) {
    advance(px, py, vx, vy);
  }
  int64_t sum = 0;
  for (int i = 0; i < N; i++) {
    sum += (int64_t)((px[i] + 3.0 * py[i]) * 1000.0) + (int64_t)((vx[i] + vy[i]) * 100.0);
  }
  printf("%lld\n", (long long)sum);
  return 0;
}
