! Fortran (gfortran) on an emulated device: array, allocatable and pointer
! maps with descriptors, to-only data staying stale on the host, target
! data with update, teams in target.
! kite-test-threads: 1 2
! kite-test-env: KITE_DEVICES=1
program emu_fortran
  use omp_lib
  implicit none
  integer, parameter :: n = 100
  integer :: i, t, x
  integer :: a(n), runs(0:7)
  integer, allocatable :: b(:)
  real(8), pointer :: p(:)
  call kite_test_require_kite()
  if (omp_get_num_devices() /= 1) stop 1
  allocate(b(n)); allocate(p(n))
  a = 0; b = 1; p = 2.0d0; x = 1
  !$omp target teams distribute parallel do map(tofrom: a)
  do i = 1, n
    a(i) = 2 * i
  end do
  if (any(a /= [(2*i, i=1,n)])) stop 5
  !$omp target map(tofrom: b) map(to: x)
  b(3) = b(3) + 41
  x = 7
  !$omp end target
  if (b(3) /= 42 .or. b(4) /= 1 .or. x /= 1) stop 6
  !$omp target map(tofrom: p)
  p(2) = p(2) * 3
  !$omp end target
  if (p(2) /= 6.0d0) stop 7
  !$omp target data map(to: b)
  !$omp target
  b(1) = 99
  !$omp end target
  !$omp target update from(b)
  !$omp end target data
  if (b(1) /= 99) stop 8
  runs = 0
  !$omp target map(tofrom: runs)
  !$omp teams num_teams(3)
  t = omp_get_team_num()
  runs(t) = runs(t) + omp_get_num_teams()
  !$omp end teams
  !$omp end target
  if (any(runs(0:2) /= 3) .or. any(runs(3:7) /= 0)) stop 9
  print *, 'PASS'
end program emu_fortran
