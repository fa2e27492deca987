//===- UnsupportedNames.h - What a spawning function may not contain -------===//
//
// The front end (UnsupportedConstructs.cpp) reports these at their statement;
// the IR pass (SpawnLowering::checkSupported) checks again as a backstop, on
// what CodeGen made of them. Both read the same tests and messages from here.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_PLUGIN_UNSUPPORTEDNAMES_H
#define WEFT_PLUGIN_UNSUPPORTEDNAMES_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

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

/// A mnemonic that moves the stack pointer by itself: the push and pop
/// families (pushq, pushfq, popal, ...), call, ret, enter and leave, with
/// an optional operand-size suffix. Other words that merely begin with
/// "push" or "pop" (popcnt) are ordinary instructions.
inline bool mnemonicMovesStackPointer(llvm::StringRef Word) {
  std::string M = Word.lower();
  llvm::StringRef Rest = M;
  if (Rest.consume_front("push") || Rest.consume_front("pop")) {
    if (!Rest.consume_front("f"))
      Rest.consume_front("a");
  } else if (!(Rest.consume_front("call") || Rest.consume_front("ret") ||
               Rest.consume_front("enter") || Rest.consume_front("leave"))) {
    return false;
  }
  return Rest.empty() || Rest == "q" || Rest == "l" || Rest == "w" ||
         Rest == "d";
}

/// Prefixes and labels that may come before an instruction's mnemonic
/// (`rep ret`, `notrack call *%rax`, `1: push %rax`).
inline bool isInstructionPrefix(llvm::StringRef Word) {
  return llvm::is_contained({"lock", "rep", "repe", "repz", "repne", "repnz",
                             "notrack", "bnd", "data16", "addr32", "xacquire",
                             "xrelease"},
                            Word.lower());
}

/// The words (identifiers, register names) of one asm statement.
inline llvm::SmallVector<llvm::StringRef, 4>
asmWords(llvm::StringRef Statement) {
  llvm::SmallVector<llvm::StringRef, 4> Words;
  auto IsWordChar = [](char C) { return llvm::isAlnum(C) || C == '_'; };
  while (true) {
    Statement = Statement.drop_until(IsWordChar);
    if (Statement.empty())
      return Words;
    llvm::StringRef Word = Statement.take_while(IsWordChar);
    Statement = Statement.drop_front(Word.size());
    if (Statement.starts_with(":"))
      continue; // a label
    Words.push_back(Word);
  }
}

/// One asm statement that names the stack pointer or whose instruction
/// moves it.
inline bool asmStatementTouchesStackPointer(llvm::StringRef Statement) {
  Statement = Statement.take_until([](char C) { return C == '#'; });
  llvm::SmallVector<llvm::StringRef, 4> Words = asmWords(Statement);
  const llvm::StringRef *Mnemonic = llvm::find_if_not(Words, isInstructionPrefix);
  if (Mnemonic != Words.end() && mnemonicMovesStackPointer(*Mnemonic))
    return true;
  return llvm::any_of(Words, [](llvm::StringRef Word) {
    return Word.equals_insensitive("rsp") || Word.equals_insensitive("esp");
  });
}

/// Asm text (statements separated by newlines or ';') that names the stack
/// pointer or moves it.
inline bool asmTextTouchesStackPointer(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 8> Statements;
  Text.split(Statements, '\n');
  for (llvm::StringRef Line : Statements) {
    llvm::SmallVector<llvm::StringRef, 2> Parts;
    Line.split(Parts, ';');
    if (llvm::any_of(Parts, asmStatementTouchesStackPointer))
      return true;
  }
  return false;
}

} // namespace weft

#endif // WEFT_PLUGIN_UNSUPPORTEDNAMES_H
