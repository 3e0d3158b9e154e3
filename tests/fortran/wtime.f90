! omp_get_wtime / omp_get_wtick through the Fortran entry points.
! kite-test-threads: 1 2
program wtime
  use omp_lib
  implicit none
  double precision :: t0, t1, tick, x
  integer :: i, errors

  call kite_test_require_kite()
  errors = 0

  tick = omp_get_wtick()
  if (.not. (tick > 0.0d0 .and. tick < 1.0d0)) call fail('omp_get_wtick not in (0, 1)')

  t0 = omp_get_wtime()
  x = 0.0d0
  do i = 1, 100000
    x = x + sqrt(dble(i))
  end do
  t1 = omp_get_wtime()
  if (t0 <= 0.0d0) call fail('omp_get_wtime not positive')
  if (t1 < t0) call fail('omp_get_wtime went backwards')
  if (x <= 0.0d0) call fail('loop result')

  ! Every thread reads the same clock: no thread sees time before t1.
  !$omp parallel reduction(+:errors)
  if (omp_get_wtime() < t1) errors = errors + 1
  !$omp end parallel
  if (errors /= 0) write (0, '(a)') 'FAIL: a thread read a time before the serial one'

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program wtime
