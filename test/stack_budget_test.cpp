// Unit tests of the bound on fiber stacks (runtime/stack_budget.h): the
// count never lets reservations past the limit, stacks that must exist go
// past it and hold later reservations back, a worker's credit is taken
// once and kept until a park takes it over or the worker sleeps, and many
// threads reserving and releasing at once never hold more than the limit.
#include "stack_budget.h"
#include "worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

using weft::StackBudget;

TEST(StackBudget, ReservesUpToTheLimit) {
  StackBudget Budget(3);
  for (int I = 0; I < 3; ++I)
    EXPECT_TRUE(Budget.tryReserve()) << I;
  EXPECT_FALSE(Budget.tryReserve());
  EXPECT_EQ(Budget.used(), 3);
  Budget.release();
  EXPECT_TRUE(Budget.tryReserve());
  EXPECT_FALSE(Budget.tryReserve());
}

// A pool thread's first stack is in use whatever the bound; while such
// stacks fill it, no thief gets a credit.
TEST(StackBudget, UnreservedStacksGoPastTheLimit) {
  StackBudget Budget(2);
  for (int I = 0; I < 3; ++I)
    Budget.addUnreserved();
  EXPECT_EQ(Budget.used(), 3);
  EXPECT_FALSE(Budget.tryReserve());
  Budget.release();
  EXPECT_FALSE(Budget.tryReserve()) << "2 in use, limit 2";
  Budget.release();
  EXPECT_TRUE(Budget.tryReserve());
}

TEST(StackBudget, ANewLimitAppliesToLaterReservations) {
  StackBudget Budget(1);
  EXPECT_TRUE(Budget.tryReserve());
  EXPECT_FALSE(Budget.tryReserve());
  Budget.setLimit(2);
  EXPECT_TRUE(Budget.tryReserve());
  Budget.setLimit(1);
  EXPECT_EQ(Budget.used(), 2) << "lowering takes nothing back";
  EXPECT_FALSE(Budget.tryReserve());
  Budget.release();
  Budget.release();
  EXPECT_TRUE(Budget.tryReserve());
}

// Many threads race for few units: at no moment do more of them hold one
// than the limit allows, and every unit comes back.
TEST(StackBudget, ConcurrentReservationsStayWithinTheLimit) {
  constexpr int Threads = 8;
  constexpr int Rounds = 20000;
  constexpr std::int64_t Limit = 3;
  StackBudget Budget(Limit);
  std::atomic<int> Holding{0};
  std::atomic<int> MostHolding{0};
  std::atomic<long> Granted{0};
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&] {
      for (int R = 0; R < Rounds; ++R) {
        if (!Budget.tryReserve())
          continue;
        int Now = Holding.fetch_add(1) + 1;
        int Seen = MostHolding.load();
        while (Now > Seen && !MostHolding.compare_exchange_weak(Seen, Now))
          ;
        Granted.fetch_add(1);
        Holding.fetch_sub(1);
        Budget.release();
      }
    });
  for (std::thread &T : Pool)
    T.join();
  EXPECT_LE(MostHolding.load(), Limit);
  EXPECT_GT(Granted.load(), 0);
  EXPECT_EQ(Budget.used(), 0);
}

// The worker side, against the process's budget (whose count pool threads
// of other tests may change meanwhile, so only this worker's flag is
// checked): a credit is taken once and kept while the worker steals frames
// that park nothing; handing it to a park or going to sleep leaves the
// worker without one.
TEST(StackCredit, TakenOnceKeptUntilSpent) {
  weft::Worker W;
  ASSERT_TRUE(weft::take_stack_credit(&W));
  EXPECT_TRUE(W.stack_credit);
  ASSERT_TRUE(weft::take_stack_credit(&W)) << "held, not taken again";
  weft::hand_credit_to_park(&W);
  EXPECT_FALSE(W.stack_credit);
  // The park's unit stays counted until its stack is recycled; give it
  // back here as the recycle would.
  weft::stack_budget().release();
  ASSERT_TRUE(weft::take_stack_credit(&W));
  weft::return_stack_credit(&W);
  EXPECT_FALSE(W.stack_credit);
  weft::return_stack_credit(&W);
  EXPECT_FALSE(W.stack_credit) << "returning twice gives back one unit";
}

} // namespace
