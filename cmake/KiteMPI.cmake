# The MPIs Kite's MPI wrappers (tools/mpi) and tests (tests/mpi) are built
# for: Open MPI and MPICH, side by side as Debian installs them. For each
# found, KITE_MPI_<impl>_FOUND is set with
#   KITE_MPI_<impl>_INCLUDE  its mpi.h directories
#   KITE_MPI_<impl>_LIB      its C library (full path)
#   KITE_MPI_<impl>_CC / _FC / _RUN  mpicc, mpif90 and mpirun of that MPI
# KITE_MPI_IMPLS lists the ones found (in the including directory).
# Included by each directory that needs it (the searches are cached).


set(KITE_MPI_IMPLS "")

# The -I, -L and -l words of a compiler wrapper's command line.
function(kite_mpi_parse words out_inc out_dirs out_libs)
  separate_arguments(words UNIX_COMMAND "${words}")
  set(inc "")
  set(dirs "")
  set(libs "")
  foreach(w IN LISTS words)
    if(w MATCHES "^-I(.+)$")
      list(APPEND inc ${CMAKE_MATCH_1})
    elseif(w MATCHES "^-L(.+)$")
      list(APPEND dirs ${CMAKE_MATCH_1})
    elseif(w MATCHES "^-l(.+)$")
      list(APPEND libs ${CMAKE_MATCH_1})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES inc)
  set(${out_inc} "${inc}" PARENT_SCOPE)
  set(${out_dirs} "${dirs}" PARENT_SCOPE)
  set(${out_libs} "${libs}" PARENT_SCOPE)
endfunction()

function(kite_mpi_find impl cc_name fc_name run_name info_args lib_name)
  find_program(KITE_MPI_${impl}_CC ${cc_name})
  find_program(KITE_MPI_${impl}_FC ${fc_name})
  find_program(KITE_MPI_${impl}_RUN ${run_name})
  if(NOT KITE_MPI_${impl}_CC OR NOT KITE_MPI_${impl}_RUN)
    message(STATUS "MPI ${impl}: ${cc_name} or ${run_name} not found; its wrapper and tests are "
                   "not built (scripts/setup.sh installs Open MPI and MPICH)")
    return()
  endif()
  set(all "")
  foreach(arg IN LISTS info_args)
    execute_process(COMMAND ${KITE_MPI_${impl}_CC} ${arg} OUTPUT_VARIABLE out
                    RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      message(STATUS "MPI ${impl}: `${cc_name} ${arg}` failed; its wrapper and tests are not built")
      return()
    endif()
    string(APPEND all " ${out}")
  endforeach()
  kite_mpi_parse("${all}" inc dirs libs)
  find_library(KITE_MPI_${impl}_LIB NAMES ${lib_name} HINTS ${dirs} NO_DEFAULT_PATH)
  if(NOT KITE_MPI_${impl}_LIB OR NOT inc)
    message(STATUS "MPI ${impl}: lib${lib_name} or mpi.h not found from `${cc_name}`; its "
                   "wrapper and tests are not built")
    return()
  endif()
  set(KITE_MPI_${impl}_INCLUDE "${inc}" CACHE INTERNAL "")
  set(KITE_MPI_${impl}_FOUND ON CACHE INTERNAL "")
  message(STATUS "MPI ${impl}: ${KITE_MPI_${impl}_CC}, ${KITE_MPI_${impl}_LIB}")
  set(KITE_MPI_IMPLS ${KITE_MPI_IMPLS} ${impl} PARENT_SCOPE)
endfunction()

kite_mpi_find(openmpi mpicc.openmpi mpif90.openmpi mpirun.openmpi "-showme:compile;-showme:link" mpi)
kite_mpi_find(mpich mpicc.mpich mpif90.mpich mpirun.mpich "-compile_info" mpich)
