! kite profile and kite trace: a gfortran module procedure holding a
! parallel region. Expected: its outlined body named
! "physics::relax (omp at line <pragma>)", the main program by its name.
module physics
contains
  subroutine relax(a, n)
    integer :: n, i, r
    real(8) :: a(n)
    do r = 1, 40
      !$omp parallel do num_threads(2) ! @fortran_region
      do i = 1, n
        a(i) = sqrt(a(i) * 0.5d0 + 1.0d0) + sin(a(i))
      end do
      !$omp end parallel do
    end do
  end subroutine
end module

program names_f
  use physics
  real(8), allocatable :: a(:)
  allocate(a(400000))
  a = 1
  call relax(a, size(a))
  print *, a(1)
end program
