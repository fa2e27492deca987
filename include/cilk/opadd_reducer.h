/*===- cilk/opadd_reducer.h - OpenCilk 2's sum reducer, as a class ---------===*\
 *
 * OpenCilk 2 declares `cilk::opadd_reducer<long> sum = 0;` through an
 * alias template over `long cilk_reducer(zero<long>, plus<long>)`. OpenCilk's
 * programs pass such a sum by reference (`void fib(int n,
 * cilk::opadd_reducer<int> &total)`), which Weft's cilk_reducer does not
 * support yet (docs/reducers.md), so here it is a class with the same
 * everyday uses:
 *
 *   cilk::opadd_reducer<long> sum = 0;
 *   cilk_for (long i = 0; i < n; ++i) sum += a[i];   // also -=, ++, --
 *   long total = sum;                                // after the sync
 *
 * Reading `sum` gives the calling strand's view, as in OpenCilk. What
 * differs: `&sum` is the reducer, not a `long *`, and passing `sum` to
 * printf's `...` needs `(long)sum` or sum.get_value().
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_OPADD_REDUCER_H
#define WEFT_CILK_OPADD_REDUCER_H

#include <cilk/reducer_opadd.h>

namespace cilk {

template <class T> class opadd_reducer {
public:
  opadd_reducer() : imp_(T(0)) {}
  opadd_reducer(const T &initial) : imp_(initial) {}
  opadd_reducer(const opadd_reducer &) = delete;
  opadd_reducer &operator=(const opadd_reducer &) = delete;

  opadd_reducer &operator=(const T &x) {
    imp_.set_value(x);
    return *this;
  }
  template <class U> opadd_reducer &operator+=(const U &x) {
    *imp_ += x;
    return *this;
  }
  template <class U> opadd_reducer &operator-=(const U &x) {
    *imp_ -= x;
    return *this;
  }
  opadd_reducer &operator++() {
    ++*imp_;
    return *this;
  }
  void operator++(int) { ++*imp_; }
  opadd_reducer &operator--() {
    --*imp_;
    return *this;
  }
  void operator--(int) { --*imp_; }

  operator T() const { return imp_.get_value(); }
  T get_value() const { return imp_.get_value(); }

private:
  reducer<op_add<T>> imp_;
};

} // namespace cilk

#endif /* WEFT_CILK_OPADD_REDUCER_H */
