// Verify reducer data members, as OpenCilk defines them: registered by each
// constructor of their class and unregistered by its destructor. A class
// template wrapping a view with a reduce method (its identity and reduce
// are its own static members, so they depend on its parameter), over a
// non-commutative string appender; a plain class with a user constructor
// and destructor, updated through a member function, made on the leftmost
// strand, inside spawned strands (where its storage must be that strand's
// view) and on the heap; a class whose constructors and destructor are the
// implicit ones (non-trivial through std::vector), copied; &obj.m
// passed on as a reducer pointer; and a static data member that is a
// reducer, used as obj.s, S::s and s in a member function. Against the serial elision at 1, 2 and 4
// workers, with and without forced steals, at -O2 and -O0, and under
// AddressSanitizer.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
// RUN: %t | FileCheck %s
// CHECK: 4001 {{[0-9]+}}
// CHECK-NEXT: 4999950000
// CHECK-NEXT: 400240056
// CHECK-NEXT: 5000 1 7
// CHECK-NEXT: 5100 5000
// CHECK-NEXT: 2000
// CHECK-NEXT: 300000
#include <cilk/cilk.h>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

template <typename View> class in_order {
  static void identity(void *v) { new (v) View(); }
  static void reduce(void *l, void *r) {
    static_cast<View *>(l)->reduce(static_cast<View *>(r));
    static_cast<View *>(r)->~View();
  }

public:
  template <typename... Args> in_order(Args... args) : leftmost(args...) {}
  ~in_order() {}
  View &view() { return leftmost; }

private:
  View cilk_reducer(identity, reduce) leftmost;
};

struct appender {
  std::string text;
  appender() {}
  explicit appender(const char *s) : text(s) {}
  void reduce(appender *right) { text += right->text; }
};

void zero(void *v) { *static_cast<long *>(v) = 0; }
void plus(void *l, void *r) { *static_cast<long *>(l) += *static_cast<long *>(r); }

struct counter {
  counter() : sum(0) {}
  ~counter() {}
  void add(long x) { sum += x; }
  long total() const { return sum; }
  long cilk_reducer(zero, plus) sum;
};

void empty_list(void *v) { new (v) std::vector<int>(); }
void append_list(void *l, void *r) {
  auto *left = static_cast<std::vector<int> *>(l);
  auto *right = static_cast<std::vector<int> *>(r);
  left->insert(left->end(), right->begin(), right->end());
  right->~vector();
}
struct collector {
  std::vector<int> cilk_reducer(empty_list, append_list) items;
  int tag = 7;
};

void count_into(long cilk_reducer(zero, plus) *p, long n) {
  cilk_for (long i = 0; i < n; ++i)
    *p += 1;
}

// Each call makes its own counter on whichever strand runs it.
long local_sum(long n) {
  counter c;
  cilk_for (long i = 0; i < n; ++i)
    c.add(i);
  return c.total();
}

struct tally {
  static long cilk_reducer(zero, plus) total;
  void add() { total += 1; }
};
long cilk_reducer(zero, plus) tally::total = 0;

int main() {
  in_order<appender> out("<");
  cilk_for (int i = 0; i < 2000; ++i) {
    char digit[4];
    snprintf(digit, sizeof digit, "%d,", i % 10);
    out.view().text += digit;
  }
  unsigned long hash = 0;
  for (char ch : out.view().text)
    hash = hash * 131 + static_cast<unsigned char>(ch);
  printf("%zu %lu\n", out.view().text.size(), hash);

  counter c;
  cilk_for (long i = 0; i < 100000; ++i)
    c.add(i);
  printf("%ld\n", c.total());

  long results[8];
  for (int k = 0; k < 8; ++k)
    results[k] = cilk_spawn local_sum(10000 + k);
  cilk_sync;
  long all = 0;
  for (long r : results)
    all += r;
  printf("%ld\n", all);

  collector col;
  cilk_for (int i = 0; i < 5000; ++i)
    col.items.push_back(i);
  bool ordered = true;
  for (int i = 0; i < 5000; ++i)
    ordered &= col.items[i] == i;
  printf("%zu %d %d\n", col.items.size(), ordered, col.tag);
  collector copy = col;
  cilk_for (int i = 0; i < 100; ++i)
    copy.items.push_back(-i);
  printf("%zu %zu\n", copy.items.size(), col.items.size());

  counter *heap = new counter;
  count_into(&heap->sum, 1000);
  cilk_for (long i = 0; i < 1000; ++i)
    heap->add(1);
  printf("%ld\n", heap->total());
  delete heap;

  tally t;
  cilk_for (int i = 0; i < 100000; ++i) {
    t.total += 1;
    tally::total += 1;
    t.add();
  }
  printf("%ld\n", tally::total);
  return 0;
}
