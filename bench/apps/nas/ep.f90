! ep (Fortran): the shape of NPB EP, as ep.c: 2**M pairs of uniforms from a
! multiplicative congruential generator mod 2**46 (multiplier 5**13, 23-bit
! halves so no product overflows; each block of pairs starts from its own
! jump-ahead seed), Gaussian pairs by the polar method, counted in square
! annuli (threadprivate counters merged with atomics) and summed (a
! reduction). One parallel region with a dynamic loop.
! Verified as ep.c: the accepted fraction is pi/4, the sums are zero, the
! fraction in annulus 0 is erf(1/sqrt 2)**2, each within 6 standard
! deviations, and the annulus counts add up to the accepted pairs.
! Usage: ep-f [M]   (default 27)
module ep_state
  implicit none
  integer, parameter :: nq = 10
  integer(8) :: q(0:nq-1)
  !$omp threadprivate(q)
  integer(8), parameter :: two23 = 8388608_8, two46 = 70368744177664_8, amul = 1220703125_8
contains
  pure integer(8) function mulmod(a, x)
    integer(8), intent(in) :: a, x
    integer(8) :: a0, a1, x0, x1, t
    a0 = iand(a, two23 - 1); a1 = ishft(a, -23)
    x0 = iand(x, two23 - 1); x1 = ishft(x, -23)
    t = iand(a1 * x0 + a0 * x1, two23 - 1)
    mulmod = iand(t * two23 + a0 * x0, two46 - 1)
  end function
  pure integer(8) function skip(s, k0)
    integer(8), intent(in) :: s, k0
    integer(8) :: a, k
    skip = s; a = amul; k = k0
    do while (k > 0)
      if (iand(k, 1_8) == 1) skip = mulmod(a, skip)
      a = mulmod(a, a)
      k = ishft(k, -1)
    end do
  end function
end module

program ep
  use omp_lib
  use ep_state
  implicit none
  integer, parameter :: blog = 16
  integer :: m, l, i
  integer(8) :: nblocks, per, b, s, ii, total(0:nq-1), acc
  real(8) :: sx, sy, t0, secs, x, y, t, f, gx, gy, n, p, sdp, e1, p0, sd0, frac, frac0
  real(8), parameter :: scale = 1.0d0 / 70368744177664.0d0
  character(len=32) :: arg
  logical :: ok
  m = 27
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *, err=9) m
  end if
  if (m < blog .or. m > 40) go to 9
  call app_runtime_report()
  nblocks = ishft(1_8, m - blog); per = ishft(1_8, blog)
  sx = 0; sy = 0; total = 0
  t0 = omp_get_wtime()
  !$omp parallel private(b, s, ii, x, y, t, f, gx, gy, l, i) reduction(+:sx, sy)
  q = 0
  !$omp do schedule(dynamic, 4)
  do b = 0, nblocks - 1
    s = skip(271828183_8, 2 * b * per)
    do ii = 1, per
      s = mulmod(amul, s); x = 2 * real(s, 8) * scale - 1
      s = mulmod(amul, s); y = 2 * real(s, 8) * scale - 1
      t = x * x + y * y
      if (t <= 1.0d0 .and. t > 0.0d0) then
        f = sqrt(-2.0d0 * log(t) / t); gx = x * f; gy = y * f
        l = min(int(max(abs(gx), abs(gy))), nq - 1)
        q(l) = q(l) + 1
        sx = sx + gx; sy = sy + gy
      end if
    end do
  end do
  !$omp end do
  do i = 0, nq - 1
    !$omp atomic
    total(i) = total(i) + q(i)
  end do
  !$omp end parallel
  secs = omp_get_wtime() - t0
  n = real(nblocks, 8) * per
  acc = sum(total)
  p = acos(-1.0d0) / 4; sdp = sqrt(p * (1 - p) / n)
  e1 = erf(1 / sqrt(2.0d0)); p0 = e1 * e1; sd0 = sqrt(p0 * (1 - p0) / acc)
  frac = acc / n; frac0 = total(0) / real(acc, 8)
  ok = abs(frac - p) < 6 * sdp .and. abs(sx) < 6 * sqrt(real(acc, 8)) .and. abs(sy) < 6 * sqrt(real(acc, 8)) &
       .and. abs(frac0 - p0) < 6 * sd0
  write (*, '(a,i0,a,es12.5,a,i0,a,f9.6,a,f10.3,a,f10.3,a,f9.6,a,f9.6,a,f8.3,a)') 'ep-f: M=', m, ' pairs ', n, &
       ' accepted ', acc, ' (', frac, ') sx ', sx, ' sy ', sy, ' annulus0 ', frac0, ' (expect ', p0, ') time ', secs, ' s'
  if (ok) then
    print '(a)', 'OK'
  else
    print '(a)', 'FAILED'
    stop 1
  end if
  stop
9 write (0, '(a)') 'ep-f: M must be in 16..40'
  stop 2
end program
