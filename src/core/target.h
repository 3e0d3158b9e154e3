// Devices and device constructs. Without emulated devices (KITE_DEVICES,
// core/device.h) the host is the only device, numbered
// omp_get_num_devices() == 0, and every target region runs there ("host
// fallback"), each as a fresh initial task. With N emulated devices they
// are numbered 0..N-1 and the host is N; a construct on one of them maps
// its data into the device's memory and runs its region (still on a host
// thread) against the device copies.
#pragma once

#include "device.h"
#include "team.h"

namespace kite {

// Device numbers from the OpenMP 5.2 API (omp_initial_device and
// omp_invalid_device), valid wherever a device number is accepted.
constexpr int kOmpInitialDevice = -1;
constexpr int kOmpInvalidDevice = -4;

// Values of g_icv.target_offload (target-offload-var).
constexpr int kOffloadDefault = 0;
constexpr int kOffloadMandatory = 1;
constexpr int kOffloadDisabled = 2;

// Number of non-host devices: the emulated ones (0 unless KITE_DEVICES).
int device_count();
// The host's device number: device_count().
int initial_device();
// True when `device` names the host (its number or omp_initial_device).
bool is_host_device(int device);

// Where a device construct (target, target data, target update, ...) runs.
// `device` is the device-clause value, or kDeviceFromIcv when the construct
// has none (default-device-var decides), or kDeviceForceHost for if(false).
// Returns the emulated device to run on (initialized), or -1 for the host.
// The construct runs on the host for the host's number, for
// OMP_TARGET_OFFLOAD=disabled, and for a device number that names no
// device after one warning, unless OMP_TARGET_OFFLOAD=mandatory (or the
// number is omp_invalid_device), which ends the program with libgomp's
// message and exit status 1.
constexpr int kDeviceFromIcv = -1000001;
constexpr int kDeviceForceHost = -1000002;
int select_device_for_construct(int device);

// Checks the device number given to a device memory routine
// (omp_target_alloc, omp_target_memcpy, ...). Returns true for the host,
// false for a number that names no device (the routine then reports an
// error); under OMP_TARGET_OFFLOAD=mandatory a bad number terminates.
bool device_routine_on_host(int device);
// The same check for a routine that accepts the host or an emulated
// device: the host's number (N), the device's (initialized), or -2 for a
// number naming neither.
constexpr int kNoSuchDevice = -2;
int device_for_routine(int device);

// Records that the program chose default-device-var itself (environment or
// omp_set_default_device), which matters for OMP_TARGET_OFFLOAD=mandatory.
void note_default_device_chosen();

// Runs fn(data) as a target region on the host: a new initial task, outside
// any parallel region (omp_get_level() == 0), starting its own contention
// group whose ICVs are the device's initial values. thread_limit > 0 sets
// its thread-limit-var.
void target_region_on_host(void (*fn)(void*), void* data, int thread_limit);

// An argument of a target region that the region must see as a private copy
// (firstprivate): hostaddrs[index] points at `size` bytes, to be copied at
// `align` when the region is encountered.
struct TargetPrivate {
  size_t index;
  size_t size;
  size_t align;
};

// A target construct as the compiler hands it over.
struct TargetLaunch {
  void (*fn)(void*);          // the region; called with the argument vector
  void** hostaddrs;           // argument vector (mapnum entries)
  size_t mapnum;
  const TargetPrivate* privates;  // entries to copy privately
  size_t nprivates;
  int thread_limit;           // > 0: thread-limit-var of the region
  void** depend;              // depend clauses (libgomp layout) or null
  bool nowait;                // a deferrable target task
  unsigned num_teams;         // num_teams clause (0: none), for tools
  const void* codeptr_ra;     // the ABI call's return address, for tools
  int device;                 // emulated device, or -1: host fallback
  const MapItem* items;       // the map list (device >= 0), mapnum items
};

// Executes a target construct on the host. Without nowait the encountering
// task waits for the construct's dependences, then runs the region. With
// nowait the region becomes a target task, scheduled (and ordered by its
// dependences) like any explicit task; the caller's argument vector and
// private data are copied into it, so the caller may return at once.
void target_launch(const TargetLaunch& launch);

// The data-mapping constructs, which move no data on the host: what is
// left of each is the wait for its dependences (unless nowait: a target
// task with nothing to do is complete at once) and what tools are told.
// target data reports an enter-data construct at its start and an
// exit-data construct at its end, as OpenMP 5.2 §13.5 says.
// On an emulated device (device >= 0) the items are mapped, unmapped or
// updated; with nowait, by a target task (its dependences met first).
enum DataConstruct { kEnterData, kExitData, kUpdate };
void target_data_construct(DataConstruct kind, void** depend, bool nowait, const void* codeptr_ra,
                           int device = -1, const MapItem* items = nullptr, size_t n = 0);

// target data: the region's mapping stays until target_data_end.
// hostaddrs: the list's slots, which use_device_ptr/addr items update to
// device addresses for the construct's body.
void target_data_begin(int device, const MapItem* items, size_t n, void** hostaddrs,
                       const void* codeptr_ra);
void target_data_end(const void* codeptr_ra);

// One step of the league of a teams construct nested in a host target
// region (the loop gcc builds around GOMP_teams4): the first call opens the
// league, each call returns true while there is another team to run on the
// calling thread, and the league's team number advances between calls.
bool teams_in_target_step(unsigned num_teams_low, unsigned num_teams_high, unsigned thread_limit,
                          bool first);

// Legacy teams entry (GOMP_teams): applies the thread limit to the current
// initial task; the league is the one team already running.
// codeptr_ra / enter_frame: the GOMP_teams call's, for tools (the league is
// reported from here to the end of the target region).
void teams_in_target_legacy(unsigned num_teams, unsigned thread_limit,
                            const void* codeptr_ra = nullptr, void* enter_frame = nullptr);

// The team number and league size of the innermost enclosing teams region
// (0 and 1 outside any teams region), as seen from any thread of it.
int league_team_num(const Thread* me);
int league_size(const Thread* me);

// While it lives, the calling thread runs a new initial task with the given
// ICVs, outside every enclosing team, as the initial thread of a new
// contention group; the thread's former state comes back at destruction.
class InitialTaskScope {
 public:
  InitialTaskScope(Thread* me, const TaskIcvs& icv);
  ~InitialTaskScope();
  InitialTaskScope(const InitialTaskScope&) = delete;
  InitialTaskScope& operator=(const InitialTaskScope&) = delete;

 private:
  Thread* me_;
  Task task_;
  // The new group's accounting record (Thread::cg_busy): the thread itself
  // when no other thread counts on its record, else `shadow_`, a stand-in
  // built in `shadow_storage_` (the thread leads a team of its group that
  // is still running, and that team keeps counting on the thread).
  Thread* shadow_;
  alignas(Thread) unsigned char shadow_storage_[sizeof(Thread)];
  int cg_busy_;
  Team* team_;
  Task* task_saved_;
  int tid_;
  uint32_t ws_seq_;
  WorkShare* ws_cur_;
  long ord_lo_, ord_hi_;
  bool ord_held_;
  Thread* cg_root_;
  int league_num_, league_size_;
  int place_lo_, place_hi_;
};

}  // namespace kite
