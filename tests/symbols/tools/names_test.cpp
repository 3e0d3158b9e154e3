// The naming rule of the tools' outputs (tools/common/symbols.h), on
// symbols as gcc, g++, clang 14, clang 19 and gfortran spell them (read off
// real binaries with nm): every case must give the user's function, without
// parameters, and say whether the symbol was an outlined OpenMP body.
#include <cstdio>
#include <string>

#include "symbols.h"

using kite_trace::display_name;
using kite_trace::full_signature;
using kite_trace::strip_parameters;

static int failures = 0;

static void expect(const std::string &got, const std::string &want, const std::string &what) {
  bool ok = got == want;
  printf("%s: %s -> \"%s\"%s\n", ok ? "ok" : "FAIL", what.c_str(), got.c_str(),
         ok ? "" : (" (expected \"" + want + "\")").c_str());
  if (!ok) failures++;
}

static void name(const char *symbol, const char *want, bool want_outlined) {
  bool outlined = !want_outlined;
  std::string got = display_name(symbol, &outlined);
  expect(got, want, symbol);
  if (outlined != want_outlined) {
    printf("FAIL: %s is %san outlined body\n", symbol, want_outlined ? "" : "not ");
    failures++;
  }
}

int main() {
  // g++: outlined bodies carry their function's mangled name.
  name("_ZN7physics5scaleIdEET_RSt6vectorIS1_SaIS1_EES1_._omp_fn.0", "physics::scale<double>", true);
  name("_ZZ4mainENKUliE_clEi._omp_fn.0", "main::{lambda(int)#1}::operator()", true);
  name("_ZL6helperdi._omp_fn.0", "helper", true);
  name("_Z28CalcHourglassControlForElemsR6DomainPdd._omp_fn.0", "CalcHourglassControlForElems", true);
  name("_Z4workPi._omp_cpyfn.1", "work", true);
  // gcc (C) and gfortran.
  name("main._omp_fn.3", "main", true);
  name("__physics_MOD_relax._omp_fn.0", "physics::relax", true);
  name("__physics_MOD_relax", "physics::relax", false);
  name("MAIN__", "MAIN__", false);
  // clang 14: the name says nothing of the function (the symbolizer finds it).
  name(".omp_outlined.", "", true);
  name(".omp_outlined..4", "", true);
  name(".omp_outlined._debug__.2", "", true);
  name(".omp_task_entry..9", "", true);
  // clang 16 and later.
  name("_ZN7physics5scaleIdEET_RSt6vectorIS1_SaIS1_EES1_.omp_outlined", "physics::scale<double>", true);
  name("_ZZ4mainENK3$_0clEi.omp_outlined_debug__", "main::$_0::operator()", true);
  name("main.omp_outlined_debug__.omp.reduction.reduction_func", "main", true);
  // Plain functions, clones, operators, scopes.
  name("main", "main", false);
  name("compute.part.0", "compute", false);
  name("_Z3fooi.constprop.0", "foo", false);
  name("_ZlsRSoRK1A", "operator<<", false);
  name("_ZNK1AltERKS_", "A::operator<", false);
  name("_ZN1AcviEv", "A::operator int", false);
  name("_ZN1AnwEm", "A::operator new", false);
  name("_ZN12_GLOBAL__N_14workEv", "(anonymous namespace)::work", false);
  name("_Z5applyPFviEi", "apply", false);
  expect(strip_parameters("CalcHourglassControlForElems(Domain&, double*, double) [clone ._omp_fn.0]"),
         "CalcHourglassControlForElems", "strip_parameters of a gcc clone");
  expect(strip_parameters("std::vector<int, std::allocator<int> > make<int>(unsigned long) &&"),
         "make<int>", "strip_parameters of a template returning a template");
  // The full signature, for JSON and hovers: with parameters, no clone tag.
  expect(full_signature("_ZL6helperdi._omp_fn.0"), "helper(double, int)", "full_signature g++ outlined");
  expect(full_signature("_ZZ4mainENK3$_0clEi.omp_outlined"), "main::$_0::operator()(int) const",
         "full_signature clang 19 outlined");
  expect(full_signature("main._omp_fn.0"), "", "full_signature of a C name");
  printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
