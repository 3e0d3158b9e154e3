! Task-related routines from Fortran: omp_in_final, omp_get_cancellation,
! omp_get_max_task_priority (set by the environment) and omp_fulfill_event
! (event handle passed by VALUE) completing a detached task.
! kite-test-threads: 1 2 4
! kite-test-env: OMP_MAX_TASK_PRIORITY=7 OMP_CANCELLATION=true
program task_queries
  use omp_lib
  implicit none
  integer(omp_event_handle_kind) :: ev
  integer :: errors, body_ran, after
  logical :: final_inside, final_outside

  call kite_test_require_kite()
  errors = 0

  if (omp_get_max_task_priority() /= 7) call fail('omp_get_max_task_priority /= 7')
  if (.not. omp_get_cancellation()) call fail('omp_get_cancellation with OMP_CANCELLATION=true')
  if (omp_in_final()) call fail('omp_in_final outside any task')

  final_inside = .false.
  final_outside = .true.
  !$omp parallel
  !$omp single
  !$omp task final(.true.) shared(final_inside)
  final_inside = omp_in_final()
  !$omp end task
  !$omp task final(.false.) shared(final_outside)
  final_outside = omp_in_final()
  !$omp end task
  !$omp end single
  !$omp end parallel
  if (.not. final_inside) call fail('omp_in_final in a final task')
  if (final_outside) call fail('omp_in_final in a non-final task')

  ! A detached task completes only when its event is fulfilled; the
  ! dependent task runs after that.
  body_ran = 0
  after = 0
  !$omp parallel
  !$omp single
  !$omp task detach(ev) depend(out: body_ran) shared(body_ran)
  body_ran = 1
  !$omp end task
  !$omp task depend(in: body_ran) shared(body_ran, after)
  after = body_ran + 1
  !$omp end task
  call omp_fulfill_event(ev)
  !$omp taskwait
  !$omp end single
  !$omp end parallel
  if (body_ran /= 1) call fail('detached task body did not run')
  if (after /= 2) call fail('task depending on a detached task ran too early or not at all')

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program task_queries
