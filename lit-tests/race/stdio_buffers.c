/* Verify that what printf, scanf and their relatives read and write
 * counts, as in OpenCilk's detector: a spawned child writes a buffer that
 * the continuation prints with printf's %s (after integer, double and long
 * double arguments, which must be walked past), with printf("%s\n"), which
 * clang makes puts at -O2, and with fputs; a child sprintf's and
 * snprintf's into buffers the continuation reads (snprintf's write ends
 * at its bound, so a read past it is no race); a child sscanf's into an
 * int and a word the continuation reads, and writes a string the
 * continuation sscanf's; a child's printf %n writes a count the
 * continuation reads. Nine races, each naming both lines. No race: a
 * %.*s and a %.3s that read only bytes the child did not write, %d and %p
 * of a buffer being written (by value: nothing read), an sscanf whose
 * second target was not assigned, a suppressed %*d, and everything after
 * the sync. In C and C++, at -O0 and -O2.
 * RUN: %weftcc --weft-race -O0 -g %s -o %t0
 * RUN: %expect-races 9 66 %t0 | FileCheck %s
 * RUN: %weftcc --weft-race -O2 -g %s -o %t2
 * RUN: %expect-races 9 66 %t2 | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O0 -g %s -o %t0cxx
 * RUN: %expect-races 9 66 %t0cxx | FileCheck %s
 * RUN: %weftcxx -x c++ --weft-race -O2 -g %s -o %t2cxx
 * RUN: %expect-races 9 66 %t2cxx | FileCheck %s
 * CHECK: counted: hello
 * CHECK-NEXT: 7 2.50 1.5 hello|
 * CHECK-NEXT: a line
 * CHECK-NEXT: a note
 * CHECK-NEXT: [hello|hel]
 * CHECK-NEXT: 42 0x{{[0-9a-f]+}}
 * CHECK-NEXT: 12-34 1 a long | 1 9 apple 5 7 6 5 3 2 2 4 14
 * CHECK-NEXT: after: hello a line 12-34 hello, there
 */
#include <cilk/cilk.h>
#include <stdio.h>
#include <string.h>

static char message[32], line[32], note[32], digits[16], label[16];
static char numbers[16], word[16];
static char half[16] = "hello, world";
static char text[32] = "a long label text";
static char greeting[8] = "hello";
static int parsed, counted, unassigned = 3, left = 12, right = 34;

__attribute__((noinline)) void writeMessage(void) {
  strcpy(message, greeting); // CHECK-DAG: write of 6 bytes in writeMessage{{.*}}stdio_buffers.c:[[@LINE]]:
}

__attribute__((noinline)) void writeLine(void) {
  strcpy(line, "a line"); // CHECK-DAG: write of 7 bytes in writeLine{{.*}}stdio_buffers.c:[[@LINE]]:
}

__attribute__((noinline)) void writeNote(void) {
  strcpy(note, "a note\n"); // CHECK-DAG: write of 8 bytes in writeNote{{.*}}stdio_buffers.c:[[@LINE]]:
}

__attribute__((noinline)) void formatDigits(void) {
  sprintf(digits, "%d-%d", left, right); // CHECK-DAG: write of 6 bytes in formatDigits{{.*}}stdio_buffers.c:[[@LINE]]:
}

__attribute__((noinline)) void formatLabel(void) {
  snprintf(label, 8, "%s", text); // CHECK-DAG: write of 8 bytes in formatLabel{{.*}}stdio_buffers.c:[[@LINE]]:
}

__attribute__((noinline)) void parseInput(void) {
  sscanf("9 apple pie", "%d %15s", &parsed, word); // CHECK-DAG: write of 4 bytes in parseInput{{.*}}stdio_buffers.c:[[@LINE]]:
  // CHECK-DAG: write of 6 bytes in parseInput{{.*}}stdio_buffers.c:[[@LINE-1]]:
}

__attribute__((noinline)) void writeNumbers(void) {
  strcpy(numbers, "7 6 5"); // CHECK-DAG: write of 6 bytes in writeNumbers{{.*}}stdio_buffers.c:[[@LINE]]:
}

__attribute__((noinline)) void countGreeting(void) {
  printf("counted: %s%n\n", greeting, &counted); // CHECK-DAG: write of 4 bytes in countGreeting{{.*}}stdio_buffers.c:[[@LINE]]:
}

__attribute__((noinline)) void writeHalf(void) { strcpy(half + 7, "there"); }

__attribute__((noinline)) void setUnassigned(void) { unassigned = 4; }

int main(void) {
  int seven = 7;
  cilk_spawn countGreeting();
  cilk_spawn writeMessage();
  printf("%d %.2f %Lg %s|\n", seven, 2.5, 1.5L, message); // CHECK-DAG: read of 6 bytes in main{{.*}}stdio_buffers.c:[[@LINE]]:
  cilk_spawn writeLine();
  printf("%s\n", line); // CHECK-DAG: read of 7 bytes in main{{.*}}stdio_buffers.c:[[@LINE]]:
  cilk_spawn writeNote();
  fputs(note, stdout); // CHECK-DAG: read of 8 bytes in main{{.*}}stdio_buffers.c:[[@LINE]]:
  cilk_spawn writeHalf();
  printf("[%.*s|%.3s]\n", 5, half, half);
  printf("%d %p\n", 42, (void *)half);
  cilk_spawn formatDigits();
  char dash = digits[2]; // CHECK-DAG: read of 1 byte in main{{.*}}stdio_buffers.c:[[@LINE]]:
  cilk_spawn formatLabel();
  char last = label[7]; // CHECK-DAG: read of 1 byte in main{{.*}}stdio_buffers.c:[[@LINE]]:
  char past = label[8];
  cilk_spawn parseInput();
  int number = parsed; // CHECK-DAG: read of 4 bytes in main{{.*}}stdio_buffers.c:[[@LINE]]:
  size_t wordLength = strlen(word); // CHECK-DAG: read of 6 bytes in main{{.*}}stdio_buffers.c:[[@LINE]]:
  cilk_spawn writeNumbers();
  int a = 0, b = 0, c = 0;
  int got = sscanf(numbers, "%d %d %d", &a, &b, &c); // CHECK-DAG: read of 6 bytes in main{{.*}}stdio_buffers.c:[[@LINE]]:
  int chars = counted; // CHECK-DAG: read of 4 bytes in main{{.*}}stdio_buffers.c:[[@LINE]]:
  cilk_spawn setUnassigned();
  int first = 0, second = 0;
  int partial = sscanf("1", "%d %d", &first, &unassigned);
  partial += sscanf("8 2", "%*d %d", &second);
  cilk_sync;
  printf("%s %d %s| %d %d %s %d %d %d %d %d %d %d %d %d\n", digits,
         dash == '-', label, last == '\0' && past == '\0', number, word,
         (int)wordLength, a, b, c, got, partial, second, unassigned, chars);
  printf("after: %s %s %s %s\n", message, line, digits, half);
  return 0;
}
