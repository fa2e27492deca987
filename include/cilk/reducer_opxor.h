/*===- cilk/reducer_opxor.h - Bitwise XOR reducers (Cilk Plus) ------------===*\
 *
 *   cilk::reducer<cilk::op_xor<unsigned>> r;  // 1.0: cilk::reducer_opxor<unsigned>
 *   cilk_for (int i = 0; i < n; ++i) *r ^= mask(i);
 *
 * Every view but the leftmost starts from zero. In C:
 * CILK_C_REDUCER_OPXOR(name, tn, v) for the integer type tokens of
 * <cilk/reducer_c_types.h>, then CILK_C_REGISTER_REDUCER(name) and
 * REDUCER_VIEW(name) ^= x. <cilk/reducer_bitwise.h> says the rest.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_OPXOR_H
#define WEFT_CILK_REDUCER_OPXOR_H

#include <cilk/reducer_bitwise.h>

#define __WEFT_C_OPXOR(tn, T)                                              \
  __WEFT_C_BITWISE_FUNCTIONS(cilk_c_reducer_opxor, ^, 0, tn, T)
__WEFT_C_REDUCER_INTEGER_TYPES(__WEFT_C_OPXOR)
#undef __WEFT_C_OPXOR

#define CILK_C_REDUCER_OPXOR_TYPE(tn) cilk_c_reducer_opxor_##tn
#define CILK_C_REDUCER_OPXOR(Name, tn, V)                                  \
  __WEFT_C_BITWISE_INIT(cilk_c_reducer_opxor, Name, tn, V)

#ifdef __cplusplus
namespace cilk {

template <class Type>
class op_xor_view
    : public bitwise_view<Type, std::bit_xor<Type>,
                          bitwise_detail::zeros<Type>> {
  typedef bitwise_view<Type, std::bit_xor<Type>,
                       bitwise_detail::zeros<Type>>
      base;

public:
  op_xor_view() {}
  explicit op_xor_view(const Type &v) : base(v) {}
  op_xor_view &operator^=(const Type &x) {
    this->apply(x);
    return *this;
  }
  void reduce(op_xor_view *right) { base::reduce(right); }
};

template <class Type, bool Align = false>
class op_xor : public monoid_with_view<op_xor_view<Type>, Align> {};

template <class Type>
class reducer_opxor : public bitwise_reducer_wrapper<Type, op_xor<Type>> {
  typedef bitwise_reducer_wrapper<Type, op_xor<Type>> base;

public:
  reducer_opxor() {}
  explicit reducer_opxor(const Type &initial) : base(initial) {}
  reducer_opxor &operator^=(const Type &x) {
    **this ^= x;
    return *this;
  }
};

} // namespace cilk
#endif /* __cplusplus */

#endif /* WEFT_CILK_REDUCER_OPXOR_H */
