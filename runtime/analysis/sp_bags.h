//===- sp_bags.h - Series-parallel bookkeeping of the race detector -------===//
//
// The determinacy-race detector runs the program serially, depth-first, in
// the order of its serial elision, and must tell for every memory access
// whether an earlier access to the same location is logically in series
// with it (it precedes it in every schedule) or logically parallel (some
// schedule runs the two at once). This file answers that question with the
// SP-bags algorithm of Feng and Leiserson, "Efficient detection of
// determinacy races in Cilk programs" (SPAA 1997), in near-constant
// amortized time per event and per query, whatever the computation's shape.
//
// Procedures. The computation is a tree of procedures: a spawned child is
// one; so is a plain call of a function that spawns; a cilk_scope block is
// one entered by a call (it runs, syncs at its end, and the code after it
// waits for it). A cilk_for loop is a called procedure whose iterations are
// spawned procedures: enterCalled() for the loop, enterSpawned() and leave()
// around each iteration's body, leave() at the loop's end. Every procedure
// F owns two bags of procedures, each a set in one disjoint-set forest:
//
//   S(F)  the procedures, F among them, whose strands so far precede F's
//         current strand: F's own past, children F has synced with, and
//         procedures F called
//   P(F)  spawned children (with all they called and synced) that F has not
//         synced with yet: logically parallel with F's current strand
//
// The serial execution moves the bags like this (F is the procedure that
// runs, F' the one that it enters or that leaves it):
//
//   F spawns F'           S(F') = {F'}, P(F') = {}
//   F calls F'            the same
//   F' returns to F       first F' syncs; then, if F' was spawned,
//                         P(F) = P(F) ∪ S(F'), else S(F) = S(F) ∪ S(F')
//   F syncs               S(F) = S(F) ∪ P(F), P(F) = {}
//
// and an earlier access made while procedure X ran precedes the current
// point exactly when X's bag is now an S-bag (of whichever procedure); in a
// P-bag it is parallel. For example, `spawn A; spawn B; sync` in F:
//
//   before A         S(F) = {F}        P(F) = {}
//   A has returned   S(F) = {F}        P(F) = {A}
//   while B runs     S(B) = {B}        find(A) = P(F): A is parallel with B,
//                                      find(F) = S(F): F's start precedes B
//   B has returned   S(F) = {F}        P(F) = {A, B}
//   after the sync   S(F) = {F, A, B}  P(F) = {}: A and B both precede
//
// Why the answer depends on the procedure alone, not on which of its
// strands made the access: X is either still active (an ancestor of the
// current procedure, all of whose past strands precede the current point),
// or it has returned, and then every strand of X lies in one finished
// subtree that relates to the current point as a whole.
//
// Representation. A procedure id is a small integer (uint32_t), the index
// of its node in the forest; the forest's nodes live in two parallel
// vectors, a parent index and a byte that holds the union-by-rank rank and,
// at a set's root, whether the set is now an S-bag or a P-bag. Unions are
// by rank and finds compress the path, so a sequence of m operations on n
// nodes costs O(m α(m, n)). Besides the forest, one small record per
// active procedure (the stack of the serial execution) holds the roots of
// its two bags; that stack is as deep as the program's nesting. No event
// allocates beyond the vectors' amortized growth.
//
// Memory. A procedure's node must stay as long as a shadow cell may name
// it, and a shadow cell may name any procedure that ever ran, so this
// forest keeps every node it makes: 5 bytes per procedure (4 for the
// parent, 1 for rank and kind), at most twice that while a vector doubles;
// 10^8 procedures take about 500 MB. But a procedure gets its node only
// when its id is first asked for (current(), which the detector asks when
// it checks one of the procedure's accesses): until then its S-bag holds
// only what it called and synced with, and the node joins it when made,
// which makes the same sets as a node made at entry would. So procedures
// that access nothing the detector sees, like the inner calls of a
// recursion that only computes, take no memory. Ids run out after 2^32 -
// 1 nodes, and the program then stops with a message. (A detector that
// wants less could renumber: sweep its shadow memory, map each named id
// to its set's root, and rebuild a forest of the roots only.)
//
// Access histories. For a location, the detector needs only the last
// writer and one reader (AccessHistory below): a write races with the
// writer or the reader if either is parallel with it; a read races with the
// writer if it is parallel; a read replaces the reader only if the reader
// precedes it, since a parallel reader is more likely to race with a later
// write than a serial one. Feng and Leiserson prove that with these rules a
// race on the location is found if one exists in the computation.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_RUNTIME_ANALYSIS_SP_BAGS_H
#define WEFT_RUNTIME_ANALYSIS_SP_BAGS_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

namespace weft::race {

/// A procedure's number, in the order the serial execution entered them;
/// the program's outermost procedure is 0.
using ProcedureId = std::uint32_t;

/// No procedure: an empty bag, or a shadow cell not accessed yet.
inline constexpr ProcedureId kNoProcedure =
    std::numeric_limits<ProcedureId>::max();

class SpBags {
public:
  /// Starts with the outermost procedure (the program's main) running.
  SpBags() {
    ProcedureId Main = newProcedure();
    Active.push_back(Frame{Main, Main, kNoProcedure, /*Spawned=*/false});
  }

  /// The current procedure spawns a child, which becomes current.
  void enterSpawned() { enter(/*Spawned=*/true); }
  /// The current procedure calls a procedure (or opens a cilk_scope or a
  /// cilk_for loop), which becomes current; its return will be serial.
  void enterCalled() { enter(/*Spawned=*/false); }

  /// The current procedure syncs: its outstanding children now precede it.
  void sync() {
    Frame &F = Active.back();
    F.SBag = unite(F.SBag, F.PBag, Kind::S);
    F.PBag = kNoProcedure;
  }

  /// The current procedure returns to its parent, after an implicit sync.
  /// The outermost procedure never leaves.
  void leave() {
    sync();
    Frame Child = Active.back();
    Active.pop_back();
    Frame &Parent = Active.back();
    if (Child.Spawned)
      Parent.PBag = unite(Parent.PBag, Child.SBag, Kind::P);
    else
      Parent.SBag = unite(Parent.SBag, Child.SBag, Kind::S);
  }

  /// The procedure whose strand runs now: what a shadow cell records with
  /// an access. Its node is made the first time this is asked and joins
  /// its S-bag, where it would have been from its entry.
  ProcedureId current() {
    Frame &F = Active.back();
    if (__builtin_expect(F.Self == kNoProcedure, false)) {
      F.Self = newProcedure();
      F.SBag = unite(F.SBag, F.Self, Kind::S);
    }
    return F.Self;
  }

  /// The current procedure's id if it has one yet, else kNoProcedure;
  /// unlike current(), makes no node (allocates nothing).
  ProcedureId currentIfNamed() const { return Active.back().Self; }

  /// Whether everything procedure Earlier has done so far is serially
  /// before the current point; false if it is logically parallel with it.
  /// Earlier is an id this object handed out, not kNoProcedure. (Not
  /// const: the find compresses paths.)
  bool precedes(ProcedureId Earlier) {
    return kindOf(find(Earlier)) == Kind::S;
  }
  bool parallel(ProcedureId Earlier) { return !precedes(Earlier); }

  /// Procedures given a node so far (current()), the outermost one
  /// included.
  std::size_t procedures() const { return Parents.size(); }
  /// Procedures active now, the outermost one included.
  std::size_t depth() const { return Active.size(); }

  /// Makes room for this many procedures at once, for a caller that knows.
  void reserve(std::size_t Procedures) {
    Parents.reserve(Procedures);
    RankAndKind.reserve(Procedures);
  }

private:
  enum class Kind : std::uint8_t { S, P };

  /// An active procedure and the roots of its bags.
  struct Frame {
    ProcedureId Self; // kNoProcedure until current() asks
    ProcedureId SBag; // kNoProcedure while empty
    ProcedureId PBag; // kNoProcedure while empty
    bool Spawned;
  };

  /// A root's byte: the rank in the low bits, the bag's kind in the top one.
  static constexpr std::uint8_t kPBagBit = 0x80;
  static constexpr std::uint8_t kRankMask = 0x7f;

  void enter(bool Spawned) {
    Active.push_back(Frame{kNoProcedure, kNoProcedure, kNoProcedure, Spawned});
  }

  /// A new one-node set, an S-bag: the new procedure's S(F') = {F'}.
  ProcedureId newProcedure() {
    if (Parents.size() >= kNoProcedure) {
      std::fprintf(stderr, "weft: the race detector ran out of procedure "
                           "ids (2^32 - 1 procedures)\n");
      std::abort();
    }
    auto Id = static_cast<ProcedureId>(Parents.size());
    Parents.push_back(Id);
    RankAndKind.push_back(0);
    return Id;
  }

  /// The root of Node's set. Points every node on the way at the root, so
  /// that the next find from any of them takes one step.
  ProcedureId find(ProcedureId Node) {
    ProcedureId Root = Node;
    while (Parents[Root] != Root)
      Root = Parents[Root];
    while (Parents[Node] != Root) {
      ProcedureId Next = Parents[Node];
      Parents[Node] = Root;
      Node = Next;
    }
    return Root;
  }

  /// Joins two bags, given by their roots (either may be kNoProcedure,
  /// empty), into one of kind K, and returns the root of the union. The
  /// shallower tree goes under the deeper one, so trees stay logarithmic
  /// even before any path compression.
  ProcedureId unite(ProcedureId A, ProcedureId B, Kind K) {
    if (A == kNoProcedure && B == kNoProcedure)
      return kNoProcedure;
    ProcedureId Root;
    if (A == kNoProcedure)
      Root = B;
    else if (B == kNoProcedure)
      Root = A;
    else
      Root = linkRoots(A, B);
    setKind(Root, K);
    return Root;
  }

  ProcedureId linkRoots(ProcedureId A, ProcedureId B) {
    std::uint8_t RankA = rankOf(A), RankB = rankOf(B);
    if (RankA < RankB) {
      Parents[A] = B;
      return B;
    }
    Parents[B] = A;
    if (RankA == RankB)
      RankAndKind[A] = static_cast<std::uint8_t>(RankAndKind[A] + 1);
    return A;
  }

  std::uint8_t rankOf(ProcedureId Root) const {
    return RankAndKind[Root] & kRankMask;
  }
  Kind kindOf(ProcedureId Root) const {
    return (RankAndKind[Root] & kPBagBit) ? Kind::P : Kind::S;
  }
  void setKind(ProcedureId Root, Kind K) {
    std::uint8_t Rank = rankOf(Root);
    RankAndKind[Root] = K == Kind::P ? Rank | kPBagBit : Rank;
  }

  /// The forest, indexed by ProcedureId: each node's parent (a root is its
  /// own), and the rank-and-kind byte (meaningful at roots only).
  std::vector<ProcedureId> Parents;
  std::vector<std::uint8_t> RankAndKind;
  /// The serial execution's stack of active procedures, outermost first.
  std::vector<Frame> Active;
};

/// What an access found: the earlier access it races with, if any.
struct RaceCheck {
  enum class With : std::uint8_t {
    Nothing,      // no race
    EarlierWrite, // parallel with the location's last writer
    EarlierRead,  // parallel with the location's kept reader
  };
  With Kind = With::Nothing;
  /// The procedure of that earlier access.
  ProcedureId Earlier = kNoProcedure;

  explicit operator bool() const { return Kind != With::Nothing; }
};

/// One location's shadow: the procedure of its last write and of the one
/// read SP-bags keeps (see the file comment). 8 bytes.
struct AccessHistory {
  ProcedureId Writer = kNoProcedure;
  ProcedureId Reader = kNoProcedure;

  /// Records a read by the current procedure, after checking it against
  /// the last write.
  RaceCheck onRead(SpBags &Bags) {
    RaceCheck Found;
    if (Writer != kNoProcedure && Bags.parallel(Writer))
      Found = RaceCheck{RaceCheck::With::EarlierWrite, Writer};
    if (Reader == kNoProcedure || Bags.precedes(Reader))
      Reader = Bags.current();
    return Found;
  }

  /// Records a write by the current procedure, after checking it against
  /// the last write and the kept read; the write is reported first when
  /// both race.
  RaceCheck onWrite(SpBags &Bags) {
    RaceCheck Found;
    if (Writer != kNoProcedure && Bags.parallel(Writer))
      Found = RaceCheck{RaceCheck::With::EarlierWrite, Writer};
    else if (Reader != kNoProcedure && Bags.parallel(Reader))
      Found = RaceCheck{RaceCheck::With::EarlierRead, Reader};
    Writer = Bags.current();
    return Found;
  }
};

} // namespace weft::race

#endif // WEFT_RUNTIME_ANALYSIS_SP_BAGS_H
