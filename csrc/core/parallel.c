/* parallel.c - tensorlib's thread pool (tl_parallel_for) and the shared thread count.
 *
 * A parallel region splits [0, n) into chunks that threads claim one at a time from one
 * atomic word (chunk count | next chunk). The calling thread claims chunks too, so a worker
 * that the OS has not scheduled yet claims nothing and costs nothing; a worker descheduled
 * in the middle of a chunk costs at most that chunk. Idle workers sleep on a condition
 * variable (no spinning), and the caller waits on one only for chunks still running.
 * One region runs at a time: a second caller (another Python thread) or a nested call runs
 * its work serially on its own thread. pthread_atfork makes a forked child start with no
 * workers, so the child's first region creates fresh ones instead of waiting on dead ones. */
#include "core/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_WORKERS 255
/* Chunks per participating thread: enough that late or descheduled threads balance out. */
#define CHUNKS_PER_THREAD 32
/* Polls of the done counter before the caller sleeps (tens of microseconds). The caller
 * never sched_yield()s: on a busy machine that hands its core to another process. */
#define WAIT_SPINS 1000
#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

static atomic_int num_threads; /* 0 until first asked or set */

/* The BLAS is told about thread changes through this hook (set by the linalg code). */
void (*tl_blas_set_threads_hook)(int) = 0;

/* pool_lock: held by the caller that owns the pool for one region (and while workers are
 * created). sleep_lock guards wake_seq/wake_count and the two condition variables. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t sleep_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static uint64_t wake_seq;
static int wake_count, nworkers;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* The current region: written by the owner before `claim` is published, read by a thread
 * only after it has claimed a chunk (so the region cannot have finished meanwhile). */
static void (*job_fn)(int64_t, int64_t, void *);
static void *job_ctx;
static int64_t job_n, job_chunk;
static _Atomic uint64_t claim; /* chunk count << 32 | next unclaimed chunk */
static _Atomic uint32_t done;  /* chunks finished */

static _Thread_local int in_region;

static int default_threads(void)
{
    const char *env = getenv("OMP_NUM_THREADS");
    if (env && *env) {
        long v = strtol(env, NULL, 10);
        if (v > 0) return v > MAX_WORKERS + 1 ? MAX_WORKERS + 1 : (int)v;
    }
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (n > MAX_WORKERS + 1 ? MAX_WORKERS + 1 : (int)n) : 1;
}

int tl_get_num_threads(void)
{
    int n = atomic_load_explicit(&num_threads, memory_order_relaxed);
    if (n <= 0) {
        n = default_threads();
        atomic_store_explicit(&num_threads, n, memory_order_relaxed);
    }
    return n;
}

void tl_set_num_threads(int n)
{
    n = n < 1 ? 1 : n > MAX_WORKERS + 1 ? MAX_WORKERS + 1 : n;
    atomic_store_explicit(&num_threads, n, memory_order_relaxed);
    if (tl_blas_set_threads_hook) tl_blas_set_threads_hook(n);
}

/* Claims and runs chunks of the current region until none is left. */
static void work(void)
{
    in_region = 1;
    uint64_t v = atomic_load_explicit(&claim, memory_order_acquire);
    for (;;) {
        uint32_t idx = (uint32_t)v, nch = (uint32_t)(v >> 32);
        if (idx >= nch) break;
        if (!atomic_compare_exchange_weak_explicit(&claim, &v, v + 1, memory_order_acq_rel, memory_order_acquire))
            continue;
        int64_t b = (int64_t)idx * job_chunk, e = b + job_chunk < job_n ? b + job_chunk : job_n;
        job_fn(b, e, job_ctx);
        if (atomic_fetch_add_explicit(&done, 1, memory_order_acq_rel) + 1 == nch) {
            pthread_mutex_lock(&sleep_lock);
            pthread_cond_signal(&done_cv);
            pthread_mutex_unlock(&sleep_lock);
        }
        v = atomic_load_explicit(&claim, memory_order_acquire);
    }
    in_region = 0;
}

static void *worker_main(void *arg)
{
    int id = (int)(intptr_t)arg;
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&sleep_lock);
        while (wake_seq == seen) pthread_cond_wait(&wake_cv, &sleep_lock);
        seen = wake_seq;
        int wanted = id < wake_count;
        pthread_mutex_unlock(&sleep_lock);
        if (wanted) work();
    }
    return NULL;
}

static void atfork_prepare(void)
{
    pthread_mutex_lock(&pool_lock);
    pthread_mutex_lock(&sleep_lock);
}

static void atfork_parent(void)
{
    pthread_mutex_unlock(&sleep_lock);
    pthread_mutex_unlock(&pool_lock);
}

/* The child has only the forking thread, which holds both locks (atfork_prepare): forget
 * the workers (they do not exist there) and the condition variables they waited on. */
static void atfork_child(void)
{
    pthread_cond_init(&wake_cv, NULL);
    pthread_cond_init(&done_cv, NULL);
    nworkers = 0;
    wake_seq = 0;
    wake_count = 0;
    atomic_store(&claim, 0);
    atomic_store(&done, 0);
    in_region = 0;
    pthread_mutex_unlock(&sleep_lock);
    pthread_mutex_unlock(&pool_lock);
}

static void register_atfork(void) { pthread_atfork(atfork_prepare, atfork_parent, atfork_child); }

/* Starts workers until `want` exist (pool_lock held); returns how many exist. Workers
 * block all signals so Python's handlers keep running on the main thread. */
static int ensure_workers(int want)
{
    pthread_once(&atfork_once, register_atfork);
    if (want > MAX_WORKERS) want = MAX_WORKERS;
    if (nworkers >= want) return nworkers;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    while (nworkers < want) {
        pthread_t t;
        if (pthread_create(&t, &attr, worker_main, (void *)(intptr_t)nworkers) != 0) break;
        nworkers++;
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return nworkers;
}

void tl_parallel_for(int64_t n, int64_t grain, void (*fn)(int64_t, int64_t, void *), void *ctx)
{
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    int nt = tl_get_num_threads();
    int64_t max_chunks = n / grain + (n % grain != 0);
    if (nt <= 1 || max_chunks < 2 || in_region || pthread_mutex_trylock(&pool_lock) != 0) {
        fn(0, n, ctx);
        return;
    }
    if (nt > max_chunks) nt = (int)max_chunks;
    int have = ensure_workers(nt - 1);
    if (have + 1 < nt) nt = have + 1;
    if (nt <= 1) {
        pthread_mutex_unlock(&pool_lock);
        fn(0, n, ctx);
        return;
    }
    int64_t nch = (int64_t)nt * CHUNKS_PER_THREAD < max_chunks ? (int64_t)nt * CHUNKS_PER_THREAD : max_chunks;
    job_chunk = n / nch + (n % nch != 0);
    nch = n / job_chunk + (n % job_chunk != 0);
    job_fn = fn;
    job_ctx = ctx;
    job_n = n;
    atomic_store_explicit(&done, 0, memory_order_relaxed);
    atomic_store_explicit(&claim, (uint64_t)nch << 32, memory_order_release);

    pthread_mutex_lock(&sleep_lock);
    wake_seq++;
    wake_count = nt - 1;
    pthread_cond_broadcast(&wake_cv);
    pthread_mutex_unlock(&sleep_lock);

    work();
    /* Every chunk is claimed; wait only for the ones other threads are still running. */
    for (int i = 0; i < WAIT_SPINS && atomic_load_explicit(&done, memory_order_acquire) != (uint32_t)nch; i++)
        CPU_RELAX();
    if (atomic_load_explicit(&done, memory_order_acquire) != (uint32_t)nch) {
        pthread_mutex_lock(&sleep_lock);
        while (atomic_load_explicit(&done, memory_order_acquire) != (uint32_t)nch)
            pthread_cond_wait(&done_cv, &sleep_lock);
        pthread_mutex_unlock(&sleep_lock);
    }
    pthread_mutex_unlock(&pool_lock);
}
