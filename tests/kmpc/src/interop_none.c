// The OpenMP 5.1 interop routines for omp_interop_none, the only interop
// object a program can have on Kite: no implementation-defined properties,
// every value missing (omp_irc_empty, 0/NULL), ids outside the properties
// out of range, names per the specification, no type descriptions.
#include <omp.h>
#include <string.h>

#include "kite_test.h"

extern int omp_get_num_interop_properties_(omp_interop_t*);
extern omp_intptr_t omp_get_interop_int_(omp_interop_t*, int*, int*);
extern const char* omp_get_interop_name_(omp_interop_t*, int*);

int main(void) {
  KITE_TEST_BEGIN();
  omp_interop_t none = omp_interop_none;
  CHECK(omp_get_num_interop_properties(none) == 0);
  for (int id = omp_ipr_first; id < 0; ++id) {
    int rc = 12345;
    CHECK(omp_get_interop_int(none, (omp_interop_property_t)id, &rc) == 0);
    CHECK(rc == omp_irc_empty);
    rc = 12345;
    CHECK(omp_get_interop_ptr(none, (omp_interop_property_t)id, &rc) == NULL);
    CHECK(rc == omp_irc_empty);
    rc = 12345;
    CHECK(omp_get_interop_str(none, (omp_interop_property_t)id, &rc) == NULL);
    CHECK(rc == omp_irc_empty);
    CHECK(omp_get_interop_type_desc(none, (omp_interop_property_t)id) == NULL);
    CHECK(omp_get_interop_name(none, (omp_interop_property_t)id) != NULL);
  }
  // A null ret_code is allowed.
  CHECK(omp_get_interop_int(none, omp_ipr_device_num, NULL) == 0);
  int rc = 0;
  CHECK(omp_get_interop_int(none, (omp_interop_property_t)(omp_ipr_first - 1), &rc) == 0);
  CHECK(rc == omp_irc_out_of_range);
  CHECK(omp_get_interop_ptr(none, (omp_interop_property_t)0, &rc) == NULL);
  CHECK(rc == omp_irc_out_of_range);
  CHECK(strcmp(omp_get_interop_name(none, omp_ipr_fr_id), "fr_id") == 0);
  CHECK(strcmp(omp_get_interop_name(none, omp_ipr_device_num), "device_num") == 0);
  CHECK(strcmp(omp_get_interop_name(none, omp_ipr_targetsync), "targetsync") == 0);
  CHECK(omp_get_interop_name(none, (omp_interop_property_t)0) == NULL);
  CHECK(omp_get_interop_name(none, (omp_interop_property_t)-10) == NULL);
  CHECK(omp_get_interop_rc_desc(none, omp_irc_empty) != NULL);
  CHECK(omp_get_interop_rc_desc(none, omp_irc_success) != NULL);
  CHECK(omp_get_interop_rc_desc(none, (omp_interop_rc_t)77) == NULL);
  // Fortran forms.
  CHECK(omp_get_num_interop_properties_(&none) == 0);
  int id = omp_ipr_vendor;
  rc = 5;
  CHECK(omp_get_interop_int_(&none, &id, &rc) == 0);
  CHECK(rc == omp_irc_empty);
  CHECK(strcmp(omp_get_interop_name_(&none, &id), "vendor") == 0);
  KITE_TEST_END();
}
