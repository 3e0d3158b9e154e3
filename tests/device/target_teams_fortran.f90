! Fortran target, teams and device routines on the host device.
! kite-test-threads: 1 2
program target_teams_fortran
  use omp_lib
  implicit none
  integer, parameter :: n = 1000
  integer :: i, t, fp, seen_fp
  integer :: a(n), runs(0:7)
  integer(8) :: nt8
  call kite_test_require_kite()

  if (omp_get_num_devices() /= 0) stop 1
  if (omp_get_initial_device() /= omp_get_num_devices()) stop 2
  if (.not. omp_is_initial_device()) stop 3
  if (omp_get_device_num() /= omp_get_initial_device()) stop 4

  a = 0
  !$omp target teams distribute parallel do map(tofrom: a)
  do i = 1, n
    a(i) = 2 * i
  end do
  !$omp end target teams distribute parallel do
  do i = 1, n
    if (a(i) /= 2 * i) stop 5
  end do

  runs = 0
  !$omp target map(tofrom: runs)
  !$omp teams num_teams(3)
  t = omp_get_team_num()
  runs(t) = runs(t) + omp_get_num_teams()
  !$omp end teams
  !$omp end target
  if (any(runs(0:2) /= 3) .or. any(runs(3:7) /= 0)) stop 6

  fp = 5
  seen_fp = 0
  !$omp target firstprivate(fp) map(from: seen_fp)
  seen_fp = fp
  fp = 100
  !$omp end target
  if (seen_fp /= 5 .or. fp /= 5) stop 7

  call omp_set_num_teams(4)
  if (omp_get_max_teams() /= 4) stop 8
  nt8 = 2
  call omp_set_num_teams(nt8)
  if (omp_get_max_teams() /= 2) stop 9
  call omp_set_teams_thread_limit(2)
  if (omp_get_teams_thread_limit() /= 2) stop 10
  call omp_set_default_device(omp_get_initial_device())
  if (omp_get_default_device() /= omp_get_initial_device()) stop 11
  print *, 'PASS'
end program target_teams_fortran
