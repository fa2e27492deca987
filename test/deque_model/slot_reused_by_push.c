/* The owner takes back its newest element and pushes another into the
 * same slot while a thief tries two steals: a thief that takes the oldest
 * element and then finds the newer one in the reused slot must read the
 * new element, never the one the owner took back (steal()'s acquire of
 * bottom after its fence: the fence orders the thief after the pop's
 * store of bottom, but only the acquire makes it see the slot written
 * after that pop). The owner takes them back with pop(), which reads the
 * element: every element exactly once. */
#include "deque_model.h"

int main(void) {
  deque_init(2);
  pthread_t Thief;
  pthread_create(&Thief, NULL, two_steals, (void *)(intptr_t)1);
  push(1);
  ipi_point(0);
  push(2);
  ipi_point(0);
  pop_some(1);
  push(3);
  ipi_point(0);
  pop_some(2);
  thread_exit(0);
  pthread_join(Thief, NULL);
  check_delivered(3);
  return 0;
}
