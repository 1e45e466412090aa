/* layout.h - tensor layouts and memory formats. */
#ifndef TL_LAYOUT_H
#define TL_LAYOUT_H

#define TL_LAYOUT_LIST(X) X(STRIDED, "strided") X(SPARSE_COO, "sparse_coo") X(SPARSE_CSR, "sparse_csr") \
    X(SPARSE_CSC, "sparse_csc") X(SPARSE_BSR, "sparse_bsr") X(SPARSE_BSC, "sparse_bsc")

typedef enum {
#define TL_X_LAY(ID, s) TL_LAYOUT_##ID,
    TL_LAYOUT_LIST(TL_X_LAY)
#undef TL_X_LAY
    TL_NUM_LAYOUTS
} tl_layout;

#define TL_MEMFMT_LIST(X) X(CONTIGUOUS, "contiguous_format") X(CHANNELS_LAST, "channels_last") \
    X(CHANNELS_LAST_3D, "channels_last_3d") X(PRESERVE, "preserve_format")

typedef enum {
#define TL_X_MF(ID, s) TL_MEMFMT_##ID,
    TL_MEMFMT_LIST(TL_X_MF)
#undef TL_X_MF
    TL_NUM_MEMFMTS
} tl_memory_format;

#endif
