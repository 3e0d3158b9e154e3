#!/bin/sh
# The two front doors:  ./run.sh demo   and   ./run.sh test
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${KITE_BUILD_DIR:-$here/build}
export KITE_BUILD_DIR="$build"

case "${1:-}" in
  demo)
    "$here/scripts/setup.sh"
    echo "== the bundled example (examples/demo.c), built with gcc -fopenmp -g against"
    echo "== the system libgomp, run on Kite and traced: kite trace -- kite-demo"
    # The demo's own directory, replaced on each run.
    "$build/kite" trace --force -o "$build/demo-trace" -- "$build/examples/kite-demo"
    ;;
  test)
    "$here/scripts/setup.sh"
    cd "$build"
    ctest -j"$(nproc)" --output-on-failure --timeout 300
    ;;
  *)
    echo "usage: ./run.sh demo | test" >&2
    exit 2
    ;;
esac
