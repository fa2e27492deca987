/*===- weft/pedigree.h - Pedigrees and DotMix's arithmetic ----------------===*\
 *
 * What the runtime (runtime/pedigree.cpp) and the serial elision's
 * stand-ins in <cilk/cilk_api.h> share: the pedigree node that OpenCilk's
 * and Intel's API hand out, and the arithmetic of DotMix, the
 * deterministic random numbers of Leiserson, Schardl and Sukha (PPoPP
 * 2012). Programs include <cilk/cilk_api.h>; docs/pedigrees.md is the
 * user's description.
 *
 * A pedigree is the sequence of ranks [t0, t1, ..., td]: t0 numbers the
 * thread (0 for main), td is the running strand's rank among its
 * siblings, and the terms between are the ranks at which each enclosing
 * spawn (or parallel loop and iteration) happened. The API gives it leaf
 * first: __cilkrts_get_pedigree() returns { td, &node } where node is
 * { t(d-1), &next } and so on up to { t0, NULL }.
 *
 * DotMix hashes a pedigree: with a table m[] and an offset X, both drawn
 * from the seed,
 *
 *   dprand([t0, ..., td]) = mix(X + sum over j of (tj + 1) * m[j])   (mod p)
 *
 * where p = 2^64 - 59, the largest prime below 2^64, m[j] wraps around
 * every WEFT_DPRNG_TABLE_SIZE levels, and mix is four rounds of RC6's
 * x * (2x + 1) with the halves swapped between rounds. The runtime keeps
 * each strand's sum up to date as ranks change, so a draw costs a mix,
 * not a walk of the pedigree.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_PEDIGREE_H
#define WEFT_PEDIGREE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One term of a pedigree and the link to the term above it: OpenCilk's and
 * Intel Cilk Plus's type, so code that walks `parent` builds unchanged. */
typedef struct __cilkrts_pedigree {
  uint64_t rank;
  struct __cilkrts_pedigree *parent;
} __cilkrts_pedigree;

#define WEFT_DPRNG_PRIME ((uint64_t)0 - 59)
#define WEFT_DPRNG_TABLE_SIZE 4096u
/* OpenCilk's default seed. */
#define WEFT_DPRNG_DEFAULT_SEED 0x8c679c168e6bf733ull

static inline uint64_t __weft_dprng_swap_halves(uint64_t x) {
  return (x >> 32) | (x << 32);
}

/* RC6's mixing, four rounds, every product mod 2^64. */
static inline uint64_t __weft_dprng_mix(uint64_t x) {
  for (int i = 0; i < 4; ++i) {
    x = x * (2 * x + 1);
    x = __weft_dprng_swap_halves(x);
  }
  return x;
}

/* The mix, reduced into [0, p). */
static inline uint64_t __weft_dprng_mix_mod_p(uint64_t x) {
  x = __weft_dprng_mix(x);
  return x >= WEFT_DPRNG_PRIME ? x - WEFT_DPRNG_PRIME : x;
}

/* (a + b) mod p for a and b in [0, p). */
static inline uint64_t __weft_dprng_add_mod_p(uint64_t a, uint64_t b) {
  uint64_t z = a + b;
  if (z < a || z >= WEFT_DPRNG_PRIME)
    z -= WEFT_DPRNG_PRIME;
  return z;
}

/* (a * b) mod p for a and b in [0, p), without a division: since
 * 2^64 = 59 (mod p), a 128-bit hi * 2^64 + lo folds to hi * 59 + lo. Three
 * folds bring any product below 2^64 (the first leaves hi < 60, the second
 * a carry of at most one with lo < 3540), and one subtraction below p. */
static inline uint64_t __weft_dprng_mul_mod_p(uint64_t a, uint64_t b) {
  unsigned __int128 x = (unsigned __int128)a * b;
  for (int fold = 0; fold < 3; ++fold)
    x = (unsigned __int128)(uint64_t)(x >> 64) * 59 + (uint64_t)x;
  uint64_t r = (uint64_t)x;
  return r >= WEFT_DPRNG_PRIME ? r - WEFT_DPRNG_PRIME : r;
}

/* The table's entry j and the offset X for a seed: mixes of seed + j and
 * of seed + WEFT_DPRNG_TABLE_SIZE. */
static inline uint64_t __weft_dprng_table_entry(uint64_t seed, uint64_t j) {
  return __weft_dprng_mix_mod_p(seed + j);
}
static inline uint64_t __weft_dprng_offset(uint64_t seed) {
  return __weft_dprng_mix_mod_p(seed + WEFT_DPRNG_TABLE_SIZE);
}

#ifdef __cplusplus
}
#endif

#endif /* WEFT_PEDIGREE_H */
