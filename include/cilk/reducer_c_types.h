/*===- cilk/reducer_c_types.h - Type names of the Cilk Plus C reducers ----===*\
 *
 * The C reducer macros (CILK_C_REDUCER_OPADD(name, tn, v) and its
 * siblings) name the value type by one token, tn; this header maps each
 * token to its type and lists them for the headers that define one reducer
 * per type.
\*===----------------------------------------------------------------------===*/
#ifndef WEFT_CILK_REDUCER_C_TYPES_H
#define WEFT_CILK_REDUCER_C_TYPES_H

#include <stddef.h>

typedef char __weft_c_type_char;
typedef signed char __weft_c_type_schar;
typedef unsigned char __weft_c_type_uchar;
typedef short __weft_c_type_short;
typedef unsigned short __weft_c_type_ushort;
typedef int __weft_c_type_int;
typedef unsigned int __weft_c_type_uint;
typedef unsigned int __weft_c_type_unsigned;
typedef long __weft_c_type_long;
typedef unsigned long __weft_c_type_ulong;
typedef long long __weft_c_type_longlong;
typedef unsigned long long __weft_c_type_ulonglong;
typedef size_t __weft_c_type_size_t;
typedef float __weft_c_type_float;
typedef double __weft_c_type_double;
typedef long double __weft_c_type_longdouble;

/* Applies X(tn, type) to every type token. */
#define __WEFT_C_REDUCER_TYPES(X)                                            \
  __WEFT_C_REDUCER_INTEGER_TYPES(X)                                          \
  X(float, float)                                                            \
  X(double, double)                                                          \
  X(longdouble, long double)

/* Applies X(tn, type) to the integer type tokens: the bitwise reducers'. */
#define __WEFT_C_REDUCER_INTEGER_TYPES(X)                                    \
  X(char, char)                                                              \
  X(schar, signed char)                                                      \
  X(uchar, unsigned char)                                                    \
  X(short, short)                                                            \
  X(ushort, unsigned short)                                                  \
  X(int, int)                                                                \
  X(uint, unsigned int)                                                      \
  X(unsigned, unsigned int)                                                  \
  X(long, long)                                                              \
  X(ulong, unsigned long)                                                    \
  X(longlong, long long)                                                     \
  X(ulonglong, unsigned long long)                                           \
  X(size_t, size_t)

#endif /* WEFT_CILK_REDUCER_C_TYPES_H */
