//===- callbacks.cpp - OpenCilk's runtime start and exit callbacks --------===//

#include "callbacks.h"

#include "cilk/cilk_api.h"

#include <mutex>
#include <vector>

namespace weft {
namespace {

using Callback = void (*)(void);
constexpr std::size_t kMaxCallbacks = 32; // OpenCilk's limit

struct Registry {
  std::mutex Lock;
  std::vector<Callback> Start, Exit;
  bool Started = false; // the start callbacks were taken to run
};

/// Never destroyed: exit callbacks run from an exit handler, after static
/// destructors may have begun.
Registry &registry() {
  static Registry *R = new Registry();
  return *R;
}

int add(std::vector<Callback> &List, Callback F) {
  if (!F || List.size() >= kMaxCallbacks)
    return -1;
  List.push_back(F);
  return 0;
}

} // namespace

void run_start_callbacks() {
  std::vector<Callback> Start;
  {
    std::lock_guard<std::mutex> Guard(registry().Lock);
    registry().Started = true;
    Start.swap(registry().Start);
  }
  for (Callback F : Start)
    F();
}

void run_exit_callbacks() {
  std::vector<Callback> Exit;
  {
    std::lock_guard<std::mutex> Guard(registry().Lock);
    Exit.swap(registry().Exit);
  }
  for (auto It = Exit.rbegin(); It != Exit.rend(); ++It)
    (*It)();
}

} // namespace weft

using namespace weft;

extern "C" {

int __cilkrts_atinit(void (*callback)(void)) {
  std::lock_guard<std::mutex> Guard(registry().Lock);
  return registry().Started ? -1 : add(registry().Start, callback);
}

int __cilkrts_atexit(void (*callback)(void)) {
  std::lock_guard<std::mutex> Guard(registry().Lock);
  return add(registry().Exit, callback);
}

} // extern "C"
