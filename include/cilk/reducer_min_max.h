/*===- cilk/reducer_min_max.h - Minimum and maximum reducers (Cilk Plus) --===*\
 *
 *   cilk::reducer<cilk::op_max<long>> best;          // or reducer_max<long>
 *   cilk_for (int i = 0; i < n; ++i) best->calc_max(score(i));
 *   long top = best.get_value();
 *
 *   cilk::reducer<cilk::op_max_index<int, long>> where; // or reducer_max_index
 *   cilk_for (int i = 0; i < n; ++i) where->calc_max(i, score(i));
 *   where.get_value();   // std::pair(index, value) of the first maximum
 *
 * Ties keep the value (and index) met first in serial order, as the serial
 * program does. A view that has seen no value is the identity; get_value()
 * on it gives a value-initialised Type. `*r = cilk::max_of(*r, x)` is
 * calc_max(x). In C: CILK_C_REDUCER_MAX(name, tn, v) / _MIN with
 * CILK_C_REDUCER_MAX_CALC(REDUCER_VIEW(name), x).
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_MIN_MAX_H
#define WEFT_CILK_REDUCER_MIN_MAX_H

#include <cilk/reducer.h>
#include <cilk/reducer_c_types.h>

/* C: the view is a plain value; the identity is the type's extreme, so the
 * initial value given to the macro should be that extreme too. */
#define __WEFT_C_MINMAX(tn, T)                                               \
  static inline void cilk_c_reducer_max_reduce_##tn(void *r, void *left,     \
                                                    void *right) {           \
    (void)r;                                                                 \
    if (*(T *)left < *(T *)right)                                            \
      *(T *)left = *(T *)right;                                              \
  }                                                                          \
  static inline void cilk_c_reducer_min_reduce_##tn(void *r, void *left,     \
                                                    void *right) {           \
    (void)r;                                                                 \
    if (*(T *)right < *(T *)left)                                            \
      *(T *)left = *(T *)right;                                              \
  }                                                                          \
  typedef CILK_C_DECLARE_REDUCER(T) cilk_c_reducer_max_##tn;                 \
  typedef CILK_C_DECLARE_REDUCER(T) cilk_c_reducer_min_##tn;
__WEFT_C_REDUCER_TYPES(__WEFT_C_MINMAX)
#undef __WEFT_C_MINMAX

#define __WEFT_C_EXTREME_IDENTITY(name, tn, value)                           \
  static inline void cilk_c_reducer_##name##_identity_##tn(void *r,          \
                                                           void *view) {     \
    (void)r;                                                                 \
    *(__weft_c_type_##tn *)view = (value);                                   \
  }
#include <float.h>
#include <limits.h>
#include <stdint.h>
#define __WEFT_C_EXTREMES(X)                                                 \
  X(char, CHAR_MIN, CHAR_MAX) X(schar, SCHAR_MIN, SCHAR_MAX)                 \
  X(uchar, 0, UCHAR_MAX) X(short, SHRT_MIN, SHRT_MAX)                        \
  X(ushort, 0, USHRT_MAX) X(int, INT_MIN, INT_MAX) X(uint, 0, UINT_MAX)      \
  X(unsigned, 0, UINT_MAX) X(long, LONG_MIN, LONG_MAX)                       \
  X(ulong, 0, ULONG_MAX) X(longlong, LLONG_MIN, LLONG_MAX)                   \
  X(ulonglong, 0, ULLONG_MAX) X(size_t, 0, SIZE_MAX)                         \
  X(float, -FLT_MAX, FLT_MAX) X(double, -DBL_MAX, DBL_MAX)                   \
  X(longdouble, -LDBL_MAX, LDBL_MAX)
#define __WEFT_C_MINMAX_IDENTITIES(tn, lowest, highest)                      \
  __WEFT_C_EXTREME_IDENTITY(max, tn, lowest)                                 \
  __WEFT_C_EXTREME_IDENTITY(min, tn, highest)
__WEFT_C_EXTREMES(__WEFT_C_MINMAX_IDENTITIES)
#undef __WEFT_C_MINMAX_IDENTITIES
#undef __WEFT_C_EXTREMES
#undef __WEFT_C_EXTREME_IDENTITY

#define CILK_C_REDUCER_MAX_TYPE(tn) cilk_c_reducer_max_##tn
#define CILK_C_REDUCER_MIN_TYPE(tn) cilk_c_reducer_min_##tn
#define CILK_C_REDUCER_MAX(Name, tn, V)                                      \
  CILK_C_REDUCER_MAX_TYPE(tn)                                                \
  Name = CILK_C_INIT_REDUCER(__weft_c_type_##tn,                             \
                             cilk_c_reducer_max_reduce_##tn,                 \
                             cilk_c_reducer_max_identity_##tn,               \
                             __cilkrts_hyperobject_noop_destroy, V)
#define CILK_C_REDUCER_MIN(Name, tn, V)                                      \
  CILK_C_REDUCER_MIN_TYPE(tn)                                                \
  Name = CILK_C_INIT_REDUCER(__weft_c_type_##tn,                             \
                             cilk_c_reducer_min_reduce_##tn,                 \
                             cilk_c_reducer_min_identity_##tn,               \
                             __cilkrts_hyperobject_noop_destroy, V)
#define CILK_C_REDUCER_MAX_CALC(View, V)                                     \
  ((View) < (V) ? ((View) = (V)) : (View))
#define CILK_C_REDUCER_MIN_CALC(View, V)                                     \
  ((V) < (View) ? ((View) = (V)) : (View))

#ifdef __cplusplus
#include <functional>
#include <utility>

namespace cilk {

/// One extreme so far, or none (the identity). \p Better(a, b) says b
/// replaces a: strictly, so the first of equals stays.
template <class Type, class Better> class op_extreme_view {
public:
  typedef Type value_type;

  op_extreme_view() : m_value(), m_set(false) {}
  explicit op_extreme_view(const Type &v) : m_value(v), m_set(true) {}

  void calc(const Type &x) {
    if (!m_set || Better()(m_value, x)) {
      m_value = x;
      m_set = true;
    }
  }
  void reduce(op_extreme_view *right) {
    if (right->m_set)
      calc(right->m_value);
  }

  bool is_set() const { return m_set; }
  const Type &view_get_value() const { return m_value; }
  void view_set_value(const Type &v) {
    m_value = v;
    m_set = true;
  }
  void view_move_in(Type &v) { view_set_value(v); }
  void view_move_out(Type &v) { v = m_value; }

protected:
  Type m_value;
  bool m_set;
};

template <class Compare> struct replaces_for_max {
  template <class T> bool operator()(const T &held, const T &x) const {
    return Compare()(held, x);
  }
};
template <class Compare> struct replaces_for_min {
  template <class T> bool operator()(const T &held, const T &x) const {
    return Compare()(x, held);
  }
};

template <class Type> struct extreme_of {
  const Type &value;
};
template <class View>
extreme_of<typename View::value_type>
max_of(const View &, const typename View::value_type &x) {
  return {x};
}
template <class View>
extreme_of<typename View::value_type>
min_of(const View &, const typename View::value_type &x) {
  return {x};
}

template <class Type, class Compare = std::less<Type>>
class op_max_view
    : public op_extreme_view<Type, replaces_for_max<Compare>> {
public:
  using op_extreme_view<Type, replaces_for_max<Compare>>::op_extreme_view;
  op_max_view &calc_max(const Type &x) {
    this->calc(x);
    return *this;
  }
  op_max_view &operator=(const extreme_of<Type> &m) { return calc_max(m.value); }
};

template <class Type, class Compare = std::less<Type>>
class op_min_view
    : public op_extreme_view<Type, replaces_for_min<Compare>> {
public:
  using op_extreme_view<Type, replaces_for_min<Compare>>::op_extreme_view;
  op_min_view &calc_min(const Type &x) {
    this->calc(x);
    return *this;
  }
  op_min_view &operator=(const extreme_of<Type> &m) { return calc_min(m.value); }
};

template <class Type, class Compare = std::less<Type>, bool Align = false>
class op_max : public monoid_with_view<op_max_view<Type, Compare>, Align> {};
template <class Type, class Compare = std::less<Type>, bool Align = false>
class op_min : public monoid_with_view<op_min_view<Type, Compare>, Align> {};

/// Extremes with their index: compares values only.
template <class Compare> struct by_second {
  template <class P> bool operator()(const P &a, const P &b) const {
    return Compare()(a.second, b.second);
  }
};

template <class Index, class Type, class Compare = std::less<Type>>
class op_max_index_view
    : public op_extreme_view<std::pair<Index, Type>,
                             replaces_for_max<by_second<Compare>>> {
public:
  using op_extreme_view<std::pair<Index, Type>,
                        replaces_for_max<by_second<Compare>>>::op_extreme_view;
  op_max_index_view &calc_max(const Index &i, const Type &x) {
    this->calc(std::pair<Index, Type>(i, x));
    return *this;
  }
  const Index &get_index() const { return this->m_value.first; }
  const Type &get_reference() const { return this->m_value.second; }
};

template <class Index, class Type, class Compare = std::less<Type>>
class op_min_index_view
    : public op_extreme_view<std::pair<Index, Type>,
                             replaces_for_min<by_second<Compare>>> {
public:
  using op_extreme_view<std::pair<Index, Type>,
                        replaces_for_min<by_second<Compare>>>::op_extreme_view;
  op_min_index_view &calc_min(const Index &i, const Type &x) {
    this->calc(std::pair<Index, Type>(i, x));
    return *this;
  }
  const Index &get_index() const { return this->m_value.first; }
  const Type &get_reference() const { return this->m_value.second; }
};

template <class Index, class Type, class Compare = std::less<Type>,
          bool Align = false>
class op_max_index
    : public monoid_with_view<op_max_index_view<Index, Type, Compare>, Align> {};
template <class Index, class Type, class Compare = std::less<Type>,
          bool Align = false>
class op_min_index
    : public monoid_with_view<op_min_index_view<Index, Type, Compare>, Align> {};

/// The Cilk Plus 1.0 spellings.
template <class Type, class Compare = std::less<Type>> class reducer_max {
public:
  typedef Type value_type;
  reducer_max() {}
  explicit reducer_max(const Type &initial) : imp_(initial) {}
  reducer_max &calc_max(const Type &x) {
    imp_->calc_max(x);
    return *this;
  }
  reducer_max &operator=(const extreme_of<Type> &m) { return calc_max(m.value); }
  const Type &get_value() const { return imp_.get_value(); }
  void set_value(const Type &v) { imp_.set_value(v); }
  op_max_view<Type, Compare> &operator*() { return *imp_; }

private:
  reducer<op_max<Type, Compare>> imp_;
};

template <class Type, class Compare = std::less<Type>> class reducer_min {
public:
  typedef Type value_type;
  reducer_min() {}
  explicit reducer_min(const Type &initial) : imp_(initial) {}
  reducer_min &calc_min(const Type &x) {
    imp_->calc_min(x);
    return *this;
  }
  reducer_min &operator=(const extreme_of<Type> &m) { return calc_min(m.value); }
  const Type &get_value() const { return imp_.get_value(); }
  void set_value(const Type &v) { imp_.set_value(v); }
  op_min_view<Type, Compare> &operator*() { return *imp_; }

private:
  reducer<op_min<Type, Compare>> imp_;
};

template <class Index, class Type, class Compare = std::less<Type>>
class reducer_max_index {
public:
  reducer_max_index() {}
  reducer_max_index(const Index &i, const Type &initial)
      : imp_(std::pair<Index, Type>(i, initial)) {}
  reducer_max_index &calc_max(const Index &i, const Type &x) {
    imp_->calc_max(i, x);
    return *this;
  }
  const Type &get_value() const { return imp_.get_value().second; }
  const Index &get_index() const { return imp_.get_value().first; }
  const Type &get_reference() const { return imp_.get_value().second; }

private:
  reducer<op_max_index<Index, Type, Compare>> imp_;
};

template <class Index, class Type, class Compare = std::less<Type>>
class reducer_min_index {
public:
  reducer_min_index() {}
  reducer_min_index(const Index &i, const Type &initial)
      : imp_(std::pair<Index, Type>(i, initial)) {}
  reducer_min_index &calc_min(const Index &i, const Type &x) {
    imp_->calc_min(i, x);
    return *this;
  }
  const Type &get_value() const { return imp_.get_value().second; }
  const Index &get_index() const { return imp_.get_value().first; }
  const Type &get_reference() const { return imp_.get_value().second; }

private:
  reducer<op_min_index<Index, Type, Compare>> imp_;
};

} // namespace cilk
#endif /* __cplusplus */

#endif /* WEFT_CILK_REDUCER_MIN_MAX_H */
