! lu (Fortran): the shape of NPB LU, as lu.c: SSOR iterations (omega 1.8)
! for -lap u = f on an n**3 grid (Dirichlet, 7-point stencil), a forward
! and a backward Gauss-Seidel sweep pipelined over the k planes, then a
! residual norm (a reduction).
!   flush mode: one parallel region; each thread owns a block of j rows and
!     at plane k spins with `!$omp flush` on a one-slot mailbox until its
!     predecessor posted plane k, takes the post, sweeps, and posts to its
!     successor once that one took the previous post (NPB LU's scheme:
!     neighbours in lock step).
!   doacross mode: `!$omp do ordered(2) schedule(static, 1)` over (k, j) per
!     sweep, each row waiting with `ordered depend(sink: ...)`.
! Verified: the first iteration equals a serial SSOR iteration from the
! same start (1e-13), and the residual falls below half its start.
! Usage: lu-f [N [ITERS [flush|doacross]]]   (default 96 60 flush)
module lu_data
  implicit none
  integer, parameter :: maxt = 256
  integer :: n
  real(8), allocatable :: u(:, :, :), f(:, :, :)
  real(8) :: h2, omega = 1.8d0
  integer :: fwd(16, 0:maxt - 1) = 0, bwd(16, 0:maxt - 1) = 0
contains
  subroutine row_fwd(j, k)
    integer, intent(in) :: j, k
    integer :: i
    real(8) :: nb, gs
    do i = 1, n
      nb = u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) + u(i, j, k - 1) + u(i, j, k + 1)
      gs = (nb + h2 * f(i, j, k)) / 6.0d0
      u(i, j, k) = u(i, j, k) + omega * (gs - u(i, j, k))
    end do
  end subroutine
  subroutine row_bwd(j, k)
    integer, intent(in) :: j, k
    integer :: i
    real(8) :: nb, gs
    do i = n, 1, -1
      nb = u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) + u(i, j, k - 1) + u(i, j, k + 1)
      gs = (nb + h2 * f(i, j, k)) / 6.0d0
      u(i, j, k) = u(i, j, k) + omega * (gs - u(i, j, k))
    end do
  end subroutine

  real(8) function resid_norm()
    integer :: i, j, k
    real(8) :: s, au
    s = 0
    !$omp parallel do collapse(2) schedule(static) private(i, au) reduction(+:s)
    do k = 1, n
      do j = 1, n
        do i = 1, n
          au = (6 * u(i, j, k) - u(i - 1, j, k) - u(i + 1, j, k) - u(i, j - 1, k) - u(i, j + 1, k) &
                - u(i, j, k - 1) - u(i, j, k + 1)) / h2
          s = s + (f(i, j, k) - au)**2
        end do
      end do
    end do
    !$omp end parallel do
    resid_norm = sqrt(s / real(n, 8)**3)
  end function

  ! Waits (flushing) until f == want, then stores next: one slot of a
  ! two-way hand-off between neighbours.
  subroutine take_slot(f, want, nxt)
    integer, intent(inout) :: f
    integer, intent(in) :: want, nxt
    do
      !$omp flush
      if (f == want) exit
    end do
    f = nxt
    !$omp flush
  end subroutine

  ! One-slot mailboxes between neighbours, per direction (NPB LU's shape):
  ! neither thread runs more than one plane ahead of the other.
  subroutine run_flush(iters, snap)
    use omp_lib
    integer, intent(in) :: iters
    real(8), intent(out) :: snap(0:, 0:, 0:)
    integer :: t, nt, j0, j1, it, k, j
    !$omp parallel private(t, nt, j0, j1, it, k, j)
    t = omp_get_thread_num(); nt = omp_get_num_threads()
    j0 = 1 + int(int(n, 8) * t / nt); j1 = int(int(n, 8) * (t + 1) / nt)
    do it = 1, iters
      do k = 1, n
        if (t > 0) call take_slot(fwd(1, t - 1), 1, 0)
        do j = j0, j1
          call row_fwd(j, k)
        end do
        if (t < nt - 1) call take_slot(fwd(1, t), 0, 1)
      end do
      do k = n, 1, -1
        if (t < nt - 1) call take_slot(bwd(1, t + 1), 1, 0)
        do j = j1, j0, -1
          call row_bwd(j, k)
        end do
        if (t > 0) call take_slot(bwd(1, t), 0, 1)
      end do
      !$omp barrier
      if (it == 1) then
        !$omp single
        snap = u
        !$omp end single
      end if
    end do
    !$omp end parallel
  end subroutine

  subroutine run_doacross(iters, snap)
    integer, intent(in) :: iters
    real(8), intent(out) :: snap(0:, 0:, 0:)
    integer :: it, k, j
    do it = 1, iters
      !$omp parallel private(k, j)
      !$omp do ordered(2) schedule(static, 1)
      do k = 1, n
        do j = 1, n
          !$omp ordered depend(sink: k - 1, j) depend(sink: k, j - 1)
          call row_fwd(j, k)
          !$omp ordered depend(source)
        end do
      end do
      !$omp end do
      !$omp do ordered(2) schedule(static, 1)
      do k = n, 1, -1
        do j = n, 1, -1
          !$omp ordered depend(sink: k + 1, j) depend(sink: k, j + 1)
          call row_bwd(j, k)
          !$omp ordered depend(source)
        end do
      end do
      !$omp end do
      !$omp end parallel
      if (it == 1) snap = u
    end do
  end subroutine
end module

program lu
  use omp_lib
  use lu_data
  implicit none
  integer :: iters, i, j, k
  real(8) :: hh, lam, r0, rn, t0, secs, diff, big
  real(8), parameter :: pi = 3.141592653589793238d0
  real(8), allocatable :: snap(:, :, :), par(:, :, :)
  character(len=32) :: arg, mode
  logical :: ok, doacross
  n = 96; iters = 60; mode = 'flush'
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *, err=9) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *, err=9) iters
  end if
  if (command_argument_count() >= 3) call get_command_argument(3, mode)
  doacross = mode == 'doacross'
  if (n < 4 .or. n > 1000 .or. iters < 2 .or. (.not. doacross .and. mode /= 'flush')) go to 9
  call app_runtime_report()
  if (omp_get_max_threads() > maxt) then
    write (0, '(a,i0,a)') 'lu-f: at most ', maxt, ' threads'
    stop 2
  end if
  allocate (u(0:n + 1, 0:n + 1, 0:n + 1), f(0:n + 1, 0:n + 1, 0:n + 1), snap(0:n + 1, 0:n + 1, 0:n + 1))
  u = 0; f = 0
  hh = 1.0d0 / (n + 1); h2 = hh * hh
  lam = 3 * 4 / h2 * sin(pi * hh / 2)**2
  do k = 1, n
    do j = 1, n
      do i = 1, n
        f(i, j, k) = lam * sin(pi * i * hh) * sin(pi * j * hh) * sin(pi * k * hh)
      end do
    end do
  end do
  r0 = resid_norm()
  t0 = omp_get_wtime()
  if (doacross) then
    call run_doacross(iters, snap)
  else
    call run_flush(iters, snap)
  end if
  rn = resid_norm()
  secs = omp_get_wtime() - t0
  ! serial first iteration from the same start
  call move_alloc(u, par)
  allocate (u(0:n + 1, 0:n + 1, 0:n + 1))
  u = 0
  do k = 1, n
    do j = 1, n
      call row_fwd(j, k)
    end do
  end do
  do k = n, 1, -1
    do j = n, 1, -1
      call row_bwd(j, k)
    end do
  end do
  diff = maxval(abs(snap - u)); big = maxval(abs(u))
  ok = diff <= 1d-13 * big .and. rn < 0.5d0 * r0 .and. rn == rn
  write (*, '(a,i0,a,i0,a,a,a,es11.4,a,es11.4,a,es9.2,a,f8.3,a)') 'lu-f: ', n, '^3 iters=', iters, ' mode=', &
       trim(mode), ' residual ', r0, ' -> ', rn, ' first-iteration diff ', diff, ' time ', secs, ' s'
  if (ok) then
    print '(a)', 'OK'
  else
    print '(a)', 'FAILED'
    stop 1
  end if
  stop
9 write (0, '(a)') 'lu-f: need N in 4..1000, ITERS >= 2, mode flush or doacross'
  stop 2
end program
