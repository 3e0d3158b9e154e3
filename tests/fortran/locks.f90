! Simple and nest locks through the Fortran entry points: mutual
! exclusion, omp_test_lock / omp_test_nest_lock results, nesting depth.
! kite-test-threads: 1 2 4
program locks
  use omp_lib
  implicit none
  integer(omp_lock_kind) :: lck
  integer(omp_nest_lock_kind) :: nlck
  integer :: counter, errors, depth, i, got_busy, owner_tries
  logical :: ok

  call kite_test_require_kite()
  errors = 0
  if (omp_lock_kind /= 4) call fail('omp_lock_kind /= 4')
  if (omp_nest_lock_kind /= 8) call fail('omp_nest_lock_kind /= 8')

  ! Mutual exclusion: a non-atomic read-modify-write under the lock.
  call omp_init_lock(lck)
  counter = 0
  !$omp parallel private(i)
  do i = 1, 2000
    call omp_set_lock(lck)
    counter = counter + 1
    call omp_unset_lock(lck)
  end do
  !$omp end parallel
  !$omp parallel
  !$omp single
  i = omp_get_num_threads()
  !$omp end single
  !$omp end parallel
  if (counter /= 2000 * i) call fail('counter under omp_set_lock lost updates')

  ! omp_test_lock: succeeds on a free lock, fails on a held one.
  ok = omp_test_lock(lck)
  if (.not. ok) call fail('omp_test_lock on a free lock returned .false.')
  got_busy = 0
  !$omp parallel num_threads(2) shared(got_busy)
  if (omp_get_thread_num() == 1) then
    if (.not. omp_test_lock(lck)) got_busy = 1
  end if
  !$omp end parallel
  if (got_busy /= 1) call fail('omp_test_lock on a lock held by another thread succeeded')
  call omp_unset_lock(lck)
  call omp_destroy_lock(lck)

  ! Nest lock: the owner may re-acquire; omp_test_nest_lock returns depth.
  call omp_init_nest_lock(nlck)
  call omp_set_nest_lock(nlck)
  call omp_set_nest_lock(nlck)
  depth = omp_test_nest_lock(nlck)
  if (depth /= 3) call fail('omp_test_nest_lock depth /= 3')
  owner_tries = -1
  !$omp parallel num_threads(2) shared(owner_tries)
  if (omp_get_thread_num() == 1) owner_tries = omp_test_nest_lock(nlck)
  !$omp end parallel
  if (owner_tries /= 0) call fail('omp_test_nest_lock by a non-owner did not return 0')
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)

  ! Now free: mutual exclusion with nested acquisition in every thread.
  counter = 0
  !$omp parallel private(i)
  do i = 1, 500
    call omp_set_nest_lock(nlck)
    call omp_set_nest_lock(nlck)
    counter = counter + 1
    call omp_unset_nest_lock(nlck)
    call omp_unset_nest_lock(nlck)
  end do
  !$omp end parallel
  !$omp parallel
  !$omp single
  i = omp_get_num_threads()
  !$omp end single
  !$omp end parallel
  if (counter /= 500 * i) call fail('counter under omp_set_nest_lock lost updates')
  depth = omp_test_nest_lock(nlck)
  if (depth /= 1) call fail('omp_test_nest_lock on a free nest lock /= 1')
  call omp_unset_nest_lock(nlck)
  call omp_destroy_nest_lock(nlck)

  ! The *_with_hint initializers (Kite-only entry points: libgomp 12 lacks
  ! them) give locks that behave the same.
  call omp_init_lock_with_hint(lck, omp_sync_hint_contended)
  counter = 0
  !$omp parallel private(i)
  do i = 1, 500
    call omp_set_lock(lck)
    counter = counter + 1
    call omp_unset_lock(lck)
  end do
  !$omp end parallel
  !$omp parallel
  !$omp single
  i = omp_get_num_threads()
  !$omp end single
  !$omp end parallel
  if (counter /= 500 * i) call fail('counter under a hinted lock lost updates')
  call omp_destroy_lock(lck)
  call omp_init_nest_lock_with_hint(nlck, omp_sync_hint_uncontended)
  if (omp_test_nest_lock(nlck) /= 1) call fail('hinted nest lock: first test /= 1')
  if (omp_test_nest_lock(nlck) /= 2) call fail('hinted nest lock: second test /= 2')
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  call omp_destroy_nest_lock(nlck)

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program locks
