! omp_display_env with a LOGICAL verbose argument: the banner, the ICVs,
! and the implementation-defined extras only when verbose.
! kite-test-threads: 1
! kite-test-expect-stderr: OPENMP DISPLAY ENVIRONMENT BEGIN.*OMP_NUM_THREADS.*OPENMP DISPLAY ENVIRONMENT END.*OPENMP DISPLAY ENVIRONMENT BEGIN.*KITE_SPIN_US.*OPENMP DISPLAY ENVIRONMENT END.*DISPLAY-ENV-TEST-PASSED
program display_env
  use omp_lib
  implicit none

  call kite_test_require_kite()
  call omp_display_env(.false.)
  call omp_display_env(.true.)
  ! The expected-output regex ignores the exit status, so success is also
  ! announced in the output, last.
  print '(a)', 'DISPLAY-ENV-TEST-PASSED'
end program display_env
