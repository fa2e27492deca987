//===- report.cpp - The race report at exit -------------------------------===//
//
// The races are printed at the end of the run, all symbolized at once: the
// code addresses of both accesses and of their call stacks go, as module
// path and offset (from dladdr), to one run of llvm-symbolizer when it is
// installed, which answers FILE:LINE:COL and the function from the debug
// information; without it, or for code without -g, a frame is the
// function's name and offset from dladdr, or the module and offset.
// Races whose two accesses are the same pair of source locations are one
// race. The last line on stderr is the count. docs/race.md shows a report.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/detector.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace weft::race {
namespace {

/// Frames shown per access: its own and those its stack node keeps.
constexpr std::size_t kStackFrames = kStackDepth + 1;

struct Frame {
  std::string Function; // "??" when unknown
  std::string Location; // FILE:LINE:COL, or module+0xOFFSET
  /// The functions this code was inlined into, innermost first: each the
  /// call site of the one before (llvm-symbolizer's --inlines).
  std::vector<Frame> Inliners;
};

/// The program's own main: the plugin renames it, and calls it from a
/// wrapper that runs it on the deep stack (plugin/lower/MainStack.cpp).
bool isMainWrapper(const std::string &Function) {
  return Function == "__weft_main_entry";
}

/// Where llvm-symbolizer is, or "" when it is not installed.
std::string findSymbolizer() {
  if (const char *S = std::getenv("WEFT_RACE_SYMBOLIZER"))
    return S; // "" turns symbolization off
  // The LLVM Weft is built for (llvm-N) first, then any.
  for (const char *Path :
       {WEFT_LLVM_TOOLS_DIR "/llvm-symbolizer", "/usr/bin/llvm-symbolizer"})
    if (access(Path, X_OK) == 0)
      return Path;
  return "";
}

std::string hex(std::uintptr_t V) {
  char B[32];
  std::snprintf(B, sizeof B, "0x%" PRIxPTR, V);
  return B;
}

class Symbolizer {
public:
  void add(std::uintptr_t Pc) { Frames.emplace(Pc, Frame{}); }

  /// Fills every added address's frame.
  void run() {
    std::vector<std::uintptr_t> Pcs;
    std::string Queries;
    for (auto &[Pc, F] : Frames) {
      Dl_info Info{};
      link_map *Map = nullptr;
      // A return address: the call is the byte before.
      std::uintptr_t At = Pc - 1;
      if (!dladdr1(reinterpret_cast<void *>(At), &Info,
                   reinterpret_cast<void **>(&Map), RTLD_DL_LINKMAP) ||
          !Map) {
        F = Frame{"??", hex(Pc), {}};
        continue;
      }
      std::string Module =
          Map->l_name && *Map->l_name ? Map->l_name : selfPath();
      std::uintptr_t Offset = At - Map->l_addr;
      const char *Base = std::strrchr(Module.c_str(), '/');
      F.Location = std::string(Base ? Base + 1 : Module.c_str()) + "+" +
                   hex(Offset);
      F.Function = "??";
      if (Info.dli_sname)
        F.Function = std::string(Info.dli_sname) + "+" +
                     hex(At - reinterpret_cast<std::uintptr_t>(Info.dli_saddr));
      Pcs.push_back(Pc);
      Queries += "\"" + Module + "\" " + hex(Offset) + "\n";
    }
    if (!Pcs.empty())
      symbolize(Pcs, Queries);
  }

  const Frame &frame(std::uintptr_t Pc) const { return Frames.at(Pc); }

private:
  static std::string selfPath() {
    char B[4096];
    ssize_t N = readlink("/proc/self/exe", B, sizeof B - 1);
    return N > 0 ? std::string(B, std::size_t(N)) : std::string();
  }

  /// Runs llvm-symbolizer on the queries, one answer block (function,
  /// location, more pairs for inlined frames, then a blank line) per
  /// address; takes the innermost pair.
  void symbolize(const std::vector<std::uintptr_t> &Pcs,
                 const std::string &Queries) {
    std::string Tool = findSymbolizer();
    if (Tool.empty())
      return;
    char Name[] = "/tmp/weft-race-XXXXXX";
    int Fd = mkstemp(Name);
    if (Fd < 0)
      return;
    bool Written = write(Fd, Queries.data(), Queries.size()) ==
                   ssize_t(Queries.size());
    close(Fd);
    std::FILE *Out = nullptr;
    if (Written) {
      // --relativenames: each file as clang recorded it (relative to the
      // compilation directory when it was given so).
      std::string Command = "'" + Tool +
                            "' --demangle --inlines --relativenames < " +
                            Name + " 2>/dev/null";
      Out = popen(Command.c_str(), "r");
    }
    if (Out) {
      char Line[8192];
      std::size_t I = 0;
      std::vector<std::string> Block;
      while (I < Pcs.size() && std::fgets(Line, sizeof Line, Out)) {
        std::size_t N = std::strlen(Line);
        while (N && (Line[N - 1] == '\n' || Line[N - 1] == '\r'))
          Line[--N] = '\0';
        if (N) {
          Block.emplace_back(Line);
          continue;
        }
        if (!Block.empty())
          take(Frames[Pcs[I]], Block);
        Block.clear();
        ++I;
      }
      pclose(Out);
    }
    unlink(Name);
  }

  /// The frame of a symbolizer's answer: its innermost pair, and the
  /// pairs of the functions it was inlined into.
  static void take(Frame &F, const std::vector<std::string> &Block) {
    for (std::size_t I = 0; I + 1 < Block.size(); I += 2) {
      Frame &Into = I == 0 ? F : F.Inliners.emplace_back(Frame{"??", "??", {}});
      // The plugin renames the program's main (plugin/lower/MainStack.cpp).
      if (Block[I] == "__weft_main")
        Into.Function = "main";
      else if (Block[I] != "??")
        Into.Function = Block[I];
      if (Block[I + 1].compare(0, 2, "??") != 0)
        Into.Location = Block[I + 1];
    }
  }

  std::map<std::uintptr_t, Frame> Frames;
};

struct Access {
  const Site *S;
  bool Write;
  /// What the report calls it: a free or a scope's end
  /// (Detector::freed()) is checked as a write.
  const char *kind(const Detector &D) const {
    if (std::optional<Detector::Release> How = D.releaseAt(S->Pc))
      return *How == Detector::Release::Free ? "free" : "scope end";
    return Write ? "write" : "read";
  }
};

void printAccess(const Detector &D, const Symbolizer &Sym, const Access &A) {
  const Frame &Top = Sym.frame(A.S->Pc);
  std::fprintf(stderr, "  %s of %u byte%s in %s at %s\n", A.kind(D),
               A.S->Size, A.S->Size == 1 ? "" : "s",
               Top.Function.c_str(), Top.Location.c_str());
  std::size_t N = 0;
  bool ReachedMain = false;
  // A frame and the functions it was inlined into, up to main: what calls
  // main is the runtime's wrapper and the C library's.
  auto print = [&](const Frame &F) {
    for (const Frame *G = &F; !ReachedMain;) {
      if (isMainWrapper(G->Function)) {
        ReachedMain = true;
        break;
      }
      std::fprintf(stderr, "    #%zu %s %s\n", N++, G->Function.c_str(),
                   G->Location.c_str());
      ReachedMain = G->Function == "main";
      std::size_t Next = G == &F ? 0 : std::size_t(G - F.Inliners.data()) + 1;
      if (Next >= F.Inliners.size())
        break;
      G = &F.Inliners[Next];
    }
  };
  print(Top);
  for (std::uintptr_t Pc : D.sites().pcs(A.S->Stack, kStackFrames - 1)) {
    if (ReachedMain)
      break;
    print(Sym.frame(Pc));
  }
}

} // namespace

std::size_t printReport(Detector &D) {
  D.flushFreeRaces();
  // What the report does with the C library (the symbolizer's pipe, its
  // strings) is not the program's: checked, it would add sites while the
  // report holds references into them (libc_api.cpp).
  Detector::disableChecking();
  Symbolizer Sym;
  for (const Race &R : D.races())
    for (SiteId Id : {R.Earlier, R.Later}) {
      const Site &S = D.sites().siteOf(Id);
      Sym.add(S.Pc);
      for (std::uintptr_t Pc : D.sites().pcs(S.Stack, kStackFrames - 1))
        Sym.add(Pc);
    }
  Sym.run();

  std::set<std::pair<std::string, std::string>> Printed;
  std::size_t Count = 0;
  for (const Race &R : D.races()) {
    Access Earlier{&D.sites().siteOf(R.Earlier), R.EarlierWrite};
    Access Later{&D.sites().siteOf(R.Later), R.LaterWrite};
    const Frame &E = Sym.frame(Earlier.S->Pc);
    const Frame &L = Sym.frame(Later.S->Pc);
    std::string KE = E.Location + " " + E.Function;
    std::string KL = L.Location + " " + L.Function;
    if (!Printed.insert(KE < KL ? std::make_pair(KE, KL) : std::make_pair(KL, KE))
             .second)
      continue;
    ++Count;
    std::fprintf(stderr, "weft-race: race on %s between a %s and a %s\n",
                 hex(R.Address).c_str(), Earlier.kind(D), Later.kind(D));
    printAccess(D, Sym, Earlier);
    printAccess(D, Sym, Later);
  }
  std::fprintf(stderr, "weft-race: races found: %zu\n", Count);
  std::fflush(stderr);
  return Count;
}

} // namespace weft::race
