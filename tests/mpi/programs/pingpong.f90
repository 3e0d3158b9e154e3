! Fortran (`use mpi`) twin of pingpong.c. What it must produce (N >= 2
! ranks; ranks >= 2 only take part in the barrier):
!   - 10 round trips: rank 0 MPI_SEND -> rank 1 MPI_RECV (tag 7), then
!     rank 1 -> rank 0 (tag 8); 1000 default integers = 4000 bytes each, on
!     comm world: 10 messages 0 -> 1 tag 7, 10 messages 1 -> 0 tag 8.
!   - an OpenMP parallel loop on ranks 0 and 1 per iteration.
!   - one MPI_BARRIER on every rank, then MPI_FINALIZE.
! Received values are checked; a wrong one stops with code 1.
program pingpong
  use mpi
  implicit none
  integer, parameter :: iters = 10, n = 1000
  integer :: buf(n), rank, nranks, ierr, it, i, st(MPI_STATUS_SIZE)
  double precision :: s
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  if (nranks < 2) stop 2
  s = 0
  if (rank < 2) then
    do it = 1, iters
      if (rank == 0) then
        buf = [(i + it, i = 1, n)]
        call MPI_SEND(buf, n, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr)
        call MPI_RECV(buf, n, MPI_INTEGER, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        do i = 1, n
          if (buf(i) /= i + it + 1) stop 1
        end do
      else
        call MPI_RECV(buf, n, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st, ierr)
        do i = 1, n
          if (buf(i) /= i + it) stop 1
        end do
        buf = buf + 1
        call MPI_SEND(buf, n, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, ierr)
      end if
!$omp parallel do reduction(+:s)
      do i = 1, 20000
        s = s + i * 0.5d0
      end do
!$omp end parallel do
    end do
  end if
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (s < 0) print *, s
  print '(a,i0,a,i0,a)', 'pingpong.f90: rank ', rank, ' of ', nranks, ' done'
  call MPI_FINALIZE(ierr)
end program pingpong
