// UTS on oneTBB task_group: the same search as uts_cilk.cpp, a task per
// child (which hashes its own state), one wait per node.
#include "../common/bench.h"
#include "uts.h"

#include <tbb/global_control.h>
#include <tbb/task_group.h>

static long search(const uts::Node &n, int depth);

static long visit(const uts::Node *n, int i, int depth) {
  uts::Node c = uts::child(*n, i);
  return search(c, depth);
}

static long search(const uts::Node &n, int depth) {
  int children = uts::numChildren(n, depth);
  long count[uts::MaxChildren];
  tbb::task_group g;
  for (int i = 0; i < children; ++i)
    g.run([&, i] { count[i] = visit(&n, i, depth); });
  g.wait();
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
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, bench::threads());
  long r = bench::run(depth, [](long depth) { return search(uts::root(), int(depth)); });
  if (depth == uts::DefaultDepth && r != uts::T1Nodes)
    return bench::mismatch("nodes", r, uts::T1Nodes);
  return 0;
}
