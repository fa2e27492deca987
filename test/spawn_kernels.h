// Spawning functions compiled with the Weft plugin (spawn_kernels.cpp) and
// called from GoogleTest code compiled without it: ordinary calls into
// spawning code, from any thread.
#pragma once

long weft_test_fib(long n);
long weft_test_sum_array(const long *a, long lo, long hi);
long weft_test_loop_spawns(long n);
long weft_test_serial_fib(long n);
long weft_test_leaf_chain(long n);
long weft_test_loop_chain(long n);
