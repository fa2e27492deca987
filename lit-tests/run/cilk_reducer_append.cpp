// Verify OpenCilk 2's reducer qualifier on C++ classes whose reduce is not
// commutative: a std::string and a std::list<int> that each strand appends
// to, in a cilk_for and in recursive spawns, local, static and global, and
// through a `T cilk_reducer(I, R) *p` parameter. The result is in serial
// order only if views are reduced left to right. Identity constructs in
// raw storage and reduce destroys the right view, as OpenCilk's callbacks
// do; AddressSanitizer checks that no view leaks or is used after that.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 2000 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial 2000
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial 300
// CHECK: text ok
// CHECK: list ok
// CHECK: words=abcdefghijklmnopqrstuvwxyz
// CHECK: tree ok
#include <cilk/cilk.h>

#include <cstdio>
#include <cstdlib>
#include <list>
#include <new>
#include <string>

using std::string;

static void string_identity(void *v) { new (v) string(); }
static void string_append(void *l, void *r) {
  string *right = static_cast<string *>(r);
  *static_cast<string *>(l) += *right;
  right->~string();
}
using IntList = std::list<int>;
static void list_identity(void *v) { new (v) IntList(); }
static void list_append(void *l, void *r) {
  IntList *right = static_cast<IntList *>(r);
  static_cast<IntList *>(l)->splice(static_cast<IntList *>(l)->end(), *right);
  right->~IntList();
}

string cilk_reducer(string_identity, string_append) words;

static bool check_text(const string &text, long n) {
  string expected;
  for (long i = 0; i < n; ++i)
    expected += std::to_string(i) + ",";
  return text == expected;
}

static void walk(int lo, int hi,
                 IntList cilk_reducer(list_identity, list_append) *out) {
  if (hi - lo == 1) {
    out->push_back(lo);
    return;
  }
  int mid = lo + (hi - lo) / 2;
  cilk_spawn walk(lo, mid, out);
  walk(mid, hi, out);
}

static string letters() {
  static string cilk_reducer(string_identity, string_append) s;
  s.clear();
  cilk_for (int c = 0; c < 26; ++c)
    s += static_cast<char>('a' + c);
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000;
  {
    string cilk_reducer(string_identity, string_append) text;
    cilk_for (long i = 0; i < n; ++i)
      text += std::to_string(i) + ",";
    std::printf("text %s\n", check_text(text, n) ? "ok" : "WRONG");
  }
  {
    IntList cilk_reducer(list_identity, list_append) list;
    cilk_for (int i = 0; i < n; ++i)
      list.push_back(i);
    bool ok = list.size() == static_cast<size_t>(n);
    int expect = 0;
    for (int x : list)
      ok = ok && x == expect++;
    std::printf("list %s\n", ok ? "ok" : "WRONG");
  }
  cilk_for (int c = 0; c < 26; ++c)
    words += static_cast<char>('a' + c);
  std::printf("words=%s\n", words.c_str());
  if (letters() != words)
    std::printf("static WRONG\n");
  {
    IntList cilk_reducer(list_identity, list_append) order;
    walk(0, static_cast<int>(n), &order);
    bool ok = order.size() == static_cast<size_t>(n);
    int expect = 0;
    for (int x : order)
      ok = ok && x == expect++;
    std::printf("tree %s\n", ok ? "ok" : "WRONG");
  }
  return 0;
}
