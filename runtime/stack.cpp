//===- stack.cpp - Fiber stacks and the switch protocol -------------------===//

#include "stack.h"

#include "cache_line.h"
#include "config.h"
#include "main_stack.h"
#include "occupancy.h"
#include "sanitizer_fibers.h"
#include "stack_budget.h"
#include "worker.h"

#include <cstdio>
#include <cstdlib>
#include <new>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace weft {

using boost::context::detail::jump_fcontext;
using boost::context::detail::make_fcontext;
using boost::context::detail::transfer_t;

namespace {

void asanStartSwitch(Stack *From, Stack *To) {
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(&From->asan_fake_stack, To->bottom, To->size);
}

void asanFinishSwitch(Stack *Arrived) {
  if (__sanitizer_finish_switch_fiber)
    __sanitizer_finish_switch_fiber(Arrived ? Arrived->asan_fake_stack : nullptr,
                                    nullptr, nullptr);
}

/// \p S left use: its unit of the budget goes back, and the stack to W's
/// free list, unless that already keeps enough; a worker that resumed many
/// parked stacks would otherwise keep them all mapped.
void recycle(Worker *W, Stack *S) {
  note_stack_returned(S);
  stack_budget().release();
  if (W->free_count >= kFreeStacksKept) {
    destroy_stack(S);
    return;
  }
  S->next_free = W->free_stacks;
  W->free_stacks = S;
  ++W->free_count;
}

/// A stack from W's free list, or a new one; in use from now on.
Stack *takeStack(Worker *W) {
  Stack *S = W->free_stacks;
  if (S) {
    W->free_stacks = S->next_free;
    --W->free_count;
  } else {
    S = create_scheduler_stack();
  }
  note_stack_taken(W, S);
  return S;
}

/// Runs on the stack we just switched to, with the stack we left: saves its
/// context, then carries out what the switcher asked for.
void finishSwitch(transfer_t From) {
  Worker *W = current_worker();
  asanFinishSwitch(W->current_stack);
  auto *Left = static_cast<Stack *>(From.data);
  Left->context = From.fctx;
  PendingAction Action = W->pending;
  W->pending = PendingAction::None;
  switch (Action) {
  case PendingAction::None:
    break;
  case PendingAction::Recycle:
    recycle(W, Left);
    break;
  case PendingAction::PublishPark: {
    Frame *F = W->pending_frame;
    std::uintptr_t Expected = 0;
    // Counted before the park word publishes Left, so before whoever
    // unparks it counts it out.
    note_parked();
    // Release: the saved context must be visible to the completer that
    // swaps kParkDone in and resumes Left. Acquire on failure: the slow
    // clone already completed, and we are about to resume Left ourselves.
    if (!F->park.compare_exchange_strong(
            Expected, reinterpret_cast<std::uintptr_t>(Left),
            std::memory_order_acq_rel, std::memory_order_acquire))
      make_ready(W, Left);
    break;
  }
  }
}

[[noreturn]] void schedulerEntry(transfer_t From) {
  finishSwitch(From);
  scheduler_loop();
}

std::size_t page_bytes() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

} // namespace

Stack *adopt_native_stack(Worker *Home) {
  auto *S = new Stack();
  S->home = Home;
  describe_native_stack(S);
  return S;
}

void describe_native_stack(Stack *S) {
#ifdef WEFT_TSAN_FIBERS
  S->tsan_fiber = __tsan_get_current_fiber();
#endif
  if (running_on_main_stack(&S->bottom, &S->size))
    return;
  pthread_attr_t Attr;
  if (pthread_getattr_np(pthread_self(), &Attr) != 0)
    return;
  void *Bottom = nullptr;
  std::size_t Size = 0;
  pthread_attr_getstack(&Attr, &Bottom, &Size);
  S->bottom = Bottom;
  S->size = Size;
  pthread_attr_destroy(&Attr);
}


char *map_guarded_stack(std::size_t Usable) {
  const std::size_t Page = page_bytes();
  void *Mapping = mmap(nullptr, Usable + Page, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                       -1, 0);
  if (Mapping == MAP_FAILED)
    return nullptr;
  if (mprotect(Mapping, Page, PROT_NONE) != 0) {
    munmap(Mapping, Usable + Page);
    return nullptr;
  }
  return static_cast<char *>(Mapping) + Page;
}

Stack *create_scheduler_stack() {
  const std::size_t Page = page_bytes();
  const std::size_t Bytes = config().stack_bytes + Page;
  char *Bottom = map_guarded_stack(config().stack_bytes);
  if (!Bottom) {
    // Within the bound, so the address space (ulimit -v) or the map count
    // is smaller than WEFT_MAX_STACKS stacks of WEFT_STACK_KB need.
    std::fprintf(stderr,
                 "weft: cannot map a %zu-byte fiber stack (%lld in use of "
                 "at most %lld; lower WEFT_MAX_STACKS or WEFT_STACK_KB)\n",
                 Bytes, static_cast<long long>(stacks_in_use()),
                 static_cast<long long>(stack_budget().limit()));
    std::abort();
  }
  // The Stack record sits at the top of its own stack, on cache lines of
  // its own (the top is page-aligned); the fiber's frames grow down from
  // just below it to the guard page.
  char *Top = Bottom + config().stack_bytes;
  auto *S = new (Top - round_up_to_cache_line(sizeof(Stack))) Stack();
  S->mapping = Bottom - Page;
  S->mapping_bytes = Bytes;
  std::size_t Usable = reinterpret_cast<char *>(S) - Bottom;
  S->context = make_fcontext(S, Usable, schedulerEntry);
  S->bottom = Bottom;
  S->size = Usable;
#ifdef WEFT_TSAN_FIBERS
  S->tsan_fiber = __tsan_create_fiber(0);
#endif
  if (Worker *W = current_worker())
    W->stats.stacks.add();
  note_stack_mapped();
  return S;
}

// Its unit was counted when the pool started (start_stack_budget()).
Stack *take_first_stack(Worker *W) { return takeStack(W); }

// The unit the steal's credit took becomes this stack's (stack_budget.h).
Stack *take_park_stack(Worker *W) { return takeStack(W); }

void destroy_stack(Stack *S) {
  void *Mapping = S->mapping;
  std::size_t Bytes = S->mapping_bytes;
#ifdef WEFT_TSAN_FIBERS
  __tsan_destroy_fiber(S->tsan_fiber);
#endif
  S->~Stack();
  munmap(Mapping, Bytes);
  note_stack_unmapped();
}

void switch_to(Stack *To, PendingAction Action, Frame *F) {
  Worker *W = current_worker();
  Stack *From = W->current_stack;
  W->pending = Action;
  W->pending_frame = F;
  W->current_stack = To;
#ifdef WEFT_TSAN_FIBERS
  __tsan_switch_to_fiber(To->tsan_fiber, 0);
#endif
  asanStartSwitch(From, To);
  transfer_t Back = jump_fcontext(To->context, From);
  // Some worker switched back to this stack: maybe another thread.
  finishSwitch(Back);
}

} // namespace weft
