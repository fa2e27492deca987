/* Verify that the fortified names glibc's headers call under
 * _FORTIFY_SOURCE (__sprintf_chk, __snprintf_chk, __printf_chk,
 * __fprintf_chk) are checked as printf's family is: a child sprintf's and
 * snprintf's into buffers that the continuation prints, and a child's %n
 * writes a count the continuation reads. Three races, each naming both
 * lines; the snprintf'd label's bytes past its bound are read by a %s of
 * their own, and race with nothing. At -O2, as fortification needs.
 * RUN: %weftcc --weft-race -O2 -g -D_FORTIFY_SOURCE=2 %s -o %t
 * RUN: %expect-races 3 66 %t | FileCheck %s
 * CHECK: 12345|
 * CHECK-NEXT: fortifi|tail|
 * CHECK-NEXT: counted: 12
 * CHECK-NEXT: 11
 */
#include <cilk/cilk.h>
#include <stdio.h>

static char digits[16], label[16] = "________tail";
static int number = 12345, counted;
static const char *text = "fortified";

__attribute__((noinline)) void formatDigits(void) {
  sprintf(digits, "%d", number); // CHECK-DAG: write of 6 bytes in formatDigits{{.*}}stdio_fortified.c:[[@LINE]]:
}

__attribute__((noinline)) void formatLabel(void) {
  snprintf(label, 8, "%s", text); // CHECK-DAG: write of 8 bytes in formatLabel{{.*}}stdio_fortified.c:[[@LINE]]:
}

__attribute__((noinline)) void count(void) {
  printf("counted: %d%n\n", 12, &counted); // CHECK-DAG: write of 4 bytes in count{{.*}}stdio_fortified.c:[[@LINE]]:
}

int main(void) {
  cilk_spawn formatDigits();
  printf("%s|\n", digits); // CHECK-DAG: read of 6 bytes in main{{.*}}stdio_fortified.c:[[@LINE]]:
  cilk_spawn formatLabel();
  fprintf(stdout, "%s|%s|\n", label, label + 8); // CHECK-DAG: read of 8 bytes in main{{.*}}stdio_fortified.c:[[@LINE]]:
  cilk_spawn count();
  int chars = counted; // CHECK-DAG: read of 4 bytes in main{{.*}}stdio_fortified.c:[[@LINE]]:
  cilk_sync;
  printf("%d\n", chars);
  return 0;
}
