//===- main_stack.cpp - Running main on a stack as deep as it needs -------===//
//
// __weft_run_main maps the stack, switches to it with Boost.Context, runs
// main there and switches back with its result (main_stack.h says why).
// The switch back goes to the context saved by the switch out: the
// thread's own stack is frozen in between, since nothing else knows it.
//
//===----------------------------------------------------------------------===//

#include "main_stack.h"

#include "config.h"
#include "sanitizer_fibers.h"
#include "worker.h"

#include <boost/context/detail/fcontext.hpp>

#include <cstdio>
#include <cstdlib>

namespace weft {

using boost::context::detail::jump_fcontext;
using boost::context::detail::make_fcontext;
using boost::context::detail::transfer_t;

namespace {

/// One call of main, from the thread's own stack to the mapped one and back.
struct MainCall {
  int (*Entry)(int, char **, char **);
  int Argc;
  char **Argv;
  char **Envp;
  int Result = 0;
  const void *Bottom = nullptr; // of the mapped stack
  std::size_t Size = 0;
  const void *OwnBottom = nullptr; // of the thread's own stack
  std::size_t OwnSize = 0;
  void *OwnFakeStack = nullptr;  // AddressSanitizer's, while away from it
  void *OwnTsanFiber = nullptr;
  void *MainTsanFiber = nullptr;
};

/// The call running on the calling thread's mapped stack, if any. Only the
/// thread that entered main ever sets it.
thread_local MainCall *Running = nullptr;

/// The first and only activation of the mapped stack.
[[noreturn]] void runOnMappedStack(transfer_t From) {
  auto *Call = static_cast<MainCall *>(From.data);
  if (__sanitizer_finish_switch_fiber)
    __sanitizer_finish_switch_fiber(nullptr, &Call->OwnBottom, &Call->OwnSize);
  Running = Call;
  Call->Result = Call->Entry(Call->Argc, Call->Argv, Call->Envp);
  Running = nullptr;
  // main may have parked and resumed this stack any number of times, but
  // only ever on this thread, so this is the thread that entered it.
#ifdef WEFT_TSAN_FIBERS
  __tsan_switch_to_fiber(Call->OwnTsanFiber, 0);
#endif
  // A null save slot: this stack is left for good.
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(nullptr, Call->OwnBottom, Call->OwnSize);
  jump_fcontext(From.fctx, nullptr);
  __builtin_unreachable();
}

/// Runs \p Call on the stack of \p Bytes at \p Bottom; returns its result.
int runOnMappedStack(MainCall &Call, char *Bottom, std::size_t Bytes) {
  Call.Bottom = Bottom;
  Call.Size = Bytes;
#ifdef WEFT_TSAN_FIBERS
  Call.OwnTsanFiber = __tsan_get_current_fiber();
  Call.MainTsanFiber = __tsan_create_fiber(0);
  __tsan_switch_to_fiber(Call.MainTsanFiber, 0);
#endif
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(&Call.OwnFakeStack, Bottom, Bytes);
  auto Context = make_fcontext(Bottom + Bytes, Bytes, runOnMappedStack);
  jump_fcontext(Context, &Call);
  if (__sanitizer_finish_switch_fiber)
    __sanitizer_finish_switch_fiber(Call.OwnFakeStack, nullptr, nullptr);
#ifdef WEFT_TSAN_FIBERS
  __tsan_destroy_fiber(Call.MainTsanFiber);
#endif
  // A worker this thread became describes the stack it now runs on, for a
  // spawning call from an exit handler. The mapped stack stays mapped: a
  // thread-local destructor or exit handler may still hold its addresses.
  if (Worker *W = current_worker(); W && W->native_stack)
    describe_native_stack(W->native_stack);
  return Call.Result;
}

} // namespace

bool running_on_main_stack(const void **Bottom, std::size_t *Size) {
  if (!Running)
    return false;
  *Bottom = Running->Bottom;
  *Size = Running->Size;
  return true;
}

} // namespace weft

using namespace weft;

/// Runs \p Entry on a stack of WEFT_MAIN_STACK_KB (the contract is in
/// weft/runtime_abi.def); calls it directly if that size is 0 or the stack
/// is already main's (a C program calling main recursively).
extern "C" int __weft_run_main(int (*Entry)(int, char **, char **), int Argc,
                               char **Argv, char **Envp) {
  const std::size_t Bytes = config().main_stack_bytes;
  if (Bytes == 0 || Running)
    return Entry(Argc, Argv, Envp);
  if (char *Bottom = map_guarded_stack(Bytes)) {
    MainCall Call{Entry, Argc, Argv, Envp};
    return runOnMappedStack(Call, Bottom, Bytes);
  }
  // Without room for the default size, main runs where the serial program
  // would; a size the user asked for is an error.
  if (std::getenv("WEFT_MAIN_STACK_KB")) {
    std::fprintf(stderr,
                 "weft: cannot map a %zu-byte stack for main (set "
                 "WEFT_MAIN_STACK_KB lower, or to 0 for main's own stack)\n",
                 Bytes);
    std::exit(2);
  }
  return Entry(Argc, Argv, Envp);
}
