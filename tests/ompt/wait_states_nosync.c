/* wait_states.c with a tool that registers no sync-region callback (as
 * kite profile): barriers then keep their bookkeeping on an inline path
 * that calls nothing (callbacks.h, barrier_hooked), and a sampler must
 * still read every wait state from its signal handler.
 * kite-test-threads: 2
 * kite-test-timeout: 120 */
#define RECORDER_NO_SYNC
#include "wait_states.c"
