/*===- cilk/holder.h - A view of scratch space per strand (OpenCilk) ------===*\
 *
 *   cilk::holder<std::vector<int>> scratch;
 *   cilk_for (int i = 0; i < n; ++i) {
 *     std::vector<int> &mine = scratch;   // this strand's own
 *     ...
 *   }
 *
 * As OpenCilk's: a reducer whose views are default-constructed scratch
 * objects that need no combining. Each strand that uses it gets its own,
 * and when strands join the right one is destroyed, the left kept. With
 * the plugin it is an alias template of `A cilk_reducer(init, drop)`, whose
 * functions depend on A (docs/reducers.md); without it, a plain A.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_HOLDER_H
#define WEFT_CILK_HOLDER_H

#ifdef __cplusplus

#include <cilk/cilk.h>

#include <new>

namespace cilk {
namespace holder_detail {
template <typename A> void init(void *view) { new (view) A; }
template <typename A> void drop(void *left, void *right) {
  (void)left;
  static_cast<A *>(right)->~A();
}
} // namespace holder_detail

template <typename A>
using holder =
    A cilk_reducer(holder_detail::init<A>, holder_detail::drop<A>);

} // namespace cilk

#endif /* __cplusplus */

#endif /* WEFT_CILK_HOLDER_H */
