#!/bin/sh
# The front doors:  ./run.sh demo,  ./run.sh demo-mpi  and  ./run.sh test
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
  demo-mpi)
    "$here/scripts/setup.sh"
    echo "== the bundled hybrid example (examples/demo-mpi.c), built with Open MPI's mpicc"
    echo "== -fopenmp -g, 2 ranks x 2 threads on Kite, each rank under its own kite:"
    echo "== mpirun -np 2 kite trace -- kite-demo-mpi"
    if [ "$(id -u)" -eq 0 ]; then  # Open MPI refuses root unless told twice
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    fi
    rm -rf "$build/demo-mpi-trace"  # the demo's own directory, replaced on each run
    OMP_NUM_THREADS=2 mpirun.openmpi --oversubscribe -np 2 \
      "$build/kite" trace -o "$build/demo-mpi-trace" -- "$build/examples/kite-demo-mpi"
    echo "== the trace: $build/demo-mpi-trace (trace.perfetto-trace: one process per rank;"
    echo "== trace.otf2/traces.otf2: otf2-print, Vampir)"
    ;;
  test)
    "$here/scripts/setup.sh"
    cd "$build"
    ctest -j"$(nproc)" --output-on-failure --timeout 300
    ;;
  *)
    echo "usage: ./run.sh demo | demo-mpi | test" >&2
    exit 2
    ;;
esac
