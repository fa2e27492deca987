// Verify the bitwise reducers of <cilk/reducer_opand.h>, <cilk/reducer_opor.h>
// and <cilk/reducer_opxor.h>: cilk::reducer<cilk::op_and<T>> (and op_or,
// op_xor), with and without an initial value, the 1.0 spellings
// reducer_opand<T> (whose default start is T(), not the identity), and the
// C macros, each fed by a cilk_for over values whose AND, OR and XOR all
// depend on every element, against the serial elision at 1, 2 and 4
// workers with and without forced steals.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t
// RUN: %run-check %t %t.serial
// RUN: %t | FileCheck %s
// CHECK: and ffff0000 ffff0000 0
// CHECK-NEXT: or ffffffff 1ffff ffffffff
// CHECK-NEXT: xor {{[0-9a-f]+}} {{[0-9a-f]+}} {{[0-9a-f]+}}
// RUN: %clang -O2 %S/Inputs/reducer_bitwise_c.c -o %t.c.serial
// RUN: %weftcc -O2 %S/Inputs/reducer_bitwise_c.c -o %t.c
// RUN: %run-check %t.c %t.c.serial
// RUN: %t.c | FileCheck --check-prefix=C %s
// C: and ffff0000 or 1ffff xor {{[0-9a-f]+}} {{[0-9a-f]+}}
#include <cilk/cilk.h>
#include <cilk/reducer_opand.h>
#include <cilk/reducer_opor.h>
#include <cilk/reducer_opxor.h>
#include <cstdio>

constexpr unsigned N = 1 << 16;

// Element i clears one bit of the low half for the AND (each once), sets
// bit i % 17 for the OR, and mixes i into the XOR.
unsigned andMask(unsigned i) { return ~(1u << (i % 16)) | 0x10000000u; }
unsigned orBit(unsigned i) { return 1u << (i % 17); }
unsigned xorValue(unsigned i) { return i * 2654435761u; }

int main() {
  cilk::reducer<cilk::op_and<unsigned>> all;          // from ~0
  cilk::reducer<cilk::op_and<unsigned>> high(0xffff0000u);
  cilk::reducer_opand<unsigned> zero_start;           // from 0
  cilk::reducer<cilk::op_or<unsigned>> any(0xffff0000u);
  cilk::reducer<cilk::op_or<unsigned>> bits;
  cilk::reducer_opor<unsigned> wrapped(0xffffffffu);
  cilk::reducer<cilk::op_xor<unsigned>> mix;
  cilk::reducer<cilk::op_xor<unsigned>> mix_seeded(0x5a5a5a5au);
  cilk::reducer_opxor<unsigned> mix_wrapped;
  cilk_for (unsigned i = 0; i < N; ++i) {
    *all &= andMask(i);
    *high &= ~0u;
    zero_start &= andMask(i);
    *any |= orBit(i);
    *bits |= orBit(i);
    wrapped |= orBit(i);
    *mix ^= xorValue(i);
    *mix_seeded ^= xorValue(i);
    mix_wrapped ^= xorValue(i);
  }
  std::printf("and %x %x %x\n", all.get_value(), high.get_value(),
              zero_start.get_value());
  std::printf("or %x %x %x\n", any.get_value(), bits.get_value(),
              wrapped.get_value());
  std::printf("xor %x %x %x\n", mix.get_value(), mix_seeded.get_value(),
              mix_wrapped.get_value());
  return 0;
}
