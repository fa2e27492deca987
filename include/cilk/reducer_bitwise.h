/*===- cilk/reducer_bitwise.h - What the bitwise reducers share -----------===*\
 *
 * Included by <cilk/reducer_opand.h>, <cilk/reducer_opor.h> and
 * <cilk/reducer_opxor.h>, which are the headers to include. Each defines,
 * as Cilk Plus does, for its operator OP (&, |, ^) and NAME (and, or, xor):
 *
 *   cilk::reducer<cilk::op_NAME<T>> r;   // *r OP= x; r.get_value()
 *   cilk::reducer_opNAME<T> w;           // the 1.0 spelling: w OP= x
 *   CILK_C_REDUCER_OPNAME(r, tn, v)      // in C, for the integer type
 *                                        // tokens of <cilk/reducer_c_types.h>
 *
 * Every view but the leftmost starts from the operator's identity: all ones
 * (~T()) for AND, zero for OR and XOR. The leftmost starts from the
 * constructor's argument, or, for reducer<op_NAME<T>>() without one, from
 * the identity; reducer_opNAME<T>() starts from T(), as in Cilk Plus.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_BITWISE_H
#define WEFT_CILK_REDUCER_BITWISE_H

#include <cilk/reducer.h>
#include <cilk/reducer_c_types.h>

#ifdef __cplusplus
#include <functional>
#endif

/* The C reducer of one operator and one integer type token tn (of type T):
 * its two callbacks and its type, PREFIX##_tn, where PREFIX is
 * cilk_c_reducer_opand, cilk_c_reducer_opor or cilk_c_reducer_opxor. The
 * names are spelled out, not pasted from `and`, `or`, `xor`, which are
 * operators to C++'s preprocessor (and macros after <iso646.h> in C). */
#define __WEFT_C_BITWISE_FUNCTIONS(PREFIX, OP, IDENTITY, tn, T)              \
  static inline void PREFIX##_reduce_##tn(void *r, void *left,               \
                                          void *right) {                     \
    (void)r;                                                                 \
    *(T *)left = (T)(*(T *)left OP * (T *)right);                            \
  }                                                                          \
  static inline void PREFIX##_identity_##tn(void *r, void *view) {           \
    (void)r;                                                                 \
    *(T *)view = (T)(IDENTITY);                                              \
  }                                                                          \
  typedef CILK_C_DECLARE_REDUCER(T) PREFIX##_##tn;

/* `PREFIX##_tn Name = ...`: a C reducer with leftmost value V. */
#define __WEFT_C_BITWISE_INIT(PREFIX, Name, tn, V)                           \
  PREFIX##_##tn Name = CILK_C_INIT_REDUCER(                                  \
      __weft_c_type_##tn, PREFIX##_reduce_##tn, PREFIX##_identity_##tn,      \
      __cilkrts_hyperobject_noop_destroy, V)

#ifdef __cplusplus
namespace cilk {

/// The view of a bitwise reducer: Op is std::bit_and<>, bit_or<> or
/// bit_xor<>, Identity() its identity for Type.
template <class Type, class Op, Type (*Identity)()>
class bitwise_view : public scalar_view<Type> {
public:
  bitwise_view() : scalar_view<Type>(Identity()) {}
  explicit bitwise_view(const Type &v) : scalar_view<Type>(v) {}
  void reduce(bitwise_view *right) {
    this->m_value = Op()(this->m_value, right->m_value);
  }

protected:
  void apply(const Type &x) { this->m_value = Op()(this->m_value, x); }
};

/// The Cilk Plus 1.0 spelling of a bitwise reducer: the reducer is its own
/// view. Monoid is op_and<Type>, op_or<Type> or op_xor<Type>; the default
/// constructor starts from Type(), as Cilk Plus's does.
template <class Type, class Monoid> class bitwise_reducer_wrapper {
public:
  typedef Type value_type;
  typedef typename Monoid::view_type view_type;

  bitwise_reducer_wrapper() : imp_(Type()) {}
  explicit bitwise_reducer_wrapper(const Type &initial) : imp_(initial) {}

  const Type &get_value() const { return imp_.get_value(); }
  void set_value(const Type &v) { imp_.set_value(v); }
  view_type &view() { return imp_.view(); }
  view_type &operator*() { return *imp_; }
  view_type *operator->() { return &*imp_; }

private:
  reducer<Monoid> imp_;
};

namespace bitwise_detail {
template <class Type> Type all_ones() { return ~Type(); }
template <class Type> Type zeros() { return Type(); }
} // namespace bitwise_detail

} // namespace cilk
#endif /* __cplusplus */

#endif /* WEFT_CILK_REDUCER_BITWISE_H */
