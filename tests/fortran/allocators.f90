! Allocator handles from Fortran: omp_init_allocator with a traits array,
! omp_alloc / omp_aligned_alloc / omp_free through omp_lib's BIND(C)
! interfaces, and the default-allocator ICV.
! kite-test-threads: 1 2
program allocators
  use omp_lib
  use iso_c_binding
  implicit none
  integer(omp_allocator_handle_kind) :: al, old
  type(omp_alloctrait) :: traits(2)
  type(c_ptr) :: p, q
  integer(c_intptr_t) :: addr
  integer(c_int), pointer :: arr(:)
  integer :: errors, i, bad

  call kite_test_require_kite()
  errors = 0

  if (omp_get_default_allocator() /= omp_default_mem_alloc) &
      call fail('initial default allocator is not omp_default_mem_alloc')

  traits(1) = omp_alloctrait(omp_atk_alignment, 256_c_intptr_t)
  traits(2) = omp_alloctrait(omp_atk_fallback, omp_atv_null_fb)
  al = omp_init_allocator(omp_default_mem_space, 2, traits)
  if (al == omp_null_allocator) call fail('omp_init_allocator returned omp_null_allocator')

  p = omp_alloc(1000_c_size_t, al)
  if (.not. c_associated(p)) call fail('omp_alloc with the new allocator returned null')
  addr = transfer(p, addr)
  if (mod(addr, 256_c_intptr_t) /= 0) call fail('omp_atk_alignment=256 was not honoured')
  call c_f_pointer(p, arr, [250])
  arr = [(i, i = 1, 250)]
  if (sum(arr) /= 250 * 251 / 2) call fail('memory from omp_alloc does not hold data')
  call omp_free(p, al)

  ! The new allocator as the default: omp_alloc with omp_null_allocator
  ! uses it, in every thread of a region too.
  old = omp_get_default_allocator()
  call omp_set_default_allocator(al)
  if (omp_get_default_allocator() /= al) call fail('omp_get_default_allocator after set')
  bad = 0
  !$omp parallel private(q, addr) reduction(+:bad)
  q = omp_alloc(64_c_size_t, omp_null_allocator)
  addr = transfer(q, addr)
  if (.not. c_associated(q)) then
    bad = bad + 1
  else if (mod(addr, 256_c_intptr_t) /= 0) then
    bad = bad + 1
  end if
  call omp_free(q, omp_null_allocator)
  !$omp end parallel
  if (bad /= 0) call fail('default-allocator allocations in a region')
  call omp_set_default_allocator(old)
  call omp_destroy_allocator(al)

  ! Predefined allocator with an explicit alignment.
  p = omp_aligned_alloc(128_c_size_t, 300_c_size_t, omp_default_mem_alloc)
  addr = transfer(p, addr)
  if (.not. c_associated(p) .or. mod(addr, 128_c_intptr_t) /= 0) &
      call fail('omp_aligned_alloc(128) misaligned or null')
  call omp_free(p, omp_default_mem_alloc)

  p = omp_calloc(10_c_size_t, 4_c_size_t, omp_default_mem_alloc)
  if (.not. c_associated(p)) call fail('omp_calloc returned null')
  call c_f_pointer(p, arr, [10])
  if (any(arr /= 0)) call fail('omp_calloc memory not zeroed')
  call omp_free(p, omp_default_mem_alloc)

  if (errors /= 0) stop 1
  print '(a)', 'PASS'

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write (0, '(2a)') 'FAIL: ', what
    errors = errors + 1
  end subroutine fail

end program allocators
