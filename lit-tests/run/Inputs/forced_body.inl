// Included as a .inl file from the middle of a source file.
static long inlSum(const long *A, long N) {
  if (N < 64) {
    long S = 0;
    for (long I = 0; I < N; ++I)
      S += A[I];
    return S;
  }
  long L = cilk_spawn inlSum(A, N / 2);
  long R = inlSum(A + N / 2, N - N / 2);
  cilk_sync;
  return L + R;
}
