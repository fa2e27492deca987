// Unit tests of the hang watchdog's judgement and report (runtime/
// hang_watch.h): what counts as outstanding work, and what the report says
// for the two pictures a stall can show, program code that never returns
// to the scheduler and an idle pool with parked stacks (a runtime bug).
// The live watcher is checked end to end by lit-tests/run/debug_hang.cpp.
#include "hang_watch.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using weft::Activity;
using weft::HangSnapshot;
using weft::WorkerSnapshot;

WorkerSnapshot worker(unsigned Id, Activity A, bool External = false) {
  WorkerSnapshot W;
  W.id = Id;
  W.activity = A;
  W.external = External;
  return W;
}

HangSnapshot idlePool() {
  HangSnapshot S;
  S.stalled_seconds = 5;
  S.stack_limit = 64;
  S.workers = {worker(0, Activity::Looking, /*External=*/true),
               worker(1, Activity::Sleeping), worker(2, Activity::Throttled)};
  return S;
}

long countOf(const std::string &Text, const std::string &Part) {
  long N = 0;
  for (auto At = Text.find(Part); At != std::string::npos;
       At = Text.find(Part, At + 1))
    ++N;
  return N;
}

TEST(HangWatch, AnIdlePoolIsNoHang) {
  EXPECT_FALSE(weft::work_outstanding(idlePool()));
}

TEST(HangWatch, RunningCodeFramesAndParkedStacksAreOutstanding) {
  HangSnapshot Running = idlePool();
  Running.workers[1].activity = Activity::Running;
  EXPECT_TRUE(weft::work_outstanding(Running));

  HangSnapshot Frames = idlePool();
  Frames.workers[2].deque_frames = 1;
  EXPECT_TRUE(weft::work_outstanding(Frames));

  HangSnapshot Parked = idlePool();
  Parked.parked_stacks = 1;
  EXPECT_TRUE(weft::work_outstanding(Parked));
}

TEST(HangWatch, ReportHasAHeadingALinePerWorkerAndTheStacks) {
  HangSnapshot S = idlePool();
  S.parked_stacks = 2;
  S.stacks_in_use = 7;
  S.workers[1].deque_frames = 3;
  S.workers[1].steals = 11;
  std::string Report = weft::format_hang_report(S);
  EXPECT_EQ(Report.rfind("weft: WEFT_DEBUG_HANG: no progress for 5 s", 0), 0u)
      << Report;
  EXPECT_NE(Report.find("; 3 workers:\n"), std::string::npos) << Report;
  EXPECT_NE(Report.find("worker 0 (external thread): looking for work; deque 0 frames"),
            std::string::npos) << Report;
  EXPECT_NE(Report.find("worker 1 (pool thread): sleeping; deque 3 frames; "
                        "fiber stacks 0; steals=11"),
            std::string::npos) << Report;
  EXPECT_NE(Report.find("worker 2 (pool thread): waiting for a stack credit"),
            std::string::npos) << Report;
  EXPECT_NE(Report.find("parked stacks: 2; fiber stacks in use: 7 of 64\n"),
            std::string::npos) << Report;
  // Every line is the runtime's, for grep.
  EXPECT_EQ(countOf(Report, "\n"), countOf(Report, "\nweft: ") + 1) << Report;
}

TEST(HangWatch, IdleWorkersWithParkedStacksPointAtTheRuntime) {
  HangSnapshot S = idlePool();
  S.parked_stacks = 2;
  S.workers[1].deque_frames = 1;
  std::string Report = weft::format_hang_report(S);
  EXPECT_NE(Report.find("every worker is idle while 2 stack(s) are parked and "
                        "1 frame(s) wait in deques: a lost wake-up or join in "
                        "the runtime"),
            std::string::npos) << Report;
  EXPECT_EQ(Report.find("ran program code"), std::string::npos) << Report;
}

void someSlowClone(void *) {}

TEST(HangWatch, RunningWorkersPointAtTheProgramAndNameTheCode) {
  HangSnapshot S = idlePool();
  S.workers[0].activity = Activity::Running;
  S.workers[2].activity = Activity::Running;
  S.workers[2].running = reinterpret_cast<const void *>(&someSlowClone);
  S.parked_stacks = 1;
  std::string Report = weft::format_hang_report(S);
  EXPECT_NE(Report.find("worker 0 (external thread): running program code: its "
                        "own thread's"),
            std::string::npos) << Report;
  // The code is named by module and offset, with the command that names it.
  EXPECT_NE(Report.find("worker 2 (pool thread): running program code: the "
                        "stolen continuation of "),
            std::string::npos) << Report;
  EXPECT_NE(Report.find("weft_unit_tests"), std::string::npos) << Report;
  EXPECT_NE(Report.find("(addr2line -f -C -e "), std::string::npos) << Report;
  EXPECT_NE(Report.find("worker(s) 0, 2 ran program code without spawning"),
            std::string::npos) << Report;
  EXPECT_EQ(Report.find("lost wake-up"), std::string::npos) << Report;
}

} // namespace
