//===- AllocatorAnnotation.h - A library allocator's entry, as the IR sees it ===//
//
// In race mode the front end recognises the entry points of the library
// allocators it knows (frontend/KnownAllocators.cpp) and tells the IR pass
// that models them (analysis/RaceAllocators.cpp) through an annotation on
// the function, which CodeGen puts into @llvm.global.annotations:
//
//   weft-race-allocator:alloc:size=arg1        the result is a new block of
//                                              arg 1's bytes
//   weft-race-allocator:alloc:size=arg0+24     ... of the size_t at byte 24
//                                              of what arg 0 points to (a
//                                              field of `this`)
//   weft-race-allocator:free:ptr=arg1:size=arg2  arg 1 is given back, a block
//                                              of arg 2's bytes
//
// Arguments are counted as in the IR (a method's `this` is arg 0). Only
// numbers cross this header, so that the pass builds without Clang.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_ALLOCATORANNOTATION_H
#define WEFT_PLUGIN_ALLOCATORANNOTATION_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace weft {

inline constexpr llvm::StringLiteral AllocatorAnnotationPrefix =
    "weft-race-allocator:";

/// Where an allocator entry's block size is: an argument, or a size_t field
/// at a byte offset in the object an argument points to.
struct BlockSize {
  unsigned Arg = 0;
  std::optional<unsigned> FieldOffset;
};

/// A recognised allocator entry: one that hands out a block (its result) or
/// one that takes a block back (argument PtrArg).
struct AllocatorEntry {
  enum Kind { Alloc, Free } Role = Alloc;
  unsigned PtrArg = 0; // Free only
  BlockSize Size;

  std::string encode() const {
    std::string S = AllocatorAnnotationPrefix.str();
    S += Role == Alloc ? "alloc" : "free";
    if (Role == Free)
      S += ":ptr=arg" + std::to_string(PtrArg);
    S += ":size=arg" + std::to_string(Size.Arg);
    if (Size.FieldOffset)
      S += "+" + std::to_string(*Size.FieldOffset);
    return S;
  }

  /// The entry \p Annotation describes, or none if it is not one.
  static std::optional<AllocatorEntry> decode(llvm::StringRef Annotation) {
    if (!Annotation.consume_front(AllocatorAnnotationPrefix))
      return std::nullopt;
    AllocatorEntry E;
    if (Annotation.consume_front("alloc"))
      E.Role = Alloc;
    else if (Annotation.consume_front("free:ptr=arg")) {
      E.Role = Free;
      if (Annotation.consumeInteger(10, E.PtrArg))
        return std::nullopt;
    } else
      return std::nullopt;
    if (!Annotation.consume_front(":size=arg") ||
        Annotation.consumeInteger(10, E.Size.Arg))
      return std::nullopt;
    if (Annotation.consume_front("+")) {
      unsigned Offset;
      if (Annotation.consumeInteger(10, Offset))
        return std::nullopt;
      E.Size.FieldOffset = Offset;
    }
    if (!Annotation.empty())
      return std::nullopt;
    return E;
  }
};

} // namespace weft

#endif // WEFT_PLUGIN_ALLOCATORANNOTATION_H
