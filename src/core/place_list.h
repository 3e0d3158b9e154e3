// A list of places: each place a sorted set of processor ids. Plain malloc'd
// arrays (the runtime links no C++ library); copies are shallow, release()
// frees. The OMP_PLACES grammar is parsed by place_list_parse.
#pragma once

#include <stddef.h>

#include "base.h"

namespace kite {

struct IntBuf {
  int* v = nullptr;
  int n = 0;
  int cap = 0;
  void push(int x);
  bool contains(int x) const;
  void release();
};

struct PlaceList {
  int count = 0;          // closed places
  int* first = nullptr;   // first[p]: index in procs of place p; first[count] = nprocs
  int* procs = nullptr;   // processor ids, place after place
  int nprocs = 0;
  int cap_places = 0;
  int cap_procs = 0;

  // Adds a processor to the place being built (duplicates ignored).
  void add_proc(int cpu);
  // Closes the place being built; an empty one is dropped.
  void end_place();
  // Keeps the first n places.
  void truncate(int n);
  // Removes the first place equal to the one being built (which is then
  // discarded); false when no place is equal.
  bool remove_open_place_from_list();
  void discard_open_place();
  void release();
  // "{0:2},{5}"; returns the length needed, like snprintf.
  size_t format(char* buf, size_t cap) const;
};

// The process's place list once final (places.cpp; places_count() makes it
// final). Read by the runtime through places.h, and by the OMPD library
// from outside the process.
extern PlaceList g_place_list;

// Parses an explicit OMP_PLACES list ("{0,1},{2:2}", "{0:4}:2:4", "!{1}").
bool place_list_parse(const char* s, PlaceList& out, const char** why);

}  // namespace kite
