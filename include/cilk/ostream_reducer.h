/*===- cilk/ostream_reducer.h - OpenCilk 2's ostream reducer, as a class --===*\
 *
 *   cilk::ostream_reducer<char> out(std::cout);
 *   cilk_for (int i = 0; i < n; ++i) out << i << '\n';   // in serial order
 *
 * OpenCilk 2 builds this on its cilk_reducer type qualifier; here it is a
 * class over the Cilk Plus ostream reducer (<cilk/reducer_ostream.h>),
 * used the same way. Only `char` streams are provided.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_OSTREAM_REDUCER_H
#define WEFT_CILK_OSTREAM_REDUCER_H

#include <cilk/reducer_ostream.h>

namespace cilk {

template <class Char, class Traits = std::char_traits<Char>>
class ostream_reducer : public reducer_ostream {
  static_assert(sizeof(Char) == sizeof(char),
                "Weft provides cilk::ostream_reducer<char> only");

public:
  explicit ostream_reducer(std::ostream &os) : reducer_ostream(os) {}
};

} // namespace cilk

#endif /* WEFT_CILK_OSTREAM_REDUCER_H */
