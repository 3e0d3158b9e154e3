// Issue 23, third pass: what one SIGPROF sample costs. Build: gcc -O2 THIS.c -o sig -lunwind
// Run: ./sig SECONDS RATE_HZ MODE(0 empty handler, 1 unw_backtrace, 2 twice) none|thread|global
// SIGPROF sampling cost: per-thread CLOCK_MONOTONIC timer at RATE Hz, handler
// MODE: 0 empty, 1 unw_backtrace; POLICY none|thread|global. Spins SECS and
// reports stolen time (gaps) and mean handler time.
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <x86intrin.h>
static int mode; static volatile unsigned long long hsum, hn;
static unsigned long long hs[100000]; static volatile unsigned long long h2sum;
static void h(int s, siginfo_t *si, void *uc){ unsigned long long t=__rdtsc(); void*b[64]; if(mode){ unw_backtrace(b,64);} unsigned long long d=__rdtsc()-t; hsum+=d; if(hn<100000) hs[hn]=d; hn++; if(mode==2){t=__rdtsc(); unw_backtrace(b,64); h2sum+=__rdtsc()-t;} }
static int cmp(const void*a,const void*b){unsigned long long x=*(unsigned long long*)a,y=*(unsigned long long*)b;return x<y?-1:x>y;}
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
__attribute__((noinline)) static unsigned long long spin(unsigned long long end, double ghz, unsigned long long *stolen, unsigned long long *gaps){
  unsigned long long last=__rdtsc(), thr=(unsigned long long)(500*ghz);
  while(1){unsigned long long t=__rdtsc(),d=t-last; last=t; if(d>thr){(*gaps)++;*stolen+=d;} if(t>end)return t;}
}
__attribute__((noinline)) static unsigned long long f2(unsigned long long e,double g,unsigned long long*s,unsigned long long*n){return spin(e,g,s,n)+1;}
__attribute__((noinline)) static unsigned long long f1(unsigned long long e,double g,unsigned long long*s,unsigned long long*n){return f2(e,g,s,n)+1;}
int main(int argc,char**argv){
  double secs=atof(argv[1]); int rate=atoi(argv[2]); mode=atoi(argv[3]); const char*pol=argv[4];
  if(!strcmp(pol,"none")) unw_set_caching_policy(unw_local_addr_space,UNW_CACHE_NONE);
  else if(!strcmp(pol,"thread")) unw_set_caching_policy(unw_local_addr_space,UNW_CACHE_PER_THREAD);
  else unw_set_caching_policy(unw_local_addr_space,UNW_CACHE_GLOBAL);
  double t0=now(); unsigned long long c0=__rdtsc(); while(now()-t0<0.05); double ghz=(__rdtsc()-c0)/((now()-t0)*1e9);
  struct sigaction sa; memset(&sa,0,sizeof sa); sa.sa_sigaction=h; sa.sa_flags=SA_SIGINFO|SA_RESTART; sigaction(SIGPROF,&sa,0);
  if(rate){ timer_t tm; struct sigevent sev; memset(&sev,0,sizeof sev); sev.sigev_notify=SIGEV_THREAD_ID; sev.sigev_signo=SIGPROF; sev._sigev_un._tid=syscall(SYS_gettid);
    timer_create(CLOCK_MONOTONIC,&sev,&tm); struct itimerspec its={{0,1000000000/rate},{0,1000000000/rate}}; timer_settime(tm,0,&its,0);}
  unsigned long long stolen=0,gaps=0; f1(__rdtsc()+(unsigned long long)(secs*1e9*ghz),ghz,&stolen,&gaps);
  qsort(hs,hn<100000?hn:100000,8,cmp); printf("median handler %.2f us, second call mean %.2f us; ",hn?hs[hn/2]/ghz/1000:0,hn?h2sum/ghz/1000/hn:0);
  printf("rate %d mode %d %s: stolen %.2f%% (%llu gaps), samples %llu, handler mean %.2f us, stolen per sample %.1f us\n",rate,mode,pol,stolen/ghz/1e7/secs,gaps,hn,hn?hsum/ghz/1000/hn:0,hn?(stolen/ghz/1000)/hn:0);
}
