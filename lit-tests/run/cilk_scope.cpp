// Verify that a cilk_scope block waits for the children spawned in it on
// every way out of it, against the serial elision: each function reads what
// its children wrote right after the scope, in the same function (before
// its implicit sync), and the children are slow, so without the sync the
// read wins the race under forced steals. Falling off the end, results
// assigned to outer variables, nested scopes (an inner one that spawns and
// one that does not), a scope per loop iteration, break, continue and goto
// out of a scope (also out of a nested scope that does not spawn), breaks
// and gotos that stay inside it, a switch inside a scope and a scope inside
// a switch case, return, locals of the scope that the children use (they
// are destroyed after the sync; also under AddressSanitizer), the
// attribute spelling, templates (also a scope block the instantiations
// share with the template) and lambdas.
// RUN: %clangxx -O2 %s -o %t.serial
// RUN: %weftcxx -O2 %s -o %t.o2
// RUN: %run-check %t.o2 %t.serial
// RUN: %weftcxx -O0 %s -o %t.o0
// RUN: %run-check %t.o0 %t.serial
// RUN: %weftcxx -O1 -fsanitize=address %s -o %t.asan
// RUN: %run-check %t.asan %t.serial
#include <cilk/cilk.h>

#include <cstdio>
#include <string>

// Long enough that a stolen continuation reaches its read first.
static void spin() {
  for (volatile int i = 0; i < 20000; ++i) {
  }
}
static void slow_store(long *out, long v) {
  spin();
  *out = v;
}
static long slow_value(long v) {
  spin();
  return v * 3 + 1;
}
static void slow_append(std::string *out, const std::string *in) {
  spin();
  *out += *in;
}

static void report(const char *what, long v) {
  std::printf("%-22s %ld\n", what, v);
}

static void falls_off_end() {
  long a = 0, b = 0, x = 0;
  cilk_scope {
    cilk_spawn slow_store(&a, 11);
    cilk_spawn slow_store(&b, 22);
    x = cilk_spawn slow_value(7);
  }
  report("end", a + b * 100 + x * 10000);
}

static void nested() {
  long outer = 0, inner = 0, quiet = 0, after_inner = -1;
  cilk_scope {
    cilk_spawn slow_store(&outer, 5);
    cilk_scope {
      cilk_spawn slow_store(&inner, 6);
    }
    after_inner = inner; // the inner scope waited for its child
    cilk_scope {
      quiet = 9; // a scope that spawns nothing
    }
  }
  report("nested", outer * 100 + after_inner * 10 + quiet);
}

static void per_iteration() {
  long sum = 0;
  for (long i = 0; i < 12; ++i) {
    long r[3] = {0, 0, 0};
    cilk_scope {
      for (long k = 0; k < 3; ++k)
        cilk_spawn slow_store(&r[k], i * 10 + k);
    }
    sum = sum * 7 + r[0] + r[1] + r[2];
  }
  report("per iteration", sum);
}

static void break_out() {
  long v[8] = {0};
  long last = 0;
  for (long i = 0; i < 8; ++i) {
    cilk_scope {
      cilk_spawn slow_store(&v[i], i + 1);
      if (i == 4)
        break;
      last = i;
    }
  }
  report("break", v[4] * 100 + last);
}

static void continue_out() {
  long v[6] = {0};
  long sum = 0;
  for (long i = 0; i < 6; ++i) {
    cilk_scope {
      cilk_spawn slow_store(&v[i], i * i);
      if (i % 2)
        continue;
      sum += 1000;
    }
    sum += v[i];
  }
  report("continue", sum + v[5] * 100000);
}

static void goto_out(long n) {
  long a = 0, b = 0;
  cilk_scope {
    cilk_spawn slow_store(&a, 41);
    if (n > 0)
      goto done;
    b = 1;
  }
done:
  report("goto", a * 10 + b);
}

static void jumps_inside(long n) {
  long a = 0, loops = 0, b = 0;
  cilk_scope {
    cilk_spawn slow_store(&a, 3);
    for (long i = 0; i < n; ++i) { // a break that stays in the scope
      if (i == 2)
        break;
      ++loops;
    }
    if (n > 0)
      goto skip; // a label in the scope
    loops = -100;
  skip:
    b = loops;
  }
  report("jumps inside", a * 100 + loops + b);
}

// A break that leaves a scope that spawns nothing and the enclosing one,
// which does.
static void break_through_quiet_scope() {
  long v[5] = {0};
  long i = 0;
  for (; i < 5; ++i) {
    cilk_scope {
      cilk_spawn slow_store(&v[i], 10 + i);
      cilk_scope {
        if (i == 2)
          break;
      }
    }
  }
  report("break through", v[2] * 10 + i);
}

static void switches(long n) {
  long a = 0, b = 0, c = 0;
  cilk_scope {
    cilk_spawn slow_store(&a, 7);
    switch (n) { // its break stays in the scope
    case 1:
      c = 1;
      break;
    default:
      c = 2;
    }
  }
  switch (n) {
  case 1:
    cilk_scope {
      cilk_spawn slow_store(&b, 8);
      break; // leaves the scope and the switch
    }
  default:
    b = -1;
  }
  report("switches", a * 100 + b * 10 + c);
}

static long returns(long n) {
  long a = 0;
  cilk_scope {
    cilk_spawn slow_store(&a, n);
    if (n > 3)
      return a; // the function's implicit sync comes first
  }
  return a + 1;
}

// The child reads the scope's locals, which die after the sync.
static void scope_locals() {
  std::string out;
  for (int i = 0; i < 6; ++i) {
    cilk_scope {
      std::string piece(30, (char)('a' + i));
      cilk_spawn slow_append(&out, &piece);
    }
  }
  report("locals", (long)out.size() * 1000 + out[0] + out[179]);
}

static void attribute_spelling() {
  long a = 0, b = 0;
  [[weft::scope]] {
    cilk_spawn slow_store(&a, 2);
    cilk_spawn slow_store(&b, 3);
  }
  report("attribute", a * 10 + b);
}

template <typename T> static T in_template(T n) {
  long r = 0;
  cilk_scope {
    cilk_spawn slow_store(&r, (long)n);
  }
  return (T)(r * 2);
}

// A scope block that depends on nothing in the template: Clang shares it
// between the template and its instantiations, and each instantiation's
// syncs must go into a copy of its own.
static long shared_total;
static long shared_slots[4];
template <typename T> static long shared_block(T n) {
  for (int pass = 0; pass < 2; ++pass) {
    cilk_scope {
      cilk_spawn slow_store(&shared_slots[0], 17);
      cilk_spawn slow_store(&shared_slots[1], 19);
      if (shared_total > 100)
        break;
    }
    shared_total += shared_slots[0] + shared_slots[1];
    shared_slots[0] = shared_slots[1] = 0;
  }
  return shared_total + (long)n;
}

static void lambdas() {
  auto scoped = [](long n) {
    long r = 0;
    cilk_scope {
      cilk_spawn slow_store(&r, n);
    }
    return r;
  };
  long a = 0;
  cilk_scope {
    cilk_spawn slow_store(&a, scoped(4));
  }
  report("lambda", a * 10 + scoped(5));
}

int main() {
  falls_off_end();
  nested();
  per_iteration();
  break_out();
  continue_out();
  goto_out(1);
  goto_out(0);
  jumps_inside(5);
  break_through_quiet_scope();
  switches(1);
  switches(2);
  report("return", returns(5) * 10 + returns(2));
  scope_locals();
  attribute_spelling();
  report("template", in_template<long>(6) + in_template<int>(7) * 100);
  report("shared template", shared_block(1) * 1000 + shared_block(2.5));
  lambdas();
}
