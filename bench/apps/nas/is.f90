! is (Fortran): the shape of NPB IS, as is.c: N keys in [0, 2**20) drawn as
! sums of four uniforms; each iteration changes two keys and sorts all of
! them by buckets: per-thread bucket counts over a static block (a nowait
! loop), a single computing each thread's place in each bucket, a scatter
! over the same static blocks, then a counting sort of the buckets, one
! explicit task per 16 buckets created from a single.
! Verified: the output is non-decreasing and a permutation of the input
! (histograms equal, sums equal).
! Usage: is-f [LOG2_N [ITERS]]   (default 23 10)
module is_data
  use omp_lib
  implicit none
  integer, parameter :: keylog = 20, bucketlog = 10, nb = 2**bucketlog, maxt = 256, shft = keylog - bucketlog
  integer :: n
  integer, allocatable :: key(:), tmp(:), sorted(:)
  integer(8), allocatable :: cnt(:, :)
  integer(8) :: bstart(0:nb)
contains
  subroutine sort_bucket(b)
    integer, intent(in) :: b
    integer(8) :: c(0:2**shft - 1), pos, i, k
    integer :: lo, v
    lo = ishft(b, shft)
    c = 0
    do i = bstart(b), bstart(b + 1) - 1
      c(tmp(i) - lo) = c(tmp(i) - lo) + 1
    end do
    pos = bstart(b)
    do v = 0, 2**shft - 1
      do k = 1, c(v)
        sorted(pos) = lo + v
        pos = pos + 1
      end do
    end do
  end subroutine

  subroutine one_sort()
    integer :: t, nt, b, u, c, i
    integer(8) :: pos, cc
    !$omp parallel private(t, nt, b, u, i, pos, cc)
    t = omp_get_thread_num(); nt = omp_get_num_threads()
    cnt(:, t) = 0
    !$omp do schedule(static)
    do i = 0, n - 1
      cnt(ishft(key(i), -shft), t) = cnt(ishft(key(i), -shft), t) + 1
    end do
    !$omp end do nowait
    !$omp barrier
    !$omp single
    pos = 0
    do b = 0, nb - 1
      bstart(b) = pos
      do u = 0, nt - 1
        cc = cnt(b, u)
        cnt(b, u) = pos
        pos = pos + cc
      end do
    end do
    bstart(nb) = pos
    !$omp end single
    !$omp do schedule(static)
    do i = 0, n - 1
      tmp(cnt(ishft(key(i), -shft), t)) = key(i)
      cnt(ishft(key(i), -shft), t) = cnt(ishft(key(i), -shft), t) + 1
    end do
    !$omp end do
    !$omp single
    do b = 0, nb - 1, 16
      !$omp task firstprivate(b) private(c)
      do c = b, b + 15
        call sort_bucket(c)
      end do
      !$omp end task
    end do
    !$omp taskwait
    !$omp end single
    !$omp end parallel
  end subroutine
end module

program is
  use omp_lib
  use is_data
  implicit none
  integer :: lg, iters, it, i, j, k
  integer(8) :: s, s1, s2
  integer(8), allocatable :: h1(:)
  real(8) :: t0, secs
  character(len=32) :: arg
  logical :: ok
  lg = 23; iters = 10
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *, err=9) lg
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *, err=9) iters
  end if
  if (lg < 12 .or. lg > 30 .or. iters < 1) go to 9
  call app_runtime_report()
  if (omp_get_max_threads() > maxt) then
    write (0, '(a,i0,a)') 'is-f: at most ', maxt, ' threads'
    stop 2
  end if
  n = 2**lg
  allocate (key(0:n - 1), tmp(0:n - 1), sorted(0:n - 1), cnt(0:nb - 1, 0:maxt - 1))
  s = 314159265_8
  do i = 0, n - 1
    k = 0
    do j = 1, 4
      s = ieor(s, ishft(s, 13)); s = ieor(s, ishft(s, -7)); s = ieor(s, ishft(s, 17))
      k = k + int(ishft(s, -(64 - keylog + 2)))
    end do
    key(i) = k
  end do
  t0 = omp_get_wtime()
  do it = 1, iters
    key(it) = it
    key(it + iters) = 2**keylog - it
    call one_sort()
  end do
  secs = omp_get_wtime() - t0
  allocate (h1(0:2**keylog - 1))
  h1 = 0; s1 = 0; s2 = 0; ok = .true.
  do i = 0, n - 1
    h1(key(i)) = h1(key(i)) + 1
    s1 = s1 + key(i); s2 = s2 + sorted(i)
    if (i > 0) then
      if (sorted(i) < sorted(i - 1)) ok = .false.
    end if
  end do
  do i = 0, n - 1
    if (sorted(i) < 0 .or. sorted(i) >= 2**keylog) then
      ok = .false.
    else
      h1(sorted(i)) = h1(sorted(i)) - 1
      if (h1(sorted(i)) < 0) ok = .false.
    end if
  end do
  ok = ok .and. s1 == s2
  write (*, '(a,i0,a,i0,a,i0,a,i0,a,i0,a,f8.3,a)') 'is-f: n=2^', lg, ' iters=', iters, ' min ', sorted(0), &
       ' median ', sorted(n / 2), ' max ', sorted(n - 1), ' time ', secs, ' s'
  if (ok) then
    print '(a)', 'OK'
  else
    print '(a)', 'FAILED'
    stop 1
  end if
  stop
9 write (0, '(a)') 'is-f: need LOG2_N in 12..30 and ITERS >= 1'
  stop 2
end program
