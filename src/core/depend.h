// Task dependences among sibling tasks (the depend clause).
//
// Each parent task with dependent children has a table from address to the
// chain of its live children's depend items on that address, oldest first.
// A new item depends on the newest group of items it conflicts with: for
// out/inout (and mutexinoutset, which is ordered like inout: exclusive, as
// the specification requires, at the cost of a fixed order), that is the
// newest group in the chain; for in and inoutset, the newest group of a
// different kind, skipping the items of its own kind. Older items are
// ordered before that group already.
#pragma once

#include "base.h"

namespace kite {

struct Task;
struct Thread;

enum DepKind : uint8_t { kDepOut = 0, kDepIn = 1, kDepInoutset = 2 };

struct DepRecord {
  void* addr;         // null with kDepOut: omp_all_memory
  Task* task;
  DepRecord* prev;    // older item on the same address
  DepRecord* next;    // newer item
  uint8_t kind;
  bool linked;        // in its chain (not a duplicate of the same task's item)
};

// An edge predecessor -> successor, on the predecessor's list.
struct DepEdge {
  Task* succ;
  DepEdge* next;
};

struct DepTable;

// Number of depend items in a libgomp depend array.
size_t depend_count(void** depend);
// Fills `out` (n items) from the depend array, out-like items first.
void depend_decode(void** depend, DepRecord* out, size_t n);
// Links child `t` into parent's table and adds an edge from each live
// conflicting sibling (incrementing t->rt.npred per edge).
void depend_register(Thread* me, Task* parent, Task* t);
// On completion of `t`: unlinks its items and makes ready every successor
// whose last predecessor it was.
void depend_release(Thread* me, Task* t);
void depend_table_free(Thread* me, DepTable* table);

}  // namespace kite
