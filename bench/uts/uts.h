// Unbalanced Tree Search (UTS), shared by every variant: the tree, defined
// node by node by SHA-1, and the known size the result is checked against.
// The search itself is in each variant's file, written the same way for
// every runtime.
//
// The tree is UTS's T1 sample (`-t 1 -a 3 -d 10 -b 4 -r 19`): geometric
// (each node's child count drawn from a geometric distribution), with the
// fixed shape function (b0 = 4 children expected at every depth below 10,
// none at depth 10), root seed 19: 4,130,071 nodes, 3,305,118 leaves. As in UTS, a node's
// state is a SHA-1 digest: the root's hashes 16 zero bytes and the seed
// (big-endian), child i's hashes its parent's digest and i (big-endian),
// and the child count comes from the digest's last four bytes. Only this
// exact arithmetic gives the published size, so it follows UTS's
// uts.c and rng/brg_sha1.c step by step.
#ifndef WEFT_BENCH_UTS_H
#define WEFT_BENCH_UTS_H

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace uts {

/// SHA-1 (FIPS 180-4) of \p Length bytes at \p Message into \p Digest.
inline void sha1(const std::uint8_t *Message, std::size_t Length,
                 std::uint8_t Digest[20]) {
  std::uint32_t H[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u,
                        0xC3D2E1F0u};
  auto Rotl = [](std::uint32_t X, int N) { return (X << N) | (X >> (32 - N)); };
  auto Compress = [&](const std::uint8_t *Block) {
    std::uint32_t W[80];
    for (int T = 0; T < 16; ++T)
      W[T] = std::uint32_t(Block[4 * T]) << 24 | std::uint32_t(Block[4 * T + 1]) << 16 |
             std::uint32_t(Block[4 * T + 2]) << 8 | std::uint32_t(Block[4 * T + 3]);
    for (int T = 16; T < 80; ++T)
      W[T] = Rotl(W[T - 3] ^ W[T - 8] ^ W[T - 14] ^ W[T - 16], 1);
    std::uint32_t A = H[0], B = H[1], C = H[2], D = H[3], E = H[4];
    for (int T = 0; T < 80; ++T) {
      std::uint32_t F, K;
      if (T < 20) {
        F = (B & C) | (~B & D);
        K = 0x5A827999u;
      } else if (T < 40) {
        F = B ^ C ^ D;
        K = 0x6ED9EBA1u;
      } else if (T < 60) {
        F = (B & C) | (B & D) | (C & D);
        K = 0x8F1BBCDCu;
      } else {
        F = B ^ C ^ D;
        K = 0xCA62C1D6u;
      }
      std::uint32_t Next = Rotl(A, 5) + F + E + K + W[T];
      E = D;
      D = C;
      C = Rotl(B, 30);
      B = A;
      A = Next;
    }
    H[0] += A;
    H[1] += B;
    H[2] += C;
    H[3] += D;
    H[4] += E;
  };
  std::size_t Done = 0;
  for (; Length - Done >= 64; Done += 64)
    Compress(Message + Done);
  // The rest, the 0x80 marker, zeros, and the length in bits: one block,
  // or two when fewer than 9 bytes are left in the first.
  std::uint8_t Tail[128] = {};
  std::size_t Rest = Length - Done;
  std::memcpy(Tail, Message + Done, Rest);
  Tail[Rest] = 0x80;
  std::size_t TailBytes = Rest + 9 <= 64 ? 64 : 128;
  std::uint64_t Bits = std::uint64_t(Length) * 8;
  for (int I = 0; I < 8; ++I)
    Tail[TailBytes - 1 - I] = std::uint8_t(Bits >> (8 * I));
  for (std::size_t Block = 0; Block < TailBytes; Block += 64)
    Compress(Tail + Block);
  for (int I = 0; I < 5; ++I)
    for (int J = 0; J < 4; ++J)
      Digest[4 * I + J] = std::uint8_t(H[I] >> (24 - 8 * J));
}

/// FIPS 180's example, "abc"; a variant checks it before it searches.
inline bool sha1_selftest() {
  static const std::uint8_t Expected[20] = {
      0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
      0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d};
  std::uint8_t Digest[20];
  sha1(reinterpret_cast<const std::uint8_t *>("abc"), 3, Digest);
  return std::memcmp(Digest, Expected, 20) == 0;
}

/// The T1 sample tree's parameters, and its size (nodes, root included).
constexpr double BranchingFactor = 4; // b0
constexpr int RootSeed = 19;
constexpr int DefaultDepth = 10; // gen_mx: no children at this depth
constexpr long T1Nodes = 4130071;
/// UTS caps a non-binomial node's children here (none of T1's reaches it).
constexpr int MaxChildren = 100;

struct Node {
  std::uint8_t state[20]; // SHA-1 digest
  int height;
};

inline void putBigEndian(std::uint8_t *Out, std::uint32_t V) {
  Out[0] = std::uint8_t(V >> 24);
  Out[1] = std::uint8_t(V >> 16);
  Out[2] = std::uint8_t(V >> 8);
  Out[3] = std::uint8_t(V);
}

/// UTS's rng_init: the digest of 16 zero bytes and the seed.
inline Node root() {
  std::uint8_t Message[20] = {};
  putBigEndian(Message + 16, std::uint32_t(RootSeed));
  Node N;
  sha1(Message, sizeof Message, N.state);
  N.height = 0;
  return N;
}

/// UTS's rng_spawn: child \p I's digest from its parent's and I.
inline Node child(const Node &Parent, int I) {
  std::uint8_t Message[24];
  std::memcpy(Message, Parent.state, 20);
  putBigEndian(Message + 20, std::uint32_t(I));
  Node N;
  sha1(Message, sizeof Message, N.state);
  N.height = Parent.height + 1;
  return N;
}

/// UTS's uts_numChildren_geo with the fixed shape function, and the cap.
inline int numChildren(const Node &N, int Depth = DefaultDepth) {
  double Expected = N.height < Depth ? BranchingFactor : 0.0;
  // A geometric distribution whose mean is Expected, sampled by inverting
  // its CDF at u, the digest's last 31 bits as a fraction (rng_rand,
  // rng_toProb).
  double P = 1.0 / (1.0 + Expected);
  std::uint32_t Bits = std::uint32_t(N.state[16]) << 24 | std::uint32_t(N.state[17]) << 16 |
                       std::uint32_t(N.state[18]) << 8 | std::uint32_t(N.state[19]);
  double U = double(Bits & 0x7fffffffu) / 2147483648.0;
  int Children = int(std::floor(std::log(1 - U) / std::log(1 - P)));
  return Children < MaxChildren ? Children : MaxChildren;
}

} // namespace uts

#endif // WEFT_BENCH_UTS_H
