! omp_set_schedule / omp_get_schedule, and that runtime-scheduled loops
! follow them.
program schedule
  use omp_lib
  implicit none
  integer(omp_sched_kind) :: kind
  integer :: chunk, i, errors
  integer :: hits(1000)

  call kite_test_require_kite()
  errors = 0

  call omp_set_schedule(omp_sched_static, 7)
  call omp_get_schedule(kind, chunk)
  if (kind /= omp_sched_static .or. chunk /= 7) call fail('static,7 round trip')

  call omp_set_schedule(omp_sched_dynamic, 3)
  call omp_get_schedule(kind, chunk)
  if (kind /= omp_sched_dynamic .or. chunk /= 3) call fail('dynamic,3 round trip')

  call omp_set_schedule(omp_sched_guided, 5)
  call omp_get_schedule(kind, chunk)
  if (kind /= omp_sched_guided .or. chunk /= 5) call fail('guided,5 round trip')

  call omp_set_schedule(omp_sched_auto, 0)
  call omp_get_schedule(kind, chunk)
  if (kind /= omp_sched_auto) call fail('auto round trip')

  ! A chunk below 1 asks for the kind's default chunk, which is positive
  ! for dynamic.
  call omp_set_schedule(omp_sched_dynamic, 0)
  call omp_get_schedule(kind, chunk)
  if (kind /= omp_sched_dynamic .or. chunk < 1) call fail('dynamic,0 gives a default chunk')

  ! schedule(runtime) loops cover every iteration exactly once.
  call omp_set_schedule(omp_sched_dynamic, 4)
  hits = 0
  !$omp parallel do schedule(runtime)
  do i = 1, size(hits)
    hits(i) = hits(i) + 1
  end do
  !$omp end parallel do
  if (any(hits /= 1)) call fail('schedule(runtime) with dynamic,4 misses or repeats iterations')

  call omp_set_schedule(omp_sched_guided, 2)
  hits = 0
  !$omp parallel do schedule(runtime)
  do i = 1, size(hits)
    hits(i) = hits(i) + 1
  end do
  !$omp end parallel do
  if (any(hits /= 1)) call fail('schedule(runtime) with guided,2 misses or repeats iterations')

  ! Each task has its own copy of run-sched-var: a change inside a region
  ! does not leak out of it.
  call omp_set_schedule(omp_sched_static, 11)
  !$omp parallel
  call omp_set_schedule(omp_sched_dynamic, 1)
  !$omp end parallel
  call omp_get_schedule(kind, chunk)
  if (kind /= omp_sched_static .or. chunk /= 11) call fail('schedule set in a region leaked out')

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program schedule
