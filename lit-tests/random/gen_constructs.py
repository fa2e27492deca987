#!/usr/bin/env python3
"""Generate a random, race-free C or C++ program over Weft's constructs.

    gen_constructs.py --seed N [--lang c|c++] [--without CONSTRUCT,...]

The second generator of the differential tests (gen_forkjoin.py is the
first, for spawns, syncs, exceptions and results of every shape). This one
reaches the rest of the language: reducers of every kind the headers offer,
`cilk_for` in every accepted form, `cilk_scope`, spawned statements,
vectors and over-aligned types, templates and lambdas, and C. The same seed
always gives the same program; without --lang, about a third of the seeds
give C. Compiled with Weft, a program must print exactly what its serial
elision prints, at any worker count, with or without WEFT_STRESS
(run_constructs.sh does the comparison).

A program is 3-5 spawning functions `unsigned long fK(long n, unsigned long
s)`, each a sequence of blocks drawn from the constructs below, and a main
that prints the value of each root call. Calls of spawning functions pass a
strictly smaller n, so programs terminate; the root n is the largest whose
number of calls stays within the budget (cost()).

Constructs (names for --without):
  spawn     spawned calls of spawning functions and leaves, and of
            functions returning vectors and over-aligned structs
  for       cilk_for over int, long, unsigned, unsigned long, long long,
            size_t and pointers (and in C++ vector iterators and ranges,
            by value and by reference), up or down, with <, <=, !=, >, >=
            and ++, --, +=, -=, i = i + k steps, with and without
            `#pragma cilk grainsize`, nested, and bodies that spawn; in
            C++ weft::parallel_for too
  scope     cilk_scope blocks whose spawns write variables read after it
  stmt      spawned statements: blocks, `x[k]++`, nested blocks
  reducer   reducers: OpenCilk 2's `T cilk_reducer(I, R)` locals, a global
            every call pushes onto in the serial order, pointer and (C++)
            reference parameters and class members, of a non-commutative
            monoid; in C++ cilk::opadd_reducer, cilk::reducer<op_add>,
            reducer_opadd, op_mul, op_xor/or/and, reducer_max/min,
            op_max_index, op_list_append and _prepend, ostream_reducer and
            reducer_ostream; in C CILK_C_REDUCER_OPADD, _OPXOR and _MAX
  vector    32- and 64-byte generic vectors kept across spawns, spawned as
            results and passed to spawned calls
  aligned   alignas(64) arrays and structs kept across spawns and written
            by children, and spawned as results
  template  (C++) spawning function templates instantiated at two types
  lambda    (C++) lambdas spawned, lambdas that spawn, generic lambdas
  vla       (C) variable-length arrays named by spawned statements and
            filled by cilk_for

Race freedom by construction: every block declares the locations its
children write, spawns children that write only their own (a result, a
slot k of an array, a reducer's view), and syncs before it reads them
(cilk_sync, the end of a cilk_scope or of a cilk_for); a loop iteration
writes only its own slots. Arithmetic is on unsigned values.
"""

import argparse
import random
import sys

FEATURES = ['spawn', 'for', 'scope', 'stmt', 'reducer', 'vector', 'aligned',
            'template', 'lambda', 'vla']
CXX_ONLY = {'template', 'lambda'}
C_ONLY = {'vla'}
DEFAULT_BUDGET = 4000

PRELUDE_COMMON = r"""
static inline unsigned long mixu(unsigned long h, unsigned long v) {
  h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9UL;
  return h ^ (h >> 31);
}
static unsigned long leaf(long n, unsigned long s) {
  return mixu(s, (unsigned long)n * 31u + 7u);
}
static unsigned ileaf(long n, unsigned long s) {
  return (unsigned)(mixu(s, (unsigned long)n) % 1000u);
}
static void oleaf(long n, unsigned long s, unsigned long *out) {
  *out = mixu(s ^ 0x77u, (unsigned long)n);
}
/* A non-commutative monoid: the hash of a sequence, so that a reducer
 * that joined views out of order gives another value. */
typedef struct { unsigned long h, len; } Chain;
static unsigned long chain_pow(unsigned long k) {
  unsigned long r = 1, b = 1000003UL;
  while (k) {
    if (k & 1)
      r *= b;
    b *= b;
    k >>= 1;
  }
  return r;
}
static void chain_zero(void *v) {
  ((Chain *)v)->h = 0;
  ((Chain *)v)->len = 0;
}
static void chain_join(void *l, void *r) {
  Chain *a = (Chain *)l, *b = (Chain *)r;
  a->h = a->h * chain_pow(b->len) + b->h;
  a->len += b->len;
}
static void ulong_zero(void *v) { *(unsigned long *)v = 0; }
static void ulong_add(void *l, void *r) {
  *(unsigned long *)l += *(unsigned long *)r;
}
typedef unsigned long v4u __attribute__((vector_size(32)));
typedef unsigned long v8u __attribute__((vector_size(64)));
static v4u v4leaf(long n, unsigned long s) {
  v4u r = {leaf(n, s), leaf(n + 1, s), leaf(n, s + 1), (unsigned long)n};
  return r;
}
static v8u v8leaf(long n, unsigned long s) {
  v8u r = {leaf(n, s), 1, 2, 3, 4, 5, 6, leaf(n + 2, s)};
  return r;
}
static unsigned long hv4(v4u v) {
  return mixu(mixu(v[0], v[1]), mixu(v[2], v[3]));
}
static unsigned long hv8(v8u v) {
  unsigned long h = 0;
  for (int i = 0; i < 8; ++i)
    h = mixu(h, v[i]);
  return h;
}
static unsigned long aligned_bad;
static void check_aligned(const void *p, unsigned long a) {
  if ((unsigned long)p % a)
    __atomic_fetch_add(&aligned_bad, 1, __ATOMIC_RELAXED);
}
"""

BIG_FUNCTIONS = r"""static Big bigleaf(long n, unsigned long s) {
  Big b;
  check_aligned(&b, 64);
  for (int i = 0; i < 8; ++i)
    b.v[i] = leaf(n + i, s);
  return b;
}
static void bigfill(Big *b, long n, unsigned long s) {
  check_aligned(b, 64);
  for (int i = 0; i < 8; ++i)
    b->v[i] = leaf(n - i, s);
}
static unsigned long hbig(const Big *b) {
  unsigned long h = 0;
  for (int i = 0; i < 8; ++i)
    h = mixu(h, b->v[i]);
  return h;
}
"""

PRELUDE_C = r"""#include <cilk/cilk.h>
#include <cilk/reducer_opadd.h>
#include <cilk/reducer_opxor.h>
#include <cilk/reducer_min_max.h>
#include <stddef.h>
#include <stdio.h>
typedef struct { _Alignas(64) unsigned long v[8]; } Big;
""" + PRELUDE_COMMON + BIG_FUNCTIONS

PRELUDE_CXX = r"""#include <cilk/cilk.h>
#include <cilk/opadd_reducer.h>
#include <cilk/reducer_list.h>
#include <cilk/reducer_min_max.h>
#include <cilk/ostream_reducer.h>
#include <cilk/reducer_opand.h>
#include <cilk/reducer_opor.h>
#include <cilk/reducer_opxor.h>
#include <cilk/reducer_opadd.h>
#include <cilk/reducer_opmul.h>
#include <cilk/reducer_ostream.h>
#include <weft/parallel_for.h>
#include <cstddef>
#include <cstdio>
#include <list>
#include <sstream>
#include <vector>
struct alignas(64) Big { unsigned long v[8]; };
""" + PRELUDE_COMMON + BIG_FUNCTIONS + r"""struct ChainHolder {  // Weft needs a destructor that is not trivial
  ChainHolder() : other(0) { chain_zero(&c); }
  ~ChainHolder() {}
  Chain cilk_reducer(chain_zero, chain_join) c;
  unsigned long other;
};
static unsigned long hlist(const std::list<unsigned long> &l) {
  unsigned long h = l.size();
  for (unsigned long e : l)
    h = mixu(h, e);
  return h;
}
static unsigned long htext(const std::string &t) {
  unsigned long h = t.size();
  for (char c : t)
    h = mixu(h, (unsigned char)c);
  return h;
}
"""


# The reducers of the library headers, each as its declaration, the update
# a loop iteration makes ({i}) and the value after the loop; C's are
# registered after their declaration and unregistered after the value.
LIBRARY_REDUCERS = {
    'opadd': ('cilk::opadd_reducer<unsigned long> {r} = 0;',
              '{r} += leaf({i}, s);', '{r}'),
    'plus_add': ('cilk::reducer<cilk::op_add<unsigned long>> {r};',
                 '*{r} += leaf({i}, s);', '{r}.get_value()'),
    'plus_opadd': ('cilk::reducer_opadd<unsigned long> {r}(5);',
                   '{r} += leaf({i}, s);', '{r}.get_value()'),
    'plus_max': ('cilk::reducer<cilk::op_max<unsigned long>> {r};',
                 '{r}->calc_max(leaf({i}, s));', '{r}.get_value()'),
    'plus_min': ('cilk::reducer<cilk::op_min<unsigned long>> {r};',
                 '{r}->calc_min(leaf({i}, s));', '{r}.get_value()'),
    'plus_max_1.0': ('cilk::reducer_max<unsigned long> {r};',
                     '{r}.calc_max(leaf({i}, s));', '{r}.get_value()'),
    'plus_min_1.0': ('cilk::reducer_min<unsigned long> {r};',
                     '{r}.calc_min(leaf({i}, s));', '{r}.get_value()'),
    'max_index': ('cilk::reducer<cilk::op_max_index<int, unsigned long>> {r};',
                  '{r}->calc_max({i}, ileaf({i}, s));',
                  'mixu((unsigned long){r}.get_value().first, {r}.get_value().second)'),
    'list': ('cilk::reducer<cilk::op_list_append<unsigned long>> {r};',
             '{r}->push_back(leaf({i}, s));', 'hlist({r}.get_value())'),
    'prepend': ('cilk::reducer<cilk::op_list_prepend<unsigned long>> {r};',
                '{r}->push_front(leaf({i}, s));', 'hlist({r}.get_value())'),
    'mul': ('cilk::reducer<cilk::op_mul<unsigned long>> {r}(3);',
            '*{r} *= leaf({i}, s) | 1u;', '{r}.get_value()'),
    'xor': ('cilk::reducer<cilk::op_xor<unsigned long>> {r}(0);',
            '*{r} ^= leaf({i}, s);', '{r}.get_value()'),
    'or': ('cilk::reducer<cilk::op_or<unsigned long>> {r}(0);',
           '*{r} |= 1UL << ({i} % 64);', '{r}.get_value()'),
    'and': ('cilk::reducer<cilk::op_and<unsigned long>> {r}(~0UL);',
            '*{r} &= ~(1UL << ({i} % 64)) | leaf({i}, s);', '{r}.get_value()'),
    'c_opadd': ('CILK_C_REDUCER_OPADD({r}, ulong, 0);\nCILK_C_REGISTER_REDUCER({r});',
                'REDUCER_VIEW({r}) += leaf({i}, s);', 'REDUCER_VIEW({r})'),
    'c_xor': ('CILK_C_REDUCER_OPXOR({r}, ulong, 0);\nCILK_C_REGISTER_REDUCER({r});',
              'REDUCER_VIEW({r}) ^= leaf({i}, s);', 'REDUCER_VIEW({r})'),
    'c_max': ('CILK_C_REDUCER_MAX({r}, ulong, 0);\nCILK_C_REGISTER_REDUCER({r});',
              'CILK_C_REDUCER_MAX_CALC(REDUCER_VIEW({r}), leaf({i}, s));',
              'REDUCER_VIEW({r})'),
}


class Gen:
    def __init__(self, rng, lang, features):
        self.r = rng
        self.lang = lang
        self.cxx = lang == 'c++'
        self.features = features
        self.nfns = rng.randint(3, 5)
        self.sites = {}           # fn index -> [(multiplicity, callee, dec)]
        self.counter = 0
        self.helpers = []         # extra top-level definitions
        self.helper_names = set()

    def fresh(self, stem):
        self.counter += 1
        return '%s%d' % (stem, self.counter)

    def on(self, f):
        return f in self.features

    # -- recursion -------------------------------------------------------
    def call(self, fn, mult=1, lo=1):
        """A call of a spawning function (or a leaf) from function fn, with
        a smaller n; notes the site for cost()."""
        dec = self.r.randint(lo, 3)
        callee = self.r.randrange(self.nfns)
        if self.r.random() < 0.25:
            return 'leaf(n - %d, %s)' % (dec, self.seed_expr())
        self.sites.setdefault(fn, []).append((mult, callee, dec))
        return 'f%d(n - %d, %s)' % (callee, dec, self.seed_expr())

    def seed_expr(self):
        return 'mixu(s, %du)' % self.r.randint(1, 999)

    # -- blocks ----------------------------------------------------------
    def block(self, fn):
        kinds = [k for k in ['spawn', 'for', 'scope', 'stmt', 'reducer',
                             'vector', 'aligned', 'template', 'lambda', 'vla']
                 if self.on(k)]
        kind = self.r.choice(kinds)
        return getattr(self, 'b_' + kind)(fn)

    def b_spawn(self, fn):
        k = self.r.randint(1, 3)
        names = [self.fresh('x') for _ in range(k)]
        lines = []
        for i, x in enumerate(names):
            form = self.r.randrange(4)
            if form == 0:
                lines.append('unsigned long %s = cilk_spawn %s;' % (x, self.call(fn)))
            elif form == 1:
                lines.append('unsigned long %s;' % x)
                lines.append('%s = cilk_spawn %s;' % (x, self.call(fn)))
            elif form == 2:
                lines.append('unsigned long %s;' % x)
                lines.append('cilk_spawn oleaf(n, %s, &%s);' % (self.seed_expr(), x))
            else:
                lines.append('unsigned %s = cilk_spawn ileaf(n, %s);' % (x, self.seed_expr()))
        lines.append('acc = mixu(acc, %s);' % self.call(fn))
        lines.append('cilk_sync;')
        for x in names:
            lines.append('acc = mixu(acc, %s);' % x)
        return lines

    # cilk_for in its forms
    def loop_header(self, var, count):
        """A cilk_for header running `count` iterations, and the expression
        of the iteration's number (0..count-1) in terms of var."""
        r = self.r
        types = ['int', 'long', 'unsigned', 'unsigned long', 'long long',
                 'size_t']
        t = r.choice(types)
        signed = t in ('int', 'long', 'long long')
        step = r.choice([1, 1, 1, 2, 3])
        down = r.random() < 0.3
        lo = r.randint(0, 5) if not signed else r.randint(-5, 5)
        hi = lo + step * count
        cast = '(long)'
        if not down:
            cond = r.choice(['<', '<=', '!='])
            bound = hi if cond != '<=' else hi - 1
            if cond == '<=' and step > 1:
                bound = hi - step
            if step == 1:
                inc = r.choice(['++%s' % var, '%s++' % var, '%s += 1' % var])
            else:
                inc = r.choice(['%s += %d' % (var, step),
                                '%s = %s + %d' % (var, var, step)])
            header = 'cilk_for (%s %s = %d; %s %s %d; %s)' % (
                t, var, lo, var, cond, bound, inc)
            index = '(%s%s - %d) / %d' % (cast, var, lo, step)
        else:
            # from hi down to lo (exclusive of lo - ... ), unsigned-safe
            start = hi
            cond = r.choice(['>', '!='] + ([] if not signed else ['>=']))
            bound = lo if cond != '>=' else lo + 1
            if cond == '>=' and step > 1:
                bound = lo + step
            if step == 1:
                inc = r.choice(['--%s' % var, '%s--' % var, '%s -= 1' % var])
            else:
                inc = r.choice(['%s -= %d' % (var, step),
                                '%s = %s - %d' % (var, var, step)])
            header = 'cilk_for (%s %s = %d; %s %s %d; %s)' % (
                t, var, start, var, cond, bound, inc)
            index = '(%d - %s%s) / %d' % (start, cast, var, step)
        pragma = None
        if r.random() < 0.3:
            pragma = r.choice(['#pragma cilk grainsize %d' % r.randint(1, 8),
                               '#pragma cilk grainsize = %d' % r.randint(1, 8)])
        return header, index, pragma

    def b_for(self, fn):
        r = self.r
        count = r.randint(1, 40)
        out = self.fresh('out')
        var = self.fresh('i')
        lines = ['unsigned long %s[%d] = {0};' % (out, count)]
        form = r.randrange(7 if self.cxx else 4)
        if form <= 1:
            header, index, pragma = self.loop_header(var, count)
            if pragma:
                lines.append(pragma)
            lines.append(header + ' {')
            lines.append('  long k = %s;' % index)
            if form == 0:
                lines.append('  %s[k] = leaf(k, %s);' % (out, self.seed_expr()))
            else:
                # a body that spawns: syncs only its own children
                c = self.call(fn, mult=count, lo=2)
                lines.append('  unsigned long a = cilk_spawn ileaf(k, s);')
                lines.append('  unsigned long b = k %% 3 == 0 ? %s : leaf(k, s);' % c)
                lines.append('  cilk_sync;')
                lines.append('  %s[k] = mixu(a, b);' % out)
            lines.append('}')
        elif form == 2:
            # nested
            inner = r.randint(1, 6)
            j = self.fresh('j')
            grid = self.fresh('grid')
            lines.append('unsigned long %s[%d][%d];' % (grid, count, inner))
            h1, i1, p1 = self.loop_header(var, count)
            h2, i2, p2 = self.loop_header(j, inner)
            if p1:
                lines.append(p1)
            lines.append(h1 + ' {')
            lines.append('  long k = %s;' % i1)
            if p2:
                lines.append('  ' + p2)
            lines.append('  ' + h2 + ' {')
            lines.append('    long m = %s;' % i2)
            lines.append('    %s[k][m] = leaf(k * 7 + m, s);' % grid)
            lines.append('  }')
            lines.append('  unsigned long h = 0;')
            lines.append('  for (int m = 0; m < %d; ++m) h = mixu(h, %s[k][m]);' % (inner, grid))
            lines.append('  %s[k] = h;' % out)
            lines.append('}')
        elif form == 3:
            # over pointers
            src = self.fresh('src')
            lines.append('unsigned long %s[%d];' % (src, count))
            lines.append('for (int q = 0; q < %d; ++q) %s[q] = leaf(q, s);' % (count, src))
            p = self.fresh('p')
            if r.random() < 0.5:
                lines.append('cilk_for (unsigned long *%s = %s; %s < %s + %d; ++%s)' % (p, src, p, src, count, p))
            else:
                lines.append('cilk_for (unsigned long *%s = %s + %d; %s != %s; --%s)' % (p, src, count, p, src, p))
                lines.append('  %s[%s - %s - 1] = mixu(%s[-1], 3u);' % (out, p, src, p))
                lines.append('for (int q = 0; q < %d; ++q) acc = mixu(acc, %s[q]);' % (count, out))
                return lines
            lines.append('  %s[%s - %s] = mixu(*%s, 3u);' % (out, p, src, p))
        elif form == 4:
            # C++: iterators of a vector
            v = self.fresh('vec')
            lines.append('std::vector<unsigned long> %s(%d);' % (v, count))
            lines.append('for (int q = 0; q < %d; ++q) %s[q] = leaf(q, s);' % (count, v))
            it = self.fresh('it')
            if r.random() < 0.5:
                lines.append('cilk_for (auto %s = %s.begin(); %s != %s.end(); ++%s)' % (it, v, it, v, it))
            else:
                lines.append('cilk_for (std::vector<unsigned long>::iterator %s = %s.begin(); %s < %s.end(); %s += 1)' % (it, v, it, v, it))
            lines.append('  %s[%s - %s.begin()] = mixu(*%s, 5u);' % (out, it, v, it))
        elif form == 6:
            # C++: the library form, with and without a grain
            grain = r.choice(['', ', %d' % r.randint(1, 9)])
            lines.append('weft::parallel_for(0L, %dL, [&](long k) { %s[k] = leaf(k, mixu(s, 13u)); }%s);'
                         % (count, out, grain))
        else:
            # C++: a range, by reference (writes each element) or by value
            v = self.fresh('vec')
            lines.append('std::vector<unsigned long> %s(%d);' % (v, count))
            lines.append('for (int q = 0; q < %d; ++q) %s[q] = leaf(q, s);' % (count, v))
            e = self.fresh('e')
            lines.append('cilk_for (auto &%s : %s)' % (e, v))
            lines.append('  %s = mixu(%s, 9u);' % (e, e))
            lines.append('for (int q = 0; q < %d; ++q) %s[q] = %s[q];' % (count, out, v))
        lines.append('for (int q = 0; q < %d; ++q) acc = mixu(acc, %s[q]);' % (count, out))
        return lines

    def b_scope(self, fn):
        a, b = self.fresh('a'), self.fresh('b')
        lines = ['unsigned long %s = 0, %s = 0;' % (a, b),
                 'cilk_scope {',
                 '  %s = cilk_spawn %s;' % (a, self.call(fn)),
                 '  cilk_spawn oleaf(n, s, &%s);' % b]
        if self.r.random() < 0.5:
            c = self.fresh('c')
            lines += ['  unsigned long %s = 0;' % c,
                      '  cilk_scope { %s = cilk_spawn %s; }' % (c, self.call(fn)),
                      '  acc = mixu(acc, %s);' % c]
        lines += ['  acc = mixu(acc, leaf(n, 11u));', '}',
                  'acc = mixu(acc, mixu(%s, %s));' % (a, b)]
        return lines

    def b_stmt(self, fn):
        x, y, arr = self.fresh('x'), self.fresh('y'), self.fresh('arr')
        lines = ['unsigned long %s = 0, %s = 0;' % (x, y),
                 'unsigned long %s[4] = {1, 2, 3, 4};' % arr,
                 'cilk_spawn {',
                 '  %s = %s;' % (x, self.call(fn)),
                 '  %s = mixu(%s, 5u);' % (x, x),
                 '}']
        form = self.r.randrange(3)
        if form == 0:
            lines.append('cilk_spawn %s[%d]++;' % (arr, self.r.randrange(4)))
        elif form == 1:
            lines += ['cilk_spawn {',
                      '  cilk_spawn { %s = leaf(n, s); }' % y,
                      '  %s[0] = mixu(%s[0], 7u);' % (arr, arr),
                      '}']
        else:
            lines += ['for (int q = 1; q < 4; ++q)',
                      '  cilk_spawn { %s[q] = mixu(%s[q], (unsigned long)q); }' % (arr, arr)]
        lines += ['acc = mixu(acc, leaf(n, 3u));', 'cilk_sync;',
                  'acc = mixu(mixu(acc, %s), mixu(%s, %s[0] + %s[1] + %s[2] + %s[3]));'
                  % (x, y, arr, arr, arr, arr)]
        return lines

    # reducers
    def walker(self):
        """A spawning helper that pushes onto a Chain reducer through a
        pointer parameter (and, in C++, one through a reference)."""
        if 'walk_ptr' not in self.helper_names:
            self.helper_names.add('walk_ptr')
            self.helpers.append(r"""
static void walk_ptr(Chain cilk_reducer(chain_zero, chain_join) *r, long n,
                     unsigned long s) {
  if (n <= 0) {
    r->h = r->h * 1000003UL + s;
    r->len += 1;
    return;
  }
  cilk_spawn walk_ptr(r, n - 1, mixu(s, 1u));
  (*r).h = (*r).h * 1000003UL + leaf(n, s);
  (*r).len += 1;
  walk_ptr(r, n - 2, mixu(s, 2u));
}""")
        if self.cxx and 'walk_ref' not in self.helper_names:
            self.helper_names.add('walk_ref')
            self.helpers.append(r"""
static void walk_ref(Chain cilk_reducer(chain_zero, chain_join) &r, long n,
                     unsigned long s) {
  if (n <= 0)
    return;
  cilk_spawn walk_ref(r, n - 2, mixu(s, 3u));
  r.h = r.h * 1000003UL + s;
  r.len += 1;
  cilk_spawn walk_ref(r, n - 1, mixu(s, 4u));
  r.h = r.h * 1000003UL + leaf(n, s);
  r.len += 1;
}""")

    def chain_push(self, view, value):
        return '%s.h = %s.h * 1000003UL + (%s); %s.len += 1;' % (
            view, view, value, view)

    def b_reducer(self, fn):
        r = self.r
        count = r.randint(1, 60)
        kinds = ['chain_local', 'chain_ptr', 'ulong_local']
        if self.cxx:
            kinds += ['chain_ref', 'chain_member', 'opadd', 'plus_add',
                      'plus_opadd', 'plus_max', 'plus_min', 'list',
                      'prepend', 'mul', 'bitwise', 'max_index', 'ostream',
                      'ostream_plus']
        else:
            kinds += ['c_opadd', 'c_max', 'c_xor']
        kind = r.choice(kinds)
        i = self.fresh('i')
        body_spawns = r.random() < 0.3
        red = self.fresh('red')
        lines = []
        if kind in ('chain_local', 'chain_ptr', 'chain_ref', 'chain_member'):
            if kind == 'chain_member':
                holder = self.fresh('holder')
                lines.append('ChainHolder %s;' % holder)
                lines.append('chain_zero(&%s.c);' % holder)
                view = '%s.c' % holder
            else:
                view = red
                lines.append('Chain cilk_reducer(chain_zero, chain_join) %s;' % red)
                lines.append('chain_zero(&%s);' % red)
            lines.append('cilk_for (int %s = 0; %s < %d; ++%s) {' % (i, i, count, i))
            if body_spawns:
                lines.append('  cilk_spawn { %s }' % self.chain_push(view, 'leaf(%s, s)' % i))
                lines.append('  %s' % self.chain_push(view, 'ileaf(%s, s)' % i))
                lines.append('  cilk_sync;')
            else:
                lines.append('  %s' % self.chain_push(view, 'leaf(%s, s)' % i))
            lines.append('}')
            if kind == 'chain_ptr' or (kind == 'chain_ref' and self.cxx):
                self.walker()
                depth = r.randint(1, 6)
                if kind == 'chain_ptr':
                    lines.append('walk_ptr(&%s, %d, s);' % (red, depth))
                else:
                    lines.append('walk_ref(%s, %d, s);' % (red, depth))
            lines.append('acc = mixu(acc, mixu(%s.h, %s.len));' % (view, view))
            return lines
        if kind == 'ulong_local':
            lines.append('unsigned long cilk_reducer(ulong_zero, ulong_add) %s = 0;' % red)
            lines.append('cilk_for (long %s = 0; %s < %d; ++%s)' % (i, i, count, i))
            lines.append('  %s += leaf(%s, s);' % (red, i))
            lines.append('cilk_spawn { %s += leaf(n, s); }' % red)
            lines.append('%s += 1;' % red)
            lines.append('cilk_sync;')
            lines.append('acc = mixu(acc, %s);' % red)
            return lines
        if kind == 'ostream' or kind == 'ostream_plus':
            text = self.fresh('text')
            stream = ('cilk::ostream_reducer<char> %s(%s);' if kind == 'ostream'
                      else 'cilk::reducer_ostream %s(%s);') % (red, text)
            out = red if kind == 'ostream' else '*' + red
            return ['std::ostringstream %s;' % text, '{', '  ' + stream,
                    '  cilk_for (int %s = 0; %s < %d; ++%s) %s << ileaf(%s, s) << \' \';'
                    % (i, i, count, i, out, i),
                    '}', 'acc = mixu(acc, htext(%s.str()));' % text]
        if kind == 'bitwise':
            kind = r.choice(['xor', 'or', 'and'])
        if kind in ('plus_max', 'plus_min') and r.random() < 0.5:
            kind += '_1.0'
        decl, update, value = LIBRARY_REDUCERS[kind]
        fill = {'r': red, 'i': i}
        lines = [l.format(**fill) for l in decl.split('\n')]
        lines.append('cilk_for (int %s = 0; %s < %d; ++%s) %s' % (
            i, i, count, i, update.format(**fill)))
        lines.append('acc = mixu(acc, %s);' % value.format(**fill))
        if kind.startswith('c_'):
            lines.append('CILK_C_UNREGISTER_REDUCER(%s);' % red)
        return lines

    def b_vector(self, fn):
        a, b, k, h = (self.fresh('va'), self.fresh('vb'), self.fresh('vk'),
                      self.fresh('hx'))
        return ['v4u %s = v4leaf(n, s);' % k,
                'v8u %s = cilk_spawn v8leaf(n, %s);' % (b, self.seed_expr()),
                'v4u %s = cilk_spawn v4leaf(n + 1, s);' % a,
                'unsigned long %s = cilk_spawn hv4(%s);' % (h, k),
                'acc = mixu(acc, %s);' % self.call(fn),
                '%s = %s + %s;' % (k, k, k),
                'cilk_sync;',
                'acc = mixu(acc, hv4(%s) ^ hv4(%s) ^ hv8(%s) ^ %s);' % (a, k, b, h)]

    def b_aligned(self, fn):
        big, buf, res = self.fresh('big'), self.fresh('buf'), self.fresh('res')
        align = 'alignas(64)' if self.cxx else '_Alignas(64)'
        lines = ['Big %s;' % big,
                 '%s unsigned long %s[16];' % (align, buf),
                 'check_aligned(&%s, 64);' % big,
                 'check_aligned(%s, 64);' % buf,
                 'cilk_spawn bigfill(&%s, n, s);' % big,
                 'Big %s = cilk_spawn bigleaf(n, %s);' % (res, self.seed_expr()),
                 'for (int q = 0; q < 16; ++q) %s[q] = leaf(q, s);' % buf,
                 'acc = mixu(acc, %s);' % self.call(fn),
                 'cilk_sync;',
                 'check_aligned(&%s, 64);' % res,
                 'acc = mixu(acc, hbig(&%s) ^ hbig(&%s) ^ %s[15]);' % (big, res, buf)]
        return lines

    def b_template(self, fn):
        if 'tspawn' not in self.helper_names:
            self.helper_names.add('tspawn')
            self.helpers.append(r"""
template <typename T> static T tspawn(long n, unsigned long s) {
  if (n <= 0)
    return (T)leaf(n, s);
  T a = cilk_spawn tspawn<T>(n - 1, mixu(s, 1u));
  T b = tspawn<T>(n - 2, mixu(s, 2u));
  cilk_sync;
  return (T)mixu((unsigned long)a, (unsigned long)b);
}
template <typename T, int K> struct Box {
  T v[K];
  unsigned long fill(long n, unsigned long s) {
    cilk_for (int i = 0; i < K; ++i)
      v[i] = (T)leaf(n + i, s);
    unsigned long h = 0;
    for (int i = 0; i < K; ++i)
      h = mixu(h, (unsigned long)v[i]);
    return h;
  }
};""")
        d = self.r.randint(1, 7)
        k = self.r.randint(1, 9)
        x = self.fresh('t')
        return ['unsigned long %s = cilk_spawn tspawn<unsigned long>(%d, s);' % (x, d),
                'unsigned %s_u = tspawn<unsigned>(%d, s);' % (x, d),
                'Box<unsigned char, %d> %s_b;' % (k, x),
                'unsigned long %s_h = %s_b.fill(n, s);' % (x, x),
                'cilk_sync;',
                'acc = mixu(acc, mixu(%s, %s_u ^ %s_h));' % (x, x, x)]

    def b_lambda(self, fn):
        lam, x, y = self.fresh('lam'), self.fresh('x'), self.fresh('y')
        c = self.call(fn)
        form = self.r.randrange(3)
        if form == 0:
            return ['auto %s = [&](long m) -> unsigned long { return leaf(m, s) ^ acc; };' % lam,
                    'unsigned long %s = cilk_spawn %s(n);' % (x, lam),
                    'unsigned long %s = %s;' % (y, c),
                    'cilk_sync;',
                    'acc = mixu(acc, %s ^ %s);' % (x, y)]
        if form == 1:
            return ['auto %s = [s](long m) {' % lam,
                    '  unsigned long a = cilk_spawn leaf(m, s);',
                    '  unsigned long b = leaf(m + 1, s);',
                    '  cilk_sync;',
                    '  return mixu(a, b);',
                    '};',
                    'unsigned long %s = cilk_spawn %s(n);' % (x, lam),
                    'unsigned long %s = %s(n + 1);' % (y, lam),
                    'cilk_sync;',
                    'acc = mixu(acc, %s ^ %s);' % (x, y)]
        return ['auto %s = [](auto a, unsigned long t) {' % lam,
                '  auto x = cilk_spawn ileaf((long)a, t);',
                '  auto y = leaf((long)a, t);',
                '  cilk_sync;',
                '  return mixu(x, y);',
                '};',
                'unsigned long %s = cilk_spawn %s(n, s);' % (x, lam),
                'unsigned long %s = %s((int)n, s + 1);' % (y, lam),
                'cilk_sync;',
                'acc = mixu(acc, %s ^ %s);' % (x, y)]

    def b_vla(self, fn):
        v, m = self.fresh('vla'), self.fresh('len')
        i = self.fresh('i')
        return ['long %s = (long)(s %% 37u) + 1;' % m,
                'unsigned long %s[%s];' % (v, m),
                'cilk_spawn {',
                '  cilk_for (long %s = 0; %s < %s; ++%s) %s[%s] = leaf(%s, s);' % (i, i, m, i, v, i, i),
                '}',
                'acc = mixu(acc, %s);' % self.call(fn),
                'cilk_sync;',
                'cilk_spawn { %s[0] = mixu(%s[%s - 1], sizeof %s); }' % (v, v, m, v),
                'cilk_sync;',
                'for (long q = 0; q < %s; ++q) acc = mixu(acc, %s[q]);' % (m, v)]

    # -- program ---------------------------------------------------------
    def function(self, fn):
        body = []
        for _ in range(self.r.randint(2, 4)):
            body += self.block(fn)
        lines = ['static unsigned long f%d(long n, unsigned long s) {' % fn]
        if self.on('reducer'):
            # Every call, in the serial order, on a global reducer that
            # main reads once all is synced.
            lines.append('  ' + self.chain_push('trace', 'mixu(s, %d)' % fn))
        lines += ['  if (n <= 0)',
                  '    return leaf(n, s);',
                  '  unsigned long acc = s;']
        lines += ['  ' + l for l in body]
        lines += ['  return acc;', '}']
        return lines

    def cost(self, n, memo=None):
        """Calls of spawning functions made by each root f0..f(K-1) at n."""
        memo = {} if memo is None else memo

        def calls(fn, m):
            if m <= 0:
                return 1
            key = (fn, m)
            if key not in memo:
                memo[key] = 1 + sum(mult * calls(callee, m - dec)
                                    for mult, callee, dec in self.sites.get(fn, []))
            return memo[key]
        return max(calls(fn, n) for fn in range(self.nfns))

    def program(self, budget):
        fns = [self.function(k) for k in range(self.nfns)]
        n = 1
        while n < 12 and self.cost(n + 1) <= budget:
            n += 1
        out = [PRELUDE_CXX if self.cxx else PRELUDE_C]
        if self.on('reducer'):
            out.append('static Chain cilk_reducer(chain_zero, chain_join) trace;')
        out += self.helpers
        out += ['static unsigned long f%d(long n, unsigned long s);' % k
                for k in range(self.nfns)]
        for f in fns:
            out.append('')
            out += f
        out += ['', 'int main(void) {',
                '  unsigned long total = 0;',
                '  for (long n = 0; n <= %d; ++n) {' % n,
                '    unsigned long r = f%d(n, (unsigned long)n * 7u + 1u);'
                % self.r.randrange(self.nfns),
                '    printf("n=%ld %lu\\n", n, r);',
                '    total = mixu(total, r);',
                '  }']
        for k in range(self.nfns):
            out.append('  total = mixu(total, f%d(%d, 3u));' % (k, n))
        if self.on('reducer'):
            out.append('  printf("trace=%lu %lu\\n", trace.h, trace.len);')
        out += ['  printf("total=%lu aligned_bad=%lu\\n", total, aligned_bad);',
                '  return 0;', '}']
        return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--lang', choices=['c', 'c++'])
    ap.add_argument('--budget', type=int, default=DEFAULT_BUDGET)
    ap.add_argument('--without', default='')
    args = ap.parse_args()
    rng = random.Random(args.seed)
    lang = args.lang or ('c' if rng.random() < 0.35 else 'c++')
    without = set(w for w in args.without.split(',') if w)
    unknown = without - set(FEATURES)
    if unknown:
        sys.exit('gen_constructs: unknown construct(s): ' + ', '.join(sorted(unknown)))
    features = set(FEATURES) - without
    features -= (CXX_ONLY if lang == 'c' else C_ONLY)
    if not features:
        sys.exit('gen_constructs: nothing left to generate')
    sys.stdout.write(Gen(rng, lang, features).program(args.budget))


if __name__ == '__main__':
    main()
