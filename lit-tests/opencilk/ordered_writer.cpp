// Verify the shape of OpenCilk's parallel bzip2, built as its Makefile
// builds it (-fopencilk, choosing with #ifdef __cilk between a reducer and
// the plain writer): blocks are compressed in parallel and written through
// a class template whose data member is a reducer over a writer. The
// leftmost view writes straight to the output; every other view keeps
// its blocks until it is reduced into its left neighbour, so the stream
// comes out in serial order, with a running checksum combined in order as
// bzip2 combines its block CRCs. Four files are compressed at once, each
// through its own output object made on the strand that compresses it
// (registered there, by its constructor). The output bytes must equal the
// serial elision's at 1, 2 and 4 workers, with and without forced steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -fopencilk -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %t | tail -n 1 | FileCheck %s
// CHECK: blocks 96 bytes {{[0-9]+}} checksum {{[0-9a-f]+}}
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#ifdef __cilk
#include <cilk/cilk.h>
#endif

struct writer {
  FILE *out = nullptr; // the leftmost view's destination
  std::string held;    // another view's blocks, in order
  uint32_t checksum = 0;
  uint64_t bytes = 0;
  writer() {}
  explicit writer(FILE *f) : out(f) {}
  void put(const std::string &block, uint32_t block_sum) {
    if (out)
      fwrite(block.data(), 1, block.size(), out);
    else
      held += block;
    bytes += block.size();
    checksum = rotate(checksum, 1) ^ block_sum;
    ++blocks;
  }
  // This view's blocks, then the right one's, as if written in series.
  void reduce(writer *right) {
    if (out)
      fwrite(right->held.data(), 1, right->held.size(), out);
    else
      held += right->held;
    bytes += right->bytes;
    checksum = rotate(checksum, right->blocks) ^ right->checksum;
    blocks += right->blocks;
  }
  static uint32_t rotate(uint32_t x, unsigned n) {
    n %= 32;
    return n ? (x << n) | (x >> (32 - n)) : x;
  }
  unsigned blocks = 0;
};

#ifdef __cilk
template <typename View> struct hyper {
  static void identity(void *v) { new (v) View(); }
  static void reduce(void *l, void *r) {
    static_cast<View *>(l)->reduce(static_cast<View *>(r));
    static_cast<View *>(r)->~View();
  }
  template <typename... Args> hyper(Args... args) : leftmost(args...) {}
  ~hyper() {}
  View &view() { return leftmost; }
  View cilk_reducer(identity, reduce) leftmost;
};
typedef hyper<writer> output_t;
#define VIEW(x) (x).view()
#else
typedef writer output_t;
#define cilk_spawn
#define cilk_sync
#define VIEW(x) (x)
#endif

// A block of text with runs, from its index alone.
static std::string make_block(unsigned index) {
  std::string text;
  uint32_t state = 2654435761u * (index + 1);
  while (text.size() < 3000) {
    state = state * 1664525u + 1013904223u;
    text.append(1 + (state >> 28), static_cast<char>('a' + (state >> 8) % 6));
  }
  return text;
}

// Run-length encoding, one line per block, and the block's checksum.
static void compress_block(unsigned index, output_t &output) {
  std::string in = make_block(index), out;
  for (size_t i = 0; i < in.size();) {
    size_t run = 1;
    while (i + run < in.size() && in[i + run] == in[i])
      ++run;
    out += std::to_string(run);
    out += in[i];
    i += run;
  }
  out += '\n';
  uint32_t sum = 2166136261u;
  for (unsigned char ch : out)
    sum = (sum ^ ch) * 16777619u;
  VIEW(output).put(out, sum);
}

static void compress_range(unsigned first, unsigned last, output_t &output) {
  if (last - first == 1) {
    compress_block(first, output);
    return;
  }
  unsigned middle = first + (last - first) / 2;
  cilk_spawn compress_range(first, middle, output);
  compress_range(middle, last, output);
  cilk_sync;
}

// One file: its own output object, made on whichever strand runs this.
static std::string compress_file(unsigned first, unsigned blocks) {
  char *data = nullptr;
  size_t size = 0;
  FILE *sink = open_memstream(&data, &size);
  unsigned written;
  uint32_t checksum;
  {
    output_t output(sink);
    compress_range(first, first + blocks, output);
    written = VIEW(output).blocks;
    checksum = VIEW(output).checksum;
  }
  fclose(sink);
  std::string file(data, size);
  free(data);
  char trailer[64];
  snprintf(trailer, sizeof trailer, "blocks %u bytes %zu checksum %08x\n",
           written, file.size(), checksum);
  return file + trailer;
}

int main() {
  std::string files[4];
  for (unsigned k = 0; k < 4; ++k)
    files[k] = cilk_spawn compress_file(k * 48, 48 + 16 * k);
  cilk_sync;
  for (const std::string &file : files)
    fputs(file.c_str(), stdout);
  return 0;
}
