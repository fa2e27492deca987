/* A false race under --weft-race: a spawned call that returns a struct
 * into an array element, in a loop.
 *
 *   weft-clang --weft-race -O2 -g race_spawn_result_temporary.c -o t && ./t
 *
 * should end with `weft-race: races found: 0` and status 0; it reports a
 * write/write race on the line of the spawn, 8 bytes at an address in
 * spawn_all's stack frame. At -O2 the call's result lands in a 16-byte
 * temporary of spawn_all (an alloca with lifetime.start/end around the
 * spawn) and is copied from there into part[i]; every iteration's child
 * writes the temporary at the same address, and the children are
 * logically parallel. The temporary is dead after each copy, so those
 * writes are no race: the shadow of a dead stack slot must be cleared at
 * its lifetime.end in race mode (or the temporary's accesses kept from
 * ThreadSanitizer, as the coroutine frame's are), not only the stack below
 * a returning call. lit-tests/cilk5/nqueens.c shows the same at -O2.
 */
#include <cilk/cilk.h>
#include <stdio.h>

struct pair {
  long a, b;
};

struct pair make(int i) {
  struct pair p = {i, 2 * i};
  return p;
}

void spawn_all(struct pair *part, int n) {
  for (int i = 0; i < n; ++i)
    part[i] = cilk_spawn make(i);
  cilk_sync;
}

int main(void) {
  struct pair part[8];
  spawn_all(part, 8);
  long sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += part[i].a + part[i].b;
  printf("%ld\n", sum);
  return 0;
}
