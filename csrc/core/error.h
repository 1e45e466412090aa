/* error.h - the thread-local error slot: C functions return -1 (or NULL) and set it;
 * the binding turns the kind into the matching Python exception. */
#ifndef TL_ERROR_H
#define TL_ERROR_H

typedef enum {
    TL_ERR_NONE = 0,
    TL_ERR_RUNTIME,  /* RuntimeError: shape, dtype, layout errors */
    TL_ERR_TYPE,     /* TypeError */
    TL_ERR_INDEX,    /* IndexError: dims and indices out of range */
    TL_ERR_VALUE,    /* ValueError */
    TL_ERR_MEMORY,   /* MemoryError */
    TL_ERR_NOTIMPL,  /* NotImplementedError */
    TL_ERR_ZERODIV,  /* RuntimeError("ZeroDivisionError") */
} tl_errkind;

/* Sets the error and returns -1 so callers can write `return tl_err(...)`. */
int tl_err(tl_errkind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
tl_errkind tl_err_kind(void);
const char *tl_err_msg(void);
void tl_err_clear(void);

#endif
