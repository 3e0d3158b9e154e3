// The OpenMP 5.1 interop routines (omp_get_interop_*), as LLVM's omp.h
// declares them and libomp exports them. Kite has no devices and no
// foreign runtimes, so the only interop object a program can hold is
// omp_interop_none, which has no property values: the value routines
// report omp_irc_empty (or omp_irc_out_of_range for a property id that is
// not one) and return 0 / NULL, as the specification says. Property names
// and return-code descriptions do not depend on an object.
#include <stdint.h>

#include "abi/kmpc/kmpc.h"

using namespace kite;

namespace {

// omp_interop_property_t: -1 .. -9 are the specification's properties;
// 0 .. omp_get_num_interop_properties()-1 would be Kite's own (none).
constexpr int kIprFirst = -9;
constexpr int kNumOwnProperties = 0;

// omp_interop_rc_t.
constexpr int kIrcNoValue = 1;
constexpr int kIrcSuccess = 0;
constexpr int kIrcEmpty = -1;
constexpr int kIrcOutOfRange = -2;
constexpr int kIrcTypeInt = -3;
constexpr int kIrcTypePtr = -4;
constexpr int kIrcTypeStr = -5;
constexpr int kIrcOther = -6;

bool property_in_range(int id) { return id >= kIprFirst && id < kNumOwnProperties; }

// The specification's property names (omp_ipr_<name>), by -id - 1.
const char* const kPropertyNames[] = {"fr_id",    "fr_name", "vendor", "vendor_name",
                                      "device_num", "platform", "device", "device_context",
                                      "targetsync"};

// Every property of omp_interop_none is missing; an id outside the
// properties is an out-of-range error first.
void no_value(const void* interop, int id, int* ret_code) {
  int rc = kIrcEmpty;
  if (!property_in_range(id)) rc = kIrcOutOfRange;
  else if (interop != nullptr) rc = kIrcOther;  // not an object Kite made
  if (ret_code) *ret_code = rc;
}

int num_properties(const void*) { return kNumOwnProperties; }

intptr_t get_int(const void* interop, int id, int* ret_code) {
  no_value(interop, id, ret_code);
  return 0;
}

void* get_ptr(const void* interop, int id, int* ret_code) {
  no_value(interop, id, ret_code);
  return nullptr;
}

const char* get_str(const void* interop, int id, int* ret_code) {
  no_value(interop, id, ret_code);
  return nullptr;
}

const char* get_name(const void*, int id) {
  if (id < kIprFirst || id >= 0) return nullptr;
  return kPropertyNames[-id - 1];
}

// The type of a property is that of the foreign runtime's value: with
// omp_interop_none there is none to describe.
const char* get_type_desc(const void*, int) { return nullptr; }

const char* get_rc_desc(const void*, int rc) {
  switch (rc) {
    case kIrcNoValue: return "no value is available for the property";
    case kIrcSuccess: return "success";
    case kIrcEmpty: return "the interop object is omp_interop_none";
    case kIrcOutOfRange: return "the property id is out of range";
    case kIrcTypeInt: return "the property value is not convertible to an integer";
    case kIrcTypePtr: return "the property value is not convertible to a pointer";
    case kIrcTypeStr: return "the property value is not convertible to a string";
    case kIrcOther: return "the interop object was not created by this runtime";
    default: return nullptr;
  }
}

}  // namespace

extern "C" {

KITE_EXPORT int omp_get_num_interop_properties(const void* interop) {
  return num_properties(interop);
}

KITE_EXPORT intptr_t omp_get_interop_int(const void* interop, int property_id, int* ret_code) {
  return get_int(interop, property_id, ret_code);
}

KITE_EXPORT void* omp_get_interop_ptr(const void* interop, int property_id, int* ret_code) {
  return get_ptr(interop, property_id, ret_code);
}

KITE_EXPORT const char* omp_get_interop_str(const void* interop, int property_id,
                                            int* ret_code) {
  return get_str(interop, property_id, ret_code);
}

KITE_EXPORT const char* omp_get_interop_name(const void* interop, int property_id) {
  return get_name(interop, property_id);
}

KITE_EXPORT const char* omp_get_interop_type_desc(const void* interop, int property_id) {
  return get_type_desc(interop, property_id);
}

KITE_EXPORT const char* omp_get_interop_rc_desc(const void* interop, int ret_code) {
  return get_rc_desc(interop, ret_code);
}

// --- Fortran: arguments by reference (as libomp exports them) -------------

KITE_EXPORT int omp_get_num_interop_properties_(void* const* interop) {
  return num_properties(*interop);
}

KITE_EXPORT intptr_t omp_get_interop_int_(void* const* interop, const int* property_id,
                                          int* ret_code) {
  return get_int(*interop, *property_id, ret_code);
}

KITE_EXPORT void* omp_get_interop_ptr_(void* const* interop, const int* property_id,
                                       int* ret_code) {
  return get_ptr(*interop, *property_id, ret_code);
}

KITE_EXPORT const char* omp_get_interop_str_(void* const* interop, const int* property_id,
                                             int* ret_code) {
  return get_str(*interop, *property_id, ret_code);
}

KITE_EXPORT const char* omp_get_interop_name_(void* const* interop, const int* property_id) {
  return get_name(*interop, *property_id);
}

KITE_EXPORT const char* omp_get_interop_type_desc_(void* const* interop,
                                                   const int* property_id) {
  return get_type_desc(*interop, *property_id);
}

KITE_EXPORT const char* omp_get_interop_rc_desc_(void* const* interop, const int* ret_code) {
  return get_rc_desc(*interop, *ret_code);
}

}  // extern "C"
