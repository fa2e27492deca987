// UTS, T1 sample tree: counts the nodes of a geometric tree of 4,130,071
// nodes whose shape only SHA-1 knows (uts.h). Each node draws its child
// count from its digest and spawns one search per child, in a loop, then
// syncs once and sums the counts: unbalanced, unpredictable parallelism
// with real work (a SHA-1 block) per spawn. Compiled with weft-clang++ this
// is the Weft variant; with plain clang++ it is the serial elision.
#include "../common/bench.h"
#include "uts.h"

#include <cilk/cilk.h>

static long search(const uts::Node &n, int depth);

/// Child i of n, and its subtree: the child's hash is the child's work.
static long visit(const uts::Node *n, int i, int depth) {
  uts::Node c = uts::child(*n, i);
  return search(c, depth);
}

static long search(const uts::Node &n, int depth) {
  int children = uts::numChildren(n, depth);
  long count[uts::MaxChildren];
  for (int i = 0; i < children; ++i)
    count[i] = cilk_spawn visit(&n, i, depth);
  cilk_sync;
  long nodes = 1;
  for (int i = 0; i < children; ++i)
    nodes += count[i];
  return nodes;
}

int main(int argc, char **argv) {
  long depth = bench::arg(argc, argv, 1, uts::DefaultDepth);
  if (!uts::sha1_selftest() || depth < 1) {
    std::fprintf(stderr, "usage: %s [depth >= 1] (or SHA-1 is broken)\n", argv[0]);
    return 2;
  }
  long r = bench::run(depth, [](long depth) { return search(uts::root(), int(depth)); });
  if (depth == uts::DefaultDepth && r != uts::T1Nodes)
    return bench::mismatch("nodes", r, uts::T1Nodes);
  return 0;
}
