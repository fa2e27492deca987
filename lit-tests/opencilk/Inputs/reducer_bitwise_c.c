/* The C side of reducer_bitwise.cpp: CILK_C_REDUCER_OPAND, _OPOR and
 * _OPXOR over two type tokens, registered, fed by a cilk_for, read and
 * unregistered. */
#include <cilk/cilk.h>
#include <cilk/reducer_opand.h>
#include <cilk/reducer_opor.h>
#include <cilk/reducer_opxor.h>
#include <stdio.h>

CILK_C_REDUCER_OPAND(all, uint, ~0u);
CILK_C_REDUCER_OPOR(any, uint, 0);
CILK_C_REDUCER_OPXOR(mix, ulong, 0);
CILK_C_REDUCER_OPXOR(small, uchar, 0);

int main(void) {
  CILK_C_REGISTER_REDUCER(all);
  CILK_C_REGISTER_REDUCER(any);
  CILK_C_REGISTER_REDUCER(mix);
  CILK_C_REGISTER_REDUCER(small);
  cilk_for (unsigned i = 0; i < (1u << 16); ++i) {
    REDUCER_VIEW(all) &= ~(1u << (i % 16)) | 0x10000000u;
    REDUCER_VIEW(any) |= 1u << (i % 17);
    REDUCER_VIEW(mix) ^= (unsigned long)i * 2654435761ul;
    REDUCER_VIEW(small) ^= (unsigned char)(i * 7);
  }
  printf("and %x or %x xor %lx %x\n", REDUCER_VIEW(all), REDUCER_VIEW(any),
         REDUCER_VIEW(mix), REDUCER_VIEW(small));
  CILK_C_UNREGISTER_REDUCER(all);
  CILK_C_UNREGISTER_REDUCER(any);
  CILK_C_UNREGISTER_REDUCER(mix);
  CILK_C_UNREGISTER_REDUCER(small);
  return 0;
}
