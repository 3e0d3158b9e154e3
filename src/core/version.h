// The OpenMP version Kite states, in one place: the omp_version every tool
// receives in ompt_start_tool, the _OPENMP line of OMP_DISPLAY_ENV and
// OMPD's ompd_get_omp_version. (omp_lib's openmp_version parameter, in
// include/, repeats it; the tests of each check the same number.)
//
// It is 202111, OpenMP 5.2: the tools interface Kite dispatches is 5.2's
// (include/omp-tools.h), and omp_version is how a tool tells which one it
// talks to: "This value identifies the OpenMP API version that an OpenMP
// implementation supports, which specifies the version of the OMPT
// interface that it supports" (ompt_start_tool, 5.2 §19.2.1). The compiler's own
// _OPENMP (201511 for gcc 12) describes the directives it translates, not
// the runtime: a tool that checks for OMPT (which first appeared in 5.0,
// 201811) before attaching would refuse a runtime announcing 4.5.
#pragma once

namespace kite {
constexpr unsigned kOpenmpVersion = 202111;
}  // namespace kite
