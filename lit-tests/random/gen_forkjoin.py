#!/usr/bin/env python3
"""Generate a random, race-free fork-join C++17 program for differential testing.

    gen_forkjoin.py --seed N [--budget CALLS] [--without CONSTRUCT,...]

prints one self-contained program that uses cilk_spawn / cilk_sync from
<cilk/cilk.h>. The same seed always gives the same program. Compiled with the
Weft plugin it must print exactly what its serial elision (plain clang++)
prints, at any worker count, with or without WEFT_STRESS; run_seeds.sh does
the comparison. --without leaves constructs out, to narrow down a failure
(the rest of the program changes too: the random choices shift).

What the programs contain: 3-6 spawning functions `long fK(long n, long s)`
plus optional helpers of other kinds (`void outK(long n, long s, long *out)`,
functions returning a small struct in registers or a larger one through sret,
functions returning std::string, and functions `thK` that throw a `Boom` for
some inputs). Every call of a spawning function passes a strictly smaller n
and every function returns a leaf value for n <= 0, so programs terminate;
the generator bounds the number of calls (see cost()) and picks the n each
root call starts from so that every program runs in a few milliseconds.

Statements mixed at random: `long x = cilk_spawn f(...)`; spawns into
existing locals, array elements, struct fields (directly and through a
pointer) and through pointers to parent locals; void spawns writing through
&local or &array[k]; spawns of leaves (one returning int), of lambdas held in
locals (capturing by value or by reference, some spawning themselves), and
through function pointers; spawns returning structs and std::string; spawns
inside for loops (one result slot per iteration, loop-carried locals) and in
if/else branches; syncs inside loops and branches; several syncs per
function with code between them; non-spawned calls of spawning functions;
std::vector / std::string locals alive across spawns (modified by the parent
in the continuation, or read by a child through a const reference); early
returns with children outstanding (the implicit sync); try blocks around
spawns of throwing functions, and throws in a continuation while children
are outstanding.

Race-freedom rules the generator enforces (so the output is deterministic
under Cilk semantics and equal to the serial elision's):
  * a location a child writes (its result slot or out-parameter) is neither
    read nor written by the parent until a sync that is certain to have
    joined that child (tracked conservatively: a sync inside a branch or a
    loop body only frees what was spawned inside it);
  * children write nothing but their own result slots / out-parameters, and
    two outstanding children never share one; a spawn inside a loop without a
    sync in its body writes only slot [i] of an array reserved for the loop;
  * what a child reads through a reference (a vector, a string, a lambda's
    by-reference captures, the lambda object itself) is not written by the
    parent until the sync, and a child spawned in a loop body that does not
    sync reads nothing by reference (the next iteration's parent code
    could write it while the child runs);
  * a block that declares a location a child writes or reads syncs before
    it ends;
  * exceptions: functions that may throw are only called inside try blocks
    (or from functions that may throw themselves); a catch sets a constant
    (which of several exceptions wins is not deterministic in Cilk); inside
    a try, the parent writes only variables declared in the try; and a try
    block is never entered while a child that may throw is outstanding (its
    exception could otherwise be caught by the try's sync, unlike in the
    serial elision).
All arithmetic on values is unsigned (mixu) so there is no signed overflow.

"""

import argparse
import random
import sys

MAXN = 16          # largest n a root call may start from
DEFAULT_BUDGET = 6000   # upper bound on calls of spawning functions per root
FEATURES = ['exceptions', 'throw', 'lambda', 'early', 'vector', 'string', 'fnptr',
            'struct', 'if', 'loop', 'out', 'rec']


PRELUDE = r"""#include <cilk/cilk.h>
#include <cstdio>
#include <string>
#include <vector>

static inline unsigned long mixu(unsigned long h, unsigned long v) {
  h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9UL;
  return h ^ (h >> 31);
}
static inline long mix(long a, long b) {
  return (long)mixu((unsigned long)a, (unsigned long)b);
}
struct Acc { long a, b, c; };
struct Pair { long lo, hi; };
struct Boom { long code; };
static long leaf(long a, long b) { return mix(a ^ 0x55, b); }
static int ileaf(long a) { return (int)((unsigned long)a % 1000u) - 500; }
static void vleaf(long a, long *out) { *out = mix(a, 17); }
static long tleaf(long a, long b) {
  if (mixu((unsigned long)a, (unsigned long)b) % 3 == 0)
    throw Boom{a};
  return mix(b, a);
}
static long vsum(const std::vector<long> &v, long k) {
  unsigned long h = (unsigned long)k;
  for (long e : v)
    h = mixu(h, (unsigned long)e);
  return (long)h;
}
static long hstr(const std::string &t) {
  unsigned long h = t.size();
  for (char ch : t)
    h = mixu(h, (unsigned char)ch);
  return (long)h;
}
static long hpair(Pair p) { return mix(p.lo, p.hi); }
static long hacc(Acc a) { return mix(mix(a.a, a.b), a.c); }
"""


class Fn:
    """One spawning function: its kind, signature and generated body."""

    def __init__(self, name, kind, may_throw):
        self.name = name
        self.kind = kind          # 'long', 'out', 'rec', 'str'
        self.may_throw = may_throw
        self.sites = []           # (multiplicity, target names, decrement)
        self.lines = []

    def ret_type(self, prog):
        return {'long': 'long', 'out': 'void', 'rec': prog.rec_type,
                'str': 'std::string'}[self.kind]

    def params(self):
        if self.kind == 'out':
            return 'long n, long s, long *out'
        return 'long n, long s'

    def proto(self, prog):
        return '%s %s(%s)' % (self.ret_type(prog), self.name, self.params())


class Scalar:
    """A long-valued location: key for race tracking, how to spell it."""

    def __init__(self, key, exprs, decl, ident=None):
        self.key = key
        self.exprs = exprs        # alternative spellings of the lvalue
        self.decl = decl          # block path where declared
        self.ident = ident        # plain identifier (capturable), or None


class BodyGen:
    """Generates one function body while tracking what children may touch."""

    def __init__(self, prog, fn, rng):
        self.prog = prog
        self.fn = fn
        self.rng = rng
        self.out = fn.lines
        self.ind = 1
        self.block_ids = 0
        self.path = (0,)
        self.counter = 0
        # race tracking
        self.pending = {}     # key -> path of the block the spawn was in
        self.rlocked = {}     # key -> path (children read it by reference)
        self.unconsumed = {}  # key -> (expr, kind, path) values to mix in
        self.throw_pending = False
        # locations in scope
        self.scalars = []     # Scalar
        self.arrays = []      # (name, size, decl)
        self.objects = []     # (name, 'vec'|'tag'|'pair', decl)
        self.lambdas = []     # (name, byref idents, targets, may_throw, decl)
        self.fnptrs = []      # (name, targets, may_throw)
        self.loopvars = []    # (name, trip max) of enclosing loops
        # context
        self.acc = 'h'
        self.try_path = None
        self.slot = None      # dict(var, arrays) inside a slot loop body
        self.mult = 1
        self.depth = 0

    # ---- small helpers -------------------------------------------------
    def emit(self, s):
        self.out.append('  ' * self.ind + s)

    def fresh(self, base):
        self.counter += 1
        return '%s%d' % (base, self.counter)

    def chance(self, p):
        return self.rng.random() < p

    def blocked(self, key):
        return key in self.pending

    def in_try_scope(self, decl):
        return self.try_path is None or decl[:len(self.try_path)] == self.try_path

    def can_write(self, key, decl):
        return (key not in self.pending and key not in self.rlocked
                and self.in_try_scope(decl))

    def arr_keys(self, name, size):
        return ['%s[%d]' % (name, k) for k in range(size)]

    def arr_free(self, name, size, write=False):
        for k in self.arr_keys(name, size):
            if k in self.pending or (write and k in self.rlocked):
                return False
        if any(k.startswith(name + '[') for k in self.pending):
            return False
        return True

    def may_throw_ctx(self):
        return self.fn.may_throw or self.try_path is not None

    # ---- expressions -------------------------------------------------------
    def readable(self):
        """Spellings of long values the parent may read now."""
        vals = ['s', 'n']
        for sc in self.scalars:
            if not self.blocked(sc.key):
                vals.append(self.rng.choice(sc.exprs))
        for name, size, _ in self.arrays:
            k = self.rng.randrange(size)
            if '%s[%d]' % (name, k) not in self.pending:
                vals.append('%s[%d]' % (name, k))
            if self.loopvars and self.arr_free(name, size):
                lv, tmax = self.loopvars[-1]
                if tmax <= size:
                    vals.append('%s[%s]' % (name, lv))
        for lv, _ in self.loopvars:
            vals.append(lv)
        vals.append('(long)' + self.acc)
        return vals

    def expr(self):
        vals = self.readable()
        a = self.rng.choice(vals)
        r = self.rng.random()
        if r < 0.35:
            return a
        if r < 0.75:
            return 'mix(%s, %s)' % (a, self.rng.choice(vals))
        if r < 0.9:
            return '(%s ^ %d)' % (a, self.rng.randrange(1, 1000))
        return '(%s & %d)' % (a, self.rng.choice([7, 255, 1023, 65535]))

    def cond(self):
        r = self.rng.random()
        if self.loopvars and r < 0.3:
            return '%s %% 2 == %d' % (self.loopvars[-1][0], self.rng.randrange(2))
        if r < 0.6:
            return '(mixu((unsigned long)%s, %d) & 3) %s 1' % (
                self.expr(), self.rng.randrange(100), self.rng.choice(['==', '!=', '<=']))
        return 'n %s %d' % (self.rng.choice(['>', '<', '==', '!=']), self.rng.randrange(1, 5))

    def dec(self):
        return self.rng.choice([1, 1, 1, 2, 2, 3])

    # ---- calls -------------------------------------------------------------
    def site(self, targets, dec):
        self.fn.sites.append((self.mult, tuple(targets), dec))

    def pick_fn(self, kind, allow_throw=None):
        if allow_throw is None:
            allow_throw = self.may_throw_ctx()
        cands = [f for f in self.prog.fns if f.kind == kind
                 and (allow_throw or not f.may_throw)]
        if not cands:
            return None
        # prefer throwers when allowed, so that try blocks see exceptions
        throwers = [f for f in cands if f.may_throw]
        if throwers and self.try_path is not None and self.chance(0.5):
            return self.rng.choice(throwers)
        return self.rng.choice(cands)

    def long_call(self, spawned):
        """A call returning a long (or int). Returns (text, locks, throws)."""
        return self._long_call(spawned)

    def _long_call(self, spawned):
        # In a loop body that does not sync (a slot loop), a child of one
        # iteration is still running while the next iteration's parent
        # code runs, which may write what the child reads by reference:
        # such children read nothing by reference there.
        by_ref_ok = not (spawned and self.slot is not None)
        opts = ['fn', 'fn', 'fn', 'leaf']
        if self.fnptrs:
            opts.append('fp')
        if self.lambdas:
            opts += ['lam', 'lam']
        if self.may_throw_ctx():
            opts += ['tleaf', 'fn']
        vecs = [o for o in self.objects if o[1] in ('vec', 'tag')]
        if vecs and by_ref_ok:
            opts.append('obj')
        kind = self.rng.choice(opts)
        if kind == 'fn':
            f = self.pick_fn('long')
            d = self.dec()
            self.site([f.name], d)
            return '%s(n - %d, %s)' % (f.name, d, self.expr()), [], f.may_throw
        if kind == 'leaf':
            if self.chance(0.4):
                return 'ileaf(%s)' % self.expr(), [], False
            return 'leaf(%s, %s)' % (self.expr(), self.expr()), [], False
        if kind == 'tleaf':
            return 'tleaf(%s, %s)' % (self.expr(), self.expr()), [], True
        if kind == 'fp':
            cands = [p for p in self.fnptrs if self.may_throw_ctx() or not p[2]]
            if cands:
                name, targets, mt = self.rng.choice(cands)
                d = self.dec()
                self.site(targets, d)
                return '%s(n - %d, %s)' % (name, d, self.expr()), [], mt
            return 'leaf(%s, 3)' % self.expr(), [], False
        if kind == 'lam':
            cands = [l for l in self.lambdas if (self.may_throw_ctx() or not l[3])
                     and not any(self.blocked(k) for k in l[1])
                     and (by_ref_ok or not l[1])]
            if cands:
                name, byref, targets, mt, _ = self.rng.choice(cands)
                d = self.dec()
                for t in targets:
                    self.site([t], d)
                return '%s(n - %d)' % (name, d), list(byref) + [name], mt
            return 'leaf(%s, 5)' % self.expr(), [], False
        name, what, _ = self.rng.choice(vecs)
        if what == 'vec':
            return 'vsum(%s, %s)' % (name, self.expr()), [name], False
        return 'hstr(%s)' % name, [name], False

    # ---- spawn destinations ------------------------------------------------
    def dests(self):
        """Existing long locations a child may write now."""
        if self.slot is not None:
            return []
        res = []
        for sc in self.scalars:
            if self.can_write(sc.key, sc.decl) and not sc.key.startswith('c'):
                res.append((sc.key, self.rng.choice(sc.exprs)))
        for name, size, decl in self.arrays:
            k = self.rng.randrange(size)
            key = '%s[%d]' % (name, k)
            if self.can_write(key, decl):
                res.append((key, key))
        return res

    def mark_spawn(self, key, expr, kind, locks, throws):
        self.pending[key] = self.path
        self.unconsumed[key] = (expr, kind, self.path)
        for k in locks:
            self.rlocked[k] = self.path
        if throws:
            self.throw_pending = True

    def lock_only(self, locks, throws):
        for k in locks:
            self.rlocked[k] = self.path
        if throws:
            self.throw_pending = True

    # ---- statements --------------------------------------------------------
    def st_spawn_long(self):
        if self.slot is not None:
            return self.st_slot_spawn()
        call, locks, throws = self.long_call(True)
        dests = self.dests()
        if dests and self.chance(0.55):
            key, expr = self.rng.choice(dests)
            self.emit('%s = cilk_spawn %s;' % (expr, call))
            self.mark_spawn(key, key if '[' in key else expr, 'long', locks, throws)
        else:
            x = self.fresh('x')
            self.emit('long %s = cilk_spawn %s;' % (x, call))
            self.scalars.append(Scalar(x, [x], self.path, x))
            self.mark_spawn(x, x, 'long', locks, throws)

    def st_spawn_out(self):
        if self.slot is not None:
            return self.st_slot_spawn()
        dests = self.dests()
        if not dests:
            return self.st_spawn_long()
        key, expr = self.rng.choice(dests)
        ptr = expr[1:] if expr.startswith('*') else '&' + expr
        outs = [f for f in self.prog.fns if f.kind == 'out'
                and (self.may_throw_ctx() or not f.may_throw)]
        if outs and self.chance(0.75):
            f = self.rng.choice(outs)
            d = self.dec()
            self.site([f.name], d)
            self.emit('cilk_spawn %s(n - %d, %s, %s);' % (f.name, d, self.expr(), ptr))
            throws = f.may_throw
        else:
            self.emit('cilk_spawn vleaf(%s, %s);' % (self.expr(), ptr))
            throws = False
        self.mark_spawn(key, key if '[' in key else expr, 'long', [], throws)

    def st_spawn_rec(self):
        fs = [f for f in self.prog.fns if f.kind in ('rec', 'str')]
        if not fs or self.slot is not None:
            return self.st_spawn_long()
        f = self.rng.choice(fs)
        d = self.dec()
        self.site([f.name], d)
        call = '%s(n - %d, %s)' % (f.name, d, self.expr())
        if f.kind == 'str':
            v = self.fresh('str')
            self.emit('std::string %s = cilk_spawn %s;' % (v, call))
            self.objects.append((v, 'res', self.path))
            self.mark_spawn(v, v, 'str', [], False)
            return
        free = [o for o in self.objects if o[1] == 'rec'
                and self.can_write(o[0], o[2])]
        if free and self.chance(0.5):
            v = free[0][0]
            self.emit('%s = cilk_spawn %s;' % (v, call))
        else:
            v = self.fresh('pr')
            self.emit('%s %s = cilk_spawn %s;' % (self.prog.rec_type, v, call))
            self.objects.append((v, 'res', self.path))
        self.mark_spawn(v, v, 'rec', [], False)

    def st_call(self):
        """A non-spawned call (possibly of a spawning function)."""
        r = self.rng.random()
        outs = [f for f in self.prog.fns if f.kind == 'out'
                and (self.may_throw_ctx() or not f.may_throw)]
        if r < 0.2 and outs:
            ws = [sc for sc in self.scalars if self.can_write(sc.key, sc.decl)]
            if ws:
                sc = self.rng.choice(ws)
                f = self.rng.choice(outs)
                d = self.dec()
                self.site([f.name], d)
                e = self.rng.choice(sc.exprs)
                ptr = e[1:] if e.startswith('*') else '&' + e
                self.emit('%s(n - %d, %s, %s);' % (f.name, d, self.expr(), ptr))
                return
        call, _, _ = self.long_call(False)
        ws = [sc for sc in self.scalars if self.can_write(sc.key, sc.decl)]
        if ws and self.chance(0.4):
            sc = self.rng.choice(ws)
            self.emit('%s = %s;' % (self.rng.choice(sc.exprs), call))
        else:
            self.emit('%s = mixu(%s, (unsigned long)%s);' % (self.acc, self.acc, call))

    def st_compute(self):
        ws = [sc for sc in self.scalars if self.can_write(sc.key, sc.decl)]
        objs = [o for o in self.objects if o[1] in ('vec', 'tag')
                and self.can_write(o[0], o[2])]
        r = self.rng.random()
        if objs and r < 0.3:
            name, what, _ = self.rng.choice(objs)
            if what == 'vec':
                self.emit('%s.push_back(%s);' % (name, self.expr()))
            else:
                self.emit('%s += std::to_string(%s & 63);' % (name, self.expr()))
        elif ws and r < 0.75:
            sc = self.rng.choice(ws)
            e = self.rng.choice(sc.exprs)
            self.emit('%s = mix(%s, %s);' % (e, e, self.expr()))
        else:
            self.emit('%s = mixu(%s, (unsigned long)%s);' % (self.acc, self.acc, self.expr()))

    def st_lambda(self):
        """Declare a lambda in this block (spawned or called later)."""
        if self.slot is not None or 'lambda' in self.prog.off:
            return self.st_compute()
        name = self.fresh('lam')
        idents = [sc for sc in self.scalars if sc.ident and not self.blocked(sc.key)
                  and not sc.ident.startswith('c')]
        byval = ['s']
        byref = []
        for sc in self.rng.sample(idents, min(len(idents), self.rng.randrange(3))):
            if self.chance(0.5):
                byref.append(sc.ident)
            else:
                byval.append(sc.ident)
        mt = self.may_throw_ctx() and self.chance(0.5)
        longs = [f for f in self.prog.fns if f.kind == 'long' and (mt or not f.may_throw)]
        t1 = self.rng.choice(longs)
        t2 = self.rng.choice(longs)
        caps = ', '.join(byval + ['&' + r for r in byref])
        vals = byval + byref
        if self.chance(0.4):
            body = ('long a = cilk_spawn %s(m, %s); long b = %s(m, %s); cilk_sync; '
                    'return mix(a, b);' % (t1.name, self.rng.choice(vals), t2.name,
                                          self.rng.choice(vals)))
            targets = [t1.name, t2.name]
        else:
            body = 'return mix(%s(m, %s), %s);' % (t1.name, self.rng.choice(vals),
                                                 self.rng.choice(vals))
            targets = [t1.name]
        self.emit('auto %s = [%s](long m) -> long { %s };' % (name, caps, body))
        self.lambdas.append((name, byref, targets,
                             t1.may_throw or (len(targets) > 1 and t2.may_throw), self.path))

    def st_early_return(self):
        if self.fn.kind != 'long' or self.depth != 0 or 'early' in self.prog.off:
            return self.st_compute()
        self.emit('if (%s)' % self.cond())
        self.emit('  return (long)mixu(%s, %d);' % (self.acc, self.rng.randrange(1000)))

    def st_throw(self):
        self.emit('if (mixu((unsigned long)s, (unsigned long)n + %d) %% 4 == 0)'
                  % self.rng.randrange(100))
        self.emit('  throw Boom{n};')

    def simple(self):
        r = self.rng.random()
        if r < 0.30:
            self.st_spawn_long()
        elif r < 0.42:
            self.st_spawn_out()
        elif r < 0.50:
            self.st_spawn_rec()
        elif r < 0.64:
            self.st_call()
        elif r < 0.82:
            self.st_compute()
        elif r < 0.93:
            self.st_lambda()
        else:
            self.st_early_return()

    # ---- sync and blocks -------------------------------------------------
    def within(self, p):
        return p[:len(self.path)] == self.path

    def sync(self):
        self.emit('cilk_sync;')
        self.throw_pending = False
        for d in (self.pending, self.rlocked):
            for k in [k for k, p in d.items() if self.within(p)]:
                del d[k]
        self.consume()

    def consume(self):
        for key in sorted(self.unconsumed):
            expr, kind, _ = self.unconsumed[key]
            if key in self.pending or (kind == 'arr' and any(
                    k.startswith(key + '[') for k in self.pending)):
                continue
            if not self.in_try_scope(self.decl_of(key)):
                continue
            self.emit_mix(expr, kind)
            del self.unconsumed[key]

    def decl_of(self, key):
        base = key.split('[')[0].split('.')[0]
        for sc in self.scalars:
            if sc.key == key:
                return sc.decl
        for name, _, decl in self.arrays:
            if name == base:
                return decl
        for o in self.objects:
            if o[0] == base:
                return o[2]
        return (0,)

    def emit_mix(self, expr, kind):
        if kind == 'long':
            v = expr
        elif kind == 'str':
            v = 'hstr(%s)' % expr
        elif kind == 'arr':
            name, size = expr
            self.emit('for (long k = 0; k < %d; ++k)' % size)
            self.emit('  %s = mixu(%s, (unsigned long)%s[k]);' % (self.acc, self.acc, name))
            return
        else:
            if self.chance(0.5):   # by value: a copy of the whole struct
                v = '%s(%s)' % ('hpair' if self.prog.rec_type == 'Pair' else 'hacc', expr)
            else:
                fields = ('lo', 'hi') if self.prog.rec_type == 'Pair' else ('a', 'b', 'c')
                for f_ in fields:
                    self.emit('%s = mixu(%s, (unsigned long)%s.%s);'
                              % (self.acc, self.acc, expr, f_))
                return
        self.emit('%s = mixu(%s, (unsigned long)%s);' % (self.acc, self.acc, v))

    def open_block(self):
        self.block_ids += 1
        self.path = self.path + (self.block_ids,)
        self.ind += 1
        self.depth += 1
        return (len(self.scalars), len(self.arrays), len(self.objects), len(self.lambdas))

    def close_block(self, mark):
        """Sync if anything declared in this block is still in a child's hands."""
        mine = [k for k in list(self.pending) + list(self.rlocked)
                if self.decl_of(k) == self.path]
        mine += [l[0] for l in self.lambdas[mark[3]:] if l[0] in self.rlocked]
        if mine or any(self.unconsumed[k][2] == self.path and self.decl_of(k) == self.path
                       for k in self.unconsumed):
            self.sync()
        ns, na, no, nl = mark
        del self.scalars[ns:]
        del self.arrays[na:]
        del self.objects[no:]
        del self.lambdas[nl:]
        self.path = self.path[:-1]
        self.ind -= 1
        self.depth -= 1

    def snapshot(self):
        return (dict(self.pending), dict(self.rlocked), dict(self.unconsumed),
                self.throw_pending)

    def restore(self, snap):
        (self.pending, self.rlocked, self.unconsumed, self.throw_pending) = (
             dict(snap[0]), dict(snap[1]), dict(snap[2]), snap[3])

    def merge(self, a, b):
        self.pending = dict(a[0]); self.pending.update(b[0])
        self.rlocked = dict(a[1]); self.rlocked.update(b[1])
        self.unconsumed = dict(a[2]); self.unconsumed.update(b[2])
        self.throw_pending = a[3] or b[3]

    def stmts(self, count):
        for _ in range(count):
            self.compound_or_simple()

    def compound_or_simple(self):
        r = self.rng.random()
        off = self.prog.off
        if self.depth < 2 and r < 0.12 and 'if' not in off:
            self.st_if()
        elif self.depth < 1 and r < 0.24 and self.slot is None and 'loop' not in off:
            self.st_loop()
        elif (self.depth < 2 and r < 0.30 and self.try_path is None and self.slot is None
              and 'exceptions' not in off):
            self.st_try()
        elif r < 0.36 and self.slot is None:
            self.sync()
        else:
            self.simple()

    def st_if(self):
        self.emit('if (%s) {' % self.cond())
        before = self.snapshot()
        m = self.open_block()
        self.stmts(self.rng.randrange(1, 3))
        if self.slot is None and self.chance(0.3):
            self.sync()
        self.close_block(m)
        then = self.snapshot()
        self.restore(before)
        if self.chance(0.7):
            self.emit('} else {')
            m = self.open_block()
            self.stmts(self.rng.randrange(1, 3))
            if self.slot is None and self.chance(0.3):
                self.sync()
            self.close_block(m)
        self.emit('}')
        self.merge(then, self.snapshot())

    # slot loops: no sync in the body, each iteration writes slot [i]
    def st_slot_spawn(self):
        var, arrays = self.slot['var'], self.slot['arrays']
        free = [a for a in arrays if '%s[%s]' % (a, var) not in self.pending]
        if not free:
            return self.st_compute()
        a = self.rng.choice(free)
        slot = '%s[%s]' % (a, var)
        r = self.rng.random()
        outs = [f for f in self.prog.fns if f.kind == 'out'
                and (self.may_throw_ctx() or not f.may_throw)]
        throws = False
        if r < 0.25 and outs:
            f = self.rng.choice(outs)
            d = self.dec()
            self.site([f.name], d)
            self.emit('cilk_spawn %s(n - %d, %s, &%s);' % (f.name, d, self.expr(), slot))
            throws = f.may_throw
        elif r < 0.35:
            self.emit('cilk_spawn vleaf(%s, &%s);' % (self.expr(), slot))
        else:
            call, locks, throws = self.long_call(True)
            self.emit('%s = cilk_spawn %s;' % (slot, call))
            self.lock_only(locks, False)
        self.pending[slot] = self.path
        if throws:
            self.throw_pending = True

    def st_loop(self):
        tmax = self.rng.randrange(2, 5)
        trip = self.rng.choice(['%d' % tmax, '(n %% %d) + 1' % tmax,
                                '(s & 1) + %d' % (tmax - 1)])
        var = self.fresh('i')
        c = self.fresh('c')
        self.emit('long %s = %s;' % (c, self.expr()))
        self.scalars.append(Scalar(c, [c], self.path, c))
        slot_arrays = [a for a, size, decl in self.arrays
                       if size >= tmax and self.arr_free(a, size, write=True)
                       and self.in_try_scope(decl)]
        use_slot = slot_arrays and self.chance(0.6)
        saved_mult = self.mult
        self.emit('for (long %s = 0; %s < %s; ++%s) {' % (var, var, trip, var))
        if use_slot:
            chosen = self.rng.sample(slot_arrays, min(len(slot_arrays), self.rng.randrange(1, 3)))
            loop_path = self.path
            for a in chosen:
                size = [s for n_, s, _ in self.arrays if n_ == a][0]
                for k in self.arr_keys(a, size):
                    self.pending[k] = loop_path
            m = self.open_block()
            self.mult *= tmax
            self.loopvars.append((var, tmax))
            self.slot = {'var': var, 'arrays': chosen}
            self.emit('%s = mix(%s, %s);' % (c, c, var))
            self.st_slot_spawn()
            for _ in range(self.rng.randrange(0, 3)):
                r = self.rng.random()
                if r < 0.3:
                    self.st_slot_spawn()
                elif r < 0.45:
                    self.emit('if (%s) {' % self.cond())
                    self.ind += 1
                    self.st_slot_spawn()
                    self.ind -= 1
                    self.emit('}')
                elif r < 0.7:
                    call, _, _ = self.long_call(False)
                    self.emit('%s = mix(%s, %s);' % (c, c, call))
                else:
                    self.st_compute()
            self.slot = None
            for a in chosen:
                self.pending.pop('%s[%s]' % (a, var), None)
            self.loopvars.pop()
            self.mult = saved_mult
            self.close_block(m)
            for a in chosen:
                size = [s for n_, s, _ in self.arrays if n_ == a][0]
                self.unconsumed[a] = ((a, size), 'arr', loop_path)
        else:
            m = self.open_block()
            self.mult *= tmax
            self.loopvars.append((var, tmax))
            self.emit('%s = mix(%s, %s);' % (c, c, var))
            self.stmts(self.rng.randrange(1, 4))
            self.sync()
            self.emit('%s = mix(%s, (long)%s);' % (c, c, self.acc))
            self.loopvars.pop()
            self.mult = saved_mult
            self.close_block(m)
        self.emit('}')
        self.emit('%s = mixu(%s, (unsigned long)%s);' % (self.acc, self.acc, c))

    def st_try(self):
        if self.throw_pending:
            self.sync()
        tr = self.fresh('tr')
        tacc = self.fresh('tacc')
        self.emit('long %s = 0;' % tr)
        self.emit('try {')
        saved_acc, saved_try = self.acc, self.try_path
        m = self.open_block()
        self.try_path = self.path
        self.emit('unsigned long %s = %d;' % (tacc, self.rng.randrange(1000)))
        self.acc = tacc
        # at least one spawn of something that may throw
        x = self.fresh('x')
        ths = [f for f in self.prog.fns if f.kind == 'long' and f.may_throw]
        if ths and self.chance(0.7):
            f = self.rng.choice(ths)
            d = self.dec()
            self.site([f.name], d)
            self.emit('long %s = cilk_spawn %s(n - %d, %s);' % (x, f.name, d, self.expr()))
        else:
            self.emit('long %s = cilk_spawn tleaf(%s, %s);' % (x, self.expr(), self.expr()))
        self.scalars.append(Scalar(x, [x], self.path, x))
        self.mark_spawn(x, x, 'long', [], True)
        self.stmts(self.rng.randrange(1, 4))
        self.sync()
        self.emit('%s = (long)%s;' % (tr, tacc))
        self.close_block(m)
        self.try_path = saved_try
        self.acc = saved_acc
        if self.chance(0.5):
            self.emit('} catch (const Boom &) {')
        else:
            self.emit('} catch (...) {')
        self.emit('  %s = mix(n, %d);' % (tr, self.rng.randrange(1000)))
        self.emit('}')
        self.emit('%s = mixu(%s, (unsigned long)%s);' % (self.acc, self.acc, tr))

    # ---- whole function ----------------------------------------------------
    def generate(self):
        fn, prog = self.fn, self.prog
        self.out.append('%s {' % fn.proto(prog))
        base = 'leaf(s, n)'
        if fn.kind == 'long':
            self.emit('if (n <= 0)')
            self.emit('  return %s;' % base)
        elif fn.kind == 'out':
            self.emit('if (n <= 0) {')
            self.emit('  *out = %s;' % base)
            self.emit('  return;')
            self.emit('}')
        elif fn.kind == 'rec':
            self.emit('if (n <= 0)')
            if prog.rec_type == 'Pair':
                self.emit('  return Pair{s, n};')
            else:
                self.emit('  return Acc{s, n, 1};')
        else:
            self.emit('if (n <= 0)')
            self.emit('  return std::to_string(s & 4095);')
        self.emit('unsigned long h = mixu((unsigned long)s, %d);' % self.rng.randrange(1 << 20))
        top = self.path
        # locals
        for _ in range(self.rng.randrange(1, 4)):
            v = self.fresh('v')
            self.emit('long %s = %s;' % (v, self.expr()))
            self.scalars.append(Scalar(v, [v], top, v))
        if self.chance(0.6):
            sc = self.rng.choice(self.scalars)
            p = self.fresh('p')
            self.emit('long *%s = &%s;' % (p, sc.ident))
            sc.exprs.append('*' + p)
        for _ in range(self.rng.randrange(0, 3)):
            a = self.fresh('a')
            size = self.rng.randrange(4, 7)
            self.emit('long %s[%d];' % (a, size))
            self.emit('for (long k = 0; k < %d; ++k)' % size)
            self.emit('  %s[k] = mix(s, k);' % a)
            self.arrays.append((a, size, top))
        if self.chance(0.5) and 'struct' not in prog.off:
            st = self.fresh('st')
            self.emit('Acc %s = {n, s, %d};' % (st, self.rng.randrange(100)))
            ptr = None
            if self.chance(0.5):
                ptr = self.fresh('ps')
                self.emit('Acc *%s = &%s;' % (ptr, st))
            for f_ in 'abc':
                ex = ['%s.%s' % (st, f_)] + (['%s->%s' % (ptr, f_)] if ptr else [])
                self.scalars.append(Scalar('%s.%s' % (st, f_), ex, top))
        if self.chance(0.5) and 'vector' not in prog.off:
            v = self.fresh('vec')
            self.emit('std::vector<long> %s((unsigned long)(n %% 3) + 1, s);' % v)
            self.objects.append((v, 'vec', top))
        if self.chance(0.35) and 'string' not in prog.off:
            v = self.fresh('tag')
            self.emit('std::string %s = std::to_string(s & 1023);' % v)
            self.objects.append((v, 'tag', top))
        if any(f.kind == 'rec' for f in prog.fns) and self.chance(0.5):
            v = self.fresh('pq')
            init = '{n, s}' if prog.rec_type == 'Pair' else '{n, s, 0}'
            self.emit('%s %s = %s;' % (prog.rec_type, v, init))
            self.objects.append((v, 'rec', top))
        if self.chance(0.4) and 'fnptr' not in prog.off:
            fp = self.fresh('fp')
            mt = fn.may_throw and self.chance(0.5)
            longs = [f for f in prog.fns if f.kind == 'long' and (mt or not f.may_throw)]
            t1, t2 = self.rng.choice(longs), self.rng.choice(longs)
            self.emit('long (*%s)(long, long) = (%s) ? %s : %s;'
                      % (fp, self.cond(), t1.name, t2.name))
            self.fnptrs.append((fp, [t1.name, t2.name], t1.may_throw or t2.may_throw))
        if self.chance(0.3):
            self.st_lambda()
        # phases separated by syncs
        thrown = not fn.may_throw
        nphases = self.rng.randrange(2, 5)
        for ph in range(nphases):
            self.stmts(self.rng.randrange(1, 4))
            if not thrown and (ph == nphases - 1 or self.chance(0.4)) \
                    and 'throw' not in prog.off:
                self.st_throw()
                thrown = True
            if ph < nphases - 1 or self.chance(0.5):
                self.sync()
        self.sync()
        # fold every local in, now that all children are joined
        for sc in self.scalars:
            self.emit('h = mixu(h, (unsigned long)%s);' % sc.exprs[0])
        for a, size, _ in self.arrays:
            self.emit_mix((a, size), 'arr')
        for name, what, _ in self.objects:
            if what == 'vec':
                self.emit('h = mixu(h, (unsigned long)vsum(%s, 1));' % name)
            elif what == 'tag':
                self.emit('h = mixu(h, (unsigned long)hstr(%s));' % name)
            elif what == 'rec':
                self.emit_mix(name, 'rec')
        self.finish()
        self.out.append('}')

    def finish(self):
        fn, prog = self.fn, self.prog
        if fn.kind == 'long':
            self.emit('return (long)h;')
        elif fn.kind == 'out':
            longs = [f for f in prog.fns if f.kind == 'long' and not f.may_throw]
            if self.chance(0.35):
                # the implicit sync at return joins this child
                f = self.rng.choice(longs)
                self.site([f.name], 1)
                self.emit('*out = cilk_spawn %s(n - 1, (long)h);' % f.name)
            else:
                self.emit('*out = (long)h;')
        elif fn.kind == 'rec':
            if prog.rec_type == 'Pair':
                self.emit('return Pair{(long)h, mix((long)h, n)};')
            else:
                self.emit('return Acc{(long)h, n, mix((long)h, s)};')
        else:
            self.emit('return std::to_string(h % 100003) + "/" + std::to_string(n);')


class Program:
    def __init__(self, seed, budget, off=()):
        self.off = set(off)
        self.rng = random.Random(seed)
        self.seed = seed
        self.budget = budget
        rng = self.rng
        self.rec_type = rng.choice(['Pair', 'Acc'])
        self.fns = []
        nmain = rng.randrange(3, 7)
        for k in range(nmain):
            self.fns.append(Fn('f%d' % k, 'long', False))
        if rng.random() < 0.75 and 'out' not in self.off:
            self.fns.append(Fn('out0', 'out', False))
        if rng.random() < 0.5 and 'rec' not in self.off:
            self.fns.append(Fn('rec0', 'rec', False))
        if rng.random() < 0.4 and 'string' not in self.off:
            self.fns.append(Fn('str0', 'str', False))
        nthrow = rng.choice([0, 1, 1, 2])
        if 'exceptions' in self.off:
            nthrow = 0
        for k in range(nthrow):
            self.fns.append(Fn('th%d' % k, 'long', True))
        for f in self.fns:
            BodyGen(self, f, random.Random(rng.random())).generate()

    def cost(self):
        """cost[f][n]: an upper bound on the calls of spawning functions."""
        by = {f.name: f for f in self.fns}
        c = {f.name: [1] * (MAXN + 1) for f in self.fns}

        def at(name, n):
            return 1 if n <= 0 else c[name][n]

        for n in range(1, MAXN + 1):
            for f in self.fns:
                tot = 1
                for mult, targets, d in f.sites:
                    tot += mult * max(at(t, n - d) for t in targets)
                c[f.name][n] = min(tot, 10 ** 12)
        del by
        return c

    def render(self):
        rng = self.rng
        cost = self.cost()
        out = ['// Generated by gen_forkjoin.py --seed %d; compare with its serial elision.'
               % self.seed, PRELUDE]
        for f in self.fns:
            out.append('%s;' % f.proto(self))
        out.append('')
        for f in self.fns:
            out.extend(f.lines)
            out.append('')

        def start(f):
            n = 1
            while n < MAXN and cost[f.name][n + 1] <= self.budget:
                n += 1
            return n

        out.append('int main() {')
        out.append('  unsigned long total = 0;')
        roots = [f for f in self.fns]
        for f in roots:
            n = start(f)
            s = rng.randrange(1 << 30)
            if f.kind == 'long':
                call = '%s(%d, %d)' % (f.name, n, s)
                val = 'r'
            elif f.kind == 'out':
                call = None
                val = 'r'
            elif f.kind == 'rec':
                call = '%s(%s(%d, %d))' % ('hpair' if self.rec_type == 'Pair' else 'hacc',
                                          f.name, n, s)
                val = 'r'
            else:
                call = 'hstr(%s(%d, %d))' % (f.name, n, s)
                val = 'r'
            out.append('  {')
            out.append('    long r = 0;')
            body = ('%s(%d, %d, &r);' % (f.name, n, s)) if call is None else ('r = %s;' % call)
            if f.may_throw:
                out.append('    try {')
                out.append('      ' + body)
                out.append('    } catch (const Boom &) {')
                out.append('      r = -1;')
                out.append('    }')
            else:
                out.append('    ' + body)
            out.append('    printf("%s(%d) %%ld\\n", %s);' % (f.name, n, val))
            out.append('    total = mixu(total, (unsigned long)r);')
            out.append('  }')
        # main spawns too
        longs = [f for f in self.fns if f.kind == 'long' and not f.may_throw]
        a, b = rng.choice(longs), rng.choice(longs)
        na, nb = max(1, start(a) - 1), max(1, start(b) - 1)
        out.append('  long m1 = cilk_spawn %s(%d, 7);' % (a.name, na))
        out.append('  long m2 = %s(%d, 11);' % (b.name, nb))
        out.append('  cilk_sync;')
        out.append('  total = mixu(mixu(total, (unsigned long)m1), (unsigned long)m2);')
        out.append('  printf("total %lu\\n", total);')
        out.append('  return 0;')
        out.append('}')
        return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--budget', type=int, default=DEFAULT_BUDGET,
                    help='upper bound on spawning-function calls per root call')
    ap.add_argument('--without', default='',
                    help='comma-separated constructs to leave out (for triage): '
                    + ','.join(FEATURES))
    args = ap.parse_args()
    off = [w for w in args.without.split(',') if w]
    for w in off:
        if w not in FEATURES:
            ap.error('unknown construct %r' % w)
    sys.stdout.write(Program(args.seed, args.budget, off).render())


if __name__ == '__main__':
    main()
