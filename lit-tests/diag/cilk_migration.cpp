// Verify the compile-time errors docs/migration.md promises to OpenCilk and
// Cilk Plus users: a spawned block, `cilk_spawn;` and `cilk_scope;` as
// statements (OpenCilk 2.0 accepts them) are errors at the keyword; Cilk
// Plus array notation does not parse; `#pragma simd` and
// `__attribute__((vector))` are ignored with a warning; and Weft defines
// __weft__ and OpenCilk's __cilk (OpenCilk's flags and keywords:
// opencilk/flags.c, opencilk/keywords_without_header.c).
// RUN: %clangxx -fplugin=%plugin -fsyntax-only -Xclang -verify %s
// RUN: not %weftcxx -fsyntax-only -DARRAY_NOTATION %s 2>&1 | FileCheck --check-prefix=ARRAY %s
// ARRAY: error: expected ']'
// RUN: %weftcxx -Wall -fsyntax-only -DSIMD %s 2>&1 | FileCheck --check-prefix=SIMD %s
// SIMD: warning: unknown pragma ignored
// SIMD: warning: unknown attribute 'vector' ignored
#if defined(ARRAY_NOTATION)
void twice(float *a, const float *b, int n) { a[0:n] = b[0:n] * 2; }
#elif defined(SIMD)
void twice(float *a, int n) {
#pragma simd
  for (int i = 0; i < n; ++i)
    a[i] *= 2;
}
__attribute__((vector)) float twice(float x) { return 2 * x; }
#else
#include <cilk/cilk.h>

#if __cilk != 200 || !defined(__weft__)
#error "Weft defines __weft__, and __cilk as OpenCilk's compiler does"
#endif

long f(long);

void statements(long n) {
  cilk_spawn; // expected-error {{a spawn must be followed by a function call}}
  cilk_scope; // expected-error {{a scope must be followed by a block ('cilk_scope { ... }')}}
}
#endif
