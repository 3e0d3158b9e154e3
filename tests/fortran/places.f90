! Place and binding queries through the Fortran entry points.
! kite-test-threads: 1 2
! kite-test-env: OMP_PLACES=threads OMP_PROC_BIND=close
program places
  use omp_lib
  implicit none
  integer :: np, p, n, total, errors, i, part_n, bad
  integer, allocatable :: ids(:), parts(:)

  call kite_test_require_kite()
  errors = 0

  if (omp_get_proc_bind() /= omp_proc_bind_close) call fail('omp_get_proc_bind /= close')

  np = omp_get_num_places()
  if (np < 1) call fail('omp_get_num_places < 1 with OMP_PLACES=threads')
  total = 0
  do p = 0, np - 1
    n = omp_get_place_num_procs(p)
    ! A place of OMP_PLACES=threads is one hardware thread.
    if (n /= 1) call fail('a threads place does not hold exactly one processor')
    allocate (ids(max(n, 1)))
    ids = -7
    call omp_get_place_proc_ids(p, ids)
    if (any(ids(1:n) < 0)) call fail('omp_get_place_proc_ids left an id unset')
    total = total + n
    deallocate (ids)
  end do
  if (total < 1) call fail('places hold no processors')
  if (omp_get_place_num_procs(np) /= 0) call fail('place number past the end has processors')
  if (omp_get_place_num_procs(-1) /= 0) call fail('place number -1 has processors')

  ! The initial thread is bound to a place inside its partition.
  p = omp_get_place_num()
  if (p < 0 .or. p >= np) call fail('initial thread place number out of range')
  part_n = omp_get_partition_num_places()
  if (part_n < 1 .or. part_n > np) call fail('partition size out of range')
  allocate (parts(part_n))
  parts = -7
  call omp_get_partition_place_nums(parts)
  if (any(parts < 0 .or. parts >= np)) call fail('partition place numbers out of range')
  if (.not. any(parts == p)) call fail('initial thread place not in its partition')
  deallocate (parts)

  ! Every thread of a bound team knows its place.
  bad = 0
  !$omp parallel private(i) reduction(+:bad)
  i = omp_get_place_num()
  if (i < 0 .or. i >= np) bad = bad + 1
  !$omp end parallel
  if (bad /= 0) call fail('a team thread has no valid place number')

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program places
