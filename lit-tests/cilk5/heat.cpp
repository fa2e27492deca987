// Cilk-5 style heat: explicit time stepping of the 2-D heat equation on an
// nx x ny grid held, as in Cilk-5's heat.cilk, as an array of row pointers.
// Each step updates the interior by recursive space decomposition: a block
// is split along its longer side and both halves are spawned, down to small
// tiles; the step syncs, then the two grids swap. The boundary is fixed
// (one hot edge), the initial state a hot square. Checked against the same
// stencil run by a plain serial loop: every cell within 1e-9, and the
// boundary unchanged.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 200 150 100 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 130 97 60
// CHECK: heat 200x150 steps=100 ok
#include <cilk/cilk.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

// Tiles with at most this many cells are updated by a loop.
enum { TILE = 256 };
constexpr double DT_OVER_H2 = 0.2; // stable: below 1/4

using Grid = double **;

static double update(Grid old, long i, long j) {
  double lap = old[i - 1][j] + old[i + 1][j] + old[i][j - 1] + old[i][j + 1] - 4 * old[i][j];
  return old[i][j] + DT_OVER_H2 * lap;
}

// New values for rows [x0, x1) and columns [y0, y1) of the interior.
static void heat_block(Grid old, Grid next, long x0, long x1, long y0, long y1) {
  if ((x1 - x0) * (y1 - y0) <= TILE) {
    for (long i = x0; i < x1; ++i)
      for (long j = y0; j < y1; ++j)
        next[i][j] = update(old, i, j);
    return;
  }
  if (x1 - x0 >= y1 - y0) {
    long xm = x0 + (x1 - x0) / 2;
    cilk_spawn heat_block(old, next, x0, xm, y0, y1);
    heat_block(old, next, xm, x1, y0, y1);
  } else {
    long ym = y0 + (y1 - y0) / 2;
    cilk_spawn heat_block(old, next, x0, x1, y0, ym);
    heat_block(old, next, x0, x1, ym, y1);
  }
  cilk_sync;
}

// A grid of nx rows of ny cells: row pointers into one block.
struct Plate {
  std::vector<double> cells;
  std::vector<double *> rows;
  Plate(long nx, long ny) : cells(nx * ny), rows(nx) {
    for (long i = 0; i < nx; ++i)
      rows[i] = &cells[i * ny];
  }
  Grid grid() { return rows.data(); }
};

static void initialize(Grid g, long nx, long ny) {
  cilk_for (long i = 0; i < nx; ++i)
    for (long j = 0; j < ny; ++j) {
      bool hot_square = i > nx / 4 && i < nx / 2 && j > ny / 4 && j < ny / 2;
      g[i][j] = i == 0 ? 100.0 : hot_square ? 50.0 : 0.0;
    }
}

int main(int argc, char **argv) {
  long nx = argc > 3 ? std::atol(argv[1]) : 64;
  long ny = argc > 3 ? std::atol(argv[2]) : 64;
  long nt = argc > 3 ? std::atol(argv[3]) : 10;
  if (nx < 3 || ny < 3 || nt < 0 || nx > 4096 || ny > 4096 || nt > 100000) {
    std::fprintf(stderr, "usage: heat NX NY STEPS\n");
    return 2;
  }
  Plate a(nx, ny), b(nx, ny);
  initialize(a.grid(), nx, ny);
  initialize(b.grid(), nx, ny); // the boundary of both grids
  Grid old = a.grid(), next = b.grid();
  for (long t = 0; t < nt; ++t) {
    heat_block(old, next, 1, nx - 1, 1, ny - 1);
    std::swap(old, next);
  }

  Plate ra(nx, ny), rb(nx, ny);
  initialize(ra.grid(), nx, ny);
  initialize(rb.grid(), nx, ny);
  Grid rold = ra.grid(), rnext = rb.grid();
  for (long t = 0; t < nt; ++t) {
    for (long i = 1; i < nx - 1; ++i)
      for (long j = 1; j < ny - 1; ++j)
        rnext[i][j] = update(rold, i, j);
    std::swap(rold, rnext);
  }

  bool ok = true;
  for (long i = 0; i < nx; ++i)
    for (long j = 0; j < ny; ++j) {
      ok &= std::fabs(old[i][j] - rold[i][j]) <= 1e-9;
      if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1)
        ok &= old[i][j] == (i == 0 ? 100.0 : 0.0);
    }
  std::printf("heat %ldx%ld steps=%ld %s\n", nx, ny, nt, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
