// Verify spawns and syncs in every statement position a user may write
// them: constructors and destructors, both branches of an if without
// braces, switch cases, a do-while body without braces, a statement
// expression, a lambda that spawns (its own implicit sync), a catch
// handler, a noexcept function, an always_inline function, a discarded
// result, a range-for writing each element, a for-init, a loop body without
// braces, a static member function, a std::string result, and a label.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <cstdio>
#include <string>
#include <vector>
static long f(long n) { return n + 1; }
static void g(long *p) { *p += 1; }
struct S { long v; S(long n) { long a = cilk_spawn f(n); long b = f(n + 1); cilk_sync; v = a + b; } ~S() { long t = 0; cilk_spawn g(&t); cilk_sync; } };
long t1(long n) { long x = cilk_spawn f(n > 0 ? n : -n); cilk_sync; return x; }
long t2(long n) { long x; if (n) x = cilk_spawn f(n); else x = cilk_spawn f(-n); cilk_sync; return x; }
long t3(long n) { long x = 0; switch (n % 3) { case 0: x = cilk_spawn f(n); break; case 1: cilk_spawn g(&x); break; default: x = 5; } cilk_sync; return x; }
long t4(long n) { long x = 0; do cilk_spawn g(&x); while (--n > 0); cilk_sync; return x; }
long t5(long n) { long x = ({ long y = cilk_spawn f(n); cilk_sync; y; }); return x; }
long t6(long n) { long x = 0; auto l = [&] { cilk_spawn g(&x); }; l(); return x; }
long t7(long n) { try { throw 1; } catch (int) { long x = cilk_spawn f(n); cilk_sync; return x; } }
long t8(long n) noexcept { long x = cilk_spawn f(n); cilk_sync; return x; }
__attribute__((always_inline)) inline long t9(long n) { long x = cilk_spawn f(n); cilk_sync; return x; }
long t10(long n) { cilk_spawn f(n); cilk_sync; return n; }
long t11(long n) { std::vector<long> v(4); for (auto &e : v) e = cilk_spawn f(n); cilk_sync; return v[3]; }
long t12(long n) { long x = 0; for (cilk_spawn g(&x); n > 0; --n) {} cilk_sync; return x; }
long t13(long n) { long x = 0; while (n-- > 0) if (n & 1) cilk_spawn g(&x); cilk_sync; return x; }
struct B { virtual long m(long n) { return n; } static long s(long n) { long a = cilk_spawn f(n); cilk_sync; return a; } };
long t14(long n) { std::string s = cilk_spawn std::to_string(n); cilk_sync; return (long)s.size(); }
long t15(long n) { long x = 0; goto L; L: x = cilk_spawn f(n); cilk_sync; return x; }
int main() {
  long n = 5;
  S s(3);
  printf("%ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld\n", s.v, t1(n), t2(n), t3(n), t4(n), t5(n), t6(n), t7(n), t8(n), t9(n), t10(n), t11(n), t12(n), t13(n), B::s(n), t14(n), t15(n));
}
