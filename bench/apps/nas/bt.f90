! bt (Fortran): the shape of NPB BT, as bt.c: ADI time steps for 5 coupled
! fields on an n**3 grid (Dirichlet), each solving in x, y, then z one
! block-tridiagonal system per grid line with 5x5 blocks,
! (I + dt K (-D2) / h**2) v = u, by block elimination with a 5x5 LU
! (partial pivoting) per grid point; one parallel loop (collapse(2),
! static) over the lines of each direction; a dynamic loop over the planes
! sums the energy (a reduction).
! Verified: with u = v (x) a product of sines each direction maps v to
! G v, G = (I + dt lam K)**-1, lam = 4 / h**2 sin**2(pi h / 2); after STEPS
! steps u equals G**(3 STEPS) v (x) the sine mode to 1e-10.
! Usage: bt-f [N [STEPS]]   (default 40 30)
module bt_data
  implicit none
  integer, parameter :: nb = 5
  integer :: n
  real(8), allocatable :: u(:, :, :, :)
  real(8) :: kk(nb, nb), cd
contains
  ! Solves m x = r in place (r holds nr right sides as columns); m overwritten.
  subroutine lu_solve(m, r, nr)
    integer, intent(in) :: nr
    real(8), intent(inout) :: m(nb, nb), r(nb, nr)
    integer :: c, p, rr, q
    real(8) :: t(nb), tr(nr), l, s
    do c = 1, nb
      p = c
      do rr = c + 1, nb
        if (abs(m(rr, c)) > abs(m(p, c))) p = rr
      end do
      if (p /= c) then
        t = m(c, :); m(c, :) = m(p, :); m(p, :) = t
        tr = r(c, :); r(c, :) = r(p, :); r(p, :) = tr
      end if
      do rr = c + 1, nb
        l = m(rr, c) / m(c, c)
        m(rr, c:) = m(rr, c:) - l * m(c, c:)
        r(rr, :) = r(rr, :) - l * r(c, :)
      end do
    end do
    do c = nb, 1, -1
      do q = 1, nr
        s = r(c, q)
        do rr = c + 1, nb
          s = s - m(c, rr) * r(rr, q)
        end do
        r(c, q) = s / m(c, c)
      end do
    end do
  end subroutine

  ! Block Thomas on one line: x(:, r) right sides in, solution out.
  subroutine block_line(x, cp)
    real(8), intent(inout) :: x(nb, n)
    real(8), intent(out) :: cp(nb, nb, n)
    real(8) :: m(nb, nb), rhs(nb, nb + 1)
    integer :: r, a
    do r = 1, n
      m = 2 * cd * kk
      do a = 1, nb
        m(a, a) = m(a, a) + 1
      end do
      rhs(:, 1:nb) = -cd * kk
      rhs(:, nb + 1) = x(:, r)
      if (r > 1) then
        m = m + cd * matmul(kk, cp(:, :, r - 1))
        rhs(:, nb + 1) = rhs(:, nb + 1) + cd * matmul(kk, x(:, r - 1))
      end if
      call lu_solve(m, rhs, nb + 1)
      cp(:, :, r) = rhs(:, 1:nb)
      x(:, r) = rhs(:, nb + 1)
    end do
    do r = n - 1, 1, -1
      x(:, r) = x(:, r) - matmul(cp(:, :, r), x(:, r + 1))
    end do
  end subroutine

  subroutine sweep(dir)
    integer, intent(in) :: dir
    integer :: p, q
    real(8), allocatable :: x(:, :), cp(:, :, :)
    !$omp parallel private(p, q, x, cp)
    allocate (x(nb, n), cp(nb, nb, n))
    !$omp do collapse(2) schedule(static)
    do p = 1, n
      do q = 1, n
        select case (dir)
        case (0)
          x = u(:, :, q, p)
        case (1)
          x = u(:, q, :, p)
        case default
          x = u(:, q, p, :)
        end select
        call block_line(x, cp)
        select case (dir)
        case (0)
          u(:, :, q, p) = x
        case (1)
          u(:, q, :, p) = x
        case default
          u(:, q, p, :) = x
        end select
      end do
    end do
    !$omp end do
    deallocate (x, cp)
    !$omp end parallel
  end subroutine
end module

program bt
  use omp_lib
  use bt_data
  implicit none
  integer :: steps, s, i, j, k, a, b
  real(8) :: h, dt, v(nb), w(nb), lam, t0, secs, energy, err, big, e2, sn, m(nb, nb)
  real(8), parameter :: pi = 3.141592653589793238d0
  character(len=32) :: arg
  logical :: ok
  n = 40; steps = 30
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *, err=9) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *, err=9) steps
  end if
  if (n < 3 .or. n > 500 .or. steps < 1) go to 9
  call app_runtime_report()
  do a = 1, nb
    do b = 1, nb
      if (a == b) then
        kk(a, b) = 2.0d0 + 0.5d0 * (a - 1)
      else
        kk(a, b) = 0.3d0 / (1 + abs(a - b))
      end if
    end do
  end do
  allocate (u(nb, n, n, n))
  h = 1.0d0 / (n + 1); dt = 2d-4; cd = dt / h**2
  v = [1.0d0, -0.5d0, 0.25d0, 0.8d0, -1.2d0]
  do k = 1, n
    do j = 1, n
      do i = 1, n
        u(:, i, j, k) = v * sin(pi * i * h) * sin(pi * j * h) * sin(pi * k * h)
      end do
    end do
  end do
  t0 = omp_get_wtime()
  do s = 1, steps
    call sweep(0)
    call sweep(1)
    call sweep(2)
    energy = 0
    !$omp parallel do schedule(dynamic, 1) reduction(+:energy)
    do k = 1, n
      energy = energy + sum(u(:, :, :, k)**2)
    end do
    !$omp end parallel do
  end do
  secs = omp_get_wtime() - t0
  lam = 4 / h**2 * sin(pi * h / 2)**2
  w = v
  do s = 1, 3 * steps
    m = dt * lam * kk
    do a = 1, nb
      m(a, a) = m(a, a) + 1
    end do
    call lu_solve(m, w, 1)
  end do
  err = 0; big = 0; e2 = 0
  do k = 1, n
    do j = 1, n
      do i = 1, n
        sn = sin(pi * i * h) * sin(pi * j * h) * sin(pi * k * h)
        err = max(err, maxval(abs(u(:, i, j, k) - w * sn)))
        big = max(big, maxval(abs(w * sn)))
        e2 = e2 + sum((w * sn)**2)
      end do
    end do
  end do
  ok = err < 1d-10 * big .and. abs(energy - e2) < 1d-9 * e2
  write (*, '(a,i0,a,i0,a,i0,a,es19.12,a,es19.12,a,es9.2,a,f8.3,a)') 'bt-f: ', n, '^3 x ', nb, ' steps=', steps, &
       ' energy ', energy, ' (expect ', e2, ') error ', err / big, ' time ', secs, ' s'
  if (ok) then
    print '(a)', 'OK'
  else
    print '(a)', 'FAILED'
    stop 1
  end if
  stop
9 write (0, '(a)') 'bt-f: need N in 3..500 and STEPS >= 1'
  stop 2
end program
