/* error.c - the thread-local error slot. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local tl_errkind err_kind;
static _Thread_local char err_msg[2048];

int tl_err(tl_errkind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_msg, sizeof err_msg, fmt, ap);
    va_end(ap);
    err_kind = kind;
    return -1;
}

tl_errkind tl_err_kind(void) { return err_kind; }
const char *tl_err_msg(void) { return err_msg; }
void tl_err_clear(void) { err_kind = TL_ERR_NONE; err_msg[0] = 0; }
