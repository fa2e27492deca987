/*===- cilk/opadd_reducer.h - OpenCilk 2's sum reducer --------------------===*\
 *
 * As OpenCilk declares it: an alias template of `T cilk_reducer(zero<T>,
 * plus<T>)`, so that a sum is a T to every use.
 *
 *   cilk::opadd_reducer<long> sum = 0;
 *   cilk_for (long i = 0; i < n; ++i) sum += a[i];   // this strand's view
 *   printf("%ld\n", sum);                            // after the sync
 *   add_to(&sum, 5);  // &sum: a long *, or, to a `long cilk_reducer(...) *`
 *                     // parameter, the reducer itself (docs/reducers.md)
 *
 * The identity is T's zero, the reduce `+=`. With the plugin the alias's
 * functions are instantiated for each T (docs/reducers.md); without it,
 * cilk_reducer vanishes and the sum is a plain T.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_OPADD_REDUCER_H
#define WEFT_CILK_OPADD_REDUCER_H

#include <cilk/cilk.h>

namespace cilk {

template <typename T> void zero(void *view) {
  *static_cast<T *>(view) = static_cast<T>(0);
}

template <typename T> void plus(void *left, void *right) {
  *static_cast<T *>(left) += *static_cast<T *>(right);
}

template <typename T> using opadd_reducer = T cilk_reducer(zero<T>, plus<T>);

} // namespace cilk

#endif /* WEFT_CILK_OPADD_REDUCER_H */
