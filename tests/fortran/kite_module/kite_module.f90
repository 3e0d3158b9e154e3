! Compiled against Kite's own omp_lib module (include/omp_lib.f90), not
! gfortran's: every interface it declares must reach the right entry point.
program kite_module
  use omp_lib
  use iso_c_binding
  implicit none
  integer(omp_lock_kind) :: lck
  integer(omp_nest_lock_kind) :: nlck
  integer(omp_sched_kind) :: kind
  integer(8) :: chunk8
  integer :: chunk, errors, nt, n
  integer, allocatable :: ids(:)
  character(len=32) :: buf
  integer(omp_allocator_handle_kind) :: al
  type(omp_alloctrait) :: traits(1)
  type(c_ptr) :: p
  double precision :: t0

  call kite_test_require_kite()
  errors = 0
  if (openmp_version /= 202111) call fail('openmp_version')

  call omp_set_num_threads(2)
  call omp_set_dynamic(.false.)
  nt = 0
  !$omp parallel
  !$omp atomic
  nt = nt + 1
  if (.not. omp_in_parallel()) nt = -100
  !$omp end parallel
  if (nt /= 2) call fail('omp_set_num_threads / omp_in_parallel')
  if (omp_get_num_threads() /= 1 .or. omp_get_thread_num() /= 0) call fail('serial queries')
  if (omp_get_level() /= 0 .or. omp_get_active_level() /= 0) call fail('levels')
  if (omp_get_team_size(0) /= 1 .or. omp_get_ancestor_thread_num(0) /= 0) call fail('team at 0')
  if (omp_get_thread_limit() < 1 .or. omp_get_num_procs() < 1) call fail('limits')
  if (omp_get_supported_active_levels() < 1) call fail('supported levels')
  call omp_set_max_active_levels(3)
  if (omp_get_max_active_levels() /= 3) call fail('max active levels')
  if (omp_in_final()) call fail('omp_in_final')
  if (omp_get_cancellation()) call fail('omp_get_cancellation')
  if (omp_get_max_task_priority() < 0) call fail('omp_get_max_task_priority')

  call omp_set_schedule(omp_sched_dynamic, 5)
  call omp_get_schedule(kind, chunk)
  if (kind /= omp_sched_dynamic .or. chunk /= 5) call fail('schedule')
  chunk8 = 6
  call omp_set_schedule(omp_sched_static, chunk8)
  call omp_get_schedule(kind, chunk8)
  if (kind /= omp_sched_static .or. chunk8 /= 6) call fail('schedule _8')

  call omp_init_lock(lck)
  call omp_set_lock(lck)
  call omp_unset_lock(lck)
  if (.not. omp_test_lock(lck)) call fail('omp_test_lock')
  call omp_unset_lock(lck)
  call omp_destroy_lock(lck)
  call omp_init_lock_with_hint(lck, omp_sync_hint_speculative)
  if (.not. omp_test_lock(lck)) call fail('omp_test_lock on a hinted lock')
  call omp_unset_lock(lck)
  call omp_destroy_lock(lck)
  call omp_init_nest_lock_with_hint(nlck, omp_sync_hint_none)
  call omp_destroy_nest_lock(nlck)
  call omp_init_nest_lock(nlck)
  call omp_set_nest_lock(nlck)
  if (omp_test_nest_lock(nlck) /= 2) call fail('omp_test_nest_lock')
  call omp_unset_nest_lock(nlck)
  call omp_unset_nest_lock(nlck)
  call omp_destroy_nest_lock(nlck)

  t0 = omp_get_wtime()
  if (t0 <= 0.0d0 .or. omp_get_wtick() <= 0.0d0) call fail('wtime')

  if (omp_get_proc_bind() < omp_proc_bind_false .or. omp_get_proc_bind() > omp_proc_bind_spread) &
      call fail('omp_get_proc_bind')
  n = omp_get_num_places()
  if (n > 0) then
    allocate (ids(omp_get_place_num_procs(0)))
    call omp_get_place_proc_ids(0, ids)
    deallocate (ids)
  end if
  n = omp_get_place_num()
  n = omp_get_partition_num_places()

  call omp_set_affinity_format('[%n]')
  n = omp_get_affinity_format(buf)
  if (n /= 4 .or. buf /= '[%n]') call fail('affinity format round trip')
  n = omp_capture_affinity(buf, '')
  if (buf /= '[0]') call fail('omp_capture_affinity')

  if (omp_get_num_devices() < 0) call fail('omp_get_num_devices')
  if (.not. omp_is_initial_device()) call fail('omp_is_initial_device')
  if (omp_get_device_num() /= omp_get_initial_device()) call fail('omp_get_device_num')
  call omp_set_default_device(omp_get_initial_device())
  if (omp_get_default_device() /= omp_get_initial_device()) call fail('default device')
  if (omp_get_num_teams() /= 1 .or. omp_get_team_num() /= 0) call fail('teams outside teams')
  call omp_set_num_teams(2)
  if (omp_get_max_teams() /= 2) call fail('omp_set_num_teams')
  call omp_set_teams_thread_limit(3)
  if (omp_get_teams_thread_limit() /= 3) call fail('omp_set_teams_thread_limit')

  traits(1) = omp_alloctrait(omp_atk_alignment, 64_c_intptr_t)
  al = omp_init_allocator(omp_default_mem_space, 1, traits)
  if (al == omp_null_allocator) call fail('omp_init_allocator')
  call omp_set_default_allocator(al)
  if (omp_get_default_allocator() /= al) call fail('default allocator')
  p = omp_alloc(100_c_size_t, omp_null_allocator)
  if (.not. c_associated(p) .or. mod(transfer(p, 0_c_intptr_t), 64_c_intptr_t) /= 0) &
      call fail('omp_alloc through the default allocator')
  call omp_free(p, omp_null_allocator)
  call omp_set_default_allocator(omp_default_mem_alloc)
  call omp_destroy_allocator(al)

  ! Releasing the runtime's resources is allowed between regions; the next
  ! region brings the threads back.
  if (omp_pause_resource_all(omp_pause_soft) /= 0) call fail('omp_pause_resource_all')
  nt = 0
  !$omp parallel num_threads(2)
  !$omp atomic
  nt = nt + 1
  !$omp end parallel
  if (nt /= 2) call fail('region after omp_pause_resource_all')

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program kite_module
