/* sparse.h - the sparse layer: the components struct every sparse layout shares, the
 * wrapping of components into a tensor, and the COO operations (validation, coalesce,
 * conversions to and from strided). A sparse tensor is a tl_tensor with a sparse layout,
 * its full size in sizes[], and `sparse` pointing at strided component tensors; no sparse
 * code reads its own storage. */
#ifndef TL_SPARSE_H
#define TL_SPARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/tensor.h"

typedef struct tl_sparse {
    /* COO: int64 (sparse_dim, nse). Compressed layouts (CSR/CSC/BSR/BSC): the compressed
     * indices (*batch, n + 1), int32 or int64 (csrc/sparse/compressed.h). */
    tl_tensor indices;
    /* Compressed layouts: the plain indices (*batch, nse). Unused (empty) for COO. */
    tl_tensor plain;
    /* COO: (nse, *dense). Compressed: (*batch, nse, [*blocksize,] *dense). */
    tl_tensor values;
    int32_t sparse_dim, dense_dim, batch_dim;
    int64_t blocksize[2]; /* BSR/BSC: values' block dims; (1, 1) for CSR/CSC */
    bool coalesced;       /* COO: indices sorted lexicographically, no duplicates (compressed: true) */
} tl_sparse;

/* The dtypes whose values sparse kernels add and multiply as a C type (tl_sparse_acc_dtype
 * maps every other one onto these; expanding it needs <complex.h>). */
#define TL_SPARSE_NATIVE_LIST(X) X(UINT8, uint8_t) X(INT8, int8_t) X(INT16, int16_t) X(INT32, int32_t) \
    X(INT64, int64_t) X(UINT16, uint16_t) X(UINT32, uint32_t) X(UINT64, uint64_t) X(FLOAT32, float)   \
    X(FLOAT64, double) X(COMPLEX64, float complex) X(COMPLEX128, double complex)

/* The dtype sums and products of dtype d run in (torch goes through float for these too):
 * one rounding back to d gives the correctly rounded result. */
static inline tl_dtype tl_sparse_acc_dtype(tl_dtype d)
{
    switch (d) {
    case TL_FLOAT16: case TL_BFLOAT16: case TL_FLOAT8_E4M3FN: case TL_FLOAT8_E5M2: return TL_FLOAT32;
    case TL_COMPLEX32: return TL_COMPLEX64;
    default: return d;
    }
}

/* dst[0, rb) = src[0, rb): fixed-size copies for the usual row sizes (inlined). */
static inline void tl_copy_row(char *dst, const char *src, int64_t rb)
{
    switch (rb) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, (size_t)rb); break;
    }
}

/* 0 for a tensor on the CPU; else -1 with an error: the sparse kernels read component data on
 * the host, and device components are validated from host copies by the Python layer. */
int tl_sparse_host_data(const tl_tensor *t);
/* torch's name of a layout in messages: "Strided", "Sparse" (COO), "SparseCsr", ... */
const char *tl_layout_cname(int layout);
/* Makes `out` (a cleared tensor) a COO tensor of `size` over the given components, which
 * are moved in (left cleared). No validation: see tl_coo_check. */
int tl_coo_wrap(tl_tensor *out, tl_tensor *indices, tl_tensor *values, int ndim, const int64_t *size, bool coalesced);
/* Makes `out` a compressed tensor (`layout` CSR/CSC/BSR/BSC) of `size` over the given
 * components, moved in; batch, dense and block dims follow from their shapes. No
 * validation: see tl_compressed_check. */
int tl_compressed_wrap(tl_tensor *out, tl_layout layout, tl_tensor *compressed, tl_tensor *plain, tl_tensor *values,
                       int ndim, const int64_t *size);
/* A compressed tensor over aliases of the given components. */
int tl_compressed_alias(tl_tensor *out, tl_layout layout, const tl_tensor *compressed, const tl_tensor *plain,
                        const tl_tensor *values, int ndim, const int64_t *size);
/* A COO tensor over aliases of the given components (they stay the caller's). */
int tl_coo_alias(tl_tensor *out, const tl_tensor *indices, const tl_tensor *values, int ndim, const int64_t *size,
                 bool coalesced);
/* torch's COO invariants with its messages: indices int64 and 2-D, values' first dim equal
 * to nse, len(size) == sparse_dim + dense_dim, values' dense dims equal to size's; with
 * `bounds`, every index non-negative and below its dim's size. */
int tl_coo_check(const tl_tensor *indices, const tl_tensor *values, int ndim, const int64_t *size, bool bounds);
/* torch's size inference: max index + 1 per sparse dim (0 when nse is 0), then values'
 * dense dims. RuntimeError for a negative index. */
int tl_coo_infer_size(const tl_tensor *indices, const tl_tensor *values, int64_t *size, int *ndim);
/* True when the indices are strictly increasing in lexicographic order (what coalesced means). */
bool tl_coo_indices_sorted_unique(const tl_tensor *src);
/* A coalesced copy: duplicates summed (bool: or), indices in lexicographic order. */
int tl_coo_coalesce(tl_tensor *out, const tl_tensor *src);
/* The strided tensor with the same elements (duplicates summed). */
int tl_coo_to_dense(tl_tensor *out, const tl_tensor *src);
/* keep[p] = whether any of the R contiguous elements of row p (of P) is non-zero (-0.0 is
 * zero, NaN is not); returns the number of rows kept. Shared by every strided -> sparse
 * conversion. */
int64_t tl_mark_nonzero_rows(const char *in, int64_t P, int64_t R, tl_dtype d, uint8_t *keep);
/* A coalesced COO tensor of the non-zero slices of a strided tensor over its first
 * `sparse_dim` dims. */
int tl_dense_to_coo(tl_tensor *out, const tl_tensor *src, int sparse_dim);

/* Index d of COO entry i (indices may be strided). */
static inline int64_t tl_coo_index_at(const tl_tensor *ind, int64_t d, int64_t i)
{
    return ((const int64_t *)tl_data(ind))[d * ind->strides[0] + i * ind->strides[1]];
}
/* torch's error for index v of dim d outside [0, size); returns -1. */
int tl_coo_bounds_error(int64_t d, int64_t v, int64_t size);
/* keys[i] = row-major linear index of entry i over the sparse dims, every index bounds
 * checked (-1 and torch's error otherwise); *fits = false when the sizes' product
 * overflows int64 (keys untouched then), else *maxkey = that product - 1. */
int tl_coo_linearize(const tl_tensor *src, uint64_t *keys, bool *fits, uint64_t *maxkey);
/* The number of bits v needs (0 for 0). */
static inline int tl_bit_width(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }
/* Stable LSD radix sort of keys[0, n) by their bits [lo, lo + bits), moving perm alongside
 * unless it is NULL (then the keys carry their payload below bit lo); tk/tp: scratch of n.
 * -1 when out of memory. */
int tl_coo_radix_sort(uint64_t *keys, int64_t *perm, int64_t n, int lo, int bits, uint64_t *tk, int64_t *tp);
/* -1, 0 or 1 as entry i of indices a compares with entry j of indices b (sd rows each) in
 * lexicographic order. */
int tl_coo_cmp_entries(const tl_tensor *a, int64_t i, const tl_tensor *b, int64_t j, int sd);

/* ---- sparse + sparse, sparse * sparse (sparse/coo_arith.c) ---- */

/* a + b (same sparse sizes and sparse_dim) with torch's walk: both index lists read once in
 * their stored order, the lesser entry taken, or both summed when equal (a merge when both
 * are coalesced; the result is coalesced then). av/bv: the values of a and b promoted to one
 * dtype, rows of one shape (b's already times alpha). */
int tl_coo_add(tl_tensor *out, const tl_tensor *a, const tl_tensor *av, const tl_tensor *b, const tl_tensor *bv);
/* a * b of two coalesced tensors of one shape: the entries whose indices are in both, with
 * av * bv (the values promoted to one dtype); coalesced. */
int tl_coo_mul(tl_tensor *out, const tl_tensor *a, const tl_tensor *av, const tl_tensor *b, const tl_tensor *bv);

/* src * pc by torch's intersection kernel with `src` as the source: every entry of src, in
 * stored order, gets zero plus the sum over pc's entries at the same index (in index order,
 * stored order among equals) of src value * pc value, accumulated in torch's CPU acc_type
 * (float32 in float64, half-width floats in float32, integers in int64, complex64 in
 * complex128, complex by the schoolbook formula) and rounded once: zero where pc has no
 * entry, even for a NaN source. src's indices (a copy) and coalesced flag; the result's
 * dense dims are the values'. sv/pv: the values of src and pc in one dtype, rows of one
 * shape (broadcast beforehand). RuntimeError when the sparse sizes' product overflows. */
int tl_coo_mul_source(tl_tensor *out, const tl_tensor *src, const tl_tensor *sv, const tl_tensor *pc,
                      const tl_tensor *pv);

/* ---- op kernels (sparse/coo_ops.c) ---- */

/* For each entry of `src`, in stored order, its position among the entries of the
 * coalesced `pc` (same sparse_dim), or -1: int64 (nse,). A merge walk when src is coalesced
 * too; else src's keys radix sorted, then merged (binary search per entry when the keys
 * and their positions do not fit 64 bits together, or the sizes' product overflows). */
int tl_coo_lookup(tl_tensor *out, const tl_tensor *src, const tl_tensor *pc);
/* index_select along sparse dim `dim` with an int64 1-D `index` (negative values wrap):
 * int64 (2, m), row 0 the source entry, row 1 its position in `index`, ordered by that
 * position, then stored order (torch's order). IndexError for an index out of range. */
int tl_coo_index_select_plan(tl_tensor *out, const tl_tensor *src, int dim, const tl_tensor *index);
/* 2-D COO (no dense dims) @ contiguous 2-D `dense` of the values' dtype: a strided (n, p)
 * tensor, duplicates summed; every index bounds checked first. */
int tl_coo_spmm(tl_tensor *out, const tl_tensor *src, const tl_tensor *dense);
/* Whether tl_coo_spmm computes in dtype d (the others go through strided ops). */
bool tl_coo_spmm_supports(tl_dtype d);

#endif
