! mg (Fortran): the shape of NPB MG, as mg.c: V-cycle multigrid for the
! periodic 3-D Poisson equation on an n**3 grid (7-point stencil, weighted
! Jacobi, full-weighting restriction, trilinear prolongation, down to 2**3),
! every grid operation its own parallel loop (collapse(2), static), so the
! coarse levels are many very short parallel regions; the residual norm is
! a reduction. f is the discrete Laplacian of two Fourier modes.
! Verified: after CYCLES V-cycles the residual has dropped below 1e-6 of its
! start and u equals the known field to 1e-6 of its largest value.
! Usage: mg-f [LOG2_N [CYCLES]]   (default 7 14)
module mg_data
  implicit none
  type grid
    real(8), allocatable :: u(:, :, :), f(:, :, :), r(:, :, :)
  end type
  integer :: levels
  integer :: nl(12)
  type(grid) :: g(12)
contains
  pure integer function w(i, n)
    integer, intent(in) :: i, n
    w = iand(i, n - 1)
  end function

  subroutine residual(l)
    integer, intent(in) :: l
    integer :: n, i, j, k
    real(8) :: h2i, au
    n = nl(l); h2i = real(n, 8)**2
    associate (u => g(l)%u, f => g(l)%f, r => g(l)%r)
      !$omp parallel do collapse(2) schedule(static) private(i, au)
      do k = 0, n - 1
        do j = 0, n - 1
          do i = 0, n - 1
            au = 6 * u(i, j, k) - u(w(i - 1, n), j, k) - u(w(i + 1, n), j, k) - u(i, w(j - 1, n), k) &
                 - u(i, w(j + 1, n), k) - u(i, j, w(k - 1, n)) - u(i, j, w(k + 1, n))
            r(i, j, k) = f(i, j, k) - h2i * au
          end do
        end do
      end do
      !$omp end parallel do
    end associate
  end subroutine

  subroutine smooth(l, sweeps)
    integer, intent(in) :: l, sweeps
    integer :: n, s, i, j, k
    real(8) :: c
    n = nl(l); c = (6.0d0 / 7.0d0) / (6.0d0 * n * n)
    do s = 1, sweeps
      call residual(l)
      associate (u => g(l)%u, r => g(l)%r)
        !$omp parallel do collapse(2) schedule(static) private(i)
        do k = 0, n - 1
          do j = 0, n - 1
            do i = 0, n - 1
              u(i, j, k) = u(i, j, k) + c * r(i, j, k)
            end do
          end do
        end do
        !$omp end parallel do
      end associate
    end do
  end subroutine

  subroutine restrict_to(l)
    integer, intent(in) :: l
    integer :: n, m, i, j, k, a, b, c
    real(8) :: s
    n = nl(l + 1); m = nl(l)
    associate (r => g(l)%r, f => g(l + 1)%f)
      !$omp parallel do collapse(2) schedule(static) private(i, a, b, c, s)
      do k = 0, n - 1
        do j = 0, n - 1
          do i = 0, n - 1
            s = 0
            do c = -1, 1
              do b = -1, 1
                do a = -1, 1
                  s = s + real((2 - abs(a)) * (2 - abs(b)) * (2 - abs(c)), 8) * &
                      r(w(2 * i + a, m), w(2 * j + b, m), w(2 * k + c, m))
                end do
              end do
            end do
            f(i, j, k) = s / 64.0d0
          end do
        end do
      end do
      !$omp end parallel do
    end associate
  end subroutine

  subroutine prolong_add(l)
    integer, intent(in) :: l
    integer :: n, m, i, j, k, a, b, c, i0, j0, k0, di, dj, dk
    real(8) :: s
    n = nl(l); m = nl(l + 1)
    associate (u => g(l)%u, e => g(l + 1)%u)
      !$omp parallel do collapse(2) schedule(static) private(i, a, b, c, s, i0, j0, k0, di, dj, dk)
      do k = 0, n - 1
        do j = 0, n - 1
          do i = 0, n - 1
            i0 = i / 2; j0 = j / 2; k0 = k / 2; di = iand(i, 1); dj = iand(j, 1); dk = iand(k, 1)
            s = 0
            do c = 0, dk
              do b = 0, dj
                do a = 0, di
                  s = s + e(w(i0 + a, m), w(j0 + b, m), w(k0 + c, m))
                end do
              end do
            end do
            u(i, j, k) = u(i, j, k) + s / real((1 + di) * (1 + dj) * (1 + dk), 8)
          end do
        end do
      end do
      !$omp end parallel do
    end associate
  end subroutine

  subroutine zero(l)
    integer, intent(in) :: l
    integer :: k
    !$omp parallel do schedule(static)
    do k = 0, nl(l) - 1
      g(l)%u(:, :, k) = 0
    end do
    !$omp end parallel do
  end subroutine

  recursive subroutine vcycle(l)
    integer, intent(in) :: l
    if (l == levels) then
      call smooth(l, 8)
      return
    end if
    call smooth(l, 2)
    call residual(l)
    call restrict_to(l)
    call zero(l + 1)
    call vcycle(l + 1)
    call prolong_add(l)
    call smooth(l, 2)
  end subroutine

  real(8) function norm(l)
    integer, intent(in) :: l
    integer :: n, j, k
    real(8) :: s
    n = nl(l); s = 0
    !$omp parallel do collapse(2) schedule(static) reduction(+:s)
    do k = 0, n - 1
      do j = 0, n - 1
        s = s + sum(g(l)%r(:, j, k)**2)
      end do
    end do
    !$omp end parallel do
    norm = sqrt(s / real(n, 8)**3)
  end function
end module

program mg
  use omp_lib
  use mg_data
  implicit none
  integer :: lg, cycles, l, n, i, j, k, c
  real(8) :: h, lam1, lam2, x, y, z, m1, m2, t0, secs, r0, rn, err
  real(8), parameter :: pi = 3.141592653589793238d0, big = 1.5d0
  real(8), allocatable :: ustar(:, :, :)
  character(len=32) :: arg
  logical :: ok
  lg = 7; cycles = 14
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *, err=9) lg
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *, err=9) cycles
  end if
  if (lg < 2 .or. lg > 10 .or. cycles < 1) go to 9
  call app_runtime_report()
  levels = lg
  do l = 1, levels
    nl(l) = 2**(lg - l + 1)
    allocate (g(l)%u(0:nl(l) - 1, 0:nl(l) - 1, 0:nl(l) - 1), g(l)%f(0:nl(l) - 1, 0:nl(l) - 1, 0:nl(l) - 1), &
              g(l)%r(0:nl(l) - 1, 0:nl(l) - 1, 0:nl(l) - 1))
    g(l)%u = 0; g(l)%f = 0; g(l)%r = 0
  end do
  n = nl(1); h = 1.0d0 / n
  lam1 = 3 * 4 * real(n, 8)**2 * sin(pi * h)**2
  lam2 = 4 * real(n, 8)**2 * (sin(2 * pi * h)**2 + sin(pi * h)**2)
  allocate (ustar(0:n - 1, 0:n - 1, 0:n - 1))
  do k = 0, n - 1
    do j = 0, n - 1
      do i = 0, n - 1
        x = i * h; y = j * h; z = k * h
        m1 = sin(2 * pi * x) * sin(2 * pi * y) * sin(2 * pi * z); m2 = 0.5d0 * cos(4 * pi * x) * cos(2 * pi * z)
        ustar(i, j, k) = m1 + m2
        g(1)%f(i, j, k) = lam1 * m1 + lam2 * m2
      end do
    end do
  end do
  t0 = omp_get_wtime()
  call residual(1)
  r0 = norm(1); rn = r0
  do c = 1, cycles
    call vcycle(1)
    call residual(1)
    rn = norm(1)
  end do
  secs = omp_get_wtime() - t0
  err = maxval(abs(g(1)%u - ustar))
  ok = rn < 1d-6 * r0 .and. err < 1d-6 * big
  write (*, '(a,i0,a,i0,a,i0,a,es10.3,a,es10.3,a,f6.3,a,es9.2,a,f8.3,a)') 'mg-f: ', n, '^3 levels=', levels, &
       ' cycles=', cycles, ' residual ', r0, ' -> ', rn, ' (factor/cycle ', (rn / r0)**(1.0d0 / cycles), ') error ', &
       err, ' time ', secs, ' s'
  if (ok) then
    print '(a)', 'OK'
  else
    print '(a)', 'FAILED'
    stop 1
  end if
  stop
9 write (0, '(a)') 'mg-f: need LOG2_N in 2..10 and CYCLES >= 1'
  stop 2
end program
