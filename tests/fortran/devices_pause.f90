! Device, teams-ICV and pause routines from Fortran: the host is the only
! device, and pausing it between regions keeps the runtime usable.
! kite-test-threads: 1 2
program devices_pause
  use omp_lib
  implicit none
  integer :: errors, host, nt

  call kite_test_require_kite()
  errors = 0

  host = omp_get_initial_device()
  if (host /= omp_get_num_devices()) call fail('omp_get_initial_device /= omp_get_num_devices')
  if (.not. omp_is_initial_device()) call fail('omp_is_initial_device on the host')
  if (omp_get_device_num() /= host) call fail('omp_get_device_num on the host')
  call omp_set_default_device(host)
  if (omp_get_default_device() /= host) call fail('omp_set/get_default_device')
  if (omp_get_num_teams() /= 1) call fail('omp_get_num_teams outside teams /= 1')
  if (omp_get_team_num() /= 0) call fail('omp_get_team_num outside teams /= 0')
  call omp_set_num_teams(4)
  if (omp_get_max_teams() /= 4) call fail('omp_set_num_teams / omp_get_max_teams')
  call omp_set_teams_thread_limit(2)
  if (omp_get_teams_thread_limit() /= 2) call fail('omp_set/get_teams_thread_limit')

  if (omp_pause_resource(omp_pause_soft, host) /= 0) call fail('soft pause of the host failed')
  if (omp_pause_resource_all(omp_pause_hard) /= 0) call fail('hard pause of all devices failed')
  if (omp_pause_resource(omp_pause_soft, host + 1000) == 0) &
      call fail('pausing a device that does not exist succeeded')
  nt = -1
  !$omp parallel num_threads(2)
  !$omp single
  nt = omp_get_num_threads()
  !$omp end single
  !$omp end parallel
  if (nt /= 2) call fail('region after pausing')

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program devices_pause
