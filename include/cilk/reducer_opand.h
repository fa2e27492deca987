/*===- cilk/reducer_opand.h - Bitwise AND reducers (Cilk Plus) ------------===*\
 *
 *   cilk::reducer<cilk::op_and<unsigned>> r;  // 1.0: cilk::reducer_opand<unsigned>
 *   cilk_for (int i = 0; i < n; ++i) *r &= mask(i);
 *
 * Every view but the leftmost starts from all ones (~T()). In C:
 * CILK_C_REDUCER_OPAND(name, tn, v) for the integer type tokens of
 * <cilk/reducer_c_types.h>, then CILK_C_REGISTER_REDUCER(name) and
 * REDUCER_VIEW(name) &= x. <cilk/reducer_bitwise.h> says the rest.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_OPAND_H
#define WEFT_CILK_REDUCER_OPAND_H

#include <cilk/reducer_bitwise.h>

#define __WEFT_C_OPAND(tn, T)                                              \
  __WEFT_C_BITWISE_FUNCTIONS(cilk_c_reducer_opand, &, ~(T)0, tn, T)
__WEFT_C_REDUCER_INTEGER_TYPES(__WEFT_C_OPAND)
#undef __WEFT_C_OPAND

#define CILK_C_REDUCER_OPAND_TYPE(tn) cilk_c_reducer_opand_##tn
#define CILK_C_REDUCER_OPAND(Name, tn, V)                                  \
  __WEFT_C_BITWISE_INIT(cilk_c_reducer_opand, Name, tn, V)

#ifdef __cplusplus
namespace cilk {

template <class Type>
class op_and_view
    : public bitwise_view<Type, std::bit_and<Type>,
                          bitwise_detail::all_ones<Type>> {
  typedef bitwise_view<Type, std::bit_and<Type>,
                       bitwise_detail::all_ones<Type>>
      base;

public:
  op_and_view() {}
  explicit op_and_view(const Type &v) : base(v) {}
  op_and_view &operator&=(const Type &x) {
    this->apply(x);
    return *this;
  }
  void reduce(op_and_view *right) { base::reduce(right); }
};

template <class Type, bool Align = false>
class op_and : public monoid_with_view<op_and_view<Type>, Align> {};

template <class Type>
class reducer_opand : public bitwise_reducer_wrapper<Type, op_and<Type>> {
  typedef bitwise_reducer_wrapper<Type, op_and<Type>> base;

public:
  reducer_opand() {}
  explicit reducer_opand(const Type &initial) : base(initial) {}
  reducer_opand &operator&=(const Type &x) {
    **this &= x;
    return *this;
  }
};

} // namespace cilk
#endif /* __cplusplus */

#endif /* WEFT_CILK_REDUCER_OPAND_H */
