! Thread, team and nesting queries through the Fortran entry points.
! kite-test-threads: 1 2 4
program team_queries
  use omp_lib
  implicit none
  integer :: nt, errors, max_threads
  integer :: outer_size, inner_level, inner_active, anc0, anc1, tsize1
  logical :: in_par

  call kite_test_require_kite()
  errors = 0

  max_threads = omp_get_max_threads()
  if (max_threads < 1) call fail('omp_get_max_threads < 1')
  if (omp_get_num_threads() /= 1) call fail('serial omp_get_num_threads /= 1')
  if (omp_get_thread_num() /= 0) call fail('serial omp_get_thread_num /= 0')
  if (omp_in_parallel()) call fail('serial omp_in_parallel is .true.')
  if (omp_get_level() /= 0) call fail('serial omp_get_level /= 0')
  if (omp_get_active_level() /= 0) call fail('serial omp_get_active_level /= 0')
  if (omp_get_num_procs() < 1) call fail('omp_get_num_procs < 1')
  if (omp_get_thread_limit() < 1) call fail('omp_get_thread_limit < 1')
  if (omp_get_supported_active_levels() < 1) call fail('omp_get_supported_active_levels < 1')
  if (omp_get_ancestor_thread_num(0) /= 0) call fail('ancestor(0) /= 0')
  if (omp_get_team_size(0) /= 1) call fail('team_size(0) /= 1')
  if (omp_get_ancestor_thread_num(1) /= -1) call fail('ancestor(1) of serial code /= -1')
  if (omp_get_team_size(-1) /= -1) call fail('team_size(-1) /= -1')

  ! omp_set_num_threads then a region of that size (dynamic off).
  call omp_set_dynamic(.false.)
  if (omp_get_dynamic()) call fail('omp_get_dynamic after set .false.')
  call omp_set_num_threads(3)
  if (omp_get_max_threads() /= 3) call fail('omp_get_max_threads after set(3)')
  nt = 0
  in_par = .false.
  !$omp parallel
  !$omp single
  nt = omp_get_num_threads()
  in_par = omp_in_parallel()
  !$omp end single
  !$omp end parallel
  if (nt /= 3) call fail('region of omp_set_num_threads(3) has wrong size')
  if (.not. in_par) call fail('omp_in_parallel is .false. in a 3-thread region')

  call omp_set_dynamic(.true.)
  if (.not. omp_get_dynamic()) call fail('omp_get_dynamic after set .true.')
  call omp_set_dynamic(.false.)

  ! Nested levels: two active levels of 2 threads each.
  call omp_set_max_active_levels(2)
  if (omp_get_max_active_levels() /= 2) call fail('omp_get_max_active_levels /= 2')
  call omp_set_nested(.true.)
  if (.not. omp_get_nested()) call fail('omp_get_nested after set .true.')
  call omp_set_num_threads(2)
  outer_size = 0
  inner_level = 0
  inner_active = 0
  anc0 = -5
  anc1 = -5
  tsize1 = 0
  !$omp parallel num_threads(2)
  !$omp parallel num_threads(2)
  if (omp_get_ancestor_thread_num(1) == 1 .and. omp_get_thread_num() == 1) then
    outer_size = omp_get_team_size(1)
    inner_level = omp_get_level()
    inner_active = omp_get_active_level()
    anc0 = omp_get_ancestor_thread_num(0)
    anc1 = omp_get_ancestor_thread_num(1)
    tsize1 = omp_get_team_size(2)
  end if
  !$omp end parallel
  !$omp end parallel
  if (outer_size /= 2) call fail('omp_get_team_size(1) in a nested region /= 2')
  if (inner_level /= 2) call fail('omp_get_level in a nested region /= 2')
  if (inner_active /= 2) call fail('omp_get_active_level in a nested region /= 2')
  if (anc0 /= 0) call fail('omp_get_ancestor_thread_num(0) /= 0')
  if (anc1 /= 1) call fail('omp_get_ancestor_thread_num(1) /= 1')
  if (tsize1 /= 2) call fail('omp_get_team_size(2) /= 2')

  ! With one active level allowed, the inner region is inactive: level 2,
  ! active level 1, inner team of one thread.
  call omp_set_max_active_levels(1)
  if (omp_get_nested()) call fail('omp_get_nested with max_active_levels 1')
  inner_level = 0
  inner_active = 0
  nt = 0
  !$omp parallel num_threads(2)
  !$omp parallel num_threads(2)
  if (omp_get_ancestor_thread_num(1) == 0) then
    inner_level = omp_get_level()
    inner_active = omp_get_active_level()
    nt = omp_get_num_threads()
  end if
  !$omp end parallel
  !$omp end parallel
  if (inner_level /= 2) call fail('inactive nested omp_get_level /= 2')
  if (inner_active /= 1) call fail('inactive nested omp_get_active_level /= 1')
  if (nt /= 1) call fail('inactive nested region has more than one thread')

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program team_queries
