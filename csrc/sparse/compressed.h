/* compressed.h - the compressed sparse layouts (CSR, CSC, BSR, BSC): torch's invariants
 * (validation and size inference) and the kernels (to_dense, strided -> compressed, the
 * CSR <-> CSC / BSR <-> BSC recompression, compressed <-> COO; CSR @ strided in
 * csr_matmul.c). The tensors
 * use tl_sparse (sparse.h): indices = compressed indices (*batch, ncompressed + 1), plain =
 * plain indices (*batch, nse), both int32 or int64, values (*batch, nse, [bh, bw,] *dense). */
#ifndef TL_SPARSE_COMPRESSED_H
#define TL_SPARSE_COMPRESSED_H

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor.h"

static inline bool tl_layout_is_compressed(int layout)
{
    return layout >= TL_LAYOUT_SPARSE_CSR && layout <= TL_LAYOUT_SPARSE_BSC;
}

/* torch's invariants for sparse_compressed_tensor, in its order and with its messages
 * (shapes, batch and block consistency, index dtypes); with `indices`, also the index
 * contents: plain indices in range, compressed indices starting at 0, ending at nse,
 * non-decreasing by at most the plain size, plain indices sorted and distinct per slice. */
int tl_compressed_check(tl_layout layout, const tl_tensor *compressed, const tl_tensor *plain, const tl_tensor *values,
                        int ndim, const int64_t *size, bool indices);
/* torch's size inference: batch dims from the compressed indices, compressed size from
 * their length, plain size max(plain) + 1 (0 when empty), times the blocksize; then the
 * dense dims of values. */
int tl_compressed_infer_size(tl_layout layout, const tl_tensor *compressed, const tl_tensor *plain,
                             const tl_tensor *values, int64_t *size, int *ndim);
/* The strided tensor with the same elements. */
int tl_compressed_to_dense(tl_tensor *out, const tl_tensor *src);
/* The compressed tensor (`layout`, blocksize for BSR/BSC, index dtype int64) of the
 * non-zero elements (blocks, dense slices) of a strided tensor whose last `dense_dim`
 * dims stay dense and whose dims before the last 2 + dense_dim are batch dims (the same
 * nse per batch, as torch demands). */
int tl_dense_to_compressed(tl_tensor *out, const tl_tensor *src, tl_layout layout, const int64_t *blocksize,
                           int dense_dim);
/* The same tensor compressed along the other sparse dim: CSR <-> CSC, BSR <-> BSC
 * (a counting sort per batch; blocks keep their orientation, index dtype is kept). */
int tl_compressed_recompress(tl_tensor *out, const tl_tensor *src);
/* The COO tensor of a compressed one, as torch builds it: every batch and sparse dim
 * becomes a sparse dim, blocks are expanded element by element (stored zeros included),
 * entries in storage order (block by block); coalesced for CSR. */
int tl_compressed_to_coo(tl_tensor *out, const tl_tensor *src);
/* CSR/CSC of a coalesced 2-D-sparse COO tensor (dense dims kept), int64 indices. */
int tl_coo_to_compressed(tl_tensor *out, const tl_tensor *src, tl_layout layout);
/* The pattern of a * b for two unbatched compressed tensors of one layout and compressed
 * size (compressed_arith.c): compressed and plain indices (int64) of the entries both
 * hold, and each entry's position in a's and in b's values (int64). */
int tl_compressed_intersect(tl_tensor *ci, tl_tensor *pi, tl_tensor *pa, tl_tensor *pb, const tl_tensor *a,
                            const tl_tensor *b);
/* out = a @ b for a 2-D CSR `a` without dense dims and a strided 1-D or 2-D `b` of a's
 * dtype with a.size(1) rows (csr_matmul.c): rows split across threads by nnz. */
int tl_csr_matmul(tl_tensor *out, const tl_tensor *a, const tl_tensor *b);
/* 0 pins the portable float32 SpMV product loop, 1 lets the CPU pick; returns whether the
 * AVX-512 loop was in use (tests compare the two). */
int tl_csr_spmv_set_avx512(int on);
/* Whether tl_csr_matmul has a kernel for the dtype (float, complex and integer types). */
bool tl_csr_matmul_supports(int dtype);

#endif
