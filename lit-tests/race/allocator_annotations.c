/* Verify <weft/race.h>'s allocator annotations: a pool allocator whose
 * per-worker free lists are found through a thread-local index, and whose
 * blocks are recycled between logically parallel children, tells the
 * detector about its blocks (__weft_race_alloc, __weft_race_free) and
 * keeps its bookkeeping unchecked (<cilk/cilksan.h>'s switch in C,
 * weft::race_unchecked in C++). The recycling is then no race: neither
 * the lists nor a block that passes from one child to the next is
 * reported. A real race on a pooled block still is: a child still reading
 * a block that the continuation gives back to the pool is one race,
 * "between a read and a free", at both lines. In C and C++, at -O0 and
 * -O2; a normal build runs it too (the calls are no-ops).
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 1 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 1 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O0 -g %s -o %t0cxx
 * RUN: %expect-races 1 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 1 66 %t2cxx | FileCheck %s
 * RUN: %weftcc -O2 %s -o %tn && %tn | FileCheck --check-prefix=NORMAL %s
 * CHECK: sums 2016 64 blocks 1
 * NORMAL: sums 2016 64 blocks 1
 * CHECK: race on {{.*}} between a read and a free
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <stdlib.h>
#include <weft/race.h>

#ifdef __cplusplus
#define THREAD_LOCAL thread_local
#else
#define THREAD_LOCAL _Thread_local
#endif

enum { kWorkers = 4, kLongs = 8, kBlockBytes = kLongs * sizeof(long) };

struct free_block {
  struct free_block *next;
};

/* One free list per worker, in a shared array: a worker finds its own
 * through a thread-local index. */
static struct worker_list {
  struct free_block *head;
  long count;
} lists[kWorkers];
static THREAD_LOCAL int my_list = -1;
static int next_list;
static long fresh_blocks;

static struct worker_list *mine(void) {
  if (my_list < 0)
    my_list = __atomic_fetch_add(&next_list, 1, __ATOMIC_RELAXED) % kWorkers;
  return &lists[my_list];
}

static long *pop_free_list(void) {
  struct worker_list *list = mine();
  struct free_block *b = list->head;
  if (!b) {
    ++fresh_blocks;
    return (long *)malloc(kBlockBytes);
  }
  list->head = b->next;
  --list->count;
  return (long *)b;
}

static void push_free_list(long *p) {
  struct worker_list *list = mine();
  struct free_block *b = (struct free_block *)p;
  b->next = list->head; /* a link written into the block */
  list->head = b;
  ++list->count;
}

__attribute__((noinline)) long sum(const long *p) {
  long s = 0;
  for (int i = 0; i < kLongs; ++i)
    s += p[i]; // CHECK: read of {{[0-9]+}} bytes in sum{{.*}}allocator_annotations.c:[[@LINE]]:
  return s;
}

static long *pool_get(void) {
  long *p;
#ifdef __cplusplus
  {
    weft::race_unchecked bookkeeping;
    p = pop_free_list();
  }
#else
  __cilksan_disable_checking();
  p = pop_free_list();
  __cilksan_enable_checking();
#endif
  __weft_race_alloc(p, kBlockBytes);
  return p;
}

static void pool_put(long *p) {
  __weft_race_free(p, kBlockBytes); // CHECK: free of 64 bytes in pool_put{{.*}}allocator_annotations.c:[[@LINE]]:
  __cilksan_disable_checking();
  push_free_list(p);
  __cilksan_enable_checking();
}

/* Each child takes a block from the pool, fills and sums it, and gives it
 * back: the next child, logically parallel, gets the same block. */
__attribute__((noinline)) void use_a_block(int i, long *result) {
  long *p = pool_get();
  for (int j = 0; j < kLongs; ++j)
    p[j] = i * kLongs + j;
  *result = sum(p);
  pool_put(p);
}

int main(void) {
  long results[kLongs];
  for (int i = 0; i < kLongs; ++i)
    cilk_spawn use_a_block(i, &results[i]);
  cilk_sync;
  long total = 0;
  for (int i = 0; i < kLongs; ++i)
    total += results[i];

  long *shared = pool_get();
  for (int j = 0; j < kLongs; ++j)
    shared[j] = 2 * j + 1;
  long read_by_child = cilk_spawn sum(shared);
  pool_put(shared); /* while the child may still read it: a race */
  cilk_sync;
  printf("sums %ld %ld blocks %ld\n", total, read_by_child, fresh_blocks);
  return 0;
}
