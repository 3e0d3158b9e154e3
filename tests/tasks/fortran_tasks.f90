! kite-test-threads: 1 2 4 8
! Tasks from Fortran: recursive tasks with taskwait, depend chains,
! taskgroup, taskloop with grainsize and num_tasks, omp_in_final, detach
! with omp_fulfill_event, and task reductions.
module fib_mod
contains
  recursive integer function fib(n) result(r)
    integer, intent(in) :: n
    integer :: a, b
    if (n < 2) then
      r = n
      return
    end if
    !$omp task shared(a) firstprivate(n)
    a = fib(n - 1)
    !$omp end task
    !$omp task shared(b) firstprivate(n)
    b = fib(n - 2)
    !$omp end task
    !$omp taskwait
    r = a + b
  end function fib
end module fib_mod

program fortran_tasks
  use omp_lib
  use fib_mod
  implicit none
  integer :: r, i, x, order_ok, cnt, fin, seen
  integer(omp_event_handle_kind) :: ev
  integer :: hits(1000)
  integer(8) :: s
  call kite_test_require_kite()

  r = 0
  !$omp parallel
  !$omp single
  r = fib(18)
  !$omp end single
  !$omp end parallel
  if (r /= 2584) stop 1

  ! A chain of inout tasks runs in creation order.
  x = 0
  order_ok = 1
  !$omp parallel
  !$omp single
  do i = 1, 200
    !$omp task depend(inout: x) firstprivate(i) shared(x, order_ok)
    if (x /= i - 1) order_ok = 0
    x = i
    !$omp end task
  end do
  !$omp end single
  !$omp end parallel
  if (order_ok /= 1 .or. x /= 200) stop 2

  ! taskgroup waits for descendants too.
  cnt = 0
  !$omp parallel
  !$omp single
  !$omp taskgroup
  do i = 1, 50
    !$omp task shared(cnt)
    !$omp atomic
    cnt = cnt + 1
    !$omp task shared(cnt)
    !$omp atomic
    cnt = cnt + 1
    !$omp end task
    !$omp end task
  end do
  !$omp end taskgroup
  if (cnt /= 100) stop 3
  !$omp end single
  !$omp end parallel

  hits = 0
  !$omp parallel
  !$omp single
  !$omp taskloop grainsize(37) shared(hits)
  do i = 1, 1000
    hits(i) = hits(i) + 1
  end do
  !$omp end taskloop
  !$omp taskloop num_tasks(9) shared(hits)
  do i = 1000, 1, -1
    hits(i) = hits(i) + 1
  end do
  !$omp end taskloop
  !$omp end single
  !$omp end parallel
  if (any(hits /= 2)) stop 4

  fin = -1
  !$omp parallel
  !$omp single
  !$omp task final(.true.) shared(fin)
  if (omp_in_final()) then
    fin = 1
  else
    fin = 0
  end if
  !$omp end task
  !$omp end single
  !$omp end parallel
  if (fin /= 1) stop 5

  ! A detached task completes when its event is fulfilled by another task.
  x = 0
  seen = -1
  !$omp parallel
  !$omp single
  !$omp task detach(ev) depend(out: x) shared(x)
  x = 7
  !$omp end task
  !$omp task depend(in: x) shared(x, seen)
  seen = x
  !$omp end task
  !$omp task firstprivate(ev)
  call omp_fulfill_event(ev)
  !$omp end task
  !$omp end single
  !$omp end parallel
  if (seen /= 7) stop 7

  s = 0
  !$omp parallel
  !$omp single
  !$omp taskgroup task_reduction(+: s)
  do i = 1, 100
    !$omp task in_reduction(+: s) firstprivate(i)
    s = s + i
    !$omp end task
  end do
  !$omp end taskgroup
  !$omp end single
  !$omp end parallel
  if (s /= 5050) stop 6
  print *, 'PASS'
end program fortran_tasks
