/* A library named like an MPI that is neither Open MPI nor MPICH
 * (libmpi_other.so): kite must say it cannot record its calls. */
int fake_mpi_init(void) { return 0; }
