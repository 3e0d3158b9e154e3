! The affinity-format routines with Fortran CHARACTER arguments: hidden
! lengths, blank padding, truncation, zero-length formats.
! kite-test-threads: 1 2
program affinity_format
  use omp_lib
  implicit none
  character(len=40) :: buf
  character(len=4) :: small
  character(len=64) :: cap
  character(len=64), allocatable :: per_thread(:)
  integer :: n, errors, i, nt
  character(len=8) :: expect

  call kite_test_require_kite()
  errors = 0

  call omp_set_affinity_format('T%n/%N')
  buf = 'garbage garbage garbage'
  n = omp_get_affinity_format(buf)
  if (n /= 6) call fail('omp_get_affinity_format length /= 6')
  if (buf /= 'T%n/%N') call fail('omp_get_affinity_format text differs')
  if (buf(7:) /= ' ') call fail('omp_get_affinity_format did not blank-pad')

  ! A short buffer receives a truncated copy; the full length is returned.
  small = 'zzzz'
  n = omp_get_affinity_format(small)
  if (n /= 6) call fail('truncated omp_get_affinity_format length /= 6')
  if (small /= 'T%n/') call fail('truncated omp_get_affinity_format text differs')

  ! capture with an explicit format.
  cap = 'x'
  n = omp_capture_affinity(cap, 'thread=%0.3n of %N')
  if (n /= len_trim(cap)) call fail('omp_capture_affinity length /= text length')
  if (cap /= 'thread=000 of 1') call fail('omp_capture_affinity explicit format')

  ! A zero-length format means the affinity-format ICV.
  cap = 'x'
  n = omp_capture_affinity(cap, '')
  if (cap /= 'T0/1') call fail('omp_capture_affinity with empty format does not use the ICV')

  ! Truncation of the captured text.
  small = 'zzzz'
  n = omp_capture_affinity(small, 'abcdefgh')
  if (n /= 8) call fail('truncated omp_capture_affinity length /= 8')
  if (small /= 'abcd') call fail('truncated omp_capture_affinity text')

  ! Per-thread capture inside a region.
  nt = 0
  !$omp parallel shared(per_thread, nt)
  !$omp single
  nt = omp_get_num_threads()
  allocate (per_thread(0:nt - 1))
  !$omp end single
  n = omp_capture_affinity(per_thread(omp_get_thread_num()), '%n')
  !$omp end parallel
  do i = 0, nt - 1
    write (expect, '(i0)') i
    if (per_thread(i) /= expect) call fail('per-thread omp_capture_affinity %n')
  end do
  deallocate (per_thread)

  ! Trailing blanks of the format are part of it, as in libgomp.
  call omp_set_affinity_format('A  ')
  n = omp_get_affinity_format(buf)
  if (n /= 3) call fail('trailing blanks of the format were dropped')

  ! omp_display_affinity prints; here only that it accepts both forms.
  call omp_set_affinity_format('display-check %n')
  call omp_display_affinity('')
  call omp_display_affinity('explicit %N')

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program affinity_format
