! The error directive from Fortran: gfortran passes the message length (no
! terminating NUL), so exactly the message must be printed.
! kite-test-threads: 1
! kite-test-expect-stderr: error directive encountered: from Fortran. PASS
program error_directive
  use omp_lib
  implicit none
  integer :: after
  call kite_test_require_kite()
  after = 0
  !$omp error at(execution) severity(warning) message("from Fortran")
  after = 1
  if (after /= 1) stop 1
  print *, 'PASS'
end program error_directive
