// kite-test-cflags: -fnoopenmp-use-tls
// C++ threadprivate objects kept by the runtime are destroyed: a user
// thread's copy when the thread exits (and a later thread that reuses its
// runtime slot gets a freshly constructed copy), the copies of threads
// still alive at program exit (the pool's workers) then. The original is
// the program's own static object, destroyed by the program.
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>

#include "kite_test.h"

static std::atomic<int> constructed{0}, destroyed{0};

struct Tracked {
  long value;
  long* heap;
  Tracked() : value(7), heap(new long(11)) { constructed++; }
  ~Tracked() {
    delete heap;
    destroyed++;
  }
};

// Runs after the runtime's exit handler (registered when the variable
// below registers its constructor and destructor) and after the original's
// destructor: atexit order is reverse registration, and this one is
// registered before any dynamic initializer. Every object is destroyed.
static void check_at_exit() {
  if (destroyed.load() != constructed.load()) {
    fprintf(stderr, "FAIL: %d constructed, %d destroyed at exit\n", constructed.load(),
            destroyed.load());
    _exit(1);
  }
}
__attribute__((constructor(101))) static void register_check() { atexit(check_at_exit); }

static Tracked obj;
#pragma omp threadprivate(obj)

static void* user_thread(void* arg) {
  long* seen = static_cast<long*>(arg);
  seen[0] = obj.value;
  seen[1] = *obj.heap;
  obj.value = 99;  // a later thread in the same slot must not see this
  return nullptr;
}

int main() {
  KITE_TEST_BEGIN();
  int bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    if (obj.value != 7 || *obj.heap != 11) bad++;
    obj.value += omp_get_thread_num();
  }
  CHECK_EQ_LONG(bad, 0);

  // A user thread: its copy is destroyed when it exits.
  int before = destroyed.load();
  long seen[2] = {0, 0};
  pthread_t th;
  CHECK(pthread_create(&th, nullptr, user_thread, seen) == 0);
  pthread_join(th, nullptr);
  CHECK_EQ_LONG(seen[0], 7);
  CHECK_EQ_LONG(seen[1], 11);
  CHECK_EQ_LONG(destroyed.load(), before + 1);

  // The next user thread (which may get the same runtime slot) starts
  // from a new copy.
  seen[0] = seen[1] = 0;
  CHECK(pthread_create(&th, nullptr, user_thread, seen) == 0);
  pthread_join(th, nullptr);
  CHECK_EQ_LONG(seen[0], 7);
  CHECK_EQ_LONG(destroyed.load(), before + 2);

  // The workers' copies live until exit (checked by check_at_exit).
#pragma omp parallel reduction(+ : bad)
  {
    if (omp_get_thread_num() != 0 && obj.value != 7 + omp_get_thread_num()) bad++;
  }
  CHECK_EQ_LONG(bad, 0);
  KITE_TEST_END();
}
