// Verify cilk_scope in C against the serial elision: the children's results
// are read right after the scope in the same function, at its end, per loop
// iteration, in nested scopes, and after break, continue and goto out of a
// scope; also the C23 attribute spelling.
// RUN: %clang -std=c2x -O2 %s -o %t.serial
// RUN: %weftcc -std=c2x -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcc -std=c2x -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
#include <cilk/cilk.h>
#include <stdio.h>

// Long enough that a stolen continuation reaches its read first.
static void slow_store(long *out, long v) {
  for (volatile int i = 0; i < 20000; ++i) {
  }
  *out = v;
}

static long slow_value(long v) {
  long r;
  slow_store(&r, v * 5);
  return r;
}

static void report(const char *what, long v) { printf("%-14s %ld\n", what, v); }

static void end_and_nested(void) {
  long a = 0, b = 0, x = 0, seen = -1;
  cilk_scope {
    cilk_spawn slow_store(&a, 1);
    cilk_scope {
      x = cilk_spawn slow_value(3);
    }
    seen = x;
    cilk_spawn slow_store(&b, 2);
  }
  report("end", a * 1000 + b * 100 + seen);
}

static void loops(void) {
  long v[10] = {0}, sum = 0, i;
  for (i = 0; i < 10; ++i) {
    cilk_scope {
      cilk_spawn slow_store(&v[i], i + 1);
      if (i == 7)
        break;
      if (i % 3 == 0)
        continue;
      sum += 100;
    }
    sum += v[i];
  }
  report("loops", sum * 100 + v[7]);
}

static void goto_out(int leave) {
  long a = 0, b = 0;
  cilk_scope {
    cilk_spawn slow_store(&a, 6);
    if (leave)
      goto out;
    b = 1;
  }
out:
  report("goto", a * 10 + b);
}

static void attribute_spelling(void) {
  long a = 0;
  [[weft::scope]] {
    cilk_spawn slow_store(&a, 9);
  }
  report("attribute", a);
}

int main(void) {
  end_and_nested();
  loops();
  goto_out(1);
  goto_out(0);
  attribute_spelling();
  return 0;
}
