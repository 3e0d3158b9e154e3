! kite-test-threads: 1 2 4
! A Fortran program's parallel regions: team size from num_threads, thread
! numbers, a reduction, a barrier between phases, firstprivate, and the
! nesting level, through the omp_lib module.
program parallel_fortran
  use omp_lib
  implicit none
  integer :: team, total, r, me, phase_ok, fp, wrong
  integer :: marks(0:3)

  call kite_test_require_kite()
  call omp_set_dynamic(.false.)

  do r = 1, 200
    team = -1
    total = 0
    marks = 0
    phase_ok = 0
!$omp parallel num_threads(4) private(me) reduction(+:total)
    me = omp_get_thread_num()
    if (me == 0) team = omp_get_num_threads()
    marks(me) = r
    total = total + me + 1
!$omp barrier
    ! Every thread sees every mark of this round after the barrier.
    if (all(marks == r)) total = total + 100
!$omp end parallel
    if (team /= 4) then
      print *, 'round', r, ': team of', team, 'instead of 4'
      stop 1
    end if
    if (total /= 10 + 400) then
      print *, 'round', r, ': reduction gave', total, 'instead of 410'
      stop 1
    end if
  end do

  fp = 7
  wrong = 0
!$omp parallel num_threads(3) firstprivate(fp) reduction(+:wrong)
  if (fp /= 7) wrong = wrong + 1
  fp = omp_get_thread_num()
!$omp barrier
  if (fp /= omp_get_thread_num()) wrong = wrong + 1
  if (omp_get_level() /= 1 .or. .not. omp_in_parallel()) wrong = wrong + 1
!$omp end parallel
  if (wrong /= 0 .or. fp /= 7) then
    print *, 'firstprivate/level checks failed:', wrong, fp
    stop 1
  end if

  ! nthreads-var set from Fortran drives the next default-sized region.
  call omp_set_num_threads(3)
  team = -1
!$omp parallel
  if (omp_get_thread_num() == 0) team = omp_get_num_threads()
!$omp end parallel
  if (team /= 3) then
    print *, 'default team after omp_set_num_threads(3):', team
    stop 1
  end if
  print *, 'PASS'
end program parallel_fortran
