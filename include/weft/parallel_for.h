/*===- weft/parallel_for.h - weft::parallel_for, a library parallel loop --===*\
 *
 *   #include <weft/parallel_for.h>
 *   weft::parallel_for(0, n, [&](long i) { out[i] = f(i); });
 *   weft::parallel_for(v.begin(), v.end(), [](auto it) { *it += 1; }, 64);
 *   weft::parallel_for(v, [](long &x) { x += 1; });
 *
 * Calls body(i) for every i in [lo, hi), in parallel, and returns when all
 * calls have returned. Index is an integer, a pointer or a random-access
 * iterator; grain is the most iterations one piece runs serially (0: the
 * runtime's default, min(2048, ceil(n / 8P)) for P workers). An exception
 * from a call surfaces here once the other pieces are done.
 *
 * The range form calls body(x) for every element x of range (a reference
 * to it, as `for (auto &&x : range)` binds it), like
 * `cilk_for (auto &&x : range) body(x);`. The range's iterators must be
 * random-access: `end - begin` an integer and `begin + n` valid.
 *
 * For C++ code that prefers a library call to the cilk_for keyword (which
 * the plugin lowers the same way). Compiled with the Weft plugin, the range
 * is split recursively with spawns (with pedigrees, by cilk_for's runtime
 * splitter, so that each iteration has a pedigree of its own); compiled by
 * any other compiler it is a serial loop, the serial elision.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_PARALLEL_FOR_H
#define WEFT_PARALLEL_FOR_H

#include <weft/weft.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <utility>

#if defined(__weft__)
extern "C" std::uint64_t __weft_pfor_grain(std::uint64_t n);
#endif
#if defined(__weft_pedigrees__)
#include <weft/frame_abi.h>

#include <atomic>
#include <exception>
#endif

namespace weft {
namespace detail {

#if defined(__weft__)
/// Spawns the upper half and keeps splitting the lower one, so that a
/// thief takes the largest piece left (the same recursion as cilk_for's,
/// runtime/parallel_for.cpp).
template <typename Index, typename Body>
void parallel_for_split(Index lo, Index hi, const Body &body,
                        std::uint64_t grain) {
  while (static_cast<std::uint64_t>(hi - lo) > grain) {
    Index mid = lo + (hi - lo) / 2;
    weft_spawn parallel_for_split(mid, hi, body, grain);
    hi = mid;
  }
  for (; lo != hi; ++lo)
    body(lo);
  weft_sync;
}
#endif

#if defined(__weft_pedigrees__)
/// With pedigrees, each iteration has a level of its own whatever the
/// grain, as cilk_for's do: the runtime's splitter runs the loop, one
/// iteration per call of run() (runtime/pedigree.cpp). An exception from
/// an iteration is kept, the first one to come, and rethrown once every
/// piece is done, since none may unwind through the runtime.
template <typename Index, typename Body> struct PedigreeLoop {
  Index lo;
  const Body *body;
#if defined(__cpp_exceptions)
  std::atomic<bool> failed{false};
  std::exception_ptr exception;
#endif

  static void run(void *self, std::uint64_t from, std::uint64_t to) {
    auto *loop = static_cast<PedigreeLoop *>(self);
    using Step = decltype(loop->lo - loop->lo);
#if defined(__cpp_exceptions)
    try {
#endif
      for (std::uint64_t k = from; k != to; ++k)
        (*loop->body)(loop->lo + static_cast<Step>(k));
#if defined(__cpp_exceptions)
    } catch (...) {
      if (!loop->failed.exchange(true))
        loop->exception = std::current_exception();
    }
#endif
  }
};

template <typename Index, typename Body>
void parallel_for_pedigrees(Index lo, std::uint64_t n, const Body &body,
                            std::size_t grain) {
  PedigreeLoop<Index, Body> loop{lo, &body};
  __weft_pedigree_parallel_for(n, static_cast<std::int64_t>(grain),
                               &PedigreeLoop<Index, Body>::run, &loop,
                               &__weft_parallel_for);
#if defined(__cpp_exceptions)
  if (loop.failed.load())
    std::rethrow_exception(loop.exception);
#endif
}
#endif

using std::begin;
using std::end;

/// The iterator and the end of a Range, as a range-based for finds them.
template <typename Range>
using range_iterator = decltype(begin(std::declval<Range &>()));
template <typename Range>
using range_end = decltype(end(std::declval<Range &>()));

/// Whether `end - begin` gives an integer for these types.
template <typename It, typename End, typename = void>
struct has_distance : std::false_type {};
template <typename It, typename End>
struct has_distance<It, End,
                    typename std::enable_if<std::is_integral<decltype(
                        std::declval<End>() - std::declval<It>())>::value>::type>
    : std::true_type {};

} // namespace detail

template <typename Index, typename Body>
void parallel_for(Index lo, Index hi, Body body, std::size_t grain = 0) {
#if defined(__weft__)
  if (!(lo < hi))
    return;
  std::uint64_t n = static_cast<std::uint64_t>(hi - lo);
#if defined(__weft_pedigrees__)
  detail::parallel_for_pedigrees(lo, n, body, grain);
#else
  detail::parallel_for_split(lo, hi, body,
                             grain ? grain : __weft_pfor_grain(n));
#endif
#else
  (void)grain;
  for (; lo < hi; ++lo)
    body(lo);
#endif
}

template <typename Range, typename Body,
          typename It = detail::range_iterator<Range>,
          typename End = detail::range_end<Range>>
void parallel_for(Range &&range, Body body, std::size_t grain = 0) {
  static_assert(detail::has_distance<It, End>::value,
                "weft::parallel_for over a range needs random-access "
                "iterators: 'end - begin' must give an integer");
#if defined(__weft__)
  using detail::begin;
  using detail::end;
  It first = begin(range);
  auto n = end(range) - first;
  if (n <= 0)
    return;
  // Split indices, not iterators: an index is cheap to pass to a spawn,
  // whatever the iterator's size.
  auto each = [&body, &first](decltype(n) k) { body(*(first + k)); };
  std::uint64_t count = static_cast<std::uint64_t>(n);
#if defined(__weft_pedigrees__)
  detail::parallel_for_pedigrees(decltype(n)(0), count, each, grain);
#else
  detail::parallel_for_split(decltype(n)(0), n, each,
                             grain ? grain : __weft_pfor_grain(count));
#endif
#else
  (void)grain;
  for (auto &&x : range)
    body(x);
#endif
}

} // namespace weft

#endif /* WEFT_PARALLEL_FOR_H */
