/*===- cilk/reducer_ostream.h - Output in serial order (Cilk Plus) --------===*\
 *
 *   cilk::reducer_ostream out(std::cout);
 *   cilk_for (int i = 0; i < n; ++i) *out << i << '\n';   // or out << i
 *
 * The text appears in the order the serial program writes it. The strand
 * that holds the stream's own view (the leftmost) writes to it directly;
 * every other strand writes into a buffer of its own, which reaches the
 * stream when its strand's views merge into the leftmost at a sync.
 * Formatting state (width, precision, flags) is per view: set it in the
 * strand that writes.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_OSTREAM_H
#define WEFT_CILK_REDUCER_OSTREAM_H

#include <cilk/reducer.h>

#include <ostream>
#include <sstream>

namespace cilk {

class op_ostream_view {
public:
  typedef std::ostream value_type;

  /// An identity view: buffers.
  op_ostream_view() : m_stream(nullptr) {}
  /// The leftmost view: writes to \p os.
  explicit op_ostream_view(std::ostream &os) : m_stream(&os) {}

  std::ostream &stream() { return m_stream ? *m_stream : m_buffer; }
  std::ostream &get_reference() { return stream(); }

  template <class T> op_ostream_view &operator<<(const T &x) {
    stream() << x;
    return *this;
  }
  op_ostream_view &operator<<(std::ostream &(*manip)(std::ostream &)) {
    manip(stream());
    return *this;
  }
  op_ostream_view &operator<<(std::ios_base &(*manip)(std::ios_base &)) {
    manip(stream());
    return *this;
  }

  /// The text written right of this view follows its own.
  void reduce(op_ostream_view *right) { stream() << right->m_buffer.str(); }

private:
  std::ostream *m_stream;
  std::ostringstream m_buffer;
};

template <bool Align = false>
class op_basic_ostream : public monoid_with_view<op_ostream_view, Align> {};
typedef op_basic_ostream<> op_ostream;

/// The Cilk Plus 1.0 spelling, usable as a stream: out << x.
class reducer_ostream : public reducer<op_ostream> {
public:
  explicit reducer_ostream(std::ostream &os) : reducer<op_ostream>(os) {}

  template <class T> reducer_ostream &operator<<(const T &x) {
    view() << x;
    return *this;
  }
  reducer_ostream &operator<<(std::ostream &(*manip)(std::ostream &)) {
    view() << manip;
    return *this;
  }
  reducer_ostream &operator<<(std::ios_base &(*manip)(std::ios_base &)) {
    view() << manip;
    return *this;
  }
  std::ostream &get_reference() { return view().stream(); }
};

} // namespace cilk

#endif /* WEFT_CILK_REDUCER_OSTREAM_H */
