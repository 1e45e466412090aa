/* names.h - interned dimension names. A name is a small positive id; 0 is "no name"
 * (None in Python). Interned strings live for the life of the process. */
#ifndef TL_NAMES_H
#define TL_NAMES_H

#include <stdint.h>

#define TL_NAME_NONE 0

/* Id of `s` (len bytes), interning it on first use; -1 with ValueError on an invalid identifier. */
int32_t tl_name_intern(const char *s, int64_t len);
const char *tl_name_str(int32_t id);
/* A names list as torch prints it into buf: ['N', None] (quoted) or [N, None]; ids NULL
 * means n unnamed dims. Returns buf. */
const char *tl_names_list_str(const int32_t *ids, int n, int quoted, char *buf, int len);

#endif
