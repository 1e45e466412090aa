/* names.c - the intern table of dimension names. */
#include "core/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

static char **strs;    /* strs[id], id >= 1 */
static int32_t count = 1, cap;

static int valid_identifier(const char *s, int64_t len)
{
    if (len == 0) return 0;
    for (int64_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return 0;
    }
    return 1;
}

int32_t tl_name_intern(const char *s, int64_t len)
{
    for (int32_t i = 1; i < count; i++)
        if ((int64_t)strlen(strs[i]) == len && memcmp(strs[i], s, len) == 0) return i;
    if (!valid_identifier(s, len)) {
        tl_err(TL_ERR_RUNTIME, "Invalid name: a valid identifier contains only digits, alphabetical characters, "
                               "and/or underscore and starts with a non-digit. got: '%.*s'.", (int)len, s);
        return -1;
    }
    if (count >= cap) {
        int32_t ncap = cap ? cap * 2 : 64;
        char **n = realloc(strs, ncap * sizeof *n);
        if (!n) { tl_err(TL_ERR_MEMORY, "out of memory"); return -1; }
        strs = n;
        cap = ncap;
    }
    char *c = malloc(len + 1);
    if (!c) { tl_err(TL_ERR_MEMORY, "out of memory"); return -1; }
    memcpy(c, s, len);
    c[len] = 0;
    strs[count] = c;
    return count++;
}

const char *tl_name_str(int32_t id) { return id > 0 && id < count ? strs[id] : NULL; }

const char *tl_names_list_str(const int32_t *ids, int n, int quoted, char *buf, int len)
{
    const char *q = quoted ? "'" : "";
    int p = snprintf(buf, len, "[");
    for (int i = 0; i < n && p < len; i++) {
        int32_t id = ids ? ids[i] : TL_NAME_NONE;
        p += snprintf(buf + p, len - p, "%s%s%s%s", i ? ", " : "", id ? q : "", id ? tl_name_str(id) : "None", id ? q : "");
    }
    if (p < len) snprintf(buf + p, len - p, "]");
    return buf;
}
