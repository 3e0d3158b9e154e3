#!/bin/sh
# Every Fortran entry point of libgomp (omp_*_ and omp_*_8_) must be
# exported by Kite under the same version node.
# Usage: check_fortran_exports.sh current|compat KITE_LIBRARY LIBGOMP_LIBRARY
#   current: the default versions (objdump shows VERSION)
#   compat:  the compatibility versions (objdump shows (VERSION))
set -eu
which=$1
kite=$2
gomp=$3
if [ ! -e "$gomp" ]; then
  echo "SKIP: $gomp not found"
  exit 77
fi
tmp=${TMPDIR:-/tmp}/kite-fortran-exports.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
# objdump -T lines end in "VERSION NAME"; compat versions are parenthesized.
fortran_names() {
  objdump -T "$1" | awk -v which="$which" '
    $NF ~ /^omp_[a-z0-9_]*_$/ {
      compat = ($(NF-1) ~ /^\(/)
      if ((which == "compat") == compat) print $NF, $(NF-1)
    }' | sort -u
}
fortran_names "$gomp" > "$tmp/gomp"
fortran_names "$kite" > "$tmp/kite"
n=$(wc -l < "$tmp/gomp")
min=50
[ "$which" = compat ] && min=10
if [ "$n" -lt "$min" ]; then
  echo "FAIL: only $n $which Fortran names found in $gomp; objdump output not understood"
  exit 1
fi
missing=$(comm -23 "$tmp/gomp" "$tmp/kite")
if [ -n "$missing" ]; then
  echo "FAIL: $which Fortran entry points libgomp exports and Kite does not (name version):"
  echo "$missing"
  exit 1
fi
echo "PASS: all $n $which Fortran entry points of libgomp are exported by Kite, same versions"
