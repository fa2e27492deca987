/* Two elements pushed and taken back by the fast clone's marked pops while
 * THIEVES thieves (default 1) try two steals each: every element exactly
 * once, whatever the fence policy (deque_model.h). */
#include "deque_model.h"

#ifndef THIEVES
#define THIEVES 1
#endif

int main(void) {
  deque_init(1 + THIEVES);
  pthread_t Thieves[THIEVES];
  for (int I = 0; I < THIEVES; ++I)
    pthread_create(&Thieves[I], NULL, two_steals, (void *)(intptr_t)(I + 1));
  int64_t First = push(1);
  ipi_point(0);
  int64_t Second = push(2);
  ipi_point(0);
  if (pop_owned(Second))
    deliver(2);
  ipi_point(0);
  if (pop_owned(First))
    deliver(1);
  thread_exit(0);
  for (int I = 0; I < THIEVES; ++I)
    pthread_join(Thieves[I], NULL);
  check_delivered(2);
  return 0;
}
