/*===- cilk/opadd_reducer.h - OpenCilk 2's sum reducer ---------------------===*\
 *
 *   cilk::opadd_reducer<long> sum = 0;
 *   cilk_for (long i = 0; i < n; ++i) sum += a[i];   // each strand's view
 *   printf("%ld\n", sum);                            // after the sync
 *
 * As in OpenCilk 2, cilk::opadd_reducer<T> is an alias template of
 * `T cilk_reducer(identity, reduce)`: the variable is a T to every use
 * (`&sum` is a T *, the reducer itself where it initialises a reducer
 * pointer), and it is passed on by reference or pointer:
 *
 *   void fib(int n, cilk::opadd_reducer<int> &total);
 *
 * Without the plugin the qualifier vanishes and the alias is T.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_OPADD_REDUCER_H
#define WEFT_CILK_OPADD_REDUCER_H

#ifdef __cplusplus

#include <cilk/cilk.h>

namespace cilk {

template <class T> void opadd_identity(void *view) {
  *static_cast<T *>(view) = static_cast<T>(0);
}
template <class T> void opadd_reduce(void *left, void *right) {
  *static_cast<T *>(left) += *static_cast<T *>(right);
}

template <class T>
using opadd_reducer = T cilk_reducer(opadd_identity<T>, opadd_reduce<T>);

} // namespace cilk

#endif /* __cplusplus */

#endif /* WEFT_CILK_OPADD_REDUCER_H */
