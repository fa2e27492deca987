//===- stdio_api.cpp - What printf and scanf read and write ---------------===//
//
// printf and scanf read and write the program's memory through their
// arguments, in code that is not instrumented: a spawned child that fills a
// buffer while the continuation prints it with %s, a child that sprintf's
// into a buffer a parallel strand reads, or one that sscanf's into a
// variable the continuation reads, would race unseen, where OpenCilk's
// detector reports them. So, as libc_api.cpp does for the string
// functions, the race runtime defines the C library's formatted I/O
// functions in front of glibc's (a program linked with libweft_race.a has
// them in its executable, which the dynamic linker prefers for every
// module's calls), checks what each reads and writes at the code address
// of its call, and calls glibc's own.
//
// printf's family: the format walked with a copy of the arguments, each
// %s read up to its precision (or its NUL), each %n written; then the
// format itself (glibc reads all of it), and for sprintf and snprintf the
// bytes produced and their NUL, within the size. The scanf family, after
// glibc's call, whose result says how many targets were assigned: those
// targets written (a %s or %[ its string and NUL, a %c its width), a %n
// when the scan got past it, and the input of sscanf read whole (glibc
// finds the string's end before it scans). The fortified __*_chk names
// that glibc's headers call under _FORTIFY_SOURCE, and the __isoc99_ names
// that they call for the scanf family, are defined too; and puts, fputs,
// fwrite, fread and fgets, which clang makes of some printf calls or which
// move bytes the same way.
//
// A conversion the walk does not know (glibc's printf extensions,
// positional arguments `%1$s`) ends the walk: the arguments after it
// cannot be found, and glibc is still called. Nothing is checked off the
// followed thread or with checking off (the report prints with checking
// off), nor from inside a check: a message the detector itself prints
// there (shadow.cpp's, when it cannot map memory) goes straight to glibc.
//
// This file cannot include <stdio.h> (library_access.h says why), and
// only passes a FILE on: it is void here, as the compilers' built-in
// declarations of these functions have it without <stdio.h>.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/library_access.h"
#include "analysis/race/next_symbol.h"

#include <cstdarg>
#include <cstddef>
#include <cstdint>

using weft::race::libraryAccess;
using weft::race::libraryCallChecked;
using weft::race::nextSymbol;

using File = void;

namespace {

//===----------------------------------------------------------------------===//
// Checking
//===----------------------------------------------------------------------===//

/// Set while this file checks a call: see the top of the file.
thread_local bool InCheck = false;

/// Marks a check under way for as long as it lives.
class CheckScope {
public:
  CheckScope() { InCheck = true; }
  ~CheckScope() { InCheck = false; }
  CheckScope(const CheckScope &) = delete;
  CheckScope &operator=(const CheckScope &) = delete;
};

/// Whether this call's accesses are checked.
bool checked() { return !InCheck && libraryCallChecked(); }

void bytes(const void *Address, std::size_t Size, bool Write, void *Pc) {
  if (Address)
    libraryAccess(Address, Size, Write, Pc);
}

/// glibc's strlen: the runtime's own (libc_api.cpp) would check the read.
std::size_t length(const char *S) {
  using StrlenFn = std::size_t(const char *);
  static StrlenFn *RealStrlen;
  return nextSymbol(RealStrlen, "strlen")(S);
}

/// The bytes a string read up to \p Max characters covers (its NUL when it
/// comes first); all of it when \p Max is negative.
std::size_t stringBytes(const char *S, long Max) {
  if (Max < 0)
    return length(S) + 1;
  std::size_t N = 0;
  while (N < std::size_t(Max) && S[N])
    ++N;
  return N < std::size_t(Max) ? N + 1 : N;
}

/// The same for a wide string, \p Max in characters.
std::size_t wideStringBytes(const wchar_t *S, long Max) {
  std::size_t N = 0;
  while ((Max < 0 || N < std::size_t(Max)) && S[N])
    ++N;
  return (Max < 0 || N < std::size_t(Max) ? N + 1 : N) * sizeof(wchar_t);
}

//===----------------------------------------------------------------------===//
// Conversion specifications, common to printf and scanf
//===----------------------------------------------------------------------===//

/// A va_list in a struct, so that a walk can hand it to its helpers by
/// reference (va_list is an array type on x86-64).
struct Arguments {
  va_list List;
};

/// A length modifier: the size of a conversion's integer, or which
/// floating type it is.
enum class Length {
  Default,
  Char,     // hh
  Short,    // h
  Long,     // l
  LongLong, // ll, q
  IntMax,   // j
  Size,     // z, Z
  PtrDiff,  // t
  Big,      // L: long double, or long long for an integer
};

Length parseLength(const char *&P) {
  switch (*P) {
  case 'h':
    return *++P == 'h' ? (++P, Length::Char) : Length::Short;
  case 'l':
    return *++P == 'l' ? (++P, Length::LongLong) : Length::Long;
  case 'q':
    return ++P, Length::LongLong;
  case 'L':
    return ++P, Length::Big;
  case 'j':
    return ++P, Length::IntMax;
  case 'z':
  case 'Z':
    return ++P, Length::Size;
  case 't':
    return ++P, Length::PtrDiff;
  default:
    return Length::Default;
  }
}

/// The size of the integer a %n, or a scanf integer conversion, writes.
std::size_t integerSize(Length L) {
  switch (L) {
  case Length::Char:
    return sizeof(char);
  case Length::Short:
    return sizeof(short);
  case Length::Default:
    return sizeof(int);
  case Length::Long:
    return sizeof(long);
  case Length::IntMax:
    return sizeof(std::intmax_t);
  case Length::Size:
    return sizeof(std::size_t);
  case Length::PtrDiff:
    return sizeof(std::ptrdiff_t);
  case Length::LongLong:
  case Length::Big:
    break;
  }
  return sizeof(long long);
}

bool isDigit(char C) { return C >= '0' && C <= '9'; }

/// A decimal number at \p P, advanced past it; -1 without digits.
long parseNumber(const char *&P) {
  if (!isDigit(*P))
    return -1;
  long N = 0;
  for (; isDigit(*P); ++P)
    if (N < 1000000000)
      N = N * 10 + (*P - '0');
  return N;
}

/// Whether \p P starts a positional argument's number (`1$`), which the
/// walks do not follow.
bool startsPositional(const char *P) {
  const char *Start = P;
  while (isDigit(*P))
    ++P;
  return P != Start && *P == '$';
}

/// The conversion specification after the next '%' from \p P; nullptr at
/// the format's end.
const char *nextConversion(const char *P) {
  while (*P && *P != '%')
    ++P;
  return *P ? P + 1 : nullptr;
}

//===----------------------------------------------------------------------===//
// printf
//===----------------------------------------------------------------------===//

struct PrintSpec {
  long Precision = -1; // none
  Length Len = Length::Default;
  char Conversion = 0;
};

bool isPrintFlag(char C) {
  switch (C) {
  case '-':
  case '+':
  case ' ':
  case '#':
  case '0':
  case '\'':
  case 'I':
    return true;
  default:
    return false;
  }
}

/// A '*' width or precision's argument, from \p Args.
bool takeStarred(const char *&P, Arguments &Args, long &Value) {
  ++P;
  if (startsPositional(P))
    return false;
  Value = va_arg(Args.List, int);
  return true;
}

/// Parses the specification after a '%' at \p P into \p Spec, taking a '*'
/// width's and precision's arguments from \p Args. Returns where the format
/// goes on, or nullptr for one the walk does not follow.
const char *parsePrintSpec(const char *P, Arguments &Args, PrintSpec &Spec) {
  if (startsPositional(P))
    return nullptr;
  while (isPrintFlag(*P))
    ++P;
  long Width;
  if (*P == '*') {
    if (!takeStarred(P, Args, Width))
      return nullptr;
  } else {
    parseNumber(P);
  }
  if (*P == '.') {
    ++P;
    if (*P == '*') {
      if (!takeStarred(P, Args, Spec.Precision))
        return nullptr;
      if (Spec.Precision < 0) // as if there were none
        Spec.Precision = -1;
    } else {
      Spec.Precision = parseNumber(P);
      if (Spec.Precision < 0) // "%.s": zero
        Spec.Precision = 0;
    }
  }
  Spec.Len = parseLength(P);
  if (!*P)
    return nullptr;
  Spec.Conversion = *P++;
  return P;
}

void takeInteger(Length L, Arguments &Args) {
  switch (L) {
  case Length::Long:
    (void)va_arg(Args.List, long);
    break;
  case Length::LongLong:
  case Length::Big:
    (void)va_arg(Args.List, long long);
    break;
  case Length::IntMax:
    (void)va_arg(Args.List, std::intmax_t);
    break;
  case Length::Size:
    (void)va_arg(Args.List, std::size_t);
    break;
  case Length::PtrDiff:
    (void)va_arg(Args.List, std::ptrdiff_t);
    break;
  default: // char and short are promoted to int
    (void)va_arg(Args.List, int);
  }
}

void takeFloating(Length L, Arguments &Args) {
  if (L == Length::Big)
    (void)va_arg(Args.List, long double);
  else
    (void)va_arg(Args.List, double);
}

/// Takes one conversion's argument from \p Args and checks what the
/// conversion reads or writes through it. False for a conversion the walk
/// does not know: its argument's type, and so where the next one is, is
/// unknown.
bool takePrintArgument(const PrintSpec &Spec, Arguments &Args, void *Pc) {
  switch (Spec.Conversion) {
  case '%':
  case 'm': // strerror(errno): no argument
    return true;
  case 'd':
  case 'i':
  case 'o':
  case 'u':
  case 'x':
  case 'X':
  case 'b':
  case 'B':
    takeInteger(Spec.Len, Args);
    return true;
  case 'c':
  case 'C': // a wint_t for %lc and %C, promoted as an int is
    (void)va_arg(Args.List, int);
    return true;
  case 'a':
  case 'A':
  case 'e':
  case 'E':
  case 'f':
  case 'F':
  case 'g':
  case 'G':
    takeFloating(Spec.Len, Args);
    return true;
  case 'p':
    (void)va_arg(Args.List, void *);
    return true;
  case 's':
    if (Spec.Len != Length::Long) {
      // glibc prints "(null)" for a null pointer: nothing is read.
      if (const char *S = va_arg(Args.List, const char *))
        bytes(S, stringBytes(S, Spec.Precision), false, Pc);
      return true;
    }
    [[fallthrough]];
  case 'S':
    // The precision counts bytes printed: one per wide character in the C
    // locale, at least one in any.
    if (const wchar_t *S = va_arg(Args.List, const wchar_t *))
      bytes(S, wideStringBytes(S, Spec.Precision), false, Pc);
    return true;
  case 'n':
    bytes(va_arg(Args.List, void *), integerSize(Spec.Len), true, Pc);
    return true;
  default:
    return false;
  }
}

/// Checks what printing \p Format with \p Args reads: the format, each %s's
/// string; and what its %n's write.
void checkPrint(const char *Format, va_list Args, void *Pc) {
  if (!checked())
    return;
  CheckScope Scope;
  bytes(Format, length(Format) + 1, false, Pc);
  Arguments Walk;
  va_copy(Walk.List, Args);
  for (const char *P = nextConversion(Format); P; P = nextConversion(P)) {
    PrintSpec Spec;
    P = parsePrintSpec(P, Walk, Spec);
    if (!P || !takePrintArgument(Spec, Walk, Pc))
      break;
  }
  va_end(Walk.List);
}

/// Checks what sprintf-like printing of \p Produced characters (its
/// result) wrote at \p Destination: those within \p Size and their NUL.
void checkFormatted(char *Destination, int Produced, std::size_t Size,
                    void *Pc) {
  if (Produced < 0 || Size == 0 || !checked())
    return;
  CheckScope Scope;
  std::size_t Written = std::size_t(Produced) < Size - 1 ? std::size_t(Produced)
                                                          : Size - 1;
  bytes(Destination, Written + 1, true, Pc);
}

/// asprintf's result pointer, which it sets when it succeeds.
void checkAllocated(char **Result, int Produced, void *Pc) {
  if (Produced < 0 || !checked())
    return;
  CheckScope Scope;
  bytes(Result, sizeof *Result, true, Pc);
}

//===----------------------------------------------------------------------===//
// scanf
//===----------------------------------------------------------------------===//

/// glibc's scanf functions of the C standard's names (what a C89 program
/// calls) take GNU's %as, %aS and %a[ for allocating ones; the __isoc99_
/// functions (what the headers call otherwise) read %a as a float.
enum class ScanDialect { Gnu, Iso };

struct ScanSpec {
  bool Suppressed = false; // '*': nothing assigned, no argument
  bool Allocates = false;  // 'm', or GNU's 'a': the target is a char **
  long Width = -1;
  Length Len = Length::Default;
  char Conversion = 0;
};

/// Past the scanset of a %[ whose '[' is just before \p P; nullptr when it
/// does not end.
const char *skipScanSet(const char *P) {
  if (*P == '^')
    ++P;
  if (*P == ']') // a ']' first is one of the set
    ++P;
  while (*P && *P != ']')
    ++P;
  return *P ? P + 1 : nullptr;
}

bool startsGnuAllocation(const char *P, ScanDialect Dialect) {
  return Dialect == ScanDialect::Gnu && *P == 'a' &&
         (P[1] == 's' || P[1] == 'S' || P[1] == '[');
}

/// Parses the specification after a '%' at \p P into \p Spec. Returns
/// where the format goes on, or nullptr for one the walk does not follow.
const char *parseScanSpec(const char *P, ScanDialect Dialect, ScanSpec &Spec) {
  if (startsPositional(P))
    return nullptr;
  for (;; ++P) {
    if (*P == '*')
      Spec.Suppressed = true;
    else if (*P != '\'' && *P != 'I')
      break;
  }
  Spec.Width = parseNumber(P);
  if (*P == 'm' || startsGnuAllocation(P, Dialect)) {
    Spec.Allocates = true;
    ++P;
  }
  Spec.Len = parseLength(P);
  if (!*P)
    return nullptr;
  Spec.Conversion = *P++;
  return Spec.Conversion == '[' ? skipScanSet(P) : P;
}

/// The kind of target a scanf conversion assigns.
enum class ScanTarget { None, Integer, Floating, Pointer, Chars, String, Count,
                        Unknown };

ScanTarget targetOf(char Conversion) {
  switch (Conversion) {
  case '%':
    return ScanTarget::None;
  case 'd':
  case 'i':
  case 'o':
  case 'u':
  case 'x':
  case 'X':
    return ScanTarget::Integer;
  case 'a':
  case 'A':
  case 'e':
  case 'E':
  case 'f':
  case 'F':
  case 'g':
  case 'G':
    return ScanTarget::Floating;
  case 'p':
    return ScanTarget::Pointer;
  case 'c':
  case 'C':
    return ScanTarget::Chars;
  case 's':
  case 'S':
  case '[':
    return ScanTarget::String;
  case 'n':
    return ScanTarget::Count;
  default:
    return ScanTarget::Unknown;
  }
}

bool isWide(const ScanSpec &Spec) {
  return Spec.Len == Length::Long || Spec.Conversion == 'C' ||
         Spec.Conversion == 'S';
}

/// The bytes an assigned conversion wrote at \p Target, after the call.
std::size_t targetBytes(const ScanSpec &Spec, const void *Target) {
  if (Spec.Allocates)
    return sizeof(char *);
  switch (targetOf(Spec.Conversion)) {
  case ScanTarget::Integer:
  case ScanTarget::Count:
    return integerSize(Spec.Len);
  case ScanTarget::Floating:
    return Spec.Len == Length::Big    ? sizeof(long double)
           : Spec.Len == Length::Long ? sizeof(double)
                                      : sizeof(float);
  case ScanTarget::Pointer:
    return sizeof(void *);
  case ScanTarget::Chars:
    // The width (glibc stores fewer when the input ends first).
    return std::size_t(Spec.Width > 0 ? Spec.Width : 1) *
           (isWide(Spec) ? sizeof(wchar_t) : 1);
  case ScanTarget::String:
    return isWide(Spec)
               ? wideStringBytes(static_cast<const wchar_t *>(Target), -1)
               : length(static_cast<const char *>(Target)) + 1;
  case ScanTarget::None:
  case ScanTarget::Unknown:
    break;
  }
  return 0;
}

/// How many conversions of \p Format assign a target (what a scan that
/// matches all of it returns); -1 when the walk does not follow one.
int countAssignments(const char *Format, ScanDialect Dialect) {
  int Count = 0;
  for (const char *P = nextConversion(Format); P; P = nextConversion(P)) {
    ScanSpec Spec;
    P = parseScanSpec(P, Dialect, Spec);
    if (!P)
      return -1;
    ScanTarget T = targetOf(Spec.Conversion);
    if (T == ScanTarget::Unknown)
      return -1;
    Count += !Spec.Suppressed && T != ScanTarget::None && T != ScanTarget::Count;
  }
  return Count;
}

/// Checks the targets a scan of \p Format that assigned \p Assigned of them
/// (its result) wrote: its first \p Assigned assigning conversions, and
/// each %n the scan got past. A %n is known to be passed when a later
/// conversion assigned; one after the last assignment, when every
/// conversion assigned (only a literal after it that failed to match could
/// have stopped the scan before it).
void checkScanTargets(const char *Format, va_list Targets, int Assigned,
                      ScanDialect Dialect, void *Pc) {
  if (Assigned < 0) // EOF before the first conversion
    return;
  bool AllAssigned = countAssignments(Format, Dialect) == Assigned;
  Arguments Walk;
  va_copy(Walk.List, Targets);
  int Done = 0;
  for (const char *P = nextConversion(Format); P; P = nextConversion(P)) {
    ScanSpec Spec;
    P = parseScanSpec(P, Dialect, Spec);
    ScanTarget T = P ? targetOf(Spec.Conversion) : ScanTarget::Unknown;
    if (T == ScanTarget::Unknown)
      break;
    if (Spec.Suppressed || T == ScanTarget::None)
      continue;
    if (T != ScanTarget::Count && Done == Assigned)
      break;
    void *Target = va_arg(Walk.List, void *);
    if (T == ScanTarget::Count && Done == Assigned && !AllAssigned)
      continue;
    bytes(Target, targetBytes(Spec, Target), true, Pc);
    Done += T != ScanTarget::Count;
  }
  va_end(Walk.List);
}

/// Checks what a scan that returned \p Assigned read and wrote: its format
/// (glibc reads it as far as the scan went: all of it is counted), the
/// input string of sscanf (\p Input; glibc finds its end first, so all of
/// it is read), and the targets.
void checkScan(const char *Input, const char *Format, va_list Targets,
               int Assigned, ScanDialect Dialect, void *Pc) {
  if (!checked())
    return;
  CheckScope Scope;
  bytes(Format, length(Format) + 1, false, Pc);
  if (Input)
    bytes(Input, length(Input) + 1, false, Pc);
  checkScanTargets(Format, Targets, Assigned, Dialect, Pc);
}

//===----------------------------------------------------------------------===//
// Unformatted I/O
//===----------------------------------------------------------------------===//

/// What puts and fputs read: the string and its NUL.
void checkStringRead(const char *S, void *Pc) {
  if (!checked())
    return;
  CheckScope Scope;
  bytes(S, length(S) + 1, false, Pc);
}

void checkRead(const void *Address, std::size_t Size, void *Pc) {
  if (!checked())
    return;
  CheckScope Scope;
  bytes(Address, Size, false, Pc);
}

void checkWritten(const void *Address, std::size_t Size, void *Pc) {
  if (!checked())
    return;
  CheckScope Scope;
  bytes(Address, Size, true, Pc);
}

/// What fgets stored: a line and its NUL, when it returned one.
void checkLine(const char *Line, void *Pc) {
  if (Line && checked()) {
    CheckScope Scope;
    bytes(Line, length(Line) + 1, true, Pc);
  }
}

} // namespace

using VprintfFn = int(const char *, va_list);
using VfprintfFn = int(File *, const char *, va_list);
using VsprintfFn = int(char *, const char *, va_list);
using VsnprintfFn = int(char *, std::size_t, const char *, va_list);
using VdprintfFn = int(int, const char *, va_list);
using VasprintfFn = int(char **, const char *, va_list);
using VprintfChkFn = int(int, const char *, va_list);
using VfprintfChkFn = int(File *, int, const char *, va_list);
using VsprintfChkFn = int(char *, int, std::size_t, const char *, va_list);
using VsnprintfChkFn = int(char *, std::size_t, int, std::size_t,
                           const char *, va_list);
using VdprintfChkFn = int(int, int, const char *, va_list);
using VasprintfChkFn = int(char **, int, const char *, va_list);
using VscanfFn = int(const char *, va_list);
using VfscanfFn = int(File *, const char *, va_list);
using VsscanfFn = int(const char *, const char *, va_list);

extern "C" {

//===----------------------------------------------------------------------===//
// The printf family
//===----------------------------------------------------------------------===//

int vprintf(const char *Format, va_list Args) {
  WEFT_REAL(vprintf, VprintfFn);
  checkPrint(Format, Args, WEFT_PC);
  return Next(Format, Args);
}

int printf(const char *Format, ...) {
  WEFT_REAL(vprintf, VprintfFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(Format, Args);
  va_end(Args);
  return Result;
}

int vfprintf(File *F, const char *Format, va_list Args) {
  WEFT_REAL(vfprintf, VfprintfFn);
  checkPrint(Format, Args, WEFT_PC);
  return Next(F, Format, Args);
}

int fprintf(File *F, const char *Format, ...) {
  WEFT_REAL(vfprintf, VfprintfFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(F, Format, Args);
  va_end(Args);
  return Result;
}

int vdprintf(int Fd, const char *Format, va_list Args) {
  WEFT_REAL(vdprintf, VdprintfFn);
  checkPrint(Format, Args, WEFT_PC);
  return Next(Fd, Format, Args);
}

int dprintf(int Fd, const char *Format, ...) {
  WEFT_REAL(vdprintf, VdprintfFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(Fd, Format, Args);
  va_end(Args);
  return Result;
}

int vsprintf(char *D, const char *Format, va_list Args) {
  WEFT_REAL(vsprintf, VsprintfFn);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(D, Format, Args);
  checkFormatted(D, Result, SIZE_MAX, WEFT_PC);
  return Result;
}

int sprintf(char *D, const char *Format, ...) {
  WEFT_REAL(vsprintf, VsprintfFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(D, Format, Args);
  va_end(Args);
  checkFormatted(D, Result, SIZE_MAX, WEFT_PC);
  return Result;
}

int vsnprintf(char *D, std::size_t Size, const char *Format, va_list Args) {
  WEFT_REAL(vsnprintf, VsnprintfFn);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(D, Size, Format, Args);
  checkFormatted(D, Result, Size, WEFT_PC);
  return Result;
}

int snprintf(char *D, std::size_t Size, const char *Format, ...) {
  WEFT_REAL(vsnprintf, VsnprintfFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(D, Size, Format, Args);
  va_end(Args);
  checkFormatted(D, Result, Size, WEFT_PC);
  return Result;
}

int vasprintf(char **Result, const char *Format, va_list Args) {
  WEFT_REAL(vasprintf, VasprintfFn);
  checkPrint(Format, Args, WEFT_PC);
  int Produced = Next(Result, Format, Args);
  checkAllocated(Result, Produced, WEFT_PC);
  return Produced;
}

int asprintf(char **Result, const char *Format, ...) {
  WEFT_REAL(vasprintf, VasprintfFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Produced = Next(Result, Format, Args);
  va_end(Args);
  checkAllocated(Result, Produced, WEFT_PC);
  return Produced;
}

// The fortified names (<bits/stdio2.h>, with _FORTIFY_SOURCE): the same,
// with a flag and the destination's size for glibc's own checks.

int __vprintf_chk(int Flag, const char *Format, va_list Args) {
  WEFT_REAL(__vprintf_chk, VprintfChkFn);
  checkPrint(Format, Args, WEFT_PC);
  return Next(Flag, Format, Args);
}

int __printf_chk(int Flag, const char *Format, ...) {
  WEFT_REAL(__vprintf_chk, VprintfChkFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(Flag, Format, Args);
  va_end(Args);
  return Result;
}

int __vfprintf_chk(File *F, int Flag, const char *Format, va_list Args) {
  WEFT_REAL(__vfprintf_chk, VfprintfChkFn);
  checkPrint(Format, Args, WEFT_PC);
  return Next(F, Flag, Format, Args);
}

int __fprintf_chk(File *F, int Flag, const char *Format, ...) {
  WEFT_REAL(__vfprintf_chk, VfprintfChkFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(F, Flag, Format, Args);
  va_end(Args);
  return Result;
}

int __vdprintf_chk(int Fd, int Flag, const char *Format, va_list Args) {
  WEFT_REAL(__vdprintf_chk, VdprintfChkFn);
  checkPrint(Format, Args, WEFT_PC);
  return Next(Fd, Flag, Format, Args);
}

int __dprintf_chk(int Fd, int Flag, const char *Format, ...) {
  WEFT_REAL(__vdprintf_chk, VdprintfChkFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(Fd, Flag, Format, Args);
  va_end(Args);
  return Result;
}

int __vsprintf_chk(char *D, int Flag, std::size_t DSize, const char *Format,
                   va_list Args) {
  WEFT_REAL(__vsprintf_chk, VsprintfChkFn);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(D, Flag, DSize, Format, Args);
  checkFormatted(D, Result, SIZE_MAX, WEFT_PC);
  return Result;
}

int __sprintf_chk(char *D, int Flag, std::size_t DSize, const char *Format,
                  ...) {
  WEFT_REAL(__vsprintf_chk, VsprintfChkFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(D, Flag, DSize, Format, Args);
  va_end(Args);
  checkFormatted(D, Result, SIZE_MAX, WEFT_PC);
  return Result;
}

int __vsnprintf_chk(char *D, std::size_t Size, int Flag, std::size_t DSize,
                    const char *Format, va_list Args) {
  WEFT_REAL(__vsnprintf_chk, VsnprintfChkFn);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(D, Size, Flag, DSize, Format, Args);
  checkFormatted(D, Result, Size, WEFT_PC);
  return Result;
}

int __snprintf_chk(char *D, std::size_t Size, int Flag, std::size_t DSize,
                   const char *Format, ...) {
  WEFT_REAL(__vsnprintf_chk, VsnprintfChkFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Result = Next(D, Size, Flag, DSize, Format, Args);
  va_end(Args);
  checkFormatted(D, Result, Size, WEFT_PC);
  return Result;
}

int __vasprintf_chk(char **Result, int Flag, const char *Format,
                    va_list Args) {
  WEFT_REAL(__vasprintf_chk, VasprintfChkFn);
  checkPrint(Format, Args, WEFT_PC);
  int Produced = Next(Result, Flag, Format, Args);
  checkAllocated(Result, Produced, WEFT_PC);
  return Produced;
}

int __asprintf_chk(char **Result, int Flag, const char *Format, ...) {
  WEFT_REAL(__vasprintf_chk, VasprintfChkFn);
  va_list Args;
  va_start(Args, Format);
  checkPrint(Format, Args, WEFT_PC);
  int Produced = Next(Result, Flag, Format, Args);
  va_end(Args);
  checkAllocated(Result, Produced, WEFT_PC);
  return Produced;
}

//===----------------------------------------------------------------------===//
// Unformatted output and input
//===----------------------------------------------------------------------===//

int puts(const char *S) {
  WEFT_REAL(puts, int(const char *));
  checkStringRead(S, WEFT_PC);
  return Next(S);
}

int fputs(const char *S, File *F) {
  WEFT_REAL(fputs, int(const char *, File *));
  checkStringRead(S, WEFT_PC);
  return Next(S, F);
}

std::size_t fwrite(const void *P, std::size_t Size, std::size_t N, File *F) {
  WEFT_REAL(fwrite, std::size_t(const void *, std::size_t, std::size_t,
                                File *));
  checkRead(P, Size * N, WEFT_PC);
  return Next(P, Size, N, F);
}

std::size_t fread(void *P, std::size_t Size, std::size_t N, File *F) {
  WEFT_REAL(fread, std::size_t(void *, std::size_t, std::size_t, File *));
  std::size_t Items = Next(P, Size, N, F);
  checkWritten(P, Items * Size, WEFT_PC);
  return Items;
}

std::size_t __fread_chk(void *P, std::size_t PSize, std::size_t Size,
                        std::size_t N, File *F) {
  WEFT_REAL(__fread_chk, std::size_t(void *, std::size_t, std::size_t,
                                     std::size_t, File *));
  std::size_t Items = Next(P, PSize, Size, N, F);
  checkWritten(P, Items * Size, WEFT_PC);
  return Items;
}

char *fgets(char *S, int N, File *F) {
  WEFT_REAL(fgets, char *(char *, int, File *));
  char *Line = Next(S, N, F);
  checkLine(Line, WEFT_PC);
  return Line;
}

char *__fgets_chk(char *S, std::size_t SSize, int N, File *F) {
  WEFT_REAL(__fgets_chk, char *(char *, std::size_t, int, File *));
  char *Line = Next(S, SSize, N, F);
  checkLine(Line, WEFT_PC);
  return Line;
}

//===----------------------------------------------------------------------===//
// The scanf family: the call first, then what it assigned
//===----------------------------------------------------------------------===//

// Each with a copy of its arguments taken before glibc's call uses them.
#define WEFT_SCAN(Dialect, Input, Call)                                        \
  va_list Targets;                                                             \
  va_copy(Targets, Args);                                                      \
  int Result = Call;                                                           \
  checkScan(Input, Format, Targets, Result, ScanDialect::Dialect, WEFT_PC);    \
  va_end(Targets)

int vscanf(const char *Format, va_list Args) {
  WEFT_REAL(vscanf, VscanfFn);
  WEFT_SCAN(Gnu, nullptr, Next(Format, Args));
  return Result;
}

int __isoc99_vscanf(const char *Format, va_list Args) {
  WEFT_REAL(__isoc99_vscanf, VscanfFn);
  WEFT_SCAN(Iso, nullptr, Next(Format, Args));
  return Result;
}

int vfscanf(File *F, const char *Format, va_list Args) {
  WEFT_REAL(vfscanf, VfscanfFn);
  WEFT_SCAN(Gnu, nullptr, Next(F, Format, Args));
  return Result;
}

int __isoc99_vfscanf(File *F, const char *Format, va_list Args) {
  WEFT_REAL(__isoc99_vfscanf, VfscanfFn);
  WEFT_SCAN(Iso, nullptr, Next(F, Format, Args));
  return Result;
}

int vsscanf(const char *S, const char *Format, va_list Args) {
  WEFT_REAL(vsscanf, VsscanfFn);
  WEFT_SCAN(Gnu, S, Next(S, Format, Args));
  return Result;
}

int __isoc99_vsscanf(const char *S, const char *Format, va_list Args) {
  WEFT_REAL(__isoc99_vsscanf, VsscanfFn);
  WEFT_SCAN(Iso, S, Next(S, Format, Args));
  return Result;
}

int scanf(const char *Format, ...) {
  WEFT_REAL(vscanf, VscanfFn);
  va_list Args;
  va_start(Args, Format);
  WEFT_SCAN(Gnu, nullptr, Next(Format, Args));
  va_end(Args);
  return Result;
}

int __isoc99_scanf(const char *Format, ...) {
  WEFT_REAL(__isoc99_vscanf, VscanfFn);
  va_list Args;
  va_start(Args, Format);
  WEFT_SCAN(Iso, nullptr, Next(Format, Args));
  va_end(Args);
  return Result;
}

int fscanf(File *F, const char *Format, ...) {
  WEFT_REAL(vfscanf, VfscanfFn);
  va_list Args;
  va_start(Args, Format);
  WEFT_SCAN(Gnu, nullptr, Next(F, Format, Args));
  va_end(Args);
  return Result;
}

int __isoc99_fscanf(File *F, const char *Format, ...) {
  WEFT_REAL(__isoc99_vfscanf, VfscanfFn);
  va_list Args;
  va_start(Args, Format);
  WEFT_SCAN(Iso, nullptr, Next(F, Format, Args));
  va_end(Args);
  return Result;
}

int sscanf(const char *S, const char *Format, ...) {
  WEFT_REAL(vsscanf, VsscanfFn);
  va_list Args;
  va_start(Args, Format);
  WEFT_SCAN(Gnu, S, Next(S, Format, Args));
  va_end(Args);
  return Result;
}

int __isoc99_sscanf(const char *S, const char *Format, ...) {
  WEFT_REAL(__isoc99_vsscanf, VsscanfFn);
  va_list Args;
  va_start(Args, Format);
  WEFT_SCAN(Iso, S, Next(S, Format, Args));
  va_end(Args);
  return Result;
}

} // extern "C"
