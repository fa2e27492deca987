//===- UnsupportedNames.h - What a spawning function may not contain -------===//
//
// The front end (UnsupportedConstructs.cpp) reports these at their statement;
// the IR pass (SpawnLowering::checkSupported) checks again as a backstop, on
// what CodeGen made of them. Both read the same tests and messages from here.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_UNSUPPORTEDNAMES_H
#define WEFT_PLUGIN_UNSUPPORTEDNAMES_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace weft {

inline constexpr const char *StackPointerAsmMessage =
    "inline assembly that changes the stack pointer cannot appear in a "
    "spawning function: a thief resumes the function on another stack";
inline constexpr const char *ComputedGotoMessage =
    "computed goto cannot appear in a spawning function";
/// Follows the callee's name: "setjmp() cannot be called ...".
inline constexpr const char *ForbiddenCalleeMessage =
    "() cannot be called in a spawning function";

/// setjmp and friends (a longjmp could re-enter a frame a thief owns) and
/// vfork (the child would share the frame).
inline bool isForbiddenCallee(llvm::StringRef Name) {
  return Name == "setjmp" || Name == "_setjmp" || Name == "sigsetjmp" ||
         Name == "__sigsetjmp" || Name == "vfork";
}

/// An asm constraint that pins an operand or clobber to the stack pointer.
inline bool constraintNamesStackPointer(llvm::StringRef Constraint) {
  for (llvm::StringRef Reg : {"{rsp}", "{esp}", "{sp}", "{wsp}"})
    if (Constraint.contains_insensitive(Reg))
      return true;
  return false;
}

/// Asm text that names the stack pointer or pushes and pops.
inline bool asmTextTouchesStackPointer(llvm::StringRef Text) {
  while (!Text.empty()) {
    Text = Text.drop_until([](char C) { return llvm::isAlpha(C); });
    llvm::StringRef Word =
        Text.take_while([](char C) { return llvm::isAlnum(C); });
    Text = Text.drop_front(Word.size());
    if (Word.equals_insensitive("rsp") || Word.equals_insensitive("esp") ||
        Word.starts_with_insensitive("push") ||
        Word.starts_with_insensitive("pop"))
      return true;
  }
  return false;
}

} // namespace weft

#endif // WEFT_PLUGIN_UNSUPPORTEDNAMES_H
