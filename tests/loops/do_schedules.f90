! kite-test-threads: 1 2 4 8
! !$omp do with every schedule kind (upward, downward, strided, integer(8)
! bounds beyond 32 bits), ordered loops whose ordered regions must run in
! iteration order, sections, single with copyprivate, and a doacross loop.
program do_schedules
  use omp_lib
  implicit none
  integer, parameter :: n = 500
  integer :: hits(n), order(n), i, j, pos, k, c, x
  integer(8) :: i8, big
  integer :: a(0:40, 0:40)
  logical :: ok

  call kite_test_require_kite()
  c = 7
  do k = 1, 9
    hits = 0
    !$omp parallel private(i)
    select case (k)
    case (1)
      !$omp do schedule(static)
      do i = 1, n
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    case (2)
      !$omp do schedule(static, c)
      do i = n, 1, -1
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    case (3)
      !$omp do schedule(dynamic)
      do i = 1, n
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    case (4)
      !$omp do schedule(dynamic, c)
      do i = n, 1, -1
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    case (5)
      !$omp do schedule(guided)
      do i = 1, n
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    case (6)
      !$omp do schedule(guided, c)
      do i = 1, n
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    case (7)
      !$omp do schedule(runtime)
      do i = 1, n
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    case (8)
      !$omp do schedule(auto)
      do i = 1, n
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    case default
      !$omp do schedule(nonmonotonic: dynamic, 3)
      do i = 1, n
        !$omp atomic
        hits(i) = hits(i) + 1
      end do
    end select
    !$omp end parallel
    if (any(hits /= 1)) then
      print *, 'schedule case', k, 'ran iterations', count(hits /= 1), 'times wrong'
      stop 1
    end if
  end do

  ! integer(8) iteration space beyond 2**32, stride 2**20 (4096 iterations).
  big = 2_8**33
  hits = 0
  !$omp parallel do schedule(dynamic, 5)
  do i8 = big, big + 2_8**20 * (n - 1), 2_8**20
    !$omp atomic
    hits(int((i8 - big) / 2_8**20) + 1) = hits(int((i8 - big) / 2_8**20) + 1) + 1
  end do
  !$omp end parallel do
  if (any(hits /= 1)) stop 2

  ! ordered: every schedule records the iteration order.
  do k = 1, 3
    pos = 0
    !$omp parallel private(i)
    if (k == 1) then
      !$omp do ordered schedule(static)
      do i = 1, n
        !$omp ordered
        pos = pos + 1
        order(pos) = i
        !$omp end ordered
      end do
    else if (k == 2) then
      !$omp do ordered schedule(dynamic, 3)
      do i = 1, n
        !$omp ordered
        pos = pos + 1
        order(pos) = i
        !$omp end ordered
      end do
    else
      !$omp do ordered schedule(guided)
      do i = 1, n
        !$omp ordered
        pos = pos + 1
        order(pos) = i
        !$omp end ordered
      end do
    end if
    !$omp end parallel
    if (pos /= n) stop 3
    do i = 1, n
      if (order(i) /= i) stop 4
    end do
  end do

  ! sections and single copyprivate.
  hits = 0
  !$omp parallel private(x)
  !$omp sections
  !$omp section
  hits(1) = hits(1) + 1
  !$omp section
  hits(2) = hits(2) + 1
  !$omp section
  hits(3) = hits(3) + 1
  !$omp end sections
  !$omp single
  x = 99
  !$omp end single copyprivate(x)
  if (x /= 99) then
    !$omp atomic
    hits(4) = hits(4) + 1
  end if
  !$omp end parallel
  if (any(hits(1:3) /= 1) .or. hits(4) /= 0) stop 5

  ! doacross wavefront.
  a = 1
  !$omp parallel do ordered(2) schedule(static, 1)
  do i = 1, 40
    do j = 1, 40
      !$omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
      a(i, j) = mod(a(i - 1, j) + a(i, j - 1), 1000003)
      !$omp ordered depend(source)
    end do
  end do
  !$omp end parallel do
  ok = .true.
  do i = 1, 40
    do j = 1, 40
      if (a(i, j) /= mod(a(i - 1, j) + a(i, j - 1), 1000003)) ok = .false.
    end do
  end do
  if (.not. ok) stop 6
  print *, 'PASS'
end program do_schedules
