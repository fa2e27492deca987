// A pool allocator under the class and namespace names of parlaylib's
// (parlay::internal::pool_allocator and block_allocator), written for
// known_allocators.cpp: blocks recycled through per-worker free lists found
// through a thread-local index, large ones through one shared list, and a
// type_allocator<T> that asks block_allocator for its blocks directly.
// Nothing here tells the race detector anything: race mode recognises the
// four entry points by name (plugin/frontend/KnownAllocators.cpp).
#ifndef PARLAY_LIKE_POOL_H
#define PARLAY_LIKE_POOL_H

#include <atomic>
#include <cstddef>
#include <new>

namespace parlay {
namespace internal {

struct free_block {
  free_block *next;
};

inline std::atomic<int> next_worker_slot{0};
inline thread_local int worker_slot = -1;

inline int my_worker_slot(int slots) {
  if (worker_slot < 0)
    worker_slot = next_worker_slot.fetch_add(1) % slots;
  return worker_slot;
}

// Fixed-size blocks; the size is a field, as parlaylib's is.
struct block_allocator {
  static constexpr int kSlots = 4;
  struct worker_list {
    free_block *head = nullptr;
    std::size_t count = 0;
  };
  worker_list lists[kSlots];
  std::size_t block_size;
  std::size_t fresh = 0;

  explicit block_allocator(std::size_t bytes)
      : block_size(bytes < sizeof(free_block) ? sizeof(free_block) : bytes) {}

  void *alloc() {
    worker_list &mine = lists[my_worker_slot(kSlots)];
    if (!mine.head) {
      ++fresh;
      return ::operator new(block_size);
    }
    free_block *b = mine.head;
    mine.head = b->next;
    --mine.count;
    return b;
  }

  void free(void *p) {
    worker_list &mine = lists[my_worker_slot(kSlots)];
    mine.head = new (p) free_block{mine.head}; // the link, in the block
    ++mine.count;
  }
};

// Any size: small ones from a block_allocator, large ones from a shared
// list of blocks of one large size.
struct pool_allocator {
  static constexpr std::size_t kSmall = 64, kLarge = 4096;
  block_allocator small{kSmall};
  free_block *large_free = nullptr;
  std::size_t large_fresh = 0;

  void *allocate(std::size_t n) {
    if (n <= kSmall)
      return small.alloc();
    if (free_block *b = large_free) {
      large_free = b->next;
      return b;
    }
    ++large_fresh;
    return ::operator new(kLarge);
  }

  void deallocate(void *p, std::size_t n) {
    if (n <= kSmall)
      small.free(p);
    else
      large_free = new (p) free_block{large_free};
  }
};

} // namespace internal

template <typename T> struct type_allocator {
  static T *alloc() { return static_cast<T *>(allocator.alloc()); }
  static void free(T *p) { allocator.free(p); }
  static inline internal::block_allocator allocator{sizeof(T)};
};

} // namespace parlay

#endif // PARLAY_LIKE_POOL_H
