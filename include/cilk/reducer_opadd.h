/*===- cilk/reducer_opadd.h - Sum reducers (Cilk Plus) --------------------===*\
 *
 *   cilk::reducer<cilk::op_add<long>> sum;    // or cilk::reducer_opadd<long>
 *   cilk_for (int i = 0; i < n; ++i) *sum += a[i];
 *   long total = sum.get_value();
 *
 * Views support +=, -=, ++ and --. In C: CILK_C_REDUCER_OPADD(name, tn, v)
 * with tn one of char, schar, uchar, short, ushort, int, uint, unsigned,
 * long, ulong, longlong, ulonglong, size_t, float, double, longdouble; then
 * CILK_C_REGISTER_REDUCER(name), REDUCER_VIEW(name) += x, and name.value.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_OPADD_H
#define WEFT_CILK_REDUCER_OPADD_H

#include <cilk/reducer.h>
#include <cilk/reducer_c_types.h>

#define __WEFT_C_OPADD(tn, T)                                                \
  static inline void cilk_c_reducer_opadd_reduce_##tn(void *r, void *left,   \
                                                      void *right) {         \
    (void)r;                                                                 \
    *(T *)left += *(T *)right;                                               \
  }                                                                          \
  static inline void cilk_c_reducer_opadd_identity_##tn(void *r,             \
                                                        void *view) {        \
    (void)r;                                                                 \
    *(T *)view = 0;                                                          \
  }                                                                          \
  typedef CILK_C_DECLARE_REDUCER(T) cilk_c_reducer_opadd_##tn;
__WEFT_C_REDUCER_TYPES(__WEFT_C_OPADD)
#undef __WEFT_C_OPADD

#define CILK_C_REDUCER_OPADD_TYPE(tn) cilk_c_reducer_opadd_##tn
#define CILK_C_REDUCER_OPADD(Name, tn, V)                                    \
  CILK_C_REDUCER_OPADD_TYPE(tn)                                              \
  Name = CILK_C_INIT_REDUCER(__weft_c_type_##tn,                             \
                             cilk_c_reducer_opadd_reduce_##tn,               \
                             cilk_c_reducer_opadd_identity_##tn,             \
                             __cilkrts_hyperobject_noop_destroy, V)

#ifdef __cplusplus
namespace cilk {

template <class Type> class op_add_view : public scalar_view<Type> {
public:
  op_add_view() : scalar_view<Type>() {}
  explicit op_add_view(const Type &v) : scalar_view<Type>(v) {}

  void reduce(op_add_view *right) { this->m_value += right->m_value; }

  template <class T> op_add_view &operator+=(const T &x) {
    this->m_value += x;
    return *this;
  }
  template <class T> op_add_view &operator-=(const T &x) {
    this->m_value -= x;
    return *this;
  }
  op_add_view &operator++() {
    ++this->m_value;
    return *this;
  }
  void operator++(int) { ++this->m_value; }
  op_add_view &operator--() {
    --this->m_value;
    return *this;
  }
  void operator--(int) { --this->m_value; }
};

template <class Type, bool Align = false>
class op_add : public monoid_with_view<op_add_view<Type>, Align> {};

/// The Cilk Plus 1.0 spelling: the reducer is its own view.
template <class Type> class reducer_opadd {
public:
  typedef Type value_type;

  reducer_opadd() {}
  explicit reducer_opadd(const Type &initial) : imp_(initial) {}

  reducer_opadd &operator+=(const Type &x) {
    *imp_ += x;
    return *this;
  }
  reducer_opadd &operator-=(const Type &x) {
    *imp_ -= x;
    return *this;
  }
  reducer_opadd &operator++() {
    ++*imp_;
    return *this;
  }
  void operator++(int) { ++*imp_; }
  reducer_opadd &operator--() {
    --*imp_;
    return *this;
  }
  void operator--(int) { --*imp_; }

  const Type &get_value() const { return imp_.get_value(); }
  void set_value(const Type &v) { imp_.set_value(v); }
  op_add_view<Type> &view() { return imp_.view(); }
  op_add_view<Type> &operator*() { return *imp_; }
  op_add_view<Type> *operator->() { return &*imp_; }

private:
  reducer<op_add<Type>> imp_;
};

} // namespace cilk
#endif /* __cplusplus */

#endif /* WEFT_CILK_REDUCER_OPADD_H */
