/* sort.c - rows of (key, index) pairs on order-preserving 64-bit keys: a stable LSD radix
 * sort for sort/argsort/median/unique, and torch's own selection and sorting algorithms for
 * topk/kthvalue/mode (so equal values report torch's indices). */
#include "ops/sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/reduce_core.h"
#include "backend/backend.h"
#include "backend/sort_core.h"
#include "core/error.h"
#include "core/parallel.h"
#include "kernels/reduce_kernels.h"
#include "ops/copy.h"
#include "ops/reduce.h"
#include "ops/reduce_plan.h"

static inline uint64_t key_f64(double v)
{
    if (v != v) return UINT64_MAX;
    if (v == 0) v = 0;
    uint64_t u;
    memcpy(&u, &v, 8);
    return (u >> 63) ? ~u : u | ((uint64_t)1 << 63);
}

static inline uint64_t key_at(const char *row, int64_t i, tl_dtype bt)
{
    if (bt == TL_FLOAT64) return key_f64(((const double *)row)[i]);
    if (bt == TL_FLOAT32) return key_f64(((const float *)row)[i]);
    if (bt == TL_UINT64) return ((const uint64_t *)row)[i];
    return (uint64_t)((const int64_t *)row)[i] ^ ((uint64_t)1 << 63);
}

void tl_sort_keys(tl_kv *kv, const char *row, int64_t n, tl_dtype bt)
{
    if (bt == TL_FLOAT64) {
        const double *p = (const double *)row;
        for (int64_t i = 0; i < n; i++) kv[i].key = key_f64(p[i]), kv[i].idx = i;
    } else if (bt == TL_FLOAT32) {
        const float *p = (const float *)row;
        for (int64_t i = 0; i < n; i++) kv[i].key = key_f64(p[i]), kv[i].idx = i;
    } else if (bt == TL_UINT64) { /* already ordered: no sign bit to flip */
        const uint64_t *p = (const uint64_t *)row;
        for (int64_t i = 0; i < n; i++) kv[i].key = p[i], kv[i].idx = i;
    } else {
        const int64_t *p = (const int64_t *)row;
        for (int64_t i = 0; i < n; i++) kv[i].key = (uint64_t)p[i] ^ ((uint64_t)1 << 63), kv[i].idx = i;
    }
}

/* ---- torch's orders among equal values ------------------------------------------------
 * Which index torch reports among equal values in topk, kthvalue and mode follows from the
 * selection and sorting algorithms it runs, so those are reproduced step for step: for
 * kthvalue a median-of-three Hoare quickselect, for topk and mode the partial_sort,
 * nth_element and introsort of the C++ standard library torch is built with (libstdc++).
 * The comparator: the order-preserving keys (NaN largest, -0 == 0) ascending or
 * descending, or, for mode's float rows, raw double values under `<` (each NaN alone). */

typedef enum { KV_KEY_LT, KV_KEY_GT, KV_VAL_LT } kv_cmp;

static inline bool kv_before(const tl_kv *x, const tl_kv *y, kv_cmp c)
{
    if (c == KV_KEY_LT) return x->key < y->key;
    if (c == KV_KEY_GT) return x->key > y->key;
    double a, b;
    memcpy(&a, &x->key, 8);
    memcpy(&b, &y->key, 8);
    return a < b;
}

#define KV_SWAP(i, j) do { tl_kv t_ = a[i]; a[i] = a[j]; a[j] = t_; } while (0)

/* kthvalue: moves the k-th smallest key (0-based) to a[k]. */
static void quickselect_kv(tl_kv *a, int64_t n, int64_t k)
{
    int64_t L = 0, R = n - 1;
    while (R > L) {
        if (R == L + 1) {
            if (a[L].key > a[R].key) KV_SWAP(L, R);
            return;
        }
        int64_t P = (L + R) >> 1;
        KV_SWAP(P, L + 1);
        if (a[L + 1].key > a[R].key) KV_SWAP(L + 1, R);
        if (a[L].key > a[R].key) KV_SWAP(L, R);
        if (a[L + 1].key > a[L].key) KV_SWAP(L + 1, L);
        int64_t i = L + 1, j = R;
        uint64_t piv = a[L].key;
        for (;;) {
            do i++; while (piv > a[i].key);
            do j--; while (a[j].key > piv);
            if (j < i) break;
            KV_SWAP(i, j);
        }
        KV_SWAP(L, j);
        if (j <= k) L = i;
        if (j >= k) R = j - 1;
    }
}

/* Binary heap on a[0..len) with the "largest" element (under c) on top. */
static void heap_adjust(tl_kv *a, int64_t hole, int64_t len, tl_kv v, kv_cmp c)
{
    int64_t top = hole, child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (kv_before(&a[child], &a[child - 1], c)) child--;
        a[hole] = a[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        a[hole] = a[child - 1];
        hole = child - 1;
    }
    for (int64_t parent = (hole - 1) / 2; hole > top && kv_before(&a[parent], &v, c); parent = (hole - 1) / 2) {
        a[hole] = a[parent];
        hole = parent;
    }
    a[hole] = v;
}

static void heap_pop(tl_kv *a, int64_t len, int64_t to, kv_cmp c)
{
    tl_kv v = a[to];
    a[to] = a[0];
    heap_adjust(a, 0, len, v, c);
}

/* The m first of n elements (in sorted order) to a heap on a[0..m). */
static void heap_select_kv(tl_kv *a, int64_t m, int64_t n, kv_cmp c)
{
    for (int64_t parent = (m - 2) / 2; m >= 2 && parent >= 0; parent--) heap_adjust(a, parent, m, a[parent], c);
    for (int64_t i = m; i < n; i++)
        if (kv_before(&a[i], &a[0], c)) heap_pop(a, m, i, c);
}

/* std::partial_sort: the m first elements of n in order, the rest after them. */
static void partial_sort_kv(tl_kv *a, int64_t m, int64_t n, kv_cmp c)
{
    heap_select_kv(a, m, n, c);
    for (int64_t l = m - 1; l > 0; l--) heap_pop(a, l, l, c);
}

/* Whether any of p[0..n) could come before the heap top t (a raw value of the row): the
 * key order in the row's own type (NaN's key is the largest, -0 and +0 share a key), as
 * loops the compiler vectorizes. False only when none does. */
#define TOPK_ANY(NAME, T, ISF)                                                            \
    static bool NAME(const T *p, int64_t n, T t, bool desc)                               \
    {                                                                                     \
        int hit = 0;                                                                      \
        if (desc) {                                                                       \
            int tn = ISF ? t == t : 1;                                                    \
            for (int64_t i = 0; i < n; i++) hit |= (p[i] > t) | (ISF && (p[i] != p[i]) & tn); \
        } else {                                                                          \
            int tnan = ISF ? t != t : 0;                                                  \
            for (int64_t i = 0; i < n; i++) hit |= (p[i] < t) | (ISF && (p[i] == p[i]) & tnan); \
        }                                                                                 \
        return hit != 0;                                                                  \
    }
TOPK_ANY(topk_any_f32, float, 1)
TOPK_ANY(topk_any_f64, double, 1)
TOPK_ANY(topk_any_i64, int64_t, 0)
TOPK_ANY(topk_any_u64, uint64_t, 0)

static bool topk_any(const char *row, int64_t i, int64_t n, int64_t top, tl_dtype bt, bool desc)
{
    switch (bt) {
    case TL_FLOAT32: return topk_any_f32((const float *)row + i, n, ((const float *)row)[top], desc);
    case TL_FLOAT64: return topk_any_f64((const double *)row + i, n, ((const double *)row)[top], desc);
    case TL_UINT64: return topk_any_u64((const uint64_t *)row + i, n, ((const uint64_t *)row)[top], desc);
    default: return topk_any_i64((const int64_t *)row + i, n, ((const int64_t *)row)[top], desc);
    }
}

/* The same partial_sort over the keys of row[0..n) with only the m kept pairs stored:
 * an element beyond m is read once, and the heap top it displaces is never read again.
 * Runs of TOPK_RUN elements none of which comes before the heap top are skipped whole (the
 * top changes rarely once the heap holds good values); a run with one is taken element by
 * element as before, so the heap sees the same elements in the same order. */
#define TOPK_RUN 16
static void partial_sort_row(tl_kv *a, int64_t m, const char *row, int64_t n, tl_dtype bt, kv_cmp c)
{
    tl_sort_keys(a, row, m, bt);
    for (int64_t parent = (m - 2) / 2; m >= 2 && parent >= 0; parent--) heap_adjust(a, parent, m, a[parent], c);
    for (int64_t i = m; i < n;) {
        int64_t e = n - i < TOPK_RUN ? n : i + TOPK_RUN;
        if (topk_any(row, i, e - i, a[0].idx, bt, c == KV_KEY_GT))
            for (; i < e; i++) {
                tl_kv v = {key_at(row, i, bt), i};
                if (kv_before(&v, &a[0], c)) heap_adjust(a, 0, m, v, c);
            }
        i = e;
    }
    for (int64_t l = m - 1; l > 0; l--) heap_pop(a, l, l, c);
}

/* Median of a[1], a[mid], a[n-1] to a[0], then an unguarded partition around it; returns
 * the cut. The scan bounds never bind for an ordering; they keep mode's NaN rows in memory. */
static int64_t pivot_partition(tl_kv *a, int64_t n, kv_cmp c)
{
    int64_t x = 1, y = n / 2, z = n - 1, m;
    if (kv_before(&a[x], &a[y], c)) m = kv_before(&a[y], &a[z], c) ? y : kv_before(&a[x], &a[z], c) ? z : x;
    else m = kv_before(&a[x], &a[z], c) ? x : kv_before(&a[y], &a[z], c) ? z : y;
    KV_SWAP(0, m);
    int64_t lo = 1, hi = n;
    for (;;) {
        while (lo < n - 1 && kv_before(&a[lo], &a[0], c)) lo++;
        hi--;
        while (hi > 0 && kv_before(&a[0], &a[hi], c)) hi--;
        if (!(lo < hi)) return lo;
        KV_SWAP(lo, hi);
        lo++;
    }
}

static void linear_insert(tl_kv *a, int64_t i, kv_cmp c)
{
    tl_kv v = a[i];
    for (; i > 0 && kv_before(&v, &a[i - 1], c); i--) a[i] = a[i - 1];
    a[i] = v;
}

static void insertion_sort_cmp(tl_kv *a, int64_t n, kv_cmp c)
{
    for (int64_t i = 1; i < n; i++) {
        if (kv_before(&a[i], &a[0], c)) {
            tl_kv v = a[i];
            memmove(a + 1, a, sizeof(tl_kv) * (size_t)i);
            a[0] = v;
        } else {
            linear_insert(a, i, c);
        }
    }
}

static int floor_log2(int64_t n)
{
    int lg = 0;
    while (((int64_t)1 << (lg + 1)) <= n) lg++;
    return lg;
}

static void introsort_loop(tl_kv *a, int64_t n, int depth, kv_cmp c)
{
    while (n > 16) {
        if (depth == 0) {
            partial_sort_kv(a, n, n, c);
            return;
        }
        depth--;
        int64_t cut = pivot_partition(a, n, c);
        introsort_loop(a + cut, n - cut, depth, c);
        n = cut;
    }
}

/* std::sort */
static void intro_sort_kv(tl_kv *a, int64_t n, kv_cmp c)
{
    if (n < 2) return;
    introsort_loop(a, n, 2 * floor_log2(n), c);
    insertion_sort_cmp(a, n > 16 ? 16 : n, c);
    for (int64_t i = 16; i < n; i++) linear_insert(a, i, c);
}

/* std::nth_element: a[k] is the element sorted order puts there. */
static void nth_element_kv(tl_kv *a, int64_t n, int64_t k, kv_cmp c)
{
    if (k >= n) return;
    int depth = 2 * floor_log2(n);
    while (n > 3) {
        if (depth == 0) {
            heap_select_kv(a, k + 1, n, c);
            tl_kv t = a[0];
            a[0] = a[k];
            a[k] = t;
            return;
        }
        depth--;
        int64_t cut = pivot_partition(a, n, c);
        if (cut <= k) {
            a += cut;
            n -= cut;
            k -= cut;
        } else {
            n = cut;
        }
    }
    insertion_sort_cmp(a, n, c);
}
#undef KV_SWAP

/* ---- the stable sort: LSD radix on the keys ---- */

void tl_sort_kv(tl_kv *a, int64_t n, tl_kv *tmp)
{
    if (n <= 32) {
        insertion_sort_cmp(a, n, KV_KEY_LT); /* stable for a total order */
        return;
    }
    static const int B = 8;
    int64_t (*cnt)[256] = calloc(B, sizeof(*cnt));
    if (!cnt) { /* fall back to insertion sort rather than fail mid-op */
        insertion_sort_cmp(a, n, KV_KEY_LT); /* stable for a total order */
        return;
    }
    for (int64_t i = 0; i < n; i++)
        for (int b = 0; b < B; b++) cnt[b][(a[i].key >> (8 * b)) & 255]++;
    tl_kv *src = a, *dst = tmp;
    for (int b = 0; b < B; b++) {
        if (cnt[b][(a[0].key >> (8 * b)) & 255] == n) continue; /* every key shares this byte */
        int64_t pos = 0;
        for (int k = 0; k < 256; k++) {
            int64_t c = cnt[b][k];
            cnt[b][k] = pos;
            pos += c;
        }
        for (int64_t i = 0; i < n; i++) dst[cnt[b][(src[i].key >> (8 * b)) & 255]++] = src[i];
        tl_kv *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, sizeof(tl_kv) * (size_t)n);
    free(cnt);
}

tl_dtype tl_sort_key_dtype(tl_dtype d) { return tl_dtype_is_float(d) ? TL_FLOAT64 : tl_rplan_buffer_dtype(d); }

/* uints: whether the op takes the unsigned integer shells (uint16/32/64) */
static int check_sortable(const tl_tensor *x, const char *what, bool uints)
{
    if (tl_dtype_is_complex((tl_dtype)x->dtype)) {
        if (!strcmp(what, "sort")) return tl_err(TL_ERR_RUNTIME, " Sort does not support complex dtypes on CPU");
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)(x->dtype), "%s_cpu", what);
    }
    if (tl_dtype_is_shell((tl_dtype)x->dtype) && !(uints && tl_red_dtype_ok((tl_dtype)x->dtype)))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)(x->dtype), "%s_cpu", what);
    return 0;
}

/* ---- kthvalue by radix select ---------------------------------------------------------
 * The k-th smallest key by its digits, most significant first (12 bits at a time: 52, 40,
 * 28, 16, 4, then the last 4): a histogram of the row's top digits picks the bucket holding
 * rank k, the keys in it are gathered (with the histogram of their next digit), and so on
 * until the bucket holds one key or the digits run out. When no other element shares the
 * key its index is the answer whatever the algorithm; when some do (ties, several NaNs, -0
 * and +0), the index torch reports depends on its quickselect's swaps, so the caller runs
 * that instead. Two reads of the row and small work after, instead of a quickselect over
 * 16-byte (key, index) pairs. */
#define KTH_RADIX_MIN 1024
static int64_t kth_bucket(const uint32_t *hist, int64_t nb, int64_t *k)
{
    int64_t b = 0;
    for (; b < nb - 1 && *k >= hist[b]; b++) *k -= hist[b];
    return b;
}

/* The levels after the first over the m gathered keys cand[0..m) (hist: their digit at
 * shift s); returns the k-th smallest and *ties how many keys equal it. */
static uint64_t kth_rest(uint64_t *cand, int64_t m, int64_t k, int s, uint32_t *hist, int64_t *ties)
{
    for (;;) {
        int w = s ? 12 : 4;
        uint64_t mask = ((uint64_t)1 << w) - 1;
        int64_t b = kth_bucket(hist, (int64_t)1 << w, &k);
        int64_t c = hist[b];
        if (c == 1 || s == 0) {
            *ties = c;
            for (int64_t i = 0;; i++)
                if (((cand[i] >> s) & mask) == (uint64_t)b) return cand[i];
        }
        int ns = s >= 16 ? s - 12 : 0;
        uint64_t nmask = ((uint64_t)1 << (ns ? 12 : 4)) - 1;
        memset(hist, 0, sizeof(uint32_t) * 4096);
        int64_t mm = 0;
        for (int64_t i = 0; i < m; i++) {
            uint64_t x = cand[i];
            int in = ((x >> s) & mask) == (uint64_t)b;
            cand[mm] = x;
            mm += in;
            hist[(x >> ns) & nmask] += (uint32_t)in;
        }
        m = mm;
        s = ns;
    }
}

/* Keys in the order of key_f64 (NaN largest, -0 == +0) without branches: the sign of random
 * data would mispredict one in two. A float32 key lives in the upper half. */
static inline uint64_t rkey_f32(float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    u = v == 0 ? 0 : u;
    u ^= (uint32_t)((int32_t)u >> 31) | 0x80000000u;
    return (uint64_t)(v != v ? UINT32_MAX : u) << 32;
}
static inline uint64_t rkey_f64(double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    u = v == 0 ? 0 : u;
    u ^= (uint64_t)((int64_t)u >> 63) | ((uint64_t)1 << 63);
    return v != v ? UINT64_MAX : u;
}
#define KTH_KEY_f32(p, i) rkey_f32(((const float *)(p))[i])
#define KTH_KEY_f64(p, i) rkey_f64(((const double *)(p))[i])
#define KTH_KEY_u64(p, i) (((const uint64_t *)(p))[i])
#define KTH_KEY_i64(p, i) ((uint64_t)((const int64_t *)(p))[i] ^ ((uint64_t)1 << 63))
/* The index of the k-th smallest key of row[0..n) when it is unique, else -1; cand: room
 * for n keys. */
#define KTH_RADIX(S)                                                                          \
    static int64_t kth_radix_##S(const char *row, int64_t n, int64_t k, uint64_t *cand)       \
    {                                                                                         \
        uint32_t hist[4096];                                                                  \
        memset(hist, 0, sizeof hist);                                                         \
        for (int64_t i = 0; i < n; i++) hist[KTH_KEY_##S(row, i) >> 52]++;                    \
        uint64_t b = (uint64_t)kth_bucket(hist, 4096, &k), key;                               \
        int64_t ties = hist[b];                                                               \
        if (ties == 1) {                                                                      \
            for (int64_t i = 0;; i++)                                                         \
                if (KTH_KEY_##S(row, i) >> 52 == b) return i;                                 \
        }                                                                                     \
        memset(hist, 0, sizeof hist);                                                         \
        int64_t m = 0;                                                                        \
        for (int64_t i = 0; i < n; i++) {                                                     \
            uint64_t x = KTH_KEY_##S(row, i);                                                 \
            int in = x >> 52 == b;                                                            \
            cand[m] = x;                                                                      \
            m += in;                                                                          \
            hist[(x >> 40) & 0xfff] += (uint32_t)in;                                          \
        }                                                                                     \
        key = kth_rest(cand, m, k, 40, hist, &ties);                                          \
        if (ties != 1) return -1;                                                             \
        for (int64_t i = 0;; i++)                                                             \
            if (KTH_KEY_##S(row, i) == key) return i;                                         \
    }
KTH_RADIX(f32)
KTH_RADIX(f64)
KTH_RADIX(u64)
KTH_RADIX(i64)

static int64_t kth_radix(const char *row, int64_t n, int64_t k, tl_dtype bt, uint64_t *cand)
{
    if (n < KTH_RADIX_MIN || n > (int64_t)UINT32_MAX) return -1;
    switch (bt) {
    case TL_FLOAT32: return kth_radix_f32(row, n, k, cand);
    case TL_FLOAT64: return kth_radix_f64(row, n, k, cand);
    case TL_UINT64: return kth_radix_u64(row, n, k, cand);
    default: return kth_radix_i64(row, n, k, cand);
    }
}

/* ---- row jobs: sort each row, then emit L results per row ---------------------------- */

typedef enum { JOB_SORT, JOB_TOPK, JOB_KTH, JOB_MEDIAN, JOB_NANMEDIAN, JOB_MODE, JOB_ARGMAX, JOB_ARGMIN } job_kind;

typedef struct {
    const tl_rplan *p;
    job_kind kind;
    bool descending;     /* sort: descending; topk: largest */
    bool sorted;         /* topk: results in order (else torch's selection order) */
    int64_t k, L;        /* k: kth (0-based) or topk count; L: results per row */
    char *vals;          /* M x L, buffer dtype */
    int64_t *idx;        /* M x L */
    int failed;
} job_ctx;

static void job_rows(int64_t b, int64_t e, void *c)
{
    job_ctx *j = c;
    const tl_rplan *p = j->p;
    int64_t N = p->N, isz = tl_dtype_itemsize(p->bt);
    bool fl = p->bt == TL_FLOAT64 || p->bt == TL_FLOAT32;
    tl_kv *kv = NULL;
    bool stream = j->kind == JOB_TOPK && j->L * 64 <= N; /* torch's partial_sort case */
    if (j->kind != JOB_ARGMAX && j->kind != JOB_ARGMIN) {
        bool radix = j->kind == JOB_SORT || j->kind == JOB_MEDIAN || j->kind == JOB_NANMEDIAN;
        kv = malloc(sizeof(tl_kv) * (size_t)(stream ? j->L + 1 : (radix ? 2 : 1) * N + 1)); /* radix: scratch */
        if (!kv) {
            j->failed = 1;
            return;
        }
    }
    for (int64_t r = b; r < e; r++) {
        const char *row = tl_rplan_row(p, r);
        char *vo = j->vals + r * j->L * isz;
        int64_t *io = j->idx + r * j->L;
        if (!kv) {
            tl_racc a;
            tl_racc_row(j->kind == JOB_ARGMAX ? TL_K_ARGMAX : TL_K_ARGMIN, p->bt, row, N, 0, 0, 0, &a);
            io[0] = a.cnt;
            memcpy(vo, row + a.cnt * isz, isz);
            continue;
        }
        bool fv = j->kind == JOB_MODE && fl; /* mode compares values, NaN != NaN */
        kv_cmp topc = j->descending ? KV_KEY_GT : KV_KEY_LT;
        if (stream) {
            partial_sort_row(kv, j->L, row, N, p->bt, topc);
        } else if (fv) {
            for (int64_t i = 0; i < N; i++) {
                double v = p->bt == TL_FLOAT32 ? ((const float *)row)[i] : ((const double *)row)[i];
                memcpy(&kv[i].key, &v, 8);
                kv[i].idx = i;
            }
            intro_sort_kv(kv, N, KV_VAL_LT);
        } else {
            if (j->kind == JOB_KTH) {
                int64_t at = kth_radix(row, N, j->k, p->bt, (uint64_t *)kv);
                if (at >= 0) {
                    io[0] = at;
                    memcpy(vo, row + at * isz, isz);
                    continue;
                }
            }
            tl_sort_keys(kv, row, N, p->bt);
            switch (j->kind) {
            case JOB_TOPK: /* torch: nth_element, then a sort of the ones before it */
                nth_element_kv(kv, N, j->L - 1, topc);
                if (j->sorted) intro_sort_kv(kv, j->L - 1, topc);
                break;
            case JOB_KTH: quickselect_kv(kv, N, j->k); break;
            case JOB_MODE: intro_sort_kv(kv, N, KV_KEY_LT); break;
            default:
                if (j->descending)
                    for (int64_t i = 0; i < N; i++) kv[i].key = ~kv[i].key;
                tl_sort_kv(kv, N, kv + N);
            }
        }
        int64_t pos = 0;
        switch (j->kind) {
        case JOB_SORT:
        case JOB_TOPK:
            for (int64_t i = 0; i < j->L; i++) {
                io[i] = kv[i].idx;
                memcpy(vo + i * isz, row + kv[i].idx * isz, isz);
            }
            continue;
        case JOB_KTH: pos = j->k; break;
        case JOB_MEDIAN:
        case JOB_NANMEDIAN: {
            int64_t nn = N;
            while (nn > 0 && fl && kv[nn - 1].key == UINT64_MAX) nn--;
            if (j->kind == JOB_MEDIAN) pos = nn < N ? nn : (N - 1) / 2;
            else pos = nn == 0 ? 0 : (nn - 1) / 2;
            break;
        }
        case JOB_MODE: {
            /* torch: the first longest run of equal values in its sort order, reported by the
             * index at the run's end */
            int64_t bestlen = 0, run = 0;
            for (int64_t i = 0; i < N; i++) {
                run++;
                bool end = i == N - 1;
                if (!end) {
                    if (fv) {
                        double a, b;
                        memcpy(&a, &kv[i].key, 8);
                        memcpy(&b, &kv[i + 1].key, 8);
                        end = a != b;
                    } else {
                        end = kv[i].key != kv[i + 1].key;
                    }
                }
                if (end) {
                    if (run > bestlen) bestlen = run, pos = i;
                    run = 0;
                }
            }
            break;
        }
        default: break;
        }
        io[0] = kv[pos].idx;
        memcpy(vo, row + kv[pos].idx * isz, isz);
    }
    free(kv);
}

/* Runs a row job over x along `dim` producing L results per row; values (x's dtype) and
 * indices (int64) get shape x with dim -> L (dropped when !keepdim and L == 1). */
static int run_job(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int d, job_kind kind, bool desc,
                   bool sorted, int64_t k, int64_t L, bool keepdim)
{
    uint64_t mask = x->ndim ? (uint64_t)1 << d : 1;
    tl_rplan p = {0};
    tl_tensor rv = {0}, ri = {0}, kv = {0}, ki = {0};
    int64_t sizes[TL_MAX_DIMS];
    int32_t names[TL_MAX_DIMS];
    int n = 0, rc;
    /* output shapes */
    bool drop = !keepdim && L == 1 && (kind != JOB_SORT && kind != JOB_TOPK);
    for (int i = 0; i < x->ndim; i++) {
        if (i == d && drop) continue;
        sizes[n] = i == d ? L : x->sizes[i];
        names[n] = x->names ? x->names[i] : TL_NAME_NONE;
        n++;
    }
    if (x->device.type == TL_DEV_META) { /* the results' geometry only */
        rc = tl_tensor_empty(values, n, sizes, (tl_dtype)x->dtype, x->device, false);
        if (rc == 0) rc = tl_tensor_empty(indices, n, sizes, TL_INT64, x->device, false);
        goto names;
    }
    if (x->device.type != TL_DEV_CPU && kind != JOB_ARGMAX && kind != JOB_ARGMIN) {
        /* a backend's device: its sort entry sorts, or selects one element per row (results with
         * dim d kept, then viewed without it when dropped) */
        static const char *const what[] = {"sort", "topk", "kthvalue", "median", "nanmedian", "mode"};
        int sel = kind == JOB_KTH ? TL_BSS_KTH : kind == JOB_MEDIAN ? TL_BSS_MEDIAN
                : kind == JOB_NANMEDIAN ? TL_BSS_NANMEDIAN : kind == JOB_MODE ? TL_BSS_MODE : TL_BSS_ALL;
        tl_tensor kv2 = {0}, ki2 = {0};
        rc = tl_backend_sort(drop ? &kv2 : values, drop ? &ki2 : indices, x, d, desc, L, sel, k, what[kind]);
        if (rc == 0 && drop) {
            int64_t st[TL_MAX_DIMS];
            tl_contiguous_strides(sizes, n, st);
            rc = tl_tensor_view_init(values, &kv2, n, sizes, st, kv2.offset);
            if (rc == 0) rc = tl_tensor_view_init(indices, &ki2, n, sizes, st, ki2.offset);
        }
        if (kv2.storage) tl_tensor_clear(&kv2);
        if (ki2.storage) tl_tensor_clear(&ki2);
        goto names;
    }
    if (x->device.type != TL_DEV_CPU) { /* a backend's device: max/min with a dim, by its reduce entry */
        bool mx = kind == JOB_ARGMAX;
        rc = tl_backend_reduce_supported(mx ? "max" : "min", mx ? TL_RED_MAX : TL_RED_MIN, x->dtype, x->dtype, x->device);
        if (rc == 0) rc = tl_tensor_empty(values, n, sizes, (tl_dtype)x->dtype, x->device, false);
        if (rc == 0) rc = tl_tensor_empty(indices, n, sizes, TL_INT64, x->device, false);
        if (rc == 0) rc = tl_backend_reduce(values, indices, x, mx ? TL_RED_MAX : TL_RED_MIN, mask, !drop, 0, mx ? "max" : "min");
        goto names;
    }
    /* float32 rows are read in place (keys are made per element); other floats as float64 */
    rc = tl_rplan_init(&p, x, mask, x->dtype == TL_FLOAT32 ? TL_FLOAT32 : tl_sort_key_dtype((tl_dtype)x->dtype), false);
    if (rc < 0) return -1;
    int64_t rs[TL_MAX_DIMS];
    int rn = 0;
    for (int i = 0; i < p.nk; i++) rs[rn++] = x->sizes[p.kdims[i]];
    rs[rn++] = L;
    rc = tl_tensor_empty(&rv, rn, rs, p.bt, x->device, false);
    if (rc == 0) rc = tl_tensor_empty(&ri, rn, rs, TL_INT64, x->device, false);
    if (rc == 0 && p.M * L > 0) {
        job_ctx j = {&p, kind, desc, sorted, k, L, tl_data(&rv), (int64_t *)tl_data(&ri), 0};
        int64_t cost = p.N * (kind == JOB_ARGMAX || kind == JOB_ARGMIN ? 1 : 16);
        int64_t grain = TL_GRAIN_SIZE / (cost ? cost : 1);
        tl_parallel_for(p.M, grain > 0 ? grain : 1, job_rows, &j);
        if (j.failed) rc = tl_err(TL_ERR_MEMORY, "out of memory");
    }
    /* Along the last dim of a tensor whose dtype is the buffer's, the buffers are the
     * results already (same shape, row-major): hand them over instead of copying them. */
    bool direct = rc == 0 && x->ndim > 0 && !drop && d == x->ndim - 1 && p.bt == (tl_dtype)x->dtype &&
                  p.nk == x->ndim - 1;
    for (int i = 0; direct && i < p.nk; i++) direct = p.kdims[i] == i;
    if (direct) {
        rc = tl_tensor_alias(values, &rv);
        if (rc == 0) rc = tl_tensor_alias(indices, &ri);
        goto names;
    }
    if (rc == 0) rc = tl_tensor_empty(values, n, sizes, (tl_dtype)x->dtype, x->device, false);
    if (rc == 0) rc = tl_tensor_empty(indices, n, sizes, TL_INT64, x->device, false);
    if (rc == 0 && x->ndim > 0) {
        if (drop) {
            rc = tl_rplan_keepdim_view(&kv, values, x, mask);
            if (rc == 0) rc = tl_rplan_keepdim_view(&ki, indices, x, mask);
        } else {
            rc = tl_tensor_alias(&kv, values);
            if (rc == 0) rc = tl_tensor_alias(&ki, indices);
        }
        if (rc == 0) rc = tl_rplan_scatter(&p, &kv, &rv);
        if (rc == 0) rc = tl_rplan_scatter(&p, &ki, &ri);
    } else if (rc == 0) {
        tl_tensor *const outs[2] = {values, indices};
        const tl_tensor *const srcs[2] = {&rv, &ri};
        for (int i = 0; i < 2 && rc == 0; i++) {
            tl_tensor v = {0};
            rc = tl_tensor_view_init(&v, srcs[i], 0, NULL, NULL, srcs[i]->offset);
            if (rc == 0 && tl_numel(outs[i]) > 0) rc = tl_copy_(outs[i], &v);
            tl_tensor_clear(&v);
        }
    }
names:
    if (rc == 0) rc = tl_tensor_set_names(values, names);
    if (rc == 0) rc = tl_tensor_set_names(indices, names);
    tl_rplan_free(&p);
    if (kv.storage) tl_tensor_clear(&kv);
    if (ki.storage) tl_tensor_clear(&ki);
    if (rv.storage) tl_tensor_clear(&rv);
    if (ri.storage) tl_tensor_clear(&ri);
    if (rc < 0) {
        if (values->storage) tl_tensor_clear(values);
        if (indices->storage) tl_tensor_clear(indices);
    }
    return rc;
}

int tl_sort(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int64_t dim, bool descending)
{
    int d;
    if (check_sortable(x, "sort", true) < 0 || tl_wrap_dim(dim, x->ndim ? x->ndim : 1, &d) < 0) return -1;
    int64_t L = x->ndim ? x->sizes[d] : 1;
    return run_job(values, indices, x, d, JOB_SORT, descending, true, 0, L, true);
}

int tl_topk(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, int64_t k, int64_t dim, bool largest,
            bool sorted)
{
    int d;
    if (x->dtype == TL_BOOL) return tl_err(TL_ERR_RUNTIME, "topk does not support bool dtypes on CPU");
    if (check_sortable(x, "topk", false) < 0 || tl_wrap_dim(dim, x->ndim ? x->ndim : 1, &d) < 0) return -1;
    int64_t N = x->ndim ? x->sizes[d] : 1;
    if (k < 0 || k > N) return tl_err(TL_ERR_RUNTIME, "selected index k out of range");
    return run_job(values, indices, x, d, JOB_TOPK, largest, sorted, 0, k, true);
}

int tl_reduce_index(tl_tensor *values, tl_tensor *indices, const tl_tensor *x, tl_idx_op op, int64_t dim,
                    bool keepdim, int64_t k)
{
    static const char *const names[] = {"max", "min", "kthvalue", "median", "nanmedian", "mode"};
    static const job_kind kinds[] = {JOB_ARGMAX, JOB_ARGMIN, JOB_KTH, JOB_MEDIAN, JOB_NANMEDIAN, JOB_MODE};
    int d;
    const char *name = names[op];
    if (tl_wrap_dim(dim, x->ndim ? x->ndim : 1, &d) < 0) return -1;
    int64_t N = x->ndim ? x->sizes[d] : 1;
    /* torch: emptiness of the reduced dim first, then dtype (mode checks no dtype when empty) */
    if (N == 0)
        return tl_err(TL_ERR_INDEX, "%s(): Expected reduction dim %d to have non-zero size.",
                      op == TL_IDX_NANMEDIAN ? "median" : name, d);
    if (op == TL_IDX_MODE && tl_numel(x) == 0) {
    } else if (op == TL_IDX_MAX || op == TL_IDX_MIN) {
        if (tl_dtype_is_complex((tl_dtype)x->dtype)) return tl_err(TL_ERR_RUNTIME, "%s(): does not support complex input", name);
        /* the unsigned shells: a superset of torch (which refuses them), as NumPy's max(axis) */
        if (!tl_red_dtype_ok((tl_dtype)x->dtype))
            return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)x->dtype, "%s_cpu", name);
    } else if (op == TL_IDX_MEDIAN || op == TL_IDX_NANMEDIAN) {
        /* k < 0: the median of all elements (torch names its kernel median_cpu there) */
        if (x->dtype == TL_BOOL || tl_dtype_is_complex((tl_dtype)x->dtype) || tl_dtype_is_shell((tl_dtype)x->dtype))
            return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)x->dtype, "%s", k < 0 ? "median_cpu" : "median_out");
    } else if (op == TL_IDX_KTHVALUE && (x->dtype == TL_BOOL || tl_dtype_is_complex((tl_dtype)x->dtype))) {
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)x->dtype, "kthvalue_cpu");
    } else if (check_sortable(x, name, false) < 0) {
        return -1;
    }
    if (op == TL_IDX_KTHVALUE && (k < 1 || k > N))
        return tl_err(TL_ERR_RUNTIME, "kthvalue(): selected number k out of range for dimension %d", d);
    return run_job(values, indices, x, d, kinds[op], false, true, k - 1, 1, keepdim);
}
