! cg (Fortran): the shape of NPB CG, as cg.c: a random sparse symmetric
! positive definite matrix (CSR), an inverse power method whose every outer
! iteration solves A z = x by 25 conjugate-gradient steps inside one
! parallel region: the matrix-vector product (dynamic schedule), dot
! products (reductions into shared variables reset in a single), vector
! updates (static, one nowait).
! Verified: the last solve's residual |x - A z| / |x|, recomputed serially,
! agrees with the CG recurrence's (1e-10) and is below 1e-6, and zeta has
! converged (1e-8 relative).
! Usage: cg-f [N [OUTER]]   (default 30000 40)
module cg_data
  implicit none
  integer, parameter :: nzr = 7, cgsteps = 25
  real(8), parameter :: shift = 10.0d0
  integer :: n
  integer, allocatable :: rowp(:), col(:)
  real(8), allocatable :: val(:), x(:), z(:), r(:), p(:), q(:)
  real(8) :: rho, pq, rnew, zz, xz, rlast
  integer(8) :: rng = 88172645463325252_8
contains
  integer(8) function nextr()
    rng = ieor(rng, ishft(rng, 13))
    rng = ieor(rng, ishft(rng, -7))
    rng = ieor(rng, ishft(rng, 17))
    nextr = ishft(rng, -1)
  end function
  real(8) function unif()
    unif = real(ishft(nextr(), -10), 8) / 9007199254740992.0d0
  end function

  subroutine make_matrix()
    integer :: m, e, i, j
    integer, allocatable :: ei(:), ej(:), cnt(:)
    real(8), allocatable :: ev(:), diag(:)
    m = n * nzr
    allocate (ei(m), ej(m), ev(m), cnt(n), diag(n))
    cnt = 0; diag = 0
    do e = 1, m
      ei(e) = (e - 1) / nzr + 1
      ej(e) = int(mod(nextr(), int(n, 8))) + 1
      if (ej(e) == ei(e)) ej(e) = mod(ej(e), n) + 1
      ev(e) = unif()
      cnt(ei(e)) = cnt(ei(e)) + 1; cnt(ej(e)) = cnt(ej(e)) + 1
    end do
    allocate (rowp(n + 1))
    rowp(1) = 1
    do i = 1, n
      rowp(i + 1) = rowp(i) + cnt(i) + 1
    end do
    allocate (col(rowp(n + 1) - 1), val(rowp(n + 1) - 1))
    do i = 1, n
      cnt(i) = rowp(i) + 1
    end do
    do e = 1, m
      i = ei(e); j = ej(e)
      col(cnt(i)) = j; val(cnt(i)) = -ev(e); cnt(i) = cnt(i) + 1
      col(cnt(j)) = i; val(cnt(j)) = -ev(e); cnt(j) = cnt(j) + 1
      diag(i) = diag(i) + ev(e); diag(j) = diag(j) + ev(e)
    end do
    do i = 1, n
      col(rowp(i)) = i
      val(rowp(i)) = diag(i) + 1.0d0 + 2.0d0 * unif()
    end do
  end subroutine

  subroutine solve()
    integer :: i, k, it
    real(8) :: s, alpha, beta
    !$omp parallel private(i, k, it, s, alpha, beta)
    !$omp do schedule(static)
    do i = 1, n
      z(i) = 0; r(i) = x(i); p(i) = x(i)
    end do
    !$omp end do
    !$omp single
    rho = 0; pq = 0; rnew = 0
    !$omp end single
    !$omp do schedule(static) reduction(+:rho)
    do i = 1, n
      rho = rho + r(i) * r(i)
    end do
    !$omp end do
    do it = 1, cgsteps
      !$omp do schedule(dynamic, 256)
      do i = 1, n
        s = 0
        do k = rowp(i), rowp(i + 1) - 1
          s = s + val(k) * p(col(k))
        end do
        q(i) = s
      end do
      !$omp end do
      !$omp do schedule(static) reduction(+:pq)
      do i = 1, n
        pq = pq + p(i) * q(i)
      end do
      !$omp end do
      alpha = rho / pq
      !$omp do schedule(static)
      do i = 1, n
        z(i) = z(i) + alpha * p(i)
      end do
      !$omp end do nowait
      !$omp do schedule(static) reduction(+:rnew)
      do i = 1, n
        r(i) = r(i) - alpha * q(i)
        rnew = rnew + r(i) * r(i)
      end do
      !$omp end do
      beta = rnew / rho
      !$omp do schedule(static)
      do i = 1, n
        p(i) = r(i) + beta * p(i)
      end do
      !$omp end do
      !$omp single
      rho = rnew; rnew = 0; pq = 0
      !$omp end single
    end do
    !$omp single
    rlast = rho; zz = 0; xz = 0
    !$omp end single
    !$omp do schedule(static) reduction(+:zz, xz)
    do i = 1, n
      zz = zz + z(i) * z(i)
      xz = xz + x(i) * z(i)
    end do
    !$omp end do
    !$omp end parallel
  end subroutine
end module

program cg
  use omp_lib
  use cg_data
  implicit none
  integer :: outer, o, i, k
  real(8) :: t0, secs, zeta, zeta_prev, inv, res, nx, s, rec, dz
  real(8), allocatable :: xs(:)
  character(len=32) :: arg
  logical :: ok
  n = 30000; outer = 40
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *, err=9) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *, err=9) outer
  end if
  if (n < 100 .or. outer < 2) go to 9
  call app_runtime_report()
  call make_matrix()
  allocate (x(n), z(n), r(n), p(n), q(n), xs(n))
  x = 1
  zeta = 0; zeta_prev = 0
  t0 = omp_get_wtime()
  do o = 1, outer
    xs = x
    call solve()
    zeta_prev = zeta
    zeta = shift + 1 / xz
    inv = 1 / sqrt(zz)
    !$omp parallel do schedule(static)
    do i = 1, n
      x(i) = z(i) * inv
    end do
    !$omp end parallel do
  end do
  secs = omp_get_wtime() - t0
  res = 0; nx = 0
  do i = 1, n
    s = 0
    do k = rowp(i), rowp(i + 1) - 1
      s = s + val(k) * z(col(k))
    end do
    res = res + (xs(i) - s)**2; nx = nx + xs(i)**2
  end do
  rec = sqrt(rlast / nx); res = sqrt(res / nx)
  dz = abs(zeta - zeta_prev) / abs(zeta)
  ok = res < 1d-6 .and. abs(res - rec) < 1d-10 .and. dz < 1d-8 .and. zeta == zeta
  write (*, '(a,i0,a,i0,a,i0,a,f16.12,a,es9.2,a,es10.3,a,es10.3,a,f8.3,a)') 'cg-f: n=', n, ' nnz=', rowp(n + 1) - 1, &
       ' outer=', outer, ' zeta ', zeta, ' (change ', dz, ') residual ', res, ' (recurrence ', rec, ') time ', secs, ' s'
  if (ok) then
    print '(a)', 'OK'
  else
    print '(a)', 'FAILED'
    stop 1
  end if
  stop
9 write (0, '(a)') 'cg-f: need N >= 100 and OUTER >= 2'
  stop 2
end program
