// Unit tests of the join protocol (runtime/frame.h) through the entry points
// the compiled code calls: children finishing before and after the sync, the
// last child resuming the waiting frame exactly once, and concurrent
// completions from many threads.
#include "frame.h"
#include "worker.h"

#include "weft/frame_abi.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

using weft::Frame;
using weft::Worker;

/// Makes the calling thread a registered worker that appears to be running
/// the slow clone of \p F, so that __weft_spawn_stolen only counts the child
/// done (a fast clone would park).
Worker *actAsSlowCloneOf(Frame &F) {
  Worker *W = weft::current_or_new_worker();
  W->current_stack->resumed_frame = &F;
  W->ready_frame = nullptr;
  return W;
}

void leaveSlowClone(Worker *W) { W->current_stack->resumed_frame = nullptr; }

TEST(Join, SyncWithNoStealsNeverWaits) {
  Frame F{};
  Worker *W = actAsSlowCloneOf(F);
  EXPECT_FALSE(__weft_sync_slow(&F));
  EXPECT_EQ(F.join.load(), 0);
  leaveSlowClone(W);
}

TEST(Join, ChildrenDoneBeforeSync) {
  Frame F{};
  Worker *W = actAsSlowCloneOf(F);
  F.steals = 3;
  for (int I = 0; I < 3; ++I)
    __weft_spawn_stolen(&F);
  EXPECT_EQ(W->ready_frame, nullptr) << "no sync was waiting";
  EXPECT_FALSE(__weft_sync_slow(&F)) << "all three children already done";
  EXPECT_EQ(F.steals, 0u);
  EXPECT_EQ(F.join.load(), 0);
  leaveSlowClone(W);
}

TEST(Join, LastChildAfterSyncResumesFrameOnce) {
  Frame F{};
  Worker *W = actAsSlowCloneOf(F);
  F.steals = 2;
  __weft_spawn_stolen(&F);
  EXPECT_TRUE(__weft_sync_slow(&F)) << "one child is still running";
  EXPECT_EQ(W->ready_frame, nullptr);
  __weft_spawn_stolen(&F);
  EXPECT_EQ(W->ready_frame, &F) << "the last child resumes the frame";
  EXPECT_EQ(F.join.load(), 0) << "ready for the next sync";
  W->ready_frame = nullptr;

  // A second phase on the same frame behaves the same.
  F.steals = 1;
  EXPECT_TRUE(__weft_sync_slow(&F));
  __weft_spawn_stolen(&F);
  EXPECT_EQ(W->ready_frame, &F);
  W->ready_frame = nullptr;
  leaveSlowClone(W);
}

TEST(Join, ConcurrentChildrenResumeExactlyOnce) {
  constexpr int Rounds = 300;
  constexpr int Children = 4;
  Frame F{};
  std::atomic<int> Started{0}, Finished{0}, Resumed{0};
  // Threads live for all rounds: every registered thread keeps its slot.
  std::vector<std::thread> Threads;
  for (int C = 0; C < Children; ++C)
    Threads.emplace_back([&] {
      Worker *W = actAsSlowCloneOf(F);
      for (int Round = 0; Round < Rounds; ++Round) {
        while (Started.load(std::memory_order_acquire) <= Round)
          std::this_thread::yield();
        __weft_spawn_stolen(&F);
        if (W->ready_frame == &F)
          Resumed.fetch_add(1);
        W->ready_frame = nullptr;
        Finished.fetch_add(1, std::memory_order_acq_rel);
      }
      leaveSlowClone(W);
    });
  Worker *Main = actAsSlowCloneOf(F); // the thread that syncs
  for (int Round = 0; Round < Rounds; ++Round) {
    F.steals = Children;
    Resumed.store(0);
    Started.store(Round + 1, std::memory_order_release);
    bool Waited = __weft_sync_slow(&F);
    while (Finished.load(std::memory_order_acquire) < (Round + 1) * Children)
      std::this_thread::yield();
    // Either the sync saw every child done, or exactly one child resumed it.
    ASSERT_EQ(Resumed.load() + (Waited ? 0 : 1), 1) << "round " << Round;
    ASSERT_EQ(F.join.load(), 0) << "round " << Round;
  }
  for (std::thread &T : Threads)
    T.join();
  leaveSlowClone(Main);
}

TEST(Join, FrameCompleteBeforeParkLeavesDoneMark) {
  Frame F{};
  Worker *W = actAsSlowCloneOf(F);
  __weft_frame_complete(&F);
  leaveSlowClone(W);
  EXPECT_EQ(F.park.load(), weft::kParkDone)
      << "a parker arriving later sees the frame complete and resumes itself";
}

} // namespace
