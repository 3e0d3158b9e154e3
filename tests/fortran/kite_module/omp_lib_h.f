! Fixed-form program using Kite's include/omp_lib.h.
      program omplibh
      implicit none
      include 'omp_lib.h'
      integer(omp_lock_kind) lck
      integer(omp_nest_lock_kind) nlck
      integer(omp_sched_kind) kind
      integer chunk, nt, errors
      character(len=16) buf

      call kite_test_require_kite()
      errors = 0
      if (omp_lock_kind .ne. 4 .or. omp_nest_lock_kind .ne. 8) then
        errors = errors + 1
      end if
      call omp_set_num_threads(2)
      nt = 0
!$omp parallel
!$omp atomic
      nt = nt + 1
!$omp end parallel
      if (nt .ne. 2) errors = errors + 1
      call omp_set_schedule(omp_sched_guided, 4)
      call omp_get_schedule(kind, chunk)
      if (kind .ne. omp_sched_guided .or. chunk .ne. 4) then
        errors = errors + 1
      end if
      call omp_init_lock(lck)
      if (.not. omp_test_lock(lck)) errors = errors + 1
      call omp_unset_lock(lck)
      call omp_destroy_lock(lck)
      call omp_init_nest_lock(nlck)
      if (omp_test_nest_lock(nlck) .ne. 1) errors = errors + 1
      call omp_unset_nest_lock(nlck)
      call omp_destroy_nest_lock(nlck)
      if (omp_get_wtime() .le. 0.0d0) errors = errors + 1
      call omp_set_affinity_format('<%n>')
      if (omp_get_affinity_format(buf) .ne. 4) errors = errors + 1
      if (buf .ne. '<%n>') errors = errors + 1
      if (errors .ne. 0) then
        write (0, *) 'FAIL: ', errors, ' check(s)'
        stop 1
      end if
      print '(a)', 'PASS'
      end program
