// Unit tests of what a spawning function may not contain (plugin/shared/
// UnsupportedNames.h), in particular the inline-asm scanner that finds
// asm touching the stack pointer: by mnemonic (push/pop families, call,
// ret, enter, leave, after prefixes and labels), by register name in
// AT&T and Intel syntax, by constraint; statements split at newlines and
// ';'; '#' comments; and words that merely resemble those.
#include "shared/UnsupportedNames.h"

#include <gtest/gtest.h>

namespace {

using weft::asmStatementTouchesStackPointer;
using weft::asmTextTouchesStackPointer;
using weft::asmWords;
using weft::constraintNamesStackPointer;
using weft::isForbiddenCallee;
using weft::isInstructionPrefix;
using weft::mnemonicMovesStackPointer;

TEST(ForbiddenCallee, SetjmpFamilyAndVfork) {
  for (const char *Name : {"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp",
                           "vfork"})
    EXPECT_TRUE(isForbiddenCallee(Name)) << Name;
  for (const char *Name : {"longjmp", "siglongjmp", "fork", "setjmp2",
                           "my_setjmp", "", "Setjmp"})
    EXPECT_FALSE(isForbiddenCallee(Name)) << Name;
}

TEST(AsmConstraint, StackPointerRegisters) {
  for (const char *C : {"~{rsp}", "={esp}", "{sp}", "~{wsp}", "~{RSP}",
                        "r,~{memory},~{rsp}"})
    EXPECT_TRUE(constraintNamesStackPointer(C)) << C;
  for (const char *C : {"~{rbp}", "~{dirflag},~{fpsr},~{flags}",
                        "r,~{memory}", "~{spl}", "={rspx}", "", "m"})
    EXPECT_FALSE(constraintNamesStackPointer(C)) << C;
}

TEST(AsmMnemonic, MovesStackPointer) {
  for (const char *M : {"push", "pushq", "pushl", "pushw", "pushf", "pushfq",
                        "pusha", "pushad", "pushal", "pop", "popq", "popfq",
                        "popa", "call", "callq", "ret", "retq", "retl",
                        "enter", "leave", "leaveq", "PUSHQ", "Ret"})
    EXPECT_TRUE(mnemonicMovesStackPointer(M)) << M;
  for (const char *M : {"popcnt", "popcntq", "mov", "sub", "pushfqq",
                        "calls", "returns", "enterprise", "pushx", "nop",
                        "", "cpush"})
    EXPECT_FALSE(mnemonicMovesStackPointer(M)) << M;
}

TEST(AsmPrefix, Prefixes) {
  for (const char *P : {"lock", "rep", "repe", "repz", "repne", "repnz",
                        "notrack", "bnd", "data16", "addr32", "xacquire",
                        "xrelease", "REP"})
    EXPECT_TRUE(isInstructionPrefix(P)) << P;
  for (const char *P : {"mov", "push", "repeat", "locked", ""})
    EXPECT_FALSE(isInstructionPrefix(P)) << P;
}

TEST(AsmWords, WordsOfAStatement) {
  auto Words = [](const char *Statement) {
    std::vector<std::string> Out;
    for (llvm::StringRef W : asmWords(Statement))
      Out.push_back(W.str());
    return Out;
  };
  using List = std::vector<std::string>;
  EXPECT_EQ(Words("movq $0, 8(%rsp)"), List({"movq", "0", "8", "rsp"}));
  EXPECT_EQ(Words("1: push %rax"), List({"push", "rax"})); // label skipped
  EXPECT_EQ(Words("mov rax, [rsp_saved+8]"),
            List({"mov", "rax", "rsp_saved", "8"}));
  EXPECT_EQ(Words("  \t"), List{});
}

TEST(AsmStatement, MnemonicsThatMoveTheStack) {
  for (const char *S : {"push %rax", "pushq $1", "pop %rbx", "pushfq",
                        "popfq", "call *%rax", "callq foo", "ret", "retq",
                        "enter $16, $0", "leave",
                        // after prefixes and labels
                        "rep ret", "notrack call *%rax", "1: pushq %rbx",
                        "lock rep ret", "again: ret",
                        // Intel syntax
                        "push rax", "call qword ptr [rax]"})
    EXPECT_TRUE(asmStatementTouchesStackPointer(S)) << S;
}

TEST(AsmStatement, NamesTheStackPointer) {
  for (const char *S : {"mov %rsp, %rax", "movl %esp, %eax",
                        "lea -8(%rsp), %rax", "movq %rax, 8(%rsp)",
                        "xchg %rsp, %rax", "addq $8, %RSP",
                        // Intel syntax
                        "mov rax, rsp", "sub rsp, 8", "mov eax, [esp+4]",
                        "mov rsp, rbp"})
    EXPECT_TRUE(asmStatementTouchesStackPointer(S)) << S;
}

TEST(AsmStatement, OrdinaryInstructions) {
  for (const char *S : {"mov %rbp, %rax", "popcnt %rax, %rbx",
                        "lock incl (%rax)", "nop", "", "rdtsc", "cpuid",
                        "mfence", "xor eax, eax", "lea 8(%rip), %rax",
                        // a register name inside another word
                        "mov %rax, rsp_saved(%rip)", "movq %rax, grsp",
                        "call_count: nop", "mov rax, [my_esp]",
                        // after a comment
                        "nop # push %rax", "mov %rax, %rbx # keep rsp",
                        // directives
                        ".cfi_adjust_cfa_offset 8", ".p2align 4"})
    EXPECT_FALSE(asmStatementTouchesStackPointer(S)) << S;
}

TEST(AsmText, StatementsSplitAtNewlinesAndSemicolons) {
  EXPECT_TRUE(asmTextTouchesStackPointer("nop\n\tpush %rax"));
  EXPECT_TRUE(asmTextTouchesStackPointer("nop; pop %rax"));
  EXPECT_TRUE(asmTextTouchesStackPointer("mov $1, %eax\n\tnop ; nop;ret"));
  EXPECT_TRUE(asmTextTouchesStackPointer("1:\n\tcall 2f\n2:"));
  EXPECT_TRUE(asmTextTouchesStackPointer("xor %eax, %eax\nmov %rsp, %rdi"));
  EXPECT_FALSE(asmTextTouchesStackPointer("nop\nnop;mov %rbx, %rax"));
  EXPECT_FALSE(asmTextTouchesStackPointer("rdtsc\n\tshl $32, %rdx\n\t"
                                          "or %rdx, %rax"));
  EXPECT_FALSE(asmTextTouchesStackPointer(""));
  // A mnemonic is a statement's first word, not a later one's.
  EXPECT_FALSE(asmTextTouchesStackPointer("mov $ret, %eax"));
}

// A '#' comment ends at its statement's end: the statement after a ';'
// is read, as the assembler would not. The scanner errs towards refusing.
TEST(AsmText, CommentEndsAtSemicolon) {
  EXPECT_FALSE(asmTextTouchesStackPointer("nop # push\nnop"));
  EXPECT_TRUE(asmTextTouchesStackPointer("nop # comment; push %rax"));
}

// String operands of directives are not parsed: a register name in one is
// taken as a use, which refuses a function that could be accepted.
TEST(AsmText, RegisterNameInAStringIsTakenAsAUse) {
  EXPECT_TRUE(asmTextTouchesStackPointer(".ascii \"rsp\""));
  EXPECT_FALSE(asmTextTouchesStackPointer(".ascii \"rspx\""));
}

} // namespace
