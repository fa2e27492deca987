/*===- cilk/reducer.h - The Cilk Plus reducer interface, on Weft's reducers ===*\
 *
 * Cilk Plus programs declare reducers with the library's monoids
 * (<cilk/reducer_opadd.h>, reducer_opmul.h, reducer_min_max.h,
 * reducer_list.h, reducer_ostream.h) or their own:
 *
 *   C++:  cilk::reducer<cilk::op_add<long>> sum;   *sum += x;
 *         sum.get_value();
 *   C:    CILK_C_DECLARE_REDUCER(long) sum =
 *             CILK_C_INIT_REDUCER(long, add_long, zero_long,
 *                                 __cilkrts_hyperobject_noop_destroy, 0);
 *         CILK_C_REGISTER_REDUCER(sum);
 *         REDUCER_VIEW(sum) += x;
 *         CILK_C_UNREGISTER_REDUCER(sum);      -- then read sum.value
 *
 * cilk::reducer is weft::reducer (weft/reducer.h, which says how views are
 * made and merged). A user monoid derives from cilk::monoid_base<Value,
 * View> and defines reduce(View *left, View *right), or from
 * cilk::monoid_with_view<View> when its view has reduce(View *right).
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_H
#define WEFT_CILK_REDUCER_H

#include <weft/reducer.h>

/* The C interface. A C reducer is a struct of the runtime's header and the
 * leftmost view; the view functions take the reducer as first argument. */
#define CILK_C_DECLARE_REDUCER(Type)                                         \
  struct {                                                                   \
    struct __weft_reducer __cxx_hyperbase;                                   \
    Type value;                                                              \
  }

#define CILK_C_INIT_REDUCER(Type, Reduce, Identity, Destroy, ...)            \
  {{(Reduce), (Identity), (Destroy), sizeof(Type), __alignof__(Type), 0},    \
   __VA_ARGS__}

#define CILK_C_REGISTER_REDUCER(Expr)                                        \
  __weft_reducer_register(&(Expr).__cxx_hyperbase, &(Expr).value)

#define CILK_C_UNREGISTER_REDUCER(Expr)                                      \
  __weft_reducer_unregister(&(Expr).__cxx_hyperbase)

#define REDUCER_VIEW(Expr)                                                   \
  (*(__typeof__((Expr).value) *)__weft_reducer_lookup(                       \
      &(Expr).__cxx_hyperbase))

#ifdef __cplusplus
extern "C" {
#endif
/* A destroy function for views that need no destruction. */
static inline void __cilkrts_hyperobject_noop_destroy(void *reducer,
                                                      void *view) {
  (void)reducer;
  (void)view;
}
#ifdef __cplusplus
}

#include <new>

namespace cilk {

/// What every monoid has: its types, and identity and destroy by the view's
/// default constructor and destructor. A monoid adds reduce().
template <class Value, class View = Value, bool Align = false>
class monoid_base {
public:
  typedef Value value_type;
  typedef View view_type;

  void identity(View *p) const { new (p) View(); }
  void destroy(View *p) const { p->~View(); }
};

/// A monoid whose view knows how to absorb the view to its right.
template <class View, bool Align = false>
class monoid_with_view
    : public monoid_base<typename View::value_type, View, Align> {
public:
  void reduce(View *left, View *right) const { left->reduce(right); }
};

/// A view holding one value, with the accessors reducer<> forwards to.
template <class Type> class scalar_view {
protected:
  Type m_value;

public:
  typedef Type value_type;

  scalar_view() : m_value() {}
  explicit scalar_view(const Type &v) : m_value(v) {}

  const Type &view_get_value() const { return m_value; }
  void view_set_value(const Type &v) { m_value = v; }
  void view_move_in(Type &v) { m_value = v; }
  void view_move_out(Type &v) { v = m_value; }
};

template <class Monoid> using reducer = weft::reducer<Monoid>;

} // namespace cilk

#endif /* __cplusplus */

#endif /* WEFT_CILK_REDUCER_H */
