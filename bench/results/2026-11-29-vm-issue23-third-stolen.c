// Issue 23, third pass: time a thread does not run. Build: gcc -O2 -fopenmp THIS.c -o gap
// Run under a tool: OMP_TOOL_LIBRARIES=... LD_LIBRARY_PATH=<kite build>/gomp ./gap SECONDS
// Stolen-time probe: one thread spins reading the TSC for SECS seconds and
// sums every gap over 500 ns between two reads (time it did not run).
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
#include <time.h>
#include <omp.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  double secs=argc>1?atof(argv[1]):2.0;
  // calibrate
  double t0=now(); unsigned long long c0=__rdtsc(); while(now()-t0<0.05); double ghz=(__rdtsc()-c0)/((now()-t0)*1e9);
  unsigned long long thr=(unsigned long long)(500*ghz);
  #pragma omp parallel
  {
    unsigned long long gaps=0, stolen=0, last=__rdtsc(), end=last+(unsigned long long)(secs*1e9*ghz);
    unsigned long long hist[8]={0};
    while(1){unsigned long long t=__rdtsc(); unsigned long long d=t-last; last=t; if(d>thr){gaps++;stolen+=d; double us=d/ghz/1000; int b=us<2?0:us<5?1:us<10?2:us<20?3:us<50?4:us<100?5:us<1000?6:7; hist[b]++;} if(t>end)break;}
    #pragma omp critical
    printf("thread %d: %llu gaps, stolen %.3f ms (%.3f%%), mean %.2f us; <2:%llu <5:%llu <10:%llu <20:%llu <50:%llu <100:%llu <1000:%llu more:%llu\n",omp_get_thread_num(),gaps,stolen/ghz/1e6,stolen/ghz/1e7/secs,gaps?stolen/ghz/1000/gaps:0,hist[0],hist[1],hist[2],hist[3],hist[4],hist[5],hist[6],hist[7]);
  }
  puts("OK");
}
