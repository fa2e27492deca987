// Verify that every value a spawning function keeps honours its type's
// alignment up to 64 bytes: alignas(64) locals and arrays kept across a
// spawn and written by the child through a pointer, over-aligned structs
// returned by a spawned call and passed to one by value, 64-byte generic
// vectors returned and kept in registers, the locals of cilk_for bodies and
// of spawned statements, lambdas' captures, variable-length arrays of an
// over-aligned type, and a reducer whose view type is alignas(64). Each place checks its own address; a misaligned one prints
// MISALIGNED, which the serial elision never does, and the values are
// checked against the serial elision at P=1, 2, 4 with and without forced
// steals, at every optimisation level.
// RUN: %clangxx -O2 -Wno-psabi %s -o %t.serial
// RUN: %weftcxx -O0 -Wno-psabi %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -Wno-psabi %s -o %t.o1
// RUN: %run-check %t.o1 %t.serial
// RUN: %weftcxx -O2 -Wno-psabi %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O3 -Wno-psabi %s -o %t.o3
// RUN: %run-check %t.o3 %t.serial
#include <cilk/cilk.h>
#include <cstdint>
#include <cstdio>

static int Misaligned = 0;
static void check(const void *p, std::size_t align, const char *what) {
  if (reinterpret_cast<std::uintptr_t>(p) % align) {
    // Racy only when it fails; the message is the point then.
    __atomic_fetch_add(&Misaligned, 1, __ATOMIC_RELAXED);
    std::printf("MISALIGNED %s %p (wants %zu)\n", what, p, align);
  }
}

struct alignas(64) Block {
  long v[4];
};
typedef double v8d __attribute__((vector_size(64)));
typedef long v4l __attribute__((vector_size(32)));

__attribute__((noinline)) static long leaf(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += i ^ n;
  return s;
}

__attribute__((noinline)) static void fill(Block *b, long n) {
  check(b, 64, "fill's block");
  for (int i = 0; i < 4; ++i)
    b->v[i] = n * (i + 1) + leaf(n % 50);
}

__attribute__((noinline)) static Block make(long n) {
  Block b;
  check(&b, 64, "make's block");
  for (int i = 0; i < 4; ++i)
    b.v[i] = n + i;
  return b;
}

__attribute__((noinline)) static long take(Block b, long n) {
  check(&b, 64, "a block passed by value");
  return b.v[0] + b.v[3] * n;
}

__attribute__((noinline)) static v8d vec(long n) {
  v8d r = {double(n), 1, 2, 3, 4, 5, 6, double(leaf(n % 30))};
  return r;
}

__attribute__((noinline)) static v4l vec32(long n) {
  v4l r = {n, n + 1, n + 2, leaf(n % 20)};
  return r;
}

// A local and an array kept across spawns, each written by a child.
static long locals(long n) {
  alignas(64) Block a;
  alignas(64) long arr[16];
  alignas(32) char bytes[40];
  check(&a, 64, "local block");
  check(arr, 64, "local array");
  check(bytes, 32, "local bytes");
  cilk_spawn fill(&a, n);
  for (int i = 0; i < 16; ++i)
    arr[i] = leaf(i + n % 7);
  cilk_spawn fill(reinterpret_cast<Block *>(arr), n + 1);
  for (int i = 0; i < 40; ++i)
    bytes[i] = char(i * n);
  cilk_sync;
  check(&a, 64, "local block after the sync");
  long s = 0;
  for (int i = 0; i < 4; ++i)
    s += a.v[i];
  for (int i = 0; i < 16; ++i)
    s += arr[i];
  for (int i = 0; i < 40; ++i)
    s += bytes[i];
  return s;
}

// Over-aligned results of spawned calls, and arguments passed by value.
static long results(long n) {
  Block b = cilk_spawn make(n);
  v8d v = cilk_spawn vec(n);
  v4l w = cilk_spawn vec32(n);
  Block c = make(n + 2);
  long t = cilk_spawn take(c, n);
  long u = leaf(n % 40);
  cilk_sync;
  check(&b, 64, "spawned block result");
  long s = t + u;
  for (int i = 0; i < 4; ++i)
    s += b.v[i] + long(w[i]);
  for (int i = 0; i < 8; ++i)
    s += long(v[i]);
  return s;
}

// A vector in registers kept across a spawn (spilled to the frame).
static long kept(long n) {
  v8d v = vec(n + 5);
  v4l w = vec32(n + 3);
  long x = cilk_spawn leaf(n % 60);
  long y = leaf(n % 70);
  cilk_sync;
  v = v * 2;
  w = w + 1;
  return x + y + long(v[0] + v[7]) + w[0] + w[3];
}

// A function that returns an over-aligned vector itself and spawns.
static v8d spawning_vec(long n) {
  v8d a = vec(n);
  long x = cilk_spawn leaf(n % 30);
  v8d b = vec(n + 1);
  cilk_sync;
  return a + b + double(x);
}

static Block spawning_block(long n) {
  Block r;
  check(&r, 64, "returned block");
  cilk_spawn fill(&r, n);
  leaf(n % 10);
  cilk_sync;
  return r;
}

// The bodies of parallel loops, spawned statements and lambdas.
static long loops(long n) {
  long out[64] = {};
  cilk_for (int i = 0; i < 64; ++i) {
    alignas(64) Block b;
    check(&b, 64, "cilk_for body's block");
    fill(&b, n + i);
    v8d v = vec(i);
    out[i] = b.v[0] + b.v[3] + long(v[0] + v[7]);
  }
  alignas(64) Block shared;
  cilk_spawn {
    alignas(64) Block inner;
    check(&inner, 64, "spawned statement's block");
    fill(&inner, n);
    shared = inner;
  }
  alignas(64) Block other;
  auto lambda = [&other, n] {
    alignas(64) Block mine;
    check(&mine, 64, "lambda's block");
    fill(&mine, n * 3);
    other = mine;
  };
  cilk_spawn lambda();
  cilk_sync;
  long s = 0;
  for (long x : out)
    s += x;
  return s + shared.v[1] + other.v[2];
}

// A reducer whose view is alignas(64).
static void block_zero(void *v) {
  check(v, 64, "reducer identity view");
  *static_cast<Block *>(v) = Block{};
}
static void block_add(void *l, void *r) {
  check(l, 64, "reducer left view");
  check(r, 64, "reducer right view");
  for (int i = 0; i < 4; ++i)
    static_cast<Block *>(l)->v[i] += static_cast<Block *>(r)->v[i];
}
static long reduce(long n) {
  Block cilk_reducer(block_zero, block_add) sum;
  for (int i = 0; i < 4; ++i)
    sum.v[i] = 0;
  cilk_for (long i = 0; i < 1000; ++i) {
    check(&sum, 64, "reducer view in a loop");
    sum.v[i % 4] += leaf(i % 13) + n;
  }
  return sum.v[0] + 2 * sum.v[1] + 3 * sum.v[2] + 4 * sum.v[3];
}

// Variable-length arrays of an over-aligned type, and an alloca asking for
// 64 bytes, in a spawning function (they live outside the frame).
static long dynamic(long n) {
  Block arr[n % 9 + 1];
  check(arr, 64, "a VLA of blocks");
  char *raw = static_cast<char *>(__builtin_alloca_with_align(100 + n, 512));
  check(raw, 64, "an alloca aligned to 64");
  for (long i = 0; i <= n % 9; ++i)
    cilk_spawn fill(&arr[i], n + i);
  raw[0] = char(n);
  cilk_sync;
  long s = raw[0];
  for (long i = 0; i <= n % 9; ++i)
    s += arr[i].v[3];
  return s;
}

static long tree(long n, long depth) {
  if (depth == 0)
    return locals(n) + results(n) + kept(n) + dynamic(n);
  alignas(64) Block mine = make(n);
  long a = cilk_spawn tree(n + 1, depth - 1);
  long b = tree(n + 2, depth - 1);
  cilk_sync;
  check(&mine, 64, "block kept across a recursive spawn");
  return a + b + mine.v[1];
}

int main() {
  long total = 0;
  for (long n = 1; n < 40; n += 7) {
    long t = tree(n, 6);
    v8d v = spawning_vec(n);
    Block b = spawning_block(n);
    long l = loops(n);
    long r = reduce(n);
    std::printf("n=%ld tree=%ld vec=%g block=%ld loops=%ld reduce=%ld\n", n,
                t, v[0] + v[7], b.v[0] + b.v[3], l, r);
    total += t + l + r;
  }
  std::printf("total=%ld misaligned=%d\n", total, Misaligned);
  return Misaligned != 0;
}
