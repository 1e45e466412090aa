/* parallel.c - tensorlib's thread pool (tl_parallel_for) and the shared thread count.
 *
 * A parallel region splits [0, n) into chunks that threads claim one at a time from one
 * atomic word (chunk count | next chunk). The calling thread claims chunks too, so a worker
 * that the OS has not scheduled yet claims nothing and costs nothing; a worker descheduled
 * in the middle of a chunk costs at most that chunk. Idle workers sleep on a condition
 * variable (no spinning), and the caller waits on one only for chunks still running.
 *
 * What keeps a second thread from ever costing time on a busy machine (issue 15):
 * - Workers run as SCHED_BATCH (Linux): a woken worker never preempts the thread running on
 *   the core it lands on. Without it, with the other core busy, the kernel put the woken
 *   worker on the caller's core and switched to it: the caller then sat descheduled in its
 *   wake call while the worker did the region alone (wake call 130 us for add 1e6, which is
 *   the whole op), plus two context switches.
 * - The caller times its first chunk before waking anyone and wakes workers only when the
 *   rest of the region (first chunk x chunks left) exceeds twice the workers' measured wake
 *   latency plus twice the wake call's own cost (both averaged over recent wakes). Idle, a
 *   worker starts within tens of microseconds and joins; with the other core busy it waits
 *   for a scheduler tick (milliseconds) and the region runs on the caller alone, paying
 *   neither the wake call (~7 us in this VM) nor a worker that arrives to hold the last
 *   chunk. Every 16th region that skips waking wakes anyway, so the estimate follows the
 *   machine from busy back to idle. Regions of fewer than 16 chunks (a split by rows or
 *   batch entries) wake at once: timing one of so few chunks first would serialise a large
 *   share of the work.
 * - Chunks of 1024 and more are rounded to a multiple of 64 indices, so a split of a flat
 *   element range starts every chunk on the same cache-line offset as element 0 (unaligned
 *   chunk starts made every vector load of add 1e6 float32 straddle two lines: +10% CPU).
 * - The caller never blocks while a chunk is unclaimed; at the end it spins for about two
 *   of its own chunk times (a running worker finishes by then) and then sleeps, which
 *   frees its core for a worker the kernel queued there.
 *
 * One region runs at a time: a second caller (another Python thread) or a nested call runs
 * its work serially on its own thread. pthread_atfork makes a forked child start with no
 * workers, so the child's first region creates fresh ones instead of waiting on dead ones. */
#include "core/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORKERS 255
/* Chunks per participating thread: enough that late or descheduled threads balance out. */
#define CHUNKS_PER_THREAD 32
/* Regions of at least this many chunks time their first chunk before waking workers. */
#define TIMED_MIN_CHUNKS 16
/* A region that skipped waking wakes anyway every this many, to re-measure the latency. */
#define PROBE_EVERY 16
/* Chunk sizes from this many indices up are multiples of CHUNK_ALIGN. */
#define ALIGN_FROM 1024
#define CHUNK_ALIGN 64
/* The caller's final spin, in ns: twice its chunk time, within these bounds. It never
 * sched_yield()s: on a busy machine that hands its core to another process. */
#define SPIN_MIN_NS 2000
#define SPIN_MAX_NS 50000
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
static atomic_int caller_waits; /* the caller is about to sleep on done_cv */

/* Wake statistics (ns, running averages): how long a woken worker takes to start, and what
 * the wake call costs the caller. wake_at (under sleep_lock) is when the last wake began. */
static _Atomic int64_t wake_latency, wake_cost;
static int64_t wake_at;
static int skipped; /* regions since the last wake that chose not to wake (pool_lock) */
static int always_wake; /* tests: wake for every region (pool_lock) */
static _Atomic uint64_t woken_regions;

static _Thread_local int in_region;

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Folds a sample into a running average (weight 1/4); racing updates may drop a sample. */
static void average_in(_Atomic int64_t *avg, int64_t sample)
{
    int64_t a = atomic_load_explicit(avg, memory_order_relaxed);
    atomic_store_explicit(avg, a ? a + (sample - a) / 4 : sample, memory_order_relaxed);
}

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
        /* seq_cst with the caller's store to caller_waits then load of done: either it
         * sees this chunk done or this thread sees it waiting and signals */
        if (atomic_fetch_add(&done, 1) + 1 == nch && atomic_load(&caller_waits)) {
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
#ifdef SCHED_BATCH
    /* a woken worker waits for its turn instead of preempting the thread on its core
     * (often the caller itself); allowed without privileges, so failure is not expected */
    struct sched_param sp = {0};
    pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp);
#endif
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&sleep_lock);
        while (wake_seq == seen) pthread_cond_wait(&wake_cv, &sleep_lock);
        seen = wake_seq;
        int wanted = id < wake_count;
        int64_t since = wake_at;
        pthread_mutex_unlock(&sleep_lock);
        if (wanted) {
            average_in(&wake_latency, now_ns() - since);
            work();
        }
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
    atomic_store(&caller_waits, 0);
    atomic_store(&wake_latency, 0);
    atomic_store(&wake_cost, 0);
    skipped = 0;
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
    int64_t chunk = n / nch + (n % nch != 0);
    if (chunk >= ALIGN_FROM) chunk = (chunk + CHUNK_ALIGN - 1) / CHUNK_ALIGN * CHUNK_ALIGN;
    nch = n / chunk + (n % chunk != 0);

    /* The first chunk, timed, on this thread alone: nothing is published yet. */
    int64_t first = 0, spin_ns = SPIN_MAX_NS;
    if (nch >= TIMED_MIN_CHUNKS) {
        int64_t t0 = now_ns();
        in_region = 1;
        fn(0, chunk, ctx);
        in_region = 0;
        int64_t per = now_ns() - t0;
        first = 1;
        spin_ns = 2 * per < SPIN_MIN_NS ? SPIN_MIN_NS : 2 * per > SPIN_MAX_NS ? SPIN_MAX_NS : 2 * per;
        int64_t rest = per * (nch - 1);
        int64_t lat = atomic_load_explicit(&wake_latency, memory_order_relaxed);
        int64_t cost = atomic_load_explicit(&wake_cost, memory_order_relaxed);
        if (!always_wake && rest <= 2 * lat + 2 * cost && ++skipped < PROBE_EVERY) {
            pthread_mutex_unlock(&pool_lock);
            in_region = 1;
            fn(chunk, n, ctx);
            in_region = 0;
            return;
        }
    }
    skipped = 0;
    job_chunk = chunk;
    job_fn = fn;
    job_ctx = ctx;
    job_n = n;
    atomic_store_explicit(&done, (uint32_t)first, memory_order_relaxed);
    atomic_store_explicit(&claim, (uint64_t)nch << 32 | (uint64_t)first, memory_order_release);

    int64_t t0 = now_ns();
    pthread_mutex_lock(&sleep_lock);
    wake_seq++;
    wake_count = nt - 1;
    wake_at = t0;
    pthread_mutex_unlock(&sleep_lock);
    pthread_cond_broadcast(&wake_cv);
    average_in(&wake_cost, now_ns() - t0);
    atomic_fetch_add_explicit(&woken_regions, 1, memory_order_relaxed);

    work();
    /* Every chunk is claimed; wait only for the ones other threads are still running. */
    if (atomic_load_explicit(&done, memory_order_acquire) != (uint32_t)nch) {
        int64_t until = now_ns() + spin_ns;
        do {
            for (int i = 0; i < 64; i++) CPU_RELAX();
        } while (atomic_load_explicit(&done, memory_order_acquire) != (uint32_t)nch && now_ns() < until);
    }
    atomic_store(&caller_waits, 1);
    if (atomic_load(&done) != (uint32_t)nch) {
        pthread_mutex_lock(&sleep_lock);
        while (atomic_load_explicit(&done, memory_order_acquire) != (uint32_t)nch)
            pthread_cond_wait(&done_cv, &sleep_lock);
        pthread_mutex_unlock(&sleep_lock);
    }
    atomic_store_explicit(&caller_waits, 0, memory_order_relaxed);
    pthread_mutex_unlock(&pool_lock);
}

/* ---- for the tests (tensorlib._C._pool_cover) ---------------------------------------- */

typedef struct { _Atomic int32_t *counts; int64_t grain; int nested; } cover_ctx;

static void cover_range(int64_t b, int64_t e, void *p)
{
    cover_ctx *c = p;
    if (c->nested && e - b > 1) {
        /* a region inside a region runs serially on this thread, over the same indices */
        cover_ctx inner = {c->counts, 1, 0};
        int64_t h = b + (e - b) / 2;
        cover_range(b, h, &inner);
        tl_parallel_for(e - h, 1, cover_range, &(cover_ctx){c->counts + h, 1, 0});
        return;
    }
    for (int64_t i = b; i < e; i++) atomic_fetch_add_explicit(&c->counts[i], 1, memory_order_relaxed);
}

uint64_t tl_parallel_cover(int64_t n, int64_t grain, int nested, int wake, int32_t *counts)
{
    cover_ctx c = {(_Atomic int32_t *)counts, grain, nested};
    pthread_mutex_lock(&pool_lock);
    always_wake = wake;
    pthread_mutex_unlock(&pool_lock);
    uint64_t before = atomic_load(&woken_regions);
    tl_parallel_for(n, grain, cover_range, &c);
    uint64_t woke = atomic_load(&woken_regions) - before;
    pthread_mutex_lock(&pool_lock);
    always_wake = 0;
    pthread_mutex_unlock(&pool_lock);
    return woke;
}

void tl_parallel_stats(int64_t *latency_ns, int64_t *cost_ns, uint64_t *woken)
{
    *latency_ns = atomic_load_explicit(&wake_latency, memory_order_relaxed);
    *cost_ns = atomic_load_explicit(&wake_cost, memory_order_relaxed);
    *woken = atomic_load_explicit(&woken_regions, memory_order_relaxed);
}
