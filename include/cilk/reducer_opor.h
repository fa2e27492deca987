/*===- cilk/reducer_opor.h - Bitwise OR reducers (Cilk Plus) --------------===*\
 *
 *   cilk::reducer<cilk::op_or<unsigned>> r;  // 1.0: cilk::reducer_opor<unsigned>
 *   cilk_for (int i = 0; i < n; ++i) *r |= mask(i);
 *
 * Every view but the leftmost starts from zero. In C:
 * CILK_C_REDUCER_OPOR(name, tn, v) for the integer type tokens of
 * <cilk/reducer_c_types.h>, then CILK_C_REGISTER_REDUCER(name) and
 * REDUCER_VIEW(name) |= x. <cilk/reducer_bitwise.h> says the rest.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_OPOR_H
#define WEFT_CILK_REDUCER_OPOR_H

#include <cilk/reducer_bitwise.h>

#define __WEFT_C_OPOR(tn, T)                                              \
  __WEFT_C_BITWISE_FUNCTIONS(cilk_c_reducer_opor, |, 0, tn, T)
__WEFT_C_REDUCER_INTEGER_TYPES(__WEFT_C_OPOR)
#undef __WEFT_C_OPOR

#define CILK_C_REDUCER_OPOR_TYPE(tn) cilk_c_reducer_opor_##tn
#define CILK_C_REDUCER_OPOR(Name, tn, V)                                  \
  __WEFT_C_BITWISE_INIT(cilk_c_reducer_opor, Name, tn, V)

#ifdef __cplusplus
namespace cilk {

template <class Type>
class op_or_view
    : public bitwise_view<Type, std::bit_or<Type>,
                          bitwise_detail::zeros<Type>> {
  typedef bitwise_view<Type, std::bit_or<Type>,
                       bitwise_detail::zeros<Type>>
      base;

public:
  op_or_view() {}
  explicit op_or_view(const Type &v) : base(v) {}
  op_or_view &operator|=(const Type &x) {
    this->apply(x);
    return *this;
  }
  void reduce(op_or_view *right) { base::reduce(right); }
};

template <class Type, bool Align = false>
class op_or : public monoid_with_view<op_or_view<Type>, Align> {};

template <class Type>
class reducer_opor : public bitwise_reducer_wrapper<Type, op_or<Type>> {
  typedef bitwise_reducer_wrapper<Type, op_or<Type>> base;

public:
  reducer_opor() {}
  explicit reducer_opor(const Type &initial) : base(initial) {}
  reducer_opor &operator|=(const Type &x) {
    **this |= x;
    return *this;
  }
};

} // namespace cilk
#endif /* __cplusplus */

#endif /* WEFT_CILK_REDUCER_OPOR_H */
