#!/bin/sh
# Runs the drop-in program WITHOUT Kite on the library path. It must start on
# the system libgomp and its Kite check must fail (exit 3, "not running on
# Kite"): proof that the drop-in test's Kite check can fail at all.
# usage: expect_not_kite.sh PROGRAM
prog="$1"
if ! readelf -d "$prog" | grep -q 'NEEDED.*\[libgomp\.so\.1\]'; then
  echo "FAIL: $prog does not need libgomp.so.1"; readelf -d "$prog"; exit 1
fi
if readelf -d "$prog" | grep -Eq 'RPATH|RUNPATH'; then
  echo "FAIL: $prog carries an rpath; it must find libgomp only the normal way"
  readelf -d "$prog" | grep -E 'RPATH|RUNPATH'; exit 1
fi
out=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD "$prog" 2>&1)
rc=$?
echo "$out"
if [ "$rc" -ne 3 ] || ! echo "$out" | grep -q "not running on Kite"; then
  echo "FAIL: expected exit 3 and 'not running on Kite' on the system libgomp, got exit $rc"
  exit 1
fi
echo "PASS: without Kite on the library path the program runs on the system libgomp"
