! Fortran (`use mpi`) twin of halo.c: a periodic ring, N >= 2 ranks.
!   - 5 iterations; in each, every rank calls MPI_SENDRECV twice: to the
!     right neighbour tag 1 (receiving from the left), then to the left
!     tag 2 (receiving from the right); 100 double precision = 800 bytes.
!     Per rank: 10 sends, 10 receives on comm world.
!   - then one MPI_ALLREDUCE (1 double precision).
!   - compute: an OpenMP loop per iteration, twice as long on rank 1: MPI
!     load balance (N + 1) / (2N): 0.75 for 2 ranks, 0.625 for 4.
! Received halos are checked; a wrong one stops with code 1.
program halo
  use mpi
  implicit none
  integer, parameter :: iters = 5, nh = 100, work = 4000000
  double precision :: out(nh), in(nh), check, total
  integer :: rank, nranks, ierr, it, i, left, right, n
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  right = mod(rank + 1, nranks)
  left = mod(rank - 1 + nranks, nranks)
  check = 0
  do it = 1, iters
    n = work
    if (rank == 1) n = 2 * work
!$omp parallel do reduction(+:check)
    do i = 1, n
      check = check + mod(i, 7) * 0.25d0
    end do
!$omp end parallel do
    out = [(rank * 1000 + it + i * 1d-3, i = 1, nh)]
    call MPI_SENDRECV(out, nh, MPI_DOUBLE_PRECISION, right, 1, in, nh, MPI_DOUBLE_PRECISION, &
                      left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    do i = 1, nh
      if (in(i) /= left * 1000 + it + i * 1d-3) stop 1
    end do
    call MPI_SENDRECV(out, nh, MPI_DOUBLE_PRECISION, left, 2, in, nh, MPI_DOUBLE_PRECISION, &
                      right, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    do i = 1, nh
      if (in(i) /= right * 1000 + it + i * 1d-3) stop 1
    end do
  end do
  call MPI_ALLREDUCE(check, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total <= 0) stop 1
  print '(a,i0,a,i0,a)', 'halo.f90: rank ', rank, ' of ', nranks, ' done'
  call MPI_FINALIZE(ierr)
end program halo
