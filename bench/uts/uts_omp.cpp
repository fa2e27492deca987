// UTS on OpenMP tasks (built with clang's libomp and with gcc's libgomp):
// the same search as uts_cilk.cpp, a task per child (which hashes its own
// state), one taskwait per node.
#include "../common/bench.h"
#include "uts.h"

static long search(const uts::Node &n, int depth);

static long visit(const uts::Node *n, int i, int depth) {
  uts::Node c = uts::child(*n, i);
  return search(c, depth);
}

static long search(const uts::Node &n, int depth) {
  int children = uts::numChildren(n, depth);
  long count[uts::MaxChildren];
  const uts::Node *parent = &n;
  for (int i = 0; i < children; ++i) {
#pragma omp task firstprivate(parent, i, depth) shared(count)
    count[i] = visit(parent, i, depth);
  }
#pragma omp taskwait
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
  long r = bench::run(depth, [](long depth) {
    long nodes = 0;
#pragma omp parallel
#pragma omp single
    nodes = search(uts::root(), int(depth));
    return nodes;
  });
  if (depth == uts::DefaultDepth && r != uts::T1Nodes)
    return bench::mismatch("nodes", r, uts::T1Nodes);
  return 0;
}
