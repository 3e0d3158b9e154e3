/* Compares Kite's omp.h with gcc 12's: this unit sees gcc's header, the
 * layout_kite*.c units see Kite's, and all evaluate layout_facts.h. Then
 * checks that every routine Kite's header declares exists in Kite. */
#include "kite_test.h"

#include <stddef.h>
#include "layout_facts.h"

#ifdef __KITE_OMP_NOTHROW
#error "layout_main.c must see gcc's omp.h, not Kite's"
#endif

#define KITE_FACT_VALUE(x) (unsigned long long)(x),
#define KITE_FACT_TEXT(x) #x,
static const unsigned long long gcc_facts[] = {KITE_OMP_H_FACTS(KITE_FACT_VALUE)};
static const char* const fact_text[] = {KITE_OMP_H_FACTS(KITE_FACT_TEXT)};
#define NFACTS (sizeof gcc_facts / sizeof gcc_facts[0])

extern const unsigned long long kite_omp_h_facts_kite_c[NFACTS];
extern const unsigned long long kite_omp_h_facts_kite_cxx[NFACTS];

typedef void (*kite_any_fn)(void);
extern const kite_any_fn kite_omp_h_functions[];
extern const char* const kite_omp_h_function_names[];
extern const size_t kite_omp_h_function_count;

int main(void) {
  KITE_TEST_BEGIN();
  for (size_t i = 0; i < NFACTS; ++i) {
    if (kite_omp_h_facts_kite_c[i] != gcc_facts[i]) {
      fprintf(stderr, "C: %s is %llu with Kite's omp.h, %llu with gcc's\n", fact_text[i],
              kite_omp_h_facts_kite_c[i], gcc_facts[i]);
      CHECK(0);
    }
    if (kite_omp_h_facts_kite_cxx[i] != gcc_facts[i]) {
      fprintf(stderr, "C++: %s is %llu with Kite's omp.h, %llu with gcc's\n", fact_text[i],
              kite_omp_h_facts_kite_cxx[i], gcc_facts[i]);
      CHECK(0);
    }
  }
  CHECK(NFACTS > 50);
  for (size_t i = 0; i < kite_omp_h_function_count; ++i) {
    if (!kite_omp_h_functions[i]) {
      fprintf(stderr, "omp.h declares %s but Kite does not define it\n",
              kite_omp_h_function_names[i]);
      CHECK(0);
    }
  }
  KITE_TEST_END();
}
