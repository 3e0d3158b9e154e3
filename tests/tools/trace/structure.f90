! kite trace: a Fortran program with a known structure (4 parallel
! regions of 3 threads, each with a dynamic do loop of 1000 iterations),
! traced by check_trace.py --fortran. Marks as in structure.c.
program structure
  use omp_lib
  implicit none
  integer :: rep, i
  integer(8) :: total
  total = 0
  do rep = 1, 4
!$omp parallel num_threads(3) reduction(+:total) ! @parallel
!$omp do schedule(dynamic, 10) ! @loop
    do i = 0, 999
      total = total + i
    end do
!$omp end do
!$omp end parallel
  end do
  if (total /= 4_8 * 999_8 * 1000_8 / 2_8) stop 1
  print *, 'done'
end program structure
