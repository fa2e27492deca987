// Cilk-5 knapsack: 0-1 knapsack by branch and bound. Items are sorted by
// value per unit of weight; each call spawns both the branch without the
// current item and the branch with it, and prunes a branch whose bound
// (the value so far plus the remaining capacity filled at the current
// item's ratio) cannot beat the best value found so far. That best value is
// shared by all strands (an atomic here; Cilk-5 tolerated the race), so how
// much is pruned depends on the schedule but the optimum does not. Checked
// against a dynamic-programming solution, on several instances.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %t.serial 26 | FileCheck %s
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial 18
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial 14
// CHECK-COUNT-4: knapsack n=26 {{.*}} ok
#include <algorithm>
#include <atomic>
#include <cilk/cilk.h>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Item {
  int value;
  int weight;
};

static std::atomic<int> best_so_far;

static void raise_best(int value) {
  int best = best_so_far.load(std::memory_order_relaxed);
  while (value > best && !best_so_far.compare_exchange_weak(best, value, std::memory_order_relaxed))
    ;
}

// The best value reachable from items e[0..n) with capacity c, given value
// v so far; INT_MIN if over capacity or pruned.
static int knapsack(const Item *e, int c, int n, int v) {
  if (c < 0)
    return INT_MIN;
  if (n == 0 || c == 0)
    return v;
  double ub = static_cast<double>(v) + static_cast<double>(c) * e->value / e->weight;
  if (ub < best_so_far.load(std::memory_order_relaxed))
    return INT_MIN;
  int without = cilk_spawn knapsack(e + 1, c, n - 1, v);
  int with = cilk_spawn knapsack(e + 1, c - e->weight, n - 1, v + e->value);
  cilk_sync;
  int best = std::max(with, without);
  raise_best(best);
  return best;
}

static int dynamic_programming(const std::vector<Item> &items, int capacity) {
  std::vector<int> best(capacity + 1, 0);
  for (const Item &it : items)
    for (int c = capacity; c >= it.weight; --c)
      best[c] = std::max(best[c], best[c - it.weight] + it.value);
  return best[capacity];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  if (n < 1 || n > 40) {
    std::fprintf(stderr, "usage: knapsack [1..40]\n");
    return 2;
  }
  bool all_ok = true;
  uint64_t state = 17;
  for (int instance = 0; instance < 4; ++instance) {
    std::vector<Item> items(n);
    int total = 0;
    for (Item &it : items) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      it.weight = static_cast<int>((state >> 33) % 100) + 1;
      // Values close to the weights make the bound weak and the search wide.
      it.value = it.weight + static_cast<int>((state >> 50) % 20);
      total += it.weight;
    }
    int capacity = total / 2;
    std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
      return static_cast<int64_t>(a.value) * b.weight > static_cast<int64_t>(b.value) * a.weight;
    });
    best_so_far = INT_MIN;
    int got = knapsack(items.data(), capacity, n, 0);
    int want = dynamic_programming(items, capacity);
    bool ok = got == want;
    all_ok &= ok;
    std::printf("knapsack n=%d capacity=%d best=%d %s\n", n, capacity, got, ok ? "ok" : "WRONG");
  }
  return all_ok ? 0 : 1;
}
