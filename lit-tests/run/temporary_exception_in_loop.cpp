// Verify that a spawned statement's temporaries in a loop are destroyed
// once each, and their own, when an exception leaves the statement while
// children whose continuations were stolen still run: the spawned call
// throws with its frame owned (the pop succeeds), or its arguments throw
// before the spawn. The temporaries are the clone activation's own
// (plugin/lower/DynamicAllocas.cpp); the landing pad destroys them and then waits
// for the children, a wait that may suspend the slow clone and leave its
// stack (plugin/lower/LandingPadSyncs.cpp). A child that throws after its
// continuation was stolen destroys its own, not the thief's next
// iteration's. Covers a std::string bound to a const reference and passed by
// value, a class that counts its live objects and its destructions of
// anything but a live object (both must end at zero), the exception caught
// outside the loop and inside its body, and thrown by the child or by the
// argument evaluation. The children that do not throw spin, so that a thief
// gets to the continuation while they run. A destructor run on a stack the
// slow clone has left may find the temporary still there; the AddressSanitizer
// run reports it (stack-use-after-return).
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
#include <cilk/cilk.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

static void spin() {
  volatile long s = 0;
  for (long i = 0; i < 50000; ++i)
    s = s + i;
}

struct Boom {};

static std::atomic<long> Live{0}, BadDestructions{0};

// A temporary that owns heap memory (so that a second destruction frees it
// twice) and knows whether it is alive.
struct Counted {
  static constexpr long Alive = 0x5eed, Dead = 0xdead;
  long state = Alive;
  long *value;
  explicit Counted(long v) : value(new long(v)) { ++Live; }
  Counted(const Counted &o) : value(new long(*o.value)) { ++Live; }
  Counted &operator=(const Counted &) = delete;
  ~Counted() {
    if (state != Alive) {
      ++BadDestructions;
      return;
    }
    state = Dead;
    delete value;
    --Live;
  }
};

static bool throws(long i) { return i % 4 == 3; }

__attribute__((noinline)) static void take_ref(long *out, const std::string &s,
                                               long i) {
  if (throws(i))
    throw Boom();
  spin();
  *out = static_cast<long>(s.size()) * 1000 + s[0];
}

__attribute__((noinline)) static void take_val(long *out, std::string s,
                                               long i) {
  if (throws(i))
    throw Boom();
  spin();
  *out = static_cast<long>(s.size()) * 1000 + s.back();
}

__attribute__((noinline)) static void take_counted_ref(long *out,
                                                       const Counted &c,
                                                       long i) {
  if (throws(i))
    throw Boom();
  spin();
  *out = *c.value;
}

__attribute__((noinline)) static void take_counted_val(long *out, Counted c,
                                                       long i) {
  if (throws(i))
    throw Boom();
  spin();
  *out = *c.value + 1;
}

__attribute__((noinline)) static long index_or_throw(long i) {
  if (throws(i))
    throw Boom();
  return i;
}

static std::string text(long i) {
  return std::string(40 + i, static_cast<char>('a' + i));
}

// Caught outside the loop: children of earlier iterations still run when a
// later one throws, and so do the thief's iterations after it.
static long ref_outside(long *out) {
  try {
    for (long i = 0; i < 8; ++i)
      cilk_spawn take_ref(out + i, text(i), i);
    cilk_sync;
  } catch (Boom &) {
    return 1;
  }
  return 0;
}

static long val_outside(long *out) {
  try {
    for (long i = 0; i < 8; ++i)
      cilk_spawn take_val(out + i, text(i), i);
    cilk_sync;
  } catch (Boom &) {
    return 1;
  }
  return 0;
}

static long counted_ref_outside(long *out) {
  try {
    for (long i = 0; i < 8; ++i)
      cilk_spawn take_counted_ref(out + i, Counted(i), i);
    cilk_sync;
  } catch (Boom &) {
    return 1;
  }
  return 0;
}

static long counted_val_outside(long *out) {
  try {
    for (long i = 0; i < 8; ++i)
      cilk_spawn take_counted_val(out + i, Counted(i), i);
    cilk_sync;
  } catch (Boom &) {
    return 1;
  }
  return 0;
}

// The arguments throw before the spawn, once the Counted temporary is built.
static long argument_throws(long *out) {
  try {
    for (long i = 0; i < 8; ++i)
      cilk_spawn take_counted_ref(out + i, Counted(i), index_or_throw(i));
    cilk_sync;
  } catch (Boom &) {
    return 1;
  }
  return 0;
}

// Caught inside the loop body: an earlier child of the same try block still
// runs when the second spawn throws; the loop goes on after the handler.
// Only the second child throws, so the serial elision does the same work.
static long inside_body(long *out) {
  long caught = 0;
  for (long i = 0; i < 8; ++i) {
    try {
      cilk_spawn take_ref(out + 2 * i, text(i), 0);
      cilk_spawn take_counted_val(out + 2 * i + 1, Counted(i), i);
      cilk_sync;
    } catch (Boom &) {
      ++caught;
    }
  }
  return caught;
}

static long inside_body_string_by_value(long *out) {
  long caught = 0;
  for (long i = 0; i < 8; ++i) {
    try {
      cilk_spawn take_counted_ref(out + 2 * i, Counted(i), 0);
      cilk_spawn take_val(out + 2 * i + 1, text(i), i);
      cilk_sync;
    } catch (Boom &) {
      ++caught;
    }
  }
  return caught;
}

static long sum(const long *out, long n) {
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += out[i];
  return s;
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? std::atol(argv[1]) : 60;
  long caught[7] = {}, done = 0;
  for (long r = 0; r < rounds; ++r) {
    // Which children after the first throw ran depends on the schedule:
    // only the counts are printed.
    long out[8] = {};
    caught[0] += ref_outside(out);
    caught[1] += val_outside(out);
    caught[2] += counted_ref_outside(out);
    caught[3] += counted_val_outside(out);
    // The continuation throws: no child after it ever starts.
    long before[8] = {};
    caught[4] += argument_throws(before);
    long in[16] = {}, in2[16] = {};
    caught[5] += inside_body(in);
    caught[6] += inside_body_string_by_value(in2);
    done += sum(before, 8) + sum(in, 16) + sum(in2, 16);
  }
  for (long c : caught)
    std::printf("%ld ", c);
  std::printf("%ld live %ld bad %ld\n", done, Live.load(),
              BadDestructions.load());
}
