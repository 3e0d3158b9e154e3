// Combined parallel + loop (and parallel + sections): every thread of the
// new team enters the loop construct before running the outlined function,
// which therefore starts with "next" and ends with the nowait loop end.
#include "loop.h"
#include "ompt/events_ws.h"

namespace kite {

namespace {

struct Combined {
  void (*fn)(void*);
  void* data;
  LoopSpec loop;
  int kind;
  unsigned long long chunk;
};

// Each thread's part of the construct begins here, for tools too; the
// construct's return address is the combined call's (LoopSpec::codeptr_ra).
void enter(Thread* t, const Combined& c) {
  // A parallel sections construct hands out one section per chunk.
  WorkShare* ws = loop_enter(t, c.loop, c.kind, c.chunk, nullptr, nullptr,
                             c.loop.work != ompt_work_sections);
  ompt::on_work_begin(t, c.loop.work ? c.loop.work : ompt::loop_work_type(c.kind),
                      ws->total, c.loop.codeptr_ra);
}

void combined_task(void* arg) {
  const Combined* c = static_cast<const Combined*>(arg);
  enter(self(), *c);
  c->fn(c->data);
}

// Split form: the primary returns to the caller right away, so a worker
// must not touch the arguments after announcing that it has entered.
void combined_task_split(void* arg) {
  const Combined* c = static_cast<const Combined*>(arg);
  void (*fn)(void*) = c->fn;
  void* data = c->data;
  Thread* t = self();
  enter(t, *c);
  t->ws_cur->entered.add_and_wake(1);
  fn(data);
}

Combined make(Thread* t, void (*fn)(void*), void* data, const LoopSpec& loop) {
  Combined c{fn, data, loop, 0, 0};
  // run-sched-var is the encountering task's, read before the fork.
  loop_resolve_schedule(t, loop.sched, loop.chunk, &c.kind, &c.chunk);
  return c;
}

}  // namespace

void parallel_loop(const ForkSpec& fork, void (*fn)(void*), void* data, const LoopSpec& loop) {
  Combined c = make(self(), fn, data, loop);
  parallel(fork, combined_task, &c);
}

void parallel_loop_start(const ForkSpec& fork, void (*fn)(void*), void* data,
                         const LoopSpec& loop) {
  Thread* t = self();
  Combined c = make(t, fn, data, loop);
  parallel_start(fork, combined_task_split, &c);
  enter(t, c);
  WorkShare* ws = t->ws_cur;
  const uint32_t others = static_cast<uint32_t>(t->team->nthreads - 1);
  wait_until(ws->entered, [&] { return ws->entered.load() >= others; });
}

}  // namespace kite
