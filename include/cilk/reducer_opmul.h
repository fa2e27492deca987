/*===- cilk/reducer_opmul.h - Product reducers (Cilk Plus) ----------------===*\
 *
 *   cilk::reducer<cilk::op_mul<double>> product(1.0);
 *   cilk_for (int i = 0; i < n; ++i) *product *= factor(i);
 *
 * The leftmost view starts from the constructor's argument; every other
 * view from 1. In C: CILK_C_REDUCER_OPMUL(name, tn, v), with the type
 * tokens of <cilk/reducer_opadd.h>.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_OPMUL_H
#define WEFT_CILK_REDUCER_OPMUL_H

#include <cilk/reducer.h>
#include <cilk/reducer_c_types.h>

#define __WEFT_C_OPMUL(tn, T)                                                \
  static inline void cilk_c_reducer_opmul_reduce_##tn(void *r, void *left,   \
                                                      void *right) {         \
    (void)r;                                                                 \
    *(T *)left *= *(T *)right;                                               \
  }                                                                          \
  static inline void cilk_c_reducer_opmul_identity_##tn(void *r,             \
                                                        void *view) {        \
    (void)r;                                                                 \
    *(T *)view = 1;                                                          \
  }                                                                          \
  typedef CILK_C_DECLARE_REDUCER(T) cilk_c_reducer_opmul_##tn;
__WEFT_C_REDUCER_TYPES(__WEFT_C_OPMUL)
#undef __WEFT_C_OPMUL

#define CILK_C_REDUCER_OPMUL_TYPE(tn) cilk_c_reducer_opmul_##tn
#define CILK_C_REDUCER_OPMUL(Name, tn, V)                                    \
  CILK_C_REDUCER_OPMUL_TYPE(tn)                                              \
  Name = CILK_C_INIT_REDUCER(__weft_c_type_##tn,                             \
                             cilk_c_reducer_opmul_reduce_##tn,               \
                             cilk_c_reducer_opmul_identity_##tn,             \
                             __cilkrts_hyperobject_noop_destroy, V)

#ifdef __cplusplus
namespace cilk {

template <class Type> class op_mul_view : public scalar_view<Type> {
public:
  op_mul_view() : scalar_view<Type>(Type(1)) {}
  explicit op_mul_view(const Type &v) : scalar_view<Type>(v) {}

  void reduce(op_mul_view *right) { this->m_value *= right->m_value; }

  template <class T> op_mul_view &operator*=(const T &x) {
    this->m_value *= x;
    return *this;
  }
};

template <class Type, bool Align = false>
class op_mul : public monoid_with_view<op_mul_view<Type>, Align> {};

} // namespace cilk
#endif /* __cplusplus */

#endif /* WEFT_CILK_REDUCER_OPMUL_H */
