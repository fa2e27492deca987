// Verify that uses of a cilk_reducer outside the plain `x` and `*p` of a
// statement are the calling strand's view: a reference that Sema folds to
// a static reducer (`std::string &r = out;`), a default argument (looked up
// by each call, in its caller), and `&out` passed on as a reducer pointer
// through a constructor, a braced initialiser, a return and `?:`; and a
// cilk_for whose header (init, condition, stride) reads a local reducer.
// Each child sleeps before appending, so a continuation that wrote to the
// wrong view would put its text first. Before these were rewritten, the
// first two printed "ba" and "dc" and the third crashed under stress.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// CHECK: abcdefghij
// CHECK: header=45
#include <cilk/cilk.h>

#include <cstdio>
#include <new>
#include <string>
#include <unistd.h>

static void str_id(void *v) { new (v) std::string; }
static void str_app(void *l, void *r) {
  auto *a = static_cast<std::string *>(l), *b = static_cast<std::string *>(r);
  *a += *b;
  b->~basic_string();
}
static void zero(void *v) { *static_cast<long *>(v) = 0; }
static void plus(void *l, void *r) {
  *static_cast<long *>(l) += *static_cast<long *>(r);
}
using text = std::string cilk_reducer(str_id, str_app);
text out;

static void slow(const char *s) {
  usleep(10000);
  out += s;
}
static void add(text *p, const char *s) { *p += s; }

static void by_reference() {
  cilk_spawn slow("a");
  std::string &r = out;
  r += "b";
  cilk_sync;
}

static std::string *view_of(std::string *v = &out) { return v; }
static void by_default_argument() {
  cilk_spawn slow("c");
  *view_of() += "d";
  cilk_sync;
}

struct appender {
  text *p;
  explicit appender(text *p) : p(p) {}
};
struct plain {
  text *p;
};
static text *the_reducer() { return &out; }
static void as_reducer_pointer(bool yes) {
  appender a(&out);
  plain b{&out};
  text *c = yes ? &out : nullptr;
  cilk_spawn slow("e");
  add(a.p, "f");
  add(b.p, "g");
  add(the_reducer(), "h");
  add(c, "i");
  cilk_sync;
}

static long header_reads(long n) {
  long cilk_reducer(zero, plus) lo = 0;
  long cilk_reducer(zero, plus) step = 1;
  long cilk_reducer(zero, plus) sum = 0;
  cilk_for (long i = lo; i < n + lo; i += step)
    sum += i;
  return sum;
}

int main() {
  by_reference();
  by_default_argument();
  as_reducer_pointer(true);
  add(&out, "j");
  std::printf("%s\n", out.c_str());
  std::printf("header=%ld\n", header_reads(10));
}
