/* The floor of a CSR SpMV whose columns are uniform random (benchmarks/bench_sparse.py's
 * matrices): sum_k v[k] * x[col[k]] over nnz entries without the row structure, the gather
 * alone, and the streams alone (no gather), at 1 or 2 threads, per-thread CPU time (the
 * machine is shared: wall time is reported too but only means something when it is quiet).
 * Every gathered element costs a 64-byte line of x from L2 (1e5 columns) or L3 (1e6 columns),
 * so at 1e7 nnz the work is ~640 MB of L3 line traffic whatever the kernel does.
 *   gcc -O3 -march=native -pthread benchmarks/spmv_gather_floor.c -o /tmp/g
 *   /tmp/g 10000000 1000000 2      # nnz, columns, threads */

// the row structure), and the gather alone (x[col[k]] summed); per-thread CPU time.
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <pthread.h>
#include <string.h>
typedef struct { const int32_t *c; const void *v; const void *x; int64_t lo, hi; int dbl, mode; double sum, cpu; } job;
static double tcpu(void){ struct timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t); return t.tv_sec+t.tv_nsec*1e-9; }
static void *run(void *p){ job *j=p; double t0=tcpu();
  if(!j->dbl){ const float *x=j->x,*v=j->v; float s[16]={0};
    if(j->mode==0) for(int64_t k=j->lo;k<j->hi;k+=16) for(int l=0;l<16;l++) s[l]+=v[k+l]*x[j->c[k+l]];
    else if(j->mode==1) for(int64_t k=j->lo;k<j->hi;k+=16) for(int l=0;l<16;l++) s[l]+=x[j->c[k+l]];
    else for(int64_t k=j->lo;k<j->hi;k+=16) for(int l=0;l<16;l++) s[l]+=v[k+l]*(float)j->c[k+l];
    double a=0; for(int l=0;l<16;l++) a+=s[l]; j->sum=a;
  } else { const double *x=j->x,*v=j->v; double s[8]={0};
    if(j->mode==0) for(int64_t k=j->lo;k<j->hi;k+=8) for(int l=0;l<8;l++) s[l]+=v[k+l]*x[j->c[k+l]];
    else if(j->mode==1) for(int64_t k=j->lo;k<j->hi;k+=8) for(int l=0;l<8;l++) s[l]+=x[j->c[k+l]];
    else for(int64_t k=j->lo;k<j->hi;k+=8) for(int l=0;l<8;l++) s[l]+=v[k+l]*(double)j->c[k+l];
    double a=0; for(int l=0;l<8;l++) a+=s[l]; j->sum=a; }
  j->cpu=tcpu()-t0; return NULL; }
int main(int argc,char**argv){ int64_t nnz=atoll(argv[1]), n=atoll(argv[2]); int nt=atoi(argv[3]);
  int32_t *c=malloc(nnz*4); double *vd=malloc(nnz*8), *xd=malloc(n*8); float *vf=malloc(nnz*4), *xf=malloc(n*4);
  uint64_t s=88172645463325252ull; for(int64_t k=0;k<nnz;k++){ s^=s<<13;s^=s>>7;s^=s<<17; c[k]=(int32_t)(s%n); vd[k]=vf[k]=(k&7)*0.5; }
  for(int64_t i=0;i<n;i++) xd[i]=xf[i]=i*1e-6;
  const char *mn[3]={"v*x[col]","x[col] only","v*col (streams, no gather)"};
  for(int dbl=0;dbl<2;dbl++) for(int mode=0;mode<3;mode++){ double best=1e9, bw=1e9;
    for(int rep=0;rep<15;rep++){ job j[2]; pthread_t th[2]; struct timespec w0,w1; clock_gettime(CLOCK_MONOTONIC,&w0);
      for(int t=0;t<nt;t++){ j[t]=(job){c,dbl?(void*)vd:(void*)vf,dbl?(void*)xd:(void*)xf,nnz*t/nt/16*16,t==nt-1?nnz:nnz*(t+1)/nt/16*16,dbl,mode,0,0}; pthread_create(&th[t],0,run,&j[t]); }
      double mx=0; for(int t=0;t<nt;t++){ pthread_join(th[t],0); if(j[t].cpu>mx) mx=j[t].cpu; }
      clock_gettime(CLOCK_MONOTONIC,&w1); double w=(w1.tv_sec-w0.tv_sec)+(w1.tv_nsec-w0.tv_nsec)*1e-9;
      if(mx<best) best=mx;
      if(w<bw) bw=w; }
    printf("%s nnz=%lld n=%lld thr=%d %-28s max-thread-cpu %.2f ms (%.2f G/s)  wall min %.2f ms (%.2f G/s)\n", dbl?"f64":"f32",(long long)nnz,(long long)n,nt,mn[mode],best*1e3,nnz/best*1e-9,bw*1e3,nnz/bw*1e-9); }
  return 0; }
