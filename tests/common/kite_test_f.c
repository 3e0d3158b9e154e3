/* Fortran side of the test support: `call kite_test_require_kite()` proves
 * the program runs on Kite, like KITE_TEST_BEGIN() in C. */
#include "kite_test.h"

void kite_test_require_kite_(void) { kite_test_require_kite(); }
