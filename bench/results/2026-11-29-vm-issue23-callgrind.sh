#!/bin/bash
# callgrind instructions per construct instance (1 thread): (Ir(4000) - Ir(2000)) / 2000
cd /tmp/cgr
cons=$(/work/main/bench/build/ompbench --list | python3 -c "import sys,json; print(' '.join(json.loads(l)['construct'] for l in sys.stdin if not json.loads(l)['construct'].startswith('sched_')))")
T=${T:-1}
for c in $cons; do
  for v in kite kite-empty omp omp-empty; do
    env=(OMP_NUM_THREADS=$T)
    case $v in
      kite*) env+=(LD_LIBRARY_PATH=/work/main/build/gomp);;
      omp*) env+=(LD_PRELOAD=/usr/lib/llvm-14/lib/libomp.so.5);;
    esac
    case $v in *-empty) env+=(OMP_TOOL_LIBRARIES=/work/main/bench/build/libbench_empty_tool.so);; esac
    irs=()
    for n in 2000 4000; do
      env "${env[@]}" valgrind --tool=callgrind --callgrind-out-file=/tmp/cgr/o.$c.$v.$n /work/main/bench/build/ompbench --threads $T --constructs $c --once $n >/dev/null 2>&1
      irs+=($(grep -m1 "^summary:\|^totals:" /tmp/cgr/o.$c.$v.$n | awk '{print $2}'))
    done
    echo "$c $v $(( (${irs[1]} - ${irs[0]}) / 2000 ))"
  done
done
