! sp (Fortran): the shape of NPB SP, as sp.c: ADI time steps on an n**3
! grid (Dirichlet), each solving in x, y, then z one scalar pentadiagonal
! system per grid line, (I + dt (a (-D2) / h**2 + b D2**2 / h**4)) v = u,
! factored afresh per line; one parallel loop (collapse(2), static) over the
! lines of each direction; a max-norm reduction per step.
! Verified: a product of sines is an eigenvector of every line operator, so
! after STEPS steps u is the sine mode times (1 / (1 + dt (a lam + b lam**2)))
! **(3 STEPS), lam = 4 / h**2 sin**2(pi h / 2), to 1e-10.
! Usage: sp-f [N [STEPS]]   (default 64 100)
module sp_data
  implicit none
  integer :: n
  real(8), allocatable :: u(:, :, :)
  real(8) :: ca, cb
contains
  subroutine penta(x, e, c, d, a, b)
    real(8), intent(inout) :: x(n)
    real(8), intent(out) :: e(n), c(n), d(n), a(n), b(n)
    integer :: i
    real(8) :: l1, l2
    e = cb; c = -ca - 4 * cb; d = 1 + 2 * ca + 6 * cb; a = -ca - 4 * cb; b = cb
    d(1) = d(1) - cb; d(n) = d(n) - cb
    do i = 1, n - 1
      l1 = c(i + 1) / d(i)
      d(i + 1) = d(i + 1) - l1 * a(i)
      a(i + 1) = a(i + 1) - l1 * b(i)
      x(i + 1) = x(i + 1) - l1 * x(i)
      if (i + 2 <= n) then
        l2 = e(i + 2) / d(i)
        c(i + 2) = c(i + 2) - l2 * a(i)
        d(i + 2) = d(i + 2) - l2 * b(i)
        x(i + 2) = x(i + 2) - l2 * x(i)
      end if
    end do
    x(n) = x(n) / d(n)
    x(n - 1) = (x(n - 1) - a(n - 1) * x(n)) / d(n - 1)
    do i = n - 2, 1, -1
      x(i) = (x(i) - a(i) * x(i + 1) - b(i) * x(i + 2)) / d(i)
    end do
  end subroutine

  subroutine sweep(dir)
    integer, intent(in) :: dir
    integer :: p, q
    real(8), allocatable :: x(:), e(:), c(:), d(:), a(:), b(:)
    !$omp parallel private(p, q, x, e, c, d, a, b)
    allocate (x(n), e(n), c(n), d(n), a(n), b(n))
    !$omp do collapse(2) schedule(static)
    do p = 1, n
      do q = 1, n
        select case (dir)
        case (0)
          x = u(:, q, p)
        case (1)
          x = u(q, :, p)
        case default
          x = u(q, p, :)
        end select
        call penta(x, e, c, d, a, b)
        select case (dir)
        case (0)
          u(:, q, p) = x
        case (1)
          u(q, :, p) = x
        case default
          u(q, p, :) = x
        end select
      end do
    end do
    !$omp end do
    deallocate (x, e, c, d, a, b)
    !$omp end parallel
  end subroutine
end module

program sp
  use omp_lib
  use sp_data
  implicit none
  integer :: steps, s, i, j, k
  real(8) :: h, dt, aa, bb, lam, g, t0, secs, mx, factor, err, big, ex
  real(8), parameter :: pi = 3.141592653589793238d0
  character(len=32) :: arg
  logical :: ok
  n = 64; steps = 100
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *, err=9) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *, err=9) steps
  end if
  if (n < 4 .or. n > 1000 .or. steps < 1) go to 9
  call app_runtime_report()
  allocate (u(n, n, n))
  h = 1.0d0 / (n + 1); dt = 1d-3; aa = 1.0d0; bb = 1d-3
  ca = dt * aa / h**2; cb = dt * bb / h**4
  lam = 4 / h**2 * sin(pi * h / 2)**2; g = 1 / (1 + dt * (aa * lam + bb * lam**2))
  do k = 1, n
    do j = 1, n
      do i = 1, n
        u(i, j, k) = sin(pi * i * h) * sin(pi * j * h) * sin(pi * k * h)
      end do
    end do
  end do
  t0 = omp_get_wtime()
  do s = 1, steps
    call sweep(0)
    call sweep(1)
    call sweep(2)
    mx = 0
    !$omp parallel do schedule(static) private(j, i) reduction(max:mx)
    do k = 1, n
      do j = 1, n
        do i = 1, n
          mx = max(mx, abs(u(i, j, k)))
        end do
      end do
    end do
    !$omp end parallel do
  end do
  secs = omp_get_wtime() - t0
  factor = g**(3.0d0 * steps); err = 0; big = 0
  do k = 1, n
    do j = 1, n
      do i = 1, n
        ex = factor * sin(pi * i * h) * sin(pi * j * h) * sin(pi * k * h)
        err = max(err, abs(u(i, j, k) - ex)); big = max(big, abs(ex))
      end do
    end do
  end do
  ok = err < 1d-10 * big .and. abs(mx - big) < 1d-10 * big
  write (*, '(a,i0,a,i0,a,f15.12,a,f15.12,a,es9.2,a,f8.3,a)') 'sp-f: ', n, '^3 steps=', steps, ' max ', mx, &
       ' (expect ', big, ') error ', err / big, ' time ', secs, ' s'
  if (ok) then
    print '(a)', 'OK'
  else
    print '(a)', 'FAILED'
    stop 1
  end if
  stop
9 write (0, '(a)') 'sp-f: need N in 4..1000 and STEPS >= 1'
  stop 2
end program
