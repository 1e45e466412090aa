/* device.c - device type names and device string parsing (torch's grammar). */
#include "core/device.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

const char *const tl_device_type_names[TL_NUM_DEVICE_TYPES] = {
#define TL_X_DEVN(ID, s) [TL_DEV_##ID] = s,
    TL_DEVICE_TYPE_LIST(TL_X_DEVN)
#undef TL_X_DEVN
};

int tl_device_parse(const char *s, tl_device *out)
{
    if (!*s) return tl_err(TL_ERR_RUNTIME, "Device string must not be empty");
    const char *colon = strchr(s, ':');
    size_t tlen = colon ? (size_t)(colon - s) : strlen(s);
    for (size_t i = 0; i < tlen; i++)
        if (!isalpha((unsigned char)s[i]) && s[i] != '_') return tl_err(TL_ERR_RUNTIME, "Invalid device string: '%s'", s);
    if (tlen == 0) return tl_err(TL_ERR_RUNTIME, "Invalid device string: '%s'", s);
    int type = -1;
    for (int i = 0; i < TL_NUM_DEVICE_TYPES; i++)
        if (strlen(tl_device_type_names[i]) == tlen && strncmp(tl_device_type_names[i], s, tlen) == 0) type = i;
    if (type < 0) {
        return tl_err(TL_ERR_RUNTIME,
                      "Expected one of cpu, cuda, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, "
                      "lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: %s", s);
    }
    long idx = -1;
    if (colon) {
        const char *p = colon + 1;
        if (!*p) return tl_err(TL_ERR_RUNTIME, "Invalid device string: '%s'", s);
        if (p[0] == '0' && p[1]) return tl_err(TL_ERR_RUNTIME, "Invalid device string: '%s'", s);
        idx = 0;
        for (; *p; p++) {
            if (!isdigit((unsigned char)*p) || idx > 100000)
                return tl_err(TL_ERR_RUNTIME, "Invalid device string: '%s'", s);
            idx = idx * 10 + (*p - '0');
        }
        if (idx > INT16_MAX) return tl_err(TL_ERR_RUNTIME, "Invalid device string: '%s'", s);
    }
    out->type = (int16_t)type;
    out->index = (int16_t)idx;
    return 0;
}

const char *tl_device_str(tl_device d, char *buf, size_t n)
{
    if (d.index >= 0) snprintf(buf, n, "%s:%d", tl_device_type_names[d.type], d.index);
    else snprintf(buf, n, "%s", tl_device_type_names[d.type]);
    return buf;
}

int tl_device_expect(tl_device expected, tl_device got)
{
    if (tl_device_eq(expected, got)) return 0;
    char e[32], g[32];
    tl_device_str(expected, e, sizeof e);
    tl_device_str(got, g, sizeof g);
    return tl_err(TL_ERR_RUNTIME, "Tensor on device %s is not on the expected device %s!", g, e);
}

int tl_device_mix_error(tl_device common, tl_device other)
{
    char a[32], b[32];
    return tl_err(TL_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two devices, %s and %s!",
                  tl_device_str(common, a, sizeof a), tl_device_str(other, b, sizeof b));
}

int tl_device_expect_same(tl_device expected, tl_device got)
{
    if (tl_device_eq(expected, got)) return 0;
    bool host = !tl_device_on_backend(expected) && !tl_device_on_backend(got);
    return host ? tl_device_expect(expected, got) : tl_device_mix_error(expected, got);
}
