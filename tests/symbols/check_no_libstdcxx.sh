#!/bin/sh
# libkite.so is loaded into C and Fortran programs: it must not pull in the
# C++ standard library (directly or through a dependency).
# usage: check_no_libstdcxx.sh LIBRARY
lib="$1"
deps=$(ldd "$lib") || { echo "FAIL: ldd $lib failed"; exit 1; }
echo "$deps"
if echo "$deps" | grep -q 'libstdc++'; then
  echo "FAIL: $lib depends on libstdc++"; exit 1
fi
if echo "$deps" | grep -q 'not found'; then
  echo "FAIL: $lib has unresolved dependencies"; exit 1
fi
if objdump -T "$lib" | grep -Eq 'GLIBCXX_|CXXABI_'; then
  echo "FAIL: $lib references C++ runtime symbols:"
  objdump -T "$lib" | grep -E 'GLIBCXX_|CXXABI_'; exit 1
fi
echo "PASS: no libstdc++"
