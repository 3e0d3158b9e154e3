! Compiled with -fdefault-integer-8: default INTEGER and LOGICAL are 8 bytes,
! so omp_lib's generic interfaces call the name_8_ entry points. Values that
! do not fit a C int must be clamped (and reported), never truncated.
program int8_api
  use omp_lib
  implicit none
  integer :: nt, chunk, np, p, n, errors, big
  integer(omp_sched_kind) :: skind
  integer, allocatable :: ids(:), parts(:)
  integer(omp_allocator_handle_kind) :: al
  type(omp_alloctrait) :: traits(1)
  logical :: on

  call kite_test_require_kite()
  errors = 0
  if (kind(nt) /= 8) call fail('not compiled with -fdefault-integer-8')
  big = 2_8**33  ! truncated to 32 bits this would read as 0

  call omp_set_num_threads(3)
  if (omp_get_max_threads() /= 3) call fail('omp_set_num_threads_8_(3)')
  on = .true.
  call omp_set_dynamic(on)
  if (.not. omp_get_dynamic()) call fail('omp_set_dynamic_8_(.true.)')
  on = .false.
  call omp_set_dynamic(on)
  if (omp_get_dynamic()) call fail('omp_set_dynamic_8_(.false.)')

  call omp_set_schedule(omp_sched_guided, 9)
  call omp_get_schedule(skind, chunk)
  if (skind /= omp_sched_guided .or. chunk /= 9) call fail('omp_set/get_schedule_8_')

  call omp_set_max_active_levels(2)
  if (omp_get_max_active_levels() /= 2) call fail('omp_set_max_active_levels_8_')
  on = .true.
  call omp_set_nested(on)
  if (.not. omp_get_nested()) call fail('omp_set_nested_8_')

  nt = 0
  !$omp parallel num_threads(2)
  if (omp_get_thread_num() == 1) then
    if (omp_get_ancestor_thread_num(1) == 1 .and. omp_get_team_size(1) == 2) nt = 1
    ! 2**33 clamps to an invalid level (-1), where truncation would give
    ! level 0 (thread 0, team size 1).
    if (omp_get_ancestor_thread_num(big) /= -1) nt = -1
    if (omp_get_team_size(big) /= -1) nt = -1
  end if
  !$omp end parallel
  if (nt /= 1) call fail('omp_get_ancestor_thread_num_8_ / omp_get_team_size_8_')

  ! Places: INTEGER(8) id arrays are filled completely and correctly.
  np = omp_get_num_places()
  if (np < 1) call fail('omp_get_num_places')
  do p = 0, np - 1
    n = omp_get_place_num_procs(p)
    if (n /= 1) call fail('omp_get_place_num_procs_8_ of a threads place /= 1')
    allocate (ids(n + 1))
    ids = -7
    call omp_get_place_proc_ids(p, ids)
    if (any(ids(1:n) < 0)) call fail('omp_get_place_proc_ids_8_ left an id unset')
    if (ids(n + 1) /= -7) call fail('omp_get_place_proc_ids_8_ wrote past the ids')
    deallocate (ids)
  end do
  if (omp_get_place_num_procs(big) /= 0) call fail('omp_get_place_num_procs_8_(2**33) /= 0')
  n = omp_get_partition_num_places()
  allocate (parts(n + 1))
  parts = -7
  call omp_get_partition_place_nums(parts)
  if (any(parts(1:n) < 0 .or. parts(1:n) >= np)) call fail('omp_get_partition_place_nums_8_')
  if (n > 1) then
    if (any(parts(2:n) /= parts(1:n - 1) + 1)) call fail('partition places not consecutive')
  end if
  if (parts(n + 1) /= -7) call fail('omp_get_partition_place_nums_8_ wrote past the end')
  deallocate (parts)

  ! Devices and teams ICVs.
  call omp_set_default_device(omp_get_initial_device())
  if (omp_get_default_device() /= omp_get_initial_device()) call fail('omp_set_default_device_8_')
  call omp_set_num_teams(3)
  if (omp_get_max_teams() /= 3) call fail('omp_set_num_teams_8_')
  call omp_set_teams_thread_limit(2)
  if (omp_get_teams_thread_limit() /= 2) call fail('omp_set_teams_thread_limit_8_')

  ! Allocator with an INTEGER(8) trait count.
  traits(1) = omp_alloctrait(omp_atk_alignment, 128)
  al = omp_init_allocator(omp_default_mem_space, 1, traits)
  if (al == omp_null_allocator) call fail('omp_init_allocator_8_')
  call omp_destroy_allocator(al)

  on = .false.
  call omp_display_env(on)

  ! Out of int range, clamped with a warning; the runtime stays usable.
  call omp_set_num_threads(big)
  if (omp_get_max_threads() < 1) call fail('omp_set_num_threads_8_(2**33)')
  call omp_set_num_threads(2)
  nt = 0
  !$omp parallel
  !$omp atomic
  nt = nt + 1
  !$omp end parallel
  if (nt /= 2) call fail('region after clamped omp_set_num_threads')

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program int8_api
