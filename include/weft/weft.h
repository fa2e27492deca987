/*===- weft/weft.h - Weft's spawn and sync keywords ------------------------===*\
 *
 *   #include <weft/weft.h>
 *   long fib(long n) {
 *     if (n < 2) return n;
 *     long x = weft_spawn fib(n - 1);
 *     long y = fib(n - 2);
 *     weft_sync;
 *     return x + y;
 *   }
 *
 * weft_scope { ... } is a block whose end waits for every child spawned in
 * it, on every way out of the block (the end, break, continue, goto,
 * return).
 *
 * Compiled with the Weft plugin (weft-clang++, or clang -fplugin=...), the
 * plugin defines __weft__ and the keywords become pragmas that its front end
 * turns into spawns and syncs. Compiled by any other C or C++ compiler, the
 * keywords vanish and the program is its own serial elision.
 *
 * The attribute spelling means the same: [[weft::spawn]] x = f(n);,
 * [[weft::sync]]; and [[weft::scope]] { ... } (C++11 and C23 attribute
 * syntax).
 *
 * weft_for (int i = 0; i < n; ++i) body  runs the iterations in parallel
 * (OpenCilk's cilk_for; [[weft::parallel_for]] for (...) is the attribute
 * spelling). Without the plugin it is an ordinary for loop.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_WEFT_H
#define WEFT_WEFT_H

#if defined(__weft__)
#define weft_spawn _Pragma("weft spawn")
#define weft_sync _Pragma("weft sync")
#define weft_scope _Pragma("weft scope")
#define weft_for _Pragma("weft for") for
#else
#define weft_spawn
#define weft_sync
#define weft_scope
#define weft_for for
#endif

#endif /* WEFT_WEFT_H */
