! Persistent requests and non-blocking collectives from Fortran (`use mpi`),
! on a periodic ring of all world ranks (N >= 2). What it must produce, per
! rank r (right = r+1 mod N, left = r-1 mod N), on comm world:
!   - MPI_SEND_INIT to the right and MPI_RECV_INIT from the left (tag 50,
!     256 default integers = 1024 bytes), started 4 times by MPI_STARTALL
!     (an OpenMP loop after each) and completed by MPI_WAITALL: per rank 4
!     sends and 4 receive starts, 8 distinct request ids recorded in
!     MPI_Startall, each completed once (kMpiSendComplete / kMpiRecv); then
!     MPI_REQUEST_FREE of both (2 calls).
!   - MPI_IBARRIER completed by MPI_WAIT, then MPI_IALLREDUCE of 1 double
!     precision (8 * N bytes sent and received) completed by MPI_WAITALL:
!     2 kMpiCollectiveRequest and 2 kMpiCollectiveComplete per rank.
!   - one MPI_BARRIER, then MPI_FINALIZE.
! Received and reduced values are checked; a wrong one stops with code 1.
program persistent
  use mpi
  implicit none
  integer, parameter :: iters = 4, n = 256
  integer :: sbuf(n), rbuf(n), rank, nranks, ierr, it, i, right, left
  integer :: reqs(2), req(1), sts(MPI_STATUS_SIZE, 2)
  double precision :: s, one, total
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  if (nranks < 2) stop 2
  right = mod(rank + 1, nranks)
  left = mod(rank - 1 + nranks, nranks)
  call MPI_SEND_INIT(sbuf, n, MPI_INTEGER, right, 50, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_RECV_INIT(rbuf, n, MPI_INTEGER, left, 50, MPI_COMM_WORLD, reqs(2), ierr)
  s = 0
  do it = 1, iters
    sbuf = [(rank * 1000 + it + i, i = 1, n)]
    call MPI_STARTALL(2, reqs, ierr)
!$omp parallel do reduction(+:s)
    do i = 1, 200000
      s = s + dble(iand(i, 3))
    end do
!$omp end parallel do
    call MPI_WAITALL(2, reqs, sts, ierr)
    do i = 1, n
      if (rbuf(i) /= left * 1000 + it + i) stop 1
    end do
  end do
  call MPI_REQUEST_FREE(reqs(1), ierr)
  call MPI_REQUEST_FREE(reqs(2), ierr)
  call MPI_IBARRIER(MPI_COMM_WORLD, req(1), ierr)
  call MPI_WAIT(req(1), MPI_STATUS_IGNORE, ierr)
  one = rank + 1
  call MPI_IALLREDUCE(one, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(1), ierr)
  call MPI_WAITALL(1, req, MPI_STATUSES_IGNORE, ierr)
  if (abs(total - nranks * (nranks + 1) / 2.0d0) > 0.5d0) stop 1
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a,f0.0)', 'persistent: ', nranks, ' ranks ok ', s
  call MPI_FINALIZE(ierr)
end program persistent
