/*===- weft/race.h - Telling the race detector about a custom allocator ---===*\
 *
 * A pool allocator hands a block that one strand gave back to another
 * strand, which may be logically parallel with the first. To the
 * determinacy-race detector (`--weft-race`, docs/race.md) that looks like
 * two parallel strands sharing memory, and it is not: the block changed
 * owners, as a block of malloc's does between free and malloc. These two
 * calls tell the detector what the allocator did, as the race runtime's own
 * free does for glibc's heap:
 *
 *   __weft_race_alloc(p, n)   [p, p+n) was just handed out: a new block,
 *                             whose earlier accesses are forgotten (not
 *                             checked against anything).
 *   __weft_race_free(p, n)    [p, p+n) is being given back: the free is an
 *                             access that races with any logically parallel
 *                             access to the block (a child still reading
 *                             it), reported "between a read and a free" at
 *                             the call's line; then its history is
 *                             forgotten.
 *
 * The allocator's own bookkeeping (per-worker free lists found through a
 * thread_local, a lock-free stack of blocks, the link it writes into a
 * free block) is shared memory that the detector cannot tell apart from
 * the program's, so it belongs between __cilksan_disable_checking() and
 * __cilksan_enable_checking() of <cilk/cilksan.h>, or, in C++, in the scope
 * of a weft::race_unchecked:
 *
 *   void *pool_alloc(struct pool *p) {
 *     __cilksan_disable_checking();
 *     void *block = pop_free_list(p);        // bookkeeping: unchecked
 *     __cilksan_enable_checking();
 *     __weft_race_alloc(block, p->block_size);
 *     return block;
 *   }
 *   void pool_free(struct pool *p, void *block) {
 *     __weft_race_free(block, p->block_size);  // checked: before the link
 *     __cilksan_disable_checking();
 *     push_free_list(p, block);              // writes a link into block
 *     __cilksan_enable_checking();
 *   }
 *
 * Call __weft_race_free before the allocator writes into the block: the
 * free forgets the block's history, and a link written after it by the
 * unchecked bookkeeping leaves none.
 *
 * In a normal build these are inline no-ops. In a race-detector build
 * (`--weft-race`, which defines __weft_race__) they are the race runtime's
 * (runtime/analysis/race/allocator_api.cpp).
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_RACE_H
#define WEFT_RACE_H

#include <cilk/cilksan.h>
#include <stddef.h>

#ifdef __cplusplus
#define __WEFT_RACE_NOTHROW noexcept
extern "C" {
#else
#define __WEFT_RACE_NOTHROW /* C: nothing to say */
#endif

#ifdef __weft_race__
void __weft_race_alloc(void *p, size_t n) __WEFT_RACE_NOTHROW;
void __weft_race_free(void *p, size_t n) __WEFT_RACE_NOTHROW;
#else
static inline void __weft_race_alloc(void *p, size_t n) __WEFT_RACE_NOTHROW {
  (void)p;
  (void)n;
}
static inline void __weft_race_free(void *p, size_t n) __WEFT_RACE_NOTHROW {
  (void)p;
  (void)n;
}
#endif

#ifdef __cplusplus
} /* extern "C" */

namespace weft {

/// The detector's checking is off while one lives: an allocator's own
/// bookkeeping, in its scope, is neither checked nor recorded. Nests, as the
/// calls it makes do; an exception that leaves the scope turns checking
/// back on.
class race_unchecked {
public:
  race_unchecked() noexcept { __cilksan_disable_checking(); }
  ~race_unchecked() { __cilksan_enable_checking(); }
  race_unchecked(const race_unchecked &) = delete;
  race_unchecked &operator=(const race_unchecked &) = delete;
};

} // namespace weft
#endif

#undef __WEFT_RACE_NOTHROW

#endif /* WEFT_RACE_H */
