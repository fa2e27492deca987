/*===- weft/reducer.h - Reducers: race-free accumulation across strands ----===*\
 *
 * A reducer is a variable that parallel strands update without a race and
 * whose final value is the serial program's: each strand that touches it
 * gets its own view, starting from the monoid's identity, and views are
 * combined in serial order, left to right, when strands meet at a sync. Any
 * associative operation works, commutative or not (list append, string
 * concatenation, output to a stream).
 *
 *   #include <weft/reducer.h>
 *   struct Sum {                        // a monoid over long
 *     using value_type = long;
 *     using view_type = long;
 *     static void identity(long *v) { new (v) long(0); }
 *     static void reduce(long *left, long *right) { *left += *right; }
 *     static void destroy(long *) {}
 *   };
 *   weft::reducer<Sum> total;
 *   void walk(Node *n) {
 *     if (!n) return;
 *     *total += n->value;               // this strand's view
 *     weft_spawn walk(n->left);
 *     walk(n->right);
 *     weft_sync;
 *   }
 *   ... walk(root); long t = total.get_value();
 *
 * The Cilk Plus reducer library (<cilk/reducer_opadd.h> and its siblings)
 * is built on this template; <cilk/reducer.h> gives C programs the Cilk
 * Plus C macros on top of the C interface below.
 *
 * Rules, as in Cilk: read a reducer's final value after the strands that
 * update it have synced; do not destroy it before then. get_value() reads
 * the calling strand's view, which is the whole result only there.
 *
 * Without the Weft plugin a reducer is its own leftmost view, and every
 * operation is the serial elision's. A file compiled without the plugin
 * into a program that links Weft's runtime defines WEFT_LINKS_RUNTIME.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_REDUCER_H
#define WEFT_REDUCER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the runtime knows of a reducer. The callbacks get the reducer
 * itself as `self`; views are view_size bytes aligned to view_align. */
struct __weft_reducer {
  void (*reduce)(void *self, void *left, void *right); /* left = left op right; right is destroyed after */
  void (*identity)(void *self, void *view);            /* constructs an identity view */
  void (*destroy)(void *self, void *view);             /* may be null */
  size_t view_size;
  size_t view_align;
  void *leftmost; /* the reducer's own view, set by __weft_reducer_register */
};

#if defined(__weft__) || defined(WEFT_LINKS_RUNTIME)

/* The calling strand's view of r, created from the identity on first use. */
void *__weft_reducer_lookup(struct __weft_reducer *r);
/* Makes `leftmost` r's own view; call before the first lookup. */
void __weft_reducer_register(struct __weft_reducer *r, void *leftmost);
/* Folds the calling strand's view into the leftmost; call before r dies. */
void __weft_reducer_unregister(struct __weft_reducer *r);

#else

static inline void *__weft_reducer_lookup(struct __weft_reducer *r) {
  return r->leftmost;
}
static inline void __weft_reducer_register(struct __weft_reducer *r,
                                           void *leftmost) {
  r->leftmost = leftmost;
}
static inline void __weft_reducer_unregister(struct __weft_reducer *r) {
  (void)r;
}

#endif

#ifdef __cplusplus
} /* extern "C" */

#include <new>
#include <utility>

namespace weft {

namespace detail {
// A view type may wrap its value (Cilk Plus views: view_get_value() and
// friends) or be the value itself (a monoid over long with view_type long).
template <class V>
auto viewValue(const V &v, int) -> decltype(v.view_get_value()) {
  return v.view_get_value();
}
template <class V> const V &viewValue(const V &v, long) { return v; }
template <class V, class T>
auto setViewValue(V &v, const T &x, int) -> decltype(v.view_set_value(x)) {
  v.view_set_value(x);
}
template <class V, class T> void setViewValue(V &v, const T &x, long) { v = x; }
template <class V, class T>
auto moveInView(V &v, T &x, int) -> decltype(v.view_move_in(x)) {
  v.view_move_in(x);
}
template <class V, class T> void moveInView(V &v, T &x, long) { v = std::move(x); }
template <class V, class T>
auto moveOutView(V &v, T &x, int) -> decltype(v.view_move_out(x)) {
  v.view_move_out(x);
}
template <class V, class T> void moveOutView(V &v, T &x, long) { x = std::move(v); }
} // namespace detail

/// A reducer over \p Monoid, which provides `value_type`, `view_type` and
/// `identity(view_type *)` (construct an identity view in raw storage),
/// `reduce(view_type *left, view_type *right)` (left = left op right) and
/// `destroy(view_type *)`, as static or const member functions. Arguments of
/// the constructor construct the leftmost view.
template <class Monoid> class reducer : private __weft_reducer {
public:
  using monoid_type = Monoid;
  using value_type = typename Monoid::value_type;
  using view_type = typename Monoid::view_type;

  template <class... Args> explicit reducer(Args &&...args) : monoid_() {
    new (leftmost_) view_type(std::forward<Args>(args)...);
    init();
  }

  /// Constructs the leftmost view from \p args with a given monoid.
  template <class... Args>
  reducer(const Monoid &m, std::piecewise_construct_t, Args &&...args)
      : monoid_(m) {
    new (leftmost_) view_type(std::forward<Args>(args)...);
    init();
  }

  ~reducer() {
    __weft_reducer_unregister(this);
    monoid_.destroy(leftmostView());
  }

  reducer(const reducer &) = delete;
  reducer &operator=(const reducer &) = delete;

  /// The calling strand's view.
  view_type &view() {
    return *static_cast<view_type *>(__weft_reducer_lookup(this));
  }
  const view_type &view() const { return const_cast<reducer *>(this)->view(); }
  view_type &operator*() { return view(); }
  const view_type &operator*() const { return view(); }
  view_type *operator->() { return &view(); }
  const view_type *operator->() const { return &view(); }

  /// The calling strand's value: the final one after the last sync.
  decltype(auto) get_value() const { return detail::viewValue(view(), 0); }
  void set_value(const value_type &v) { detail::setViewValue(view(), v, 0); }
  void move_in(value_type &v) { detail::moveInView(view(), v, 0); }
  void move_out(value_type &v) { detail::moveOutView(view(), v, 0); }

  Monoid &monoid() { return monoid_; }

private:
  void init() {
    __weft_reducer::reduce = &reduceViews;
    __weft_reducer::identity = &identityView;
    __weft_reducer::destroy = &destroyView;
    view_size = sizeof(view_type);
    view_align = alignof(view_type);
    __weft_reducer_register(this, leftmost_);
  }
  view_type *leftmostView() { return reinterpret_cast<view_type *>(leftmost_); }

  static reducer *self(void *base) {
    return static_cast<reducer *>(static_cast<__weft_reducer *>(base));
  }
  static void reduceViews(void *base, void *left, void *right) {
    self(base)->monoid_.reduce(static_cast<view_type *>(left),
                               static_cast<view_type *>(right));
  }
  static void identityView(void *base, void *view) {
    self(base)->monoid_.identity(static_cast<view_type *>(view));
  }
  static void destroyView(void *base, void *view) {
    self(base)->monoid_.destroy(static_cast<view_type *>(view));
  }

  Monoid monoid_;
  alignas(view_type) unsigned char leftmost_[sizeof(view_type)];
};

} // namespace weft

#endif /* __cplusplus */

#endif /* WEFT_REDUCER_H */
