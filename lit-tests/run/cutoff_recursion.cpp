// Verify, against the serial elision, spawning functions that spawn above a
// cutoff and call both halves in turn below it, so that most of their calls
// take a path that never spawns (the shape of parlaylib's par_do_if). On
// that path the fast clone takes its arguments from registers rather than
// from the frame slots they are spilled to on the spawning path, and
// neither stores nor initialises the frame (plugin/finish/SinkFrameInit.cpp);
// its calls propagate exceptions without the frame's catch and rethrow
// (RethrowExits.cpp). Covered: a void function that works after both halves
// with its arguments, one that returns a value, one whose spilled value is
// changed in a loop around its spawns (two stores to one slot), one that
// spawns in a loop with the cutoff inside it, and exceptions thrown below
// and above the cutoff, caught by the caller.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 200000
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 20000
#include <cilk/cilk.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

// Each node links to the larger of its two middles, as a Cartesian tree's
// merge would.
static void link(const long *V, long *P, long s, long e) {
  if (e - s < 2)
    return;
  long mid = s + (e - s) / 2;
  if (e - s > 64) {
    cilk_spawn link(V, P, mid, e);
    link(V, P, s, mid);
    cilk_sync;
  } else {
    link(V, P, s, mid);
    link(V, P, mid, e);
  }
  if (V[mid - 1] > V[mid])
    P[mid] = s + e;
  else
    P[mid - 1] = e - s;
}

// A sum over a range, below the cutoff in a loop of halves.
static long sum(const long *V, long s, long e, long cutoff) {
  if (e - s == 1)
    return V[s];
  long mid = s + (e - s) / 2;
  long a, b;
  if (e - s > cutoff) {
    a = cilk_spawn sum(V, mid, e, cutoff);
    b = sum(V, s, mid, cutoff);
    cilk_sync;
  } else {
    a = sum(V, mid, e, cutoff);
    b = sum(V, s, mid, cutoff);
  }
  return a * 3 + b + (e - s) * mid;
}

// The value kept across the spawns changes from round to round.
static long rounds(const long *V, long n, long k) {
  long acc = 0;
  for (long step = 1; step <= k; ++step) {
    long x = 0;
    if (n > 1000) {
      x = cilk_spawn sum(V, 0, n / step, 32);
      acc += sum(V, n / (step + 1), n / step, 32);
      cilk_sync;
    } else {
      x = sum(V, 0, n / step, 32);
    }
    acc = acc * 7 + x + step;
  }
  return acc;
}

// The cutoff tested in each round of a loop that spawns.
static long blocks(const long *V, long n) {
  long out[16] = {0};
  for (int i = 0; i < 16; ++i) {
    long s = n * i / 16, e = n * (i + 1) / 16;
    if ((i & 3) == 0)
      out[i] = cilk_spawn sum(V, s, e, 48);
    else
      out[i] = sum(V, s, e, 48);
  }
  cilk_sync;
  long h = 0;
  for (long v : out)
    h = h * 131 + v;
  return h;
}

// Throws from a leaf at position `bad`, below or above the cutoff.
static long checked(const long *V, long s, long e, long bad) {
  if (s == bad)
    throw std::runtime_error("bad leaf");
  if (e - s == 1)
    return V[s];
  long mid = s + (e - s) / 2;
  long a, b;
  if (e - s > 256) {
    a = cilk_spawn checked(V, mid, e, bad);
    b = checked(V, s, mid, bad);
    cilk_sync;
  } else {
    a = checked(V, s, mid, bad);
    b = checked(V, mid, e, bad);
  }
  return a + 2 * b;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 200000;
  std::vector<long> V(n), P(n, -1);
  for (long i = 0; i < n; ++i)
    V[i] = (i * 2654435761u) % 1000003;
  link(V.data(), P.data(), 0, n);
  long h = 0;
  for (long p : P)
    h = h * 31 + p;
  std::printf("link %ld\n", h);
  std::printf("sum %ld\n", sum(V.data(), 0, n, 100));
  std::printf("rounds %ld\n", rounds(V.data(), n, 5));
  std::printf("blocks %ld\n", blocks(V.data(), n));
  for (long bad : {n + 1, n - 1, 3L, n / 2 + 1}) {
    try {
      std::printf("checked %ld\n", checked(V.data(), 0, n, bad));
    } catch (const std::runtime_error &e) {
      std::printf("caught %s at %ld\n", e.what(), bad);
    }
  }
  return 0;
}
