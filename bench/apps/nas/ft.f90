! ft (Fortran): the shape of NPB FT, as ft.c: a 3-D complex field, one
! forward 3-D FFT (radix-2 transforms of every line, one worksharing loop
! over the lines of each dimension, collapse(2)), then per time step a
! damping of the spectrum by exp(-4 pi**2 alpha |k|**2 t), an inverse
! transform and a checksum (a reduction). The line buffer is threadprivate.
! Verified: Parseval after the forward transform (1e-12), and at the last
! step 16 points of the inverse transform against the inverse DFT summed
! directly (serially, 1e-10 of the largest value).
! Usage: ft-f [LOG2_NX LOG2_NY LOG2_NZ [STEPS]]   (default 7 7 6 12)
module ft_data
  implicit none
  integer :: nx, ny, nz
  complex(8), allocatable :: u0(:, :, :), u1(:, :, :), u2(:, :, :)
  complex(8), allocatable :: line(:)
  !$omp threadprivate(line)
  real(8), parameter :: pi = 3.141592653589793238d0, alpha = 1d-6
contains
  subroutine fft1(a, n, sgn)
    integer, intent(in) :: n, sgn
    complex(8), intent(inout) :: a(0:n - 1)
    integer :: i, j, bit, len, k, st
    complex(8) :: t, w, wl, x, y
    j = 0
    do i = 1, n - 1
      bit = ishft(n, -1)
      do while (iand(j, bit) /= 0)
        j = ieor(j, bit); bit = ishft(bit, -1)
      end do
      j = ieor(j, bit)
      if (i < j) then
        t = a(i); a(i) = a(j); a(j) = t
      end if
    end do
    len = 2
    do while (len <= n)
      wl = cmplx(cos(sgn * 2 * pi / len), sin(sgn * 2 * pi / len), 8)
      do st = 0, n - 1, len
        w = 1
        do k = 0, len / 2 - 1
          x = a(st + k); y = a(st + k + len / 2) * w
          a(st + k) = x + y; a(st + k + len / 2) = x - y
          w = w * wl
        end do
      end do
      len = len * 2
    end do
  end subroutine

  subroutine fft3(a, sgn)
    complex(8), intent(inout) :: a(0:, 0:, 0:)
    integer, intent(in) :: sgn
    integer :: i, j, k
    !$omp parallel private(i, j, k)
    if (.not. allocated(line)) allocate (line(0:max(nx, ny, nz) - 1))
    if (size(line) < max(nx, ny, nz)) then
      deallocate (line); allocate (line(0:max(nx, ny, nz) - 1))
    end if
    !$omp do collapse(2) schedule(static)
    do k = 0, nz - 1
      do j = 0, ny - 1
        call fft1(a(:, j, k), nx, sgn)
      end do
    end do
    !$omp end do
    !$omp do collapse(2) schedule(static)
    do k = 0, nz - 1
      do i = 0, nx - 1
        line(0:ny - 1) = a(i, :, k)
        call fft1(line, ny, sgn)
        a(i, :, k) = line(0:ny - 1)
      end do
    end do
    !$omp end do
    !$omp do collapse(2) schedule(static)
    do j = 0, ny - 1
      do i = 0, nx - 1
        line(0:nz - 1) = a(i, j, :)
        call fft1(line, nz, sgn)
        a(i, j, :) = line(0:nz - 1)
      end do
    end do
    !$omp end do
    !$omp end parallel
  end subroutine

  integer function freq(i, n)
    integer, intent(in) :: i, n
    freq = i
    if (i >= n / 2) freq = i - n
  end function
end module

program ft
  use omp_lib
  use ft_data
  implicit none
  integer :: lx, ly, lz, steps, i, j, k, t, qq, smp, pi_, pj, pk, fi, fj, fk
  integer(8) :: s, nn, p
  real(8) :: re, im, t0, secs, e0, e1, sr, si, k2, worst, big, d
  complex(8) :: acc, inner
  complex(8), allocatable :: wz(:), wy(:), wx(:)
  character(len=32) :: arg
  logical :: ok
  lx = 7; ly = 7; lz = 6; steps = 12
  if (command_argument_count() >= 3) then
    call get_command_argument(1, arg); read (arg, *, err=9) lx
    call get_command_argument(2, arg); read (arg, *, err=9) ly
    call get_command_argument(3, arg); read (arg, *, err=9) lz
  end if
  if (command_argument_count() >= 4) then
    call get_command_argument(4, arg); read (arg, *, err=9) steps
  end if
  if (min(lx, ly, lz) < 2 .or. max(lx, ly, lz) > 10 .or. steps < 1) go to 9
  call app_runtime_report()
  nx = 2**lx; ny = 2**ly; nz = 2**lz; nn = int(nx, 8) * ny * nz
  allocate (u0(0:nx - 1, 0:ny - 1, 0:nz - 1), u1(0:nx - 1, 0:ny - 1, 0:nz - 1), u2(0:nx - 1, 0:ny - 1, 0:nz - 1))
  s = 271828_8
  do k = 0, nz - 1
    do j = 0, ny - 1
      do i = 0, nx - 1
        s = ieor(s, ishft(s, 13)); s = ieor(s, ishft(s, -7)); s = ieor(s, ishft(s, 17))
        re = real(ishft(s, -11), 8) / 9007199254740992.0d0
        s = ieor(s, ishft(s, 13)); s = ieor(s, ishft(s, -7)); s = ieor(s, ishft(s, 17))
        im = real(ishft(s, -11), 8) / 9007199254740992.0d0
        u0(i, j, k) = cmplx(re, im, 8)
      end do
    end do
  end do
  t0 = omp_get_wtime()
  e0 = 0; e1 = 0
  !$omp parallel do collapse(2) schedule(static) reduction(+:e0)
  do k = 0, nz - 1
    do j = 0, ny - 1
      u1(:, j, k) = u0(:, j, k)
      e0 = e0 + sum(real(u0(:, j, k) * conjg(u0(:, j, k)), 8))
    end do
  end do
  !$omp end parallel do
  call fft3(u1, -1)
  !$omp parallel do collapse(2) schedule(static) reduction(+:e1)
  do k = 0, nz - 1
    do j = 0, ny - 1
      e1 = e1 + sum(real(u1(:, j, k) * conjg(u1(:, j, k)), 8))
    end do
  end do
  !$omp end parallel do
  e1 = e1 / nn
  do t = 1, steps
    !$omp parallel private(fi, fj, fk, k2, i)
    !$omp do collapse(2) schedule(static)
    do k = 0, nz - 1
      do j = 0, ny - 1
        fk = freq(k, nz); fj = freq(j, ny)
        do i = 0, nx - 1
          fi = freq(i, nx)
          k2 = real(fi, 8)**2 + real(fj, 8)**2 + real(fk, 8)**2
          u2(i, j, k) = u1(i, j, k) * exp(-4 * pi * pi * alpha * k2 * t)
        end do
      end do
    end do
    !$omp end do
    !$omp end parallel
    call fft3(u2, +1)
    sr = 0; si = 0
    !$omp parallel do schedule(static) private(p) reduction(+:sr, si)
    do qq = 0, 1023
      p = mod(int(qq, 8) * 2654435761_8, nn)
      sr = sr + real(u2(mod(p, int(nx, 8)), mod(p / nx, int(ny, 8)), p / (int(nx, 8) * ny)), 8) / nn
      si = si + aimag(u2(mod(p, int(nx, 8)), mod(p / nx, int(ny, 8)), p / (int(nx, 8) * ny))) / nn
    end do
    !$omp end parallel do
  end do
  secs = omp_get_wtime() - t0
  ok = abs(e1 - e0) < 1d-12 * e0
  big = maxval(abs(u2)) / nn
  worst = 0
  allocate (wz(0:nz - 1), wy(0:ny - 1), wx(0:nx - 1))
  do smp = 0, 15
    p = mod(int(smp, 8) * 40503_8 * 7919_8, nn)
    pi_ = int(mod(p, int(nx, 8))); pj = int(mod(p / nx, int(ny, 8))); pk = int(p / (int(nx, 8) * ny))
    do k = 0, nz - 1
      wz(k) = exp(cmplx(0, 2 * pi * k * pk / real(nz, 8), 8))
    end do
    do j = 0, ny - 1
      wy(j) = exp(cmplx(0, 2 * pi * j * pj / real(ny, 8), 8))
    end do
    do i = 0, nx - 1
      wx(i) = exp(cmplx(0, 2 * pi * i * pi_ / real(nx, 8), 8))
    end do
    acc = 0
    do k = 0, nz - 1
      do j = 0, ny - 1
        fk = freq(k, nz); fj = freq(j, ny)
        inner = 0
        do i = 0, nx - 1
          fi = freq(i, nx)
          k2 = real(fi, 8)**2 + real(fj, 8)**2 + real(fk, 8)**2
          inner = inner + u1(i, j, k) * exp(-4 * pi * pi * alpha * k2 * steps) * wx(i)
        end do
        acc = acc + inner * wy(j) * wz(k)
      end do
    end do
    d = abs(acc / nn - u2(pi_, pj, pk) / nn)
    worst = max(worst, d)
  end do
  ok = ok .and. worst < 1d-10 * big .and. sr == sr
  write (*, '(a,i0,a,i0,a,i0,a,i0,a,es17.10,1x,es17.10,a,es9.2,a,es9.2,a,f8.3,a)') 'ft-f: ', nx, 'x', ny, 'x', nz, &
       ' steps=', steps, ' checksum ', sr, si, ' parseval ', abs(e1 - e0) / e0, ' direct-DFT error ', worst / big, &
       ' time ', secs, ' s'
  if (ok) then
    print '(a)', 'OK'
  else
    print '(a)', 'FAILED'
    stop 1
  end if
  stop
9 write (0, '(a)') 'ft-f: each LOG2 size in 2..10, STEPS >= 1'
  stop 2
end program
