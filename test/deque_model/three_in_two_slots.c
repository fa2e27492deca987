/* Three elements pushed into a ring of two slots while a thief tries two
 * steals: the third push grows the ring, or, when the thief took the first
 * element already, reuses its slot (push_slow's acquire of top, grow's
 * release of the ring, the thief's acquires of top and the ring). The
 * owner takes them back with the scheduler's pop(), which reads the
 * element: every element exactly once. */
#include "deque_model.h"

int main(void) {
  deque_init(2);
  pthread_t Thief;
  pthread_create(&Thief, NULL, two_steals, (void *)(intptr_t)1);
  for (T X = 1; X <= 3; ++X) {
    push(X);
    ipi_point(0);
  }
  pop_some(3);
  thread_exit(0);
  pthread_join(Thief, NULL);
  check_delivered(3);
  return 0;
}
