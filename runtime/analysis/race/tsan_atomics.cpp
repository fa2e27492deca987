//===- tsan_atomics.cpp - The atomic operations of instrumented code ------===//
//
// The ThreadSanitizer pass replaces each atomic operation with a call that
// must perform it. An atomic access is synchronization, never a
// determinacy race, so these only do the operation. The memory order the
// program asked for is an argument; every operation here is done
// sequentially consistent instead, which is at least as strong as any
// order the program may ask for, so no execution it allows is lost (and
// the run is serial anyway). 16-byte operations take a lock, since
// whether the processor has a 16-byte compare-and-swap is not known here;
// they stay atomic with respect to one another.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <mutex>

namespace {

using u128 = unsigned __int128;

std::mutex &lock128() {
  static std::mutex M;
  return M;
}

template <class T> struct Ops {
  static T load(const volatile T *A) { return __atomic_load_n(A, __ATOMIC_SEQ_CST); }
  static void store(volatile T *A, T V) { __atomic_store_n(A, V, __ATOMIC_SEQ_CST); }
  static T exchange(volatile T *A, T V) {
    return __atomic_exchange_n(A, V, __ATOMIC_SEQ_CST);
  }
  static T add(volatile T *A, T V) { return __atomic_fetch_add(A, V, __ATOMIC_SEQ_CST); }
  static T sub(volatile T *A, T V) { return __atomic_fetch_sub(A, V, __ATOMIC_SEQ_CST); }
  static T and_(volatile T *A, T V) { return __atomic_fetch_and(A, V, __ATOMIC_SEQ_CST); }
  static T or_(volatile T *A, T V) { return __atomic_fetch_or(A, V, __ATOMIC_SEQ_CST); }
  static T xor_(volatile T *A, T V) { return __atomic_fetch_xor(A, V, __ATOMIC_SEQ_CST); }
  static T nand(volatile T *A, T V) { return __atomic_fetch_nand(A, V, __ATOMIC_SEQ_CST); }
  /// Returns whether it stored; *Expected gets the value found.
  static bool cas(volatile T *A, T *Expected, T V) {
    return __atomic_compare_exchange_n(A, Expected, V, /*weak=*/false,
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  }
};

/// 16 bytes: under lock128(), which orders these operations among
/// themselves (its acquire and release are the sequentially consistent
/// order of the 16-byte operations).
template <> struct Ops<u128> {
  using T = u128;
  template <class F> static T rmw(volatile T *A, F Op) {
    std::lock_guard<std::mutex> G(lock128());
    T Old = *A;
    *A = Op(Old);
    return Old;
  }
  static T load(const volatile T *A) {
    std::lock_guard<std::mutex> G(lock128());
    return *A;
  }
  static void store(volatile T *A, T V) { rmw(A, [V](T) { return V; }); }
  static T exchange(volatile T *A, T V) { return rmw(A, [V](T) { return V; }); }
  static T add(volatile T *A, T V) { return rmw(A, [V](T O) { return O + V; }); }
  static T sub(volatile T *A, T V) { return rmw(A, [V](T O) { return O - V; }); }
  static T and_(volatile T *A, T V) { return rmw(A, [V](T O) { return O & V; }); }
  static T or_(volatile T *A, T V) { return rmw(A, [V](T O) { return O | V; }); }
  static T xor_(volatile T *A, T V) { return rmw(A, [V](T O) { return O ^ V; }); }
  static T nand(volatile T *A, T V) { return rmw(A, [V](T O) { return T(~(O & V)); }); }
  static bool cas(volatile T *A, T *Expected, T V) {
    std::lock_guard<std::mutex> G(lock128());
    if (*A == *Expected) {
      *A = V;
      return true;
    }
    *Expected = *A;
    return false;
  }
};

} // namespace

// The memory-order arguments (int) are ignored: see the file comment.
#define WEFT_TSAN_ATOMICS(N, T)                                                \
  T __tsan_atomic##N##_load(const volatile T *A, int) { return Ops<T>::load(A); } \
  void __tsan_atomic##N##_store(volatile T *A, T V, int) { Ops<T>::store(A, V); } \
  T __tsan_atomic##N##_exchange(volatile T *A, T V, int) {                     \
    return Ops<T>::exchange(A, V);                                             \
  }                                                                            \
  T __tsan_atomic##N##_fetch_add(volatile T *A, T V, int) { return Ops<T>::add(A, V); } \
  T __tsan_atomic##N##_fetch_sub(volatile T *A, T V, int) { return Ops<T>::sub(A, V); } \
  T __tsan_atomic##N##_fetch_and(volatile T *A, T V, int) { return Ops<T>::and_(A, V); } \
  T __tsan_atomic##N##_fetch_or(volatile T *A, T V, int) { return Ops<T>::or_(A, V); } \
  T __tsan_atomic##N##_fetch_xor(volatile T *A, T V, int) { return Ops<T>::xor_(A, V); } \
  T __tsan_atomic##N##_fetch_nand(volatile T *A, T V, int) {                   \
    return Ops<T>::nand(A, V);                                                 \
  }                                                                            \
  int __tsan_atomic##N##_compare_exchange_strong(volatile T *A, T *C, T V, int, \
                                                  int) {                       \
    return Ops<T>::cas(A, C, V);                                               \
  }                                                                            \
  int __tsan_atomic##N##_compare_exchange_weak(volatile T *A, T *C, T V, int,  \
                                                int) {                         \
    return Ops<T>::cas(A, C, V);                                               \
  }                                                                            \
  T __tsan_atomic##N##_compare_exchange_val(volatile T *A, T C, T V, int, int) { \
    Ops<T>::cas(A, &C, V);                                                     \
    return C;                                                                  \
  }

extern "C" {

WEFT_TSAN_ATOMICS(8, std::uint8_t)
WEFT_TSAN_ATOMICS(16, std::uint16_t)
WEFT_TSAN_ATOMICS(32, std::uint32_t)
WEFT_TSAN_ATOMICS(64, std::uint64_t)
WEFT_TSAN_ATOMICS(128, u128)

void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

} // extern "C"
