// Verify that an exception never overtakes a stolen child: when the
// continuation throws (or a second child's exception arrives) while a child
// still runs, the function waits for it before any destructor or catch
// handler of its own runs, as the serial elision and OpenCilk do. Covers a
// throw in a try block with a child outstanding (both throw; only the
// continuation throws), two children that both throw, a destructor of a try
// block's local the child writes into, locals a child is constructing or
// reading when the exception leaves the function, and the sync at the end
// of a try block that spawns (a child's exception is caught by that try's
// handler, not raised by a later sync outside it), and the temporaries of a
// child that throws after a steal. Children spin so that a thief gets there
// first.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
#include <cilk/cilk.h>
#include <cstdio>
#include <string>
#include <vector>

struct Boom {
  long code;
};

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 20000; ++i)
    s = s + i;
}

static long thrower(long n) {
  spin();
  if (n >= 0)
    throw Boom{n};
  return n;
}

static long sometimes(long n) {
  spin();
  if (n % 3 == 0)
    throw Boom{n};
  return n;
}

// The child and the continuation both throw inside one try block.
long both_throw(long n) {
  long r = 0;
  try {
    long x = cilk_spawn thrower(n);
    long y = thrower(n + 1);
    cilk_sync;
    r = x + y;
  } catch (const Boom &) {
    r = -1;
  }
  return r;
}

// Two children throw; the second one's continuation is not stolen.
long two_children_throw(long n) {
  try {
    long x = cilk_spawn thrower(n);
    long y = cilk_spawn thrower(n + 1);
    cilk_sync;
    return x + y;
  } catch (const Boom &) {
  }
  return n;
}

struct Tally { // its destructor reads what the child wrote
  std::vector<long> v = std::vector<long>(64, 1);
  long *sum;
  ~Tally() {
    for (long x : v)
      *sum += x;
  }
};
static void add_to(std::vector<long> *v, long k) {
  spin();
  for (long &x : *v)
    x += k;
}

// Only the continuation throws; the try block's local must outlive the
// child, and the handler must run after it.
long continuation_throws(long n) {
  long sum = 0;
  try {
    Tally t;
    t.sum = &sum;
    cilk_spawn add_to(&t.v, n);
    if (n % 3 == 0)
      throw 7;
    cilk_sync;
  } catch (int e) {
    sum = -sum - e;
  }
  return sum;
}

static std::string make(long n) {
  spin();
  return std::string(200 + n % 50, 'a' + n % 26);
}
static long total(const std::vector<long> &v) {
  spin();
  long t = 0;
  for (long e : v)
    t += e;
  return t;
}

// The exception leaves the function while children construct a local and
// read another one through a reference.
long leaves_function(long n) {
  std::vector<long> v(1000 + n % 7, n);
  std::string s = cilk_spawn make(n);
  long r = cilk_spawn total(v);
  if (n % 2 == 0)
    throw Boom{n};
  cilk_sync;
  return (long)s.size() + r;
}

// No sync inside the try block: the implicit one at its end raises the
// child's exception where the handler catches it.
long try_without_sync(long n) {
  long r = 0, x = 0;
  try {
    x = cilk_spawn sometimes(n);
    r = 5;
  } catch (const Boom &b) {
    r = -b.code;
  }
  cilk_sync;
  return r + x;
}

static long use_then_throw(const std::string &s, long n) {
  spin();
  if (n % 2 == 0)
    throw Boom{n};
  return (long)s.size();
}

// A child that throws after its continuation was stolen: its statement's
// temporary (a heap-allocated string) is still destroyed, once
// (LeakSanitizer checks the -fsanitize=address run).
long temporaries_of_throwing_child(long n) {
  long r = 0;
  try {
    long a = cilk_spawn use_then_throw(std::string(100, 'a' + n % 26), n);
    long b = use_then_throw("a long string literal, longer than SSO", n + 1);
    cilk_sync;
    r = a + b;
  } catch (const Boom &boom) {
    r = -boom.code;
  }
  return r;
}

int main() {
  long a = 0, b = 0, c = 0, d = 0, e = 0, f = 0;
  for (long n = 0; n < 200; ++n) {
    a += both_throw(n);
    b += two_children_throw(n);
    c += continuation_throws(n);
    try {
      d += leaves_function(n);
    } catch (const Boom &boom) {
      d -= boom.code;
    }
    e += try_without_sync(n);
    f += temporaries_of_throwing_child(n);
  }
  std::printf("%ld %ld %ld %ld %ld %ld\n", a, b, c, d, e, f);
}
