/*===- cilk/ostream_reducer.h - OpenCilk 2's ostream reducer ---------------===*\
 *
 *   cilk::ostream_reducer<char> out(std::cout);
 *   cilk_for (int i = 0; i < n; ++i) out << i << '\n';   // in serial order
 *
 * As in OpenCilk 2, cilk::ostream_reducer<Char> is an alias template of a
 * stream type qualified `cilk_reducer(identity, reduce)`, so `out` is a
 * std::basic_ostream<Char> to every use and can be passed to a function
 * that takes one. The leftmost view writes straight to the destination
 * stream's buffer; any other view keeps what its strand writes until it
 * is reduced into its left neighbour, which writes (or keeps) it in turn.
 * Without the plugin the qualifier vanishes: the stream writes through.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_OSTREAM_REDUCER_H
#define WEFT_CILK_OSTREAM_REDUCER_H

#include <cilk/cilk.h>

#include <new>
#include <ostream>
#include <sstream>

namespace cilk {

namespace detail {
// Constructed before the stream that writes into it (a base, first).
template <class Char, class Traits> struct held_output {
  std::basic_stringbuf<Char, Traits> held;
};
} // namespace detail

template <class Char, class Traits = std::char_traits<Char>>
class ostream_view : private detail::held_output<Char, Traits>,
                     public std::basic_ostream<Char, Traits> {
  using stream = std::basic_ostream<Char, Traits>;
  using buffer = detail::held_output<Char, Traits>;

public:
  /// A strand's own view: keeps its output.
  ostream_view() : stream(&this->buffer::held) {}
  /// The leftmost view: writes to \p destination's buffer.
  explicit ostream_view(stream &destination) : stream(destination.rdbuf()) {}

  static void identity(void *view) { new (view) ostream_view(); }
  static void reduce(void *left, void *right) {
    auto *l = static_cast<ostream_view *>(left);
    auto *r = static_cast<ostream_view *>(right);
    *l << r->buffer::held.str();
    r->~ostream_view();
  }
};

// The callbacks are parenthesised for the macro (their names hold commas).
template <class Char, class Traits = std::char_traits<Char>>
using ostream_reducer =
    ostream_view<Char, Traits> cilk_reducer((ostream_view<Char, Traits>::identity),
                                            (ostream_view<Char, Traits>::reduce));

} // namespace cilk

#endif /* WEFT_CILK_OSTREAM_REDUCER_H */
