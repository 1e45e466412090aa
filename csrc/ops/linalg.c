/* linalg.c - the matrix-product ops: torch's argument checks and messages, shapes,
 * broadcasting of batch dims, and names (seed 003 "contracts away dims"). The
 * arithmetic is tl_gemm's (gemm.c). */
#include "ops/linalg.h"

#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"
#include "kernels/cast.h"
#include "ops/copy.h"
#include "ops/elementwise.h"
#include "ops/view.h"

/* ---- small helpers ---- */

static const char *cname(const tl_tensor *t) { return tl_dtype_infos[t->dtype].cname; }

/* A tensor on a backend's device (CUDA): its products run on the backend's gemm entry
 * (backend/gemm.c), which has cuBLAS's dtypes: floats and complex, no integers. */
static bool on_backend(const tl_tensor *t) { return t->device.type != TL_DEV_CPU && t->device.type != TL_DEV_META; }

static bool backend_gemm_dtype(tl_dtype d)
{
    return d == TL_FLOAT16 || d == TL_BFLOAT16 || d == TL_FLOAT32 || d == TL_FLOAT64 || d == TL_COMPLEX64 ||
           d == TL_COMPLEX128;
}

/* torch's dispatch error naming the kernel of t's device: `kernel` on the CPU, `cuda_kernel`
 * on CUDA ("addmm_cuda" not implemented for 'Long'). */
static int check_dtype_supported2(const tl_tensor *t, const char *kernel, const char *cuda_kernel)
{
    bool dev = on_backend(t);
    if (dev ? !backend_gemm_dtype((tl_dtype)t->dtype) : !tl_gemm_dtype_ok((tl_dtype)t->dtype))
        return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)t->dtype, "%s", dev ? cuda_kernel : kernel);
    return 0;
}

/* mm/bmm/mv/matmul: torch returns the (zero-filled) empty-sum result before its dtype
 * dispatch, so a product with an empty operand works for every dtype. */
static int check_product_dtype(const tl_tensor *a, const tl_tensor *b, const char *kernel, const char *cuda_kernel)
{
    return tl_numel(a) == 0 || tl_numel(b) == 0 ? 0 : check_dtype_supported2(a, kernel, cuda_kernel);
}

static int check_cpu_strided(const tl_tensor *t)
{
    if (t->layout != TL_LAYOUT_STRIDED)
        return tl_err(TL_ERR_RUNTIME, "linear algebra ops here take strided tensors; use the sparse ops for sparse layouts");
    if (t->device.type != TL_DEV_CPU && t->device.type != TL_DEV_META && /* meta: products shape, tl_gemm skips */
        !(tl_backend_get(t->device.type) && tl_backend_get(t->device.type)->gemm)) /* a backend's gemm entry */
        return tl_err(TL_ERR_NOTIMPL, "tensorlib: this operation is not implemented for %s tensors yet",
                      tl_device_type_names[t->device.type]);
    return 0;
}

/* A view of `t` with new sizes/strides (same storage and offset), names dropped. */
static int view_as(tl_tensor *v, const tl_tensor *t, int nd, const int64_t *sz, const int64_t *st)
{
    return tl_tensor_view_init(v, t, nd, sz, st, t->offset);
}

static int name_at(const tl_tensor *t, int d) { return t->names ? t->names[d] : 0; }

static void names_list_str(const int32_t *n, int k, char *buf, int len) { tl_names_list_str(n, k, 1, buf, len); }

static bool contains(const int32_t *n, int k, int32_t id)
{
    for (int i = 0; i < k; i++)
        if (n[i] == id) return true;
    return false;
}

/* Unifies two name lists aligned from the right (seed 003 "unifies names from inputs");
 * out has max(ka, kb) entries. */
static int unify_right(const int32_t *a, int ka, const int32_t *b, int kb, int32_t *out)
{
    int k = ka > kb ? ka : kb;
    char sa[512], sb[512];
    for (int i = 1; i <= k; i++) {
        int32_t x = i <= ka ? a[ka - i] : 0, y = i <= kb ? b[kb - i] : 0;
        bool in_both = i <= ka && i <= kb;
        if (in_both && x && y && x != y) {
            names_list_str(a, ka, sa, sizeof sa);
            names_list_str(b, kb, sb, sizeof sb);
            return tl_err(TL_ERR_RUNTIME, "Error when attempting to broadcast dims %s and dims %s: dim '%s' and dim '%s' "
                                          "are at the same position from the right but do not match.",
                          sa, sb, tl_name_str(x), tl_name_str(y));
        }
        int32_t u = x ? x : y;
        if (in_both && u && (!x || !y)) {
            /* a named dim matched with None must not appear elsewhere in the other list */
            const int32_t *other = x ? b : a;
            int kother = x ? kb : ka;
            if (contains(other, kother, u)) {
                names_list_str(a, ka, sa, sizeof sa);
                names_list_str(b, kb, sb, sizeof sb);
                return tl_err(TL_ERR_RUNTIME, "Misaligned dims when attempting to broadcast dims %s and dims %s: dim '%s' "
                                              "appears in a different position from the right across both lists.",
                              sa, sb, tl_name_str(u));
            }
        }
        out[k - i] = u;
    }
    return 0;
}

/* torch's TensorName printing: 'B' (index 0 of ['B', 'N', 'D']), the name with its origin. */
static void tensor_name_str(const tl_tensor *t, int d, char *buf, int len)
{
    char full[512];
    int32_t n[TL_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) n[i] = name_at(t, i);
    names_list_str(n, t->ndim, full, sizeof full);
    int32_t id = n[d];
    snprintf(buf, len, "%s%s%s (index %d of %s)", id ? "'" : "", id ? tl_name_str(id) : "None", id ? "'" : "", d, full);
}

/* torch's TensorName::unify of dim da of a with dim db of b (matmul's batch dims): a name
 * matches itself or None, and a name matched with None must not appear anywhere in the
 * other tensor (matrix dims included). Errors in torch's words. */
static int unify_batch_dim(const tl_tensor *a, int da, const tl_tensor *b, int db, int32_t *out)
{
    int32_t x = name_at(a, da), y = name_at(b, db);
    char s1[640], s2[640];
    if (x == y || (!x && !y)) { *out = x; return 0; }
    if (x && y) {
        tensor_name_str(a, da, s1, sizeof s1);
        tensor_name_str(b, db, s2, sizeof s2);
        return tl_err(TL_ERR_RUNTIME, "matmul: Expected %s to match %s but they do not match.", s1, s2);
    }
    const tl_tensor *named = x ? a : b, *other = x ? b : a;
    int dn = x ? da : db, dother = x ? db : da;
    int32_t id = x ? x : y;
    for (int i = 0; i < other->ndim; i++) {
        if (name_at(other, i) != id) continue;
        tensor_name_str(named, dn, s1, sizeof s1);
        tensor_name_str(other, dother, s2, sizeof s2);
        return tl_err(TL_ERR_RUNTIME, "matmul: Cannot match %s with %s because the latter names already have '%s'. "
                                      "Are your tensors misaligned?", s1, s2, tl_name_str(id));
    }
    *out = id;
    return 0;
}

/* Names of a matrix product (torch's compute_matmul_outnames): the batch dims unified from
 * the right + [a.names[-2]] + [b.names[-1]], the contracted dims (and the missing dims of
 * 1-D operands) removed. A result with a name twice is refused in torch's words (torch 1.13
 * checks the two matrix dims only and lets a batch name repeat a matrix one; tensorlib never
 * builds a tensor with duplicate names). */
static int finish_names(tl_tensor *out, int32_t *nm, int k, const tl_tensor *a, const tl_tensor *b,
                        const tl_tensor *input);

static int product_names(tl_tensor *out, const tl_tensor *a, const tl_tensor *b, const tl_tensor *input)
{
    if (!a->names && !b->names && !(input && input->names)) return 0;
    int32_t nm[TL_MAX_DIMS] = {0};
    int ka = a->ndim > 2 ? a->ndim - 2 : 0, kb = b->ndim > 2 ? b->ndim - 2 : 0;
    int k = ka > kb ? ka : kb;
    for (int i = 0; i < k; i++) {
        int ia = i - (k - ka), ib = i - (k - kb);
        if (ia < 0) nm[i] = name_at(b, ib);
        else if (ib < 0) nm[i] = name_at(a, ia);
        else if (unify_batch_dim(a, ia, b, ib, &nm[i]) < 0) return -1;
    }
    if (a->ndim >= 2) nm[k++] = name_at(a, a->ndim - 2);
    if (b->ndim >= 2) nm[k++] = name_at(b, b->ndim - 1);
    return finish_names(out, nm, k, a, b, input);
}

/* Names of outer/addr: (v1's name, v2's name), then the add rule with input. */
static int outer_names(tl_tensor *out, const tl_tensor *v1, const tl_tensor *v2, const tl_tensor *input)
{
    if (!v1->names && !v2->names && !(input && input->names)) return 0;
    int32_t nm[2] = {name_at(v1, 0), name_at(v2, 0)};
    return finish_names(out, nm, 2, v1, v2, input);
}

/* Names of addbmm: the batch dims unify (as bmm's) and are summed away, leaving
 * (batch1's rows, batch2's columns); then the add rule with input. */
static int addbmm_names(tl_tensor *out, const tl_tensor *b1, const tl_tensor *b2, const tl_tensor *input)
{
    if (!b1->names && !b2->names && !input->names) return 0;
    int32_t batch, nm[2] = {name_at(b1, 1), name_at(b2, 2)};
    if (unify_batch_dim(b1, 0, b2, 0, &batch) < 0) return -1;
    return finish_names(out, nm, 2, b1, b2, input);
}

/* The product's names nm[k] (from operands a and b) on out: a name twice is refused, then
 * an addmm-style input unifies with them from the right. */
static int finish_names(tl_tensor *out, int32_t *nm, int k, const tl_tensor *a, const tl_tensor *b,
                        const tl_tensor *input)
{
    for (int i = 0; i < k; i++) {
        if (nm[i] && contains(nm, i, nm[i])) {
            char sa[512], sb[512], so[512];
            int32_t n[TL_MAX_DIMS];
            for (int j = 0; j < a->ndim; j++) n[j] = name_at(a, j);
            names_list_str(n, a->ndim, sa, sizeof sa);
            for (int j = 0; j < b->ndim; j++) n[j] = name_at(b, j);
            names_list_str(n, b->ndim, sb, sizeof sb);
            names_list_str(nm, k, so, sizeof so);
            return tl_err(TL_ERR_RUNTIME, "Matrix multiplying Tensor%s with Tensor%s would produce output tensor with "
                                          "duplicate names %s. Please rename the input tensors with `Tensor.rename` to "
                                          "prevent this.", sa, sb, so);
        }
    }
    if (input && input->names) { /* addmm/addmv/addr/addbmm: then the add rule with input */
        int32_t ni[TL_MAX_DIMS], res[TL_MAX_DIMS];
        for (int i = 0; i < input->ndim; i++) ni[i] = input->names[i];
        if (unify_right(ni, input->ndim, nm, k, res) < 0) return -1;
        memcpy(nm, res, sizeof(int32_t) * k);
    }
    return tl_tensor_set_names(out, nm);
}

/* Promotion for outer/addr (torch computes them elementwise): higher kind wins; within a
 * kind the wider type; uint8 with int8 is int16; float16 with bfloat16 is float32. */
static tl_dtype promote2(tl_dtype x, tl_dtype y)
{
    if (x == y) return x;
    tl_kind kx = tl_dtype_kind(x), ky = tl_dtype_kind(y);
    if (kx != ky) {
        tl_dtype hi = kx > ky ? x : y, lo = kx > ky ? y : x;
        if (tl_dtype_is_complex(hi) && tl_dtype_is_float(lo) && tl_dtype_itemsize(lo) == 8) return TL_COMPLEX128;
        return hi;
    }
    if ((x == TL_UINT8 && y == TL_INT8) || (x == TL_INT8 && y == TL_UINT8)) return TL_INT16;
    if ((x == TL_FLOAT16 && y == TL_BFLOAT16) || (x == TL_BFLOAT16 && y == TL_FLOAT16)) return TL_FLOAT32;
    return tl_dtype_itemsize(x) >= tl_dtype_itemsize(y) ? x : y;
}


/* Result tensor `out` of shape sz, then c = beta*c0 + alpha*a@b where c0 is input
 * broadcast to sz. cview describes how out is seen by the gemm (ndim >= 2). */
static int run_product(tl_tensor *out, int nd, const int64_t *sz, tl_dtype dt, const tl_tensor *input,
                       const tl_tensor *a3, const tl_tensor *b3, int gnd, const int64_t *gsz, tl_scalar alpha,
                       tl_scalar beta)
{
    /* a complex alpha or beta with an imaginary part does not convert to a real dtype (torch) */
    if (tl_scalar_check_fits(alpha, dt) < 0 || tl_scalar_check_fits(beta, dt) < 0) return -1;
    if (tl_tensor_empty(out, nd, sz, dt, a3->device, false) < 0) return -1;
    bool use_input = input && !tl_scalar_is_zero(beta);
    if (use_input && tl_copy_(out, input) < 0) return -1;
    tl_tensor cv = {0};
    int64_t st[TL_MAX_DIMS];
    tl_contiguous_strides(gsz, gnd, st);
    int rc = view_as(&cv, out, gnd, gsz, st);
    if (rc == 0) rc = tl_gemm(&cv, a3, b3, alpha, use_input ? beta : tl_scalar_int(0));
    tl_tensor_clear(&cv);
    return rc;
}

/* Views a 1-D vector as a column (K x 1) or row (1 x K) matrix. */
static int vec_as_matrix(tl_tensor *v, const tl_tensor *t, bool column)
{
    int64_t sz[2], st[2];
    int64_t n = t->sizes[0], s = t->strides[0];
    if (column) { sz[0] = n; sz[1] = 1; st[0] = s; st[1] = 1; }
    else { sz[0] = 1; sz[1] = n; st[0] = n; st[1] = s; }
    return view_as(v, t, 2, sz, st);
}

/* Two devices: torch's meta kernels' "Tensor on device cpu is not on the expected device
 * meta!"; with a backend's device (CUDA) the device check of torch's CUDA kernels, first
 * argument's device first. */
static int expect_device(tl_device first, tl_device other)
{
    if (tl_device_eq(first, other) || first.type == TL_DEV_META || other.type == TL_DEV_META ||
        (first.type == TL_DEV_CPU && other.type == TL_DEV_CPU))
        return tl_device_expect(first, other);
    char e[32], g[32];
    tl_device_str(first, e, sizeof e);
    tl_device_str(other, g, sizeof g);
    return tl_err(TL_ERR_RUNTIME, "Expected all tensors to be on the same device, but found at least two devices, %s "
                                  "and %s!", e, g);
}

static int check_inputs(const tl_tensor *a, const tl_tensor *b)
{
    /* two devices: torch's RuntimeError before the refusal of a device without products */
    if (a->layout == TL_LAYOUT_STRIDED && b->layout == TL_LAYOUT_STRIDED && expect_device(a->device, b->device) < 0)
        return -1;
    return check_cpu_strided(a) < 0 || check_cpu_strided(b) < 0 ? -1 : 0;
}

/* mm and matmul with a matrix b: as torch's meta kernel, a meta a takes a CPU b (the result
 * is meta, b's data is never read; a 0-d b gets mm's shape error); otherwise one device. */
static int check_inputs_mm(const tl_tensor *a, const tl_tensor *b)
{
    if (a->device.type == TL_DEV_META && (b->ndim == 2 || b->ndim == 0) && b->device.type == TL_DEV_CPU)
        return check_cpu_strided(a) < 0 || check_cpu_strided(b) < 0 ? -1 : 0;
    return check_inputs(a, b);
}

/* The added input of addmm/addmv/baddbmm/addr: on the products' device (a 0-d CPU tensor goes
 * with any, as in torch's element-wise ops). */
static int check_added(const tl_tensor *input, const tl_tensor *like)
{
    if (check_cpu_strided(input) < 0) return -1;
    if (input->device.type == TL_DEV_CPU && input->ndim == 0) return 0;
    if (input->device.type == TL_DEV_META || like->device.type == TL_DEV_META)
        return tl_device_expect(like->device, input->device);
    return expect_device(input->device, like->device); /* input is torch's first argument */
}

/* ---- ops ---- */

int tl_mm(tl_tensor *out, const tl_tensor *a, const tl_tensor *b)
{
    if (check_inputs_mm(a, b) < 0) return -1;
    if (a->ndim != 2) return tl_err(TL_ERR_RUNTIME, "self must be a matrix");
    if (b->ndim != 2) return tl_err(TL_ERR_RUNTIME, "mat2 must be a matrix");
    if (a->sizes[1] != b->sizes[0])
        return tl_err(TL_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                      (long long)a->sizes[0], (long long)a->sizes[1], (long long)b->sizes[0], (long long)b->sizes[1]);
    if (a->dtype != b->dtype)
        return tl_err(TL_ERR_RUNTIME, "expected m1 and m2 to have the same dtype, but got: %s != %s",
                      tl_dtype_typemeta((tl_dtype)a->dtype), tl_dtype_typemeta((tl_dtype)b->dtype));
    if (check_product_dtype(a, b, "addmm_impl_cpu_", "addmm_cuda") < 0) return -1;
    int64_t sz[2] = {a->sizes[0], b->sizes[1]};
    if (run_product(out, 2, sz, (tl_dtype)a->dtype, NULL, a, b, 2, sz, tl_scalar_int(1), tl_scalar_int(0)) < 0)
        return -1;
    return product_names(out, a, b, NULL);
}

/* bmm-style checks shared by bmm, baddbmm and batched matmul (B = batch count). */
static int check_bmm_shapes(const tl_tensor *a, const tl_tensor *b, int64_t B)
{
    int n = a->ndim;
    if (b->sizes[0] != B || b->sizes[n - 2] != a->sizes[n - 1])
        return tl_err(TL_ERR_RUNTIME, "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but "
                                      "got: [%lld, %lld].", (long long)B, (long long)a->sizes[n - 1],
                      (long long)b->sizes[0], (long long)b->sizes[n - 2]);
    return 0;
}

int tl_bmm(tl_tensor *out, const tl_tensor *a, const tl_tensor *b)
{
    if (check_inputs(a, b) < 0) return -1;
    if (a->ndim != 3) return tl_err(TL_ERR_RUNTIME, "batch1 must be a 3D tensor");
    if (b->ndim != 3) return tl_err(TL_ERR_RUNTIME, "batch2 must be a 3D tensor");
    if (check_bmm_shapes(a, b, a->sizes[0]) < 0) return -1;
    if (a->dtype != b->dtype)
        return tl_err(TL_ERR_RUNTIME, "expected scalar type %s but found %s", cname(a), cname(b));
    if (check_product_dtype(a, b, "bmm", "baddbmm_cuda") < 0) return -1;
    int64_t sz[3] = {a->sizes[0], a->sizes[1], b->sizes[2]};
    if (run_product(out, 3, sz, (tl_dtype)a->dtype, NULL, a, b, 3, sz, tl_scalar_int(1), tl_scalar_int(0)) < 0)
        return -1;
    return product_names(out, a, b, NULL);
}

int tl_mv(tl_tensor *out, const tl_tensor *a, const tl_tensor *v)
{
    if (check_inputs(a, v) < 0) return -1;
    if (a->ndim != 2 || v->ndim != 1)
        return tl_err(TL_ERR_RUNTIME, "vector + matrix @ vector expected, got 1, %d, %d", a->ndim, v->ndim);
    if (a->sizes[1] != v->sizes[0])
        return tl_err(TL_ERR_RUNTIME, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                      (long long)a->sizes[0], (long long)a->sizes[0], (long long)a->sizes[1], (long long)v->sizes[0]);
    if (a->dtype != v->dtype)
        return tl_err(TL_ERR_RUNTIME, "addmv input tensors must have the same dtype, but got %s, %s, and %s", cname(v),
                      cname(a), cname(v));
    if (check_product_dtype(a, v, "addmv_impl_cpu", "addmv_impl_cuda") < 0) return -1;
    tl_tensor vc = {0};
    int64_t sz[1] = {a->sizes[0]}, gsz[2] = {a->sizes[0], 1};
    int rc = vec_as_matrix(&vc, v, true);
    if (rc == 0) rc = run_product(out, 1, sz, (tl_dtype)a->dtype, NULL, a, &vc, 2, gsz, tl_scalar_int(1), tl_scalar_int(0));
    tl_tensor_clear(&vc);
    if (rc == 0) rc = product_names(out, a, v, NULL);
    return rc;
}

static int dot_impl(tl_tensor *out, const tl_tensor *a, const tl_tensor *b, const char *op)
{
    if (check_inputs(a, b) < 0) return -1;
    if (a->ndim != 1 || b->ndim != 1)
        return tl_err(TL_ERR_RUNTIME, "1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
    if (a->sizes[0] != b->sizes[0])
        return tl_err(TL_ERR_RUNTIME, "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same "
                                      "number of elements, but got %lld and %lld elements respectively",
                      (long long)a->sizes[0], (long long)b->sizes[0], (long long)a->sizes[0], (long long)b->sizes[0]);
    if (a->dtype != b->dtype)
        return tl_err(TL_ERR_RUNTIME, "%s : expected both vectors to have same dtype, but found %s and %s", op, cname(a),
                      cname(b));
    if (check_dtype_supported2(a, op, op) < 0) return -1;
    tl_tensor ar = {0}, bc = {0};
    int64_t gsz[2] = {1, 1};
    int rc = vec_as_matrix(&ar, a, false);
    if (rc == 0) rc = vec_as_matrix(&bc, b, true);
    if (rc == 0) rc = run_product(out, 0, gsz, (tl_dtype)a->dtype, NULL, &ar, &bc, 2, gsz, tl_scalar_int(1), tl_scalar_int(0));
    tl_tensor_clear(&ar);
    tl_tensor_clear(&bc);
    return rc;
}

int tl_dot(tl_tensor *out, const tl_tensor *a, const tl_tensor *b) { return dot_impl(out, a, b, "dot"); }

int tl_vdot(tl_tensor *out, const tl_tensor *a, const tl_tensor *b)
{
    if (!tl_dtype_is_complex((tl_dtype)a->dtype) || a->ndim != 1) return dot_impl(out, a, b, "vdot");
    /* conjugate a copy of the first vector, then an ordinary dot */
    tl_tensor ac = {0};
    if (on_backend(a)) { /* the conjugated copy by the element-wise entry */
        if (check_inputs(a, b) < 0) return -1;
        tl_ew_dest dst = {.mode = TL_EW_NEW, .out = &ac};
        tl_ew_params prm;
        memset(&prm, 0, sizeof prm);
        int rc = tl_ew_unary(TL_UOP_conj_physical, a, &dst, &prm);
        if (rc == 0) rc = dot_impl(out, &ac, b, "vdot");
        tl_tensor_clear(&ac);
        return rc;
    }
    int rc = tl_clone(&ac, a, (tl_dtype)a->dtype, TL_MEMFMT_CONTIGUOUS);
    if (rc == 0) {
        int64_t n = tl_numel(&ac);
        if (ac.dtype == TL_COMPLEX64) {
            float complex *p = (float complex *)tl_data(&ac);
            for (int64_t i = 0; i < n; i++) p[i] = conjf(p[i]);
        } else if (ac.dtype == TL_COMPLEX128) {
            double complex *p = (double complex *)tl_data(&ac);
            for (int64_t i = 0; i < n; i++) p[i] = conj(p[i]);
        }
        rc = dot_impl(out, &ac, b, "vdot");
    }
    tl_tensor_clear(&ac);
    return rc;
}

int tl_matmul(tl_tensor *out, const tl_tensor *a, const tl_tensor *b)
{
    if (check_inputs_mm(a, b) < 0) return -1;
    int da = a->ndim, db = b->ndim;
    if (da == 0 || db == 0)
        return tl_err(TL_ERR_RUNTIME, "both arguments to matmul need to be at least 1D, but they are %dD and %dD", da, db);
    if (da == 1 && db == 1) return tl_dot(out, a, b);
    if (da == 2 && db == 1) return tl_mv(out, a, b);
    if (da == 2 && db == 2) return tl_mm(out, a, b);
    int64_t K = a->sizes[da - 1];
    if (da == 1 && db == 2) {
        if (b->sizes[0] != K)
            return tl_err(TL_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (1x%lld and %lldx%lld)", (long long)K,
                          (long long)b->sizes[0], (long long)b->sizes[1]);
    } else if (da >= 3 && db <= 2) { /* torch folds a's batch into its rows: mm/mv messages */
        int64_t rows = 1;
        for (int i = 0; i < da - 1; i++) rows *= a->sizes[i];
        if (db == 2 && b->sizes[0] != K)
            return tl_err(TL_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                          (long long)rows, (long long)K, (long long)b->sizes[0], (long long)b->sizes[1]);
        if (db == 1 && b->sizes[0] != K)
            return tl_err(TL_ERR_RUNTIME, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)", (long long)rows,
                          (long long)rows, (long long)K, (long long)b->sizes[0]);
        if (a->dtype != b->dtype)
            return tl_err(TL_ERR_RUNTIME, "expected m1 and m2 to have the same dtype, but got: %s != %s",
                          tl_dtype_typemeta((tl_dtype)a->dtype), tl_dtype_typemeta((tl_dtype)b->dtype));
    }
    /* general batched product: a [..., M, K], b [..., K, N] with batch broadcasting */
    int64_t asz[TL_MAX_DIMS], ast[TL_MAX_DIMS], bsz[TL_MAX_DIMS], bst[TL_MAX_DIMS];
    int na = da >= 2 ? da : 2, nbd = db >= 2 ? db : 2;
    if (da == 1) { asz[0] = 1; asz[1] = K; ast[0] = K * a->strides[0]; ast[1] = a->strides[0]; }
    else { memcpy(asz, a->sizes, sizeof(int64_t) * da); memcpy(ast, a->strides, sizeof(int64_t) * da); }
    if (db == 1) { bsz[0] = b->sizes[0]; bsz[1] = 1; bst[0] = b->strides[0]; bst[1] = 1; }
    else { memcpy(bsz, b->sizes, sizeof(int64_t) * db); memcpy(bst, b->strides, sizeof(int64_t) * db); }
    int64_t batch[TL_MAX_DIMS];
    int nbatch;
    if (tl_broadcast_shapes(asz, na - 2, bsz, nbd - 2, batch, &nbatch) < 0) return -1;
    int64_t M = asz[na - 2], N = bsz[nbd - 1], B = 1;
    for (int i = 0; i < nbatch; i++) B *= batch[i];
    if (bsz[nbd - 2] != K)
        return tl_err(TL_ERR_RUNTIME, "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but "
                                      "got: [%lld, %lld].", (long long)B, (long long)K, (long long)B,
                      (long long)bsz[nbd - 2]);
    if (a->dtype != b->dtype)
        return tl_err(TL_ERR_RUNTIME, "expected scalar type %s but found %s", cname(a), cname(b));
    /* torch folds a's batch into mm/mv rows when b is 1-D or 2-D (the CUDA kernel's name) */
    if (check_product_dtype(a, b, "bmm", da >= 3 && db <= 2 ? (db == 1 ? "addmv_impl_cuda" : "addmm_cuda") : "baddbmm_cuda") < 0)
        return -1;
    int g = nbatch + 2;
    int64_t gasz[TL_MAX_DIMS], gast[TL_MAX_DIMS], gbsz[TL_MAX_DIMS], gbst[TL_MAX_DIMS], gsz[TL_MAX_DIMS];
    for (int i = 0; i < nbatch; i++) {
        int ia = i - (nbatch - (na - 2)), ib = i - (nbatch - (nbd - 2));
        gasz[i] = gbsz[i] = gsz[i] = batch[i];
        gast[i] = ia >= 0 && asz[ia] == batch[i] ? ast[ia] : 0;
        gbst[i] = ib >= 0 && bsz[ib] == batch[i] ? bst[ib] : 0;
    }
    gasz[g - 2] = M; gasz[g - 1] = K; gast[g - 2] = ast[na - 2]; gast[g - 1] = ast[na - 1];
    gbsz[g - 2] = K; gbsz[g - 1] = N; gbst[g - 2] = bst[nbd - 2]; gbst[g - 1] = bst[nbd - 1];
    gsz[g - 2] = M; gsz[g - 1] = N;
    int64_t osz[TL_MAX_DIMS];
    int nout = nbatch;
    memcpy(osz, batch, sizeof(int64_t) * nbatch);
    if (da >= 2) osz[nout++] = M;
    if (db >= 2) osz[nout++] = N;
    tl_tensor av = {0}, bv = {0};
    int rc = view_as(&av, a, g, gasz, gast);
    if (rc == 0) rc = view_as(&bv, b, g, gbsz, gbst);
    if (rc == 0) rc = run_product(out, nout, osz, (tl_dtype)a->dtype, NULL, &av, &bv, g, gsz, tl_scalar_int(1),
                                  tl_scalar_int(0));
    tl_tensor_clear(&av);
    tl_tensor_clear(&bv);
    if (rc == 0) rc = product_names(out, a, b, NULL);
    return rc;
}

/* Promotes x to dtype d (a converted copy, or an alias when already d). */
static int as_dtype(tl_tensor *out, const tl_tensor *x, tl_dtype d)
{
    if (x->dtype == d) return tl_tensor_alias(out, x);
    return tl_clone(out, x, d, TL_MEMFMT_CONTIGUOUS);
}

/* beta*input + alpha*outer(v1, v2) in the promoted dtype (input NULL: plain outer). */
/* addr is computed elementwise in torch, so its beta and alpha follow add's alpha rules. */
static int addr_scalar_check(tl_scalar s, tl_dtype dt, const char *name)
{
    if (s.kind == TL_KIND_BOOL && dt != TL_BOOL)
        return tl_err(TL_ERR_RUNTIME, "Boolean %s only supported for Boolean results.", name);
    if (tl_dtype_kind(dt) <= TL_KIND_INT && s.kind >= TL_KIND_FLOAT)
        return tl_err(TL_ERR_RUNTIME, "For integral input tensors, argument %s must not be a floating point number.", name);
    return 0;
}

static int outer_impl(tl_tensor *out, const tl_tensor *input, const tl_tensor *v1, const tl_tensor *v2, tl_scalar beta,
                      tl_scalar alpha, const char *op)
{
    if (check_inputs(v1, v2) < 0 || (input && check_added(input, v1) < 0)) return -1;
    if (v1->ndim != 1) return tl_err(TL_ERR_RUNTIME, "%s: Expected 1-D argument vec1, but got %d-D", op, v1->ndim);
    if (v2->ndim != 1) return tl_err(TL_ERR_RUNTIME, "%s: Expected 1-D argument vec2, but got %d-D", op, v2->ndim);
    tl_dtype dt = promote2((tl_dtype)v1->dtype, (tl_dtype)v2->dtype);
    if (input) dt = promote2(dt, (tl_dtype)input->dtype);
    if (input && (addr_scalar_check(beta, dt, "beta") < 0 || addr_scalar_check(alpha, dt, "alpha") < 0)) return -1;
    int64_t sz[2] = {v1->sizes[0], v2->sizes[0]};
    tl_tensor ex = {0};
    if (input) { /* input must broadcast to the result */
        int rc = tl_expand(&ex, input, sz, 2);
        tl_tensor_clear(&ex);
        if (rc < 0) return -1;
    }
    /* bool: logical and, computed as a uint8 product */
    tl_dtype work = dt == TL_BOOL ? TL_UINT8 : dt;
    if (on_backend(v1) && !backend_gemm_dtype(dt)) return tl_backend_refuse(op, v1->device, dt); /* cuBLAS: no integers */
    if (!tl_gemm_dtype_ok(work)) return tl_err_dispatch(TL_ERR_NOTIMPL, (tl_dtype)dt, "%s", op);
    tl_tensor x = {0}, y = {0}, xc = {0}, yr = {0}, tmp = {0};
    int rc = as_dtype(&x, v1, work);
    if (rc == 0) rc = as_dtype(&y, v2, work);
    if (rc == 0) rc = vec_as_matrix(&xc, &x, true);
    if (rc == 0) rc = vec_as_matrix(&yr, &y, false);
    if (work == dt) {
        if (rc == 0) rc = run_product(out, 2, sz, dt, input, &xc, &yr, 2, sz, alpha, beta);
    } else {
        if (rc == 0) rc = run_product(&tmp, 2, sz, work, NULL, &xc, &yr, 2, sz, tl_scalar_int(1), tl_scalar_int(0));
        if (rc == 0) rc = tl_tensor_empty(out, 2, sz, dt, v1->device, false);
        if (rc == 0) rc = tl_copy_(out, &tmp);
        if (rc == 0 && input && !tl_scalar_is_zero(beta) && !tl_scalar_is_zero(alpha)) {
            /* bool addr: beta || (alpha && v1 v2^T) */
            int64_t n = tl_numel(out);
            tl_tensor in8 = {0};
            rc = tl_tensor_empty(&in8, 2, sz, TL_BOOL, v1->device, false);
            if (rc == 0) rc = tl_copy_(&in8, input);
            uint8_t *o = (uint8_t *)tl_data(out), *p = (uint8_t *)tl_data(&in8);
            for (int64_t i = 0; rc == 0 && i < n; i++) o[i] = (uint8_t)(o[i] | p[i]);
            tl_tensor_clear(&in8);
        } else if (rc == 0 && input && !tl_scalar_is_zero(beta)) {
            rc = tl_copy_(out, input);
        } else if (rc == 0 && tl_scalar_is_zero(alpha)) {
            rc = tl_fill_(out, tl_scalar_int(0));
        }
    }
    if (rc == 0) rc = outer_names(out, v1, v2, input);
    tl_tensor_clear(&x);
    tl_tensor_clear(&y);
    tl_tensor_clear(&xc);
    tl_tensor_clear(&yr);
    tl_tensor_clear(&tmp);
    return rc;
}

int tl_outer(tl_tensor *out, const tl_tensor *a, const tl_tensor *b)
{
    return outer_impl(out, NULL, a, b, tl_scalar_int(0), tl_scalar_int(1), "outer");
}

int tl_addr(tl_tensor *out, const tl_tensor *input, const tl_tensor *v1, const tl_tensor *v2, tl_scalar beta,
            tl_scalar alpha)
{
    return outer_impl(out, input, v1, v2, beta, alpha, "addr");
}

int tl_addmm(tl_tensor *out, const tl_tensor *input, const tl_tensor *m1, const tl_tensor *m2, tl_scalar beta,
             tl_scalar alpha)
{
    if (check_inputs(m1, m2) < 0 || check_added(input, m1) < 0) return -1;
    if (m1->ndim != 2) return tl_err(TL_ERR_RUNTIME, "mat1 must be a matrix, got %d-D tensor", m1->ndim);
    if (m2->ndim != 2) return tl_err(TL_ERR_RUNTIME, "mat2 must be a matrix, got %d-D tensor", m2->ndim);
    if (m1->sizes[1] != m2->sizes[0])
        return tl_err(TL_ERR_RUNTIME, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                      (long long)m1->sizes[0], (long long)m1->sizes[1], (long long)m2->sizes[0], (long long)m2->sizes[1]);
    if (input->dtype != m2->dtype)
        return tl_err(TL_ERR_RUNTIME, "self and mat2 must have the same dtype, but got %s and %s", cname(input), cname(m2));
    if (m1->dtype != m2->dtype)
        return tl_err(TL_ERR_RUNTIME, "expected m1 and m2 to have the same dtype, but got: %s != %s",
                      tl_dtype_typemeta((tl_dtype)m1->dtype), tl_dtype_typemeta((tl_dtype)m2->dtype));
    if (check_dtype_supported2(m1, "addmm_impl_cpu_", "addmm_cuda") < 0) return -1;
    int64_t sz[2] = {m1->sizes[0], m2->sizes[1]};
    tl_tensor ex = {0};
    int rc = tl_expand(&ex, input, sz, 2);
    tl_tensor_clear(&ex);
    if (rc < 0) return -1;
    if (run_product(out, 2, sz, (tl_dtype)m1->dtype, input, m1, m2, 2, sz, alpha, beta) < 0) return -1;
    return product_names(out, m1, m2, input);
}

int tl_addmv(tl_tensor *out, const tl_tensor *input, const tl_tensor *mat, const tl_tensor *vec, tl_scalar beta,
             tl_scalar alpha)
{
    if (check_inputs(mat, vec) < 0 || check_added(input, mat) < 0) return -1;
    if (mat->ndim != 2 || vec->ndim != 1 || input->ndim > 1)
        return tl_err(TL_ERR_RUNTIME, "vector + matrix @ vector expected, got %d, %d, %d", input->ndim, mat->ndim,
                      vec->ndim);
    int64_t M = mat->sizes[0];
    bool in_ok = input->ndim == 0 || input->sizes[0] == M || input->sizes[0] == 1;
    if (mat->sizes[1] != vec->sizes[0] || !in_ok)
        return tl_err(TL_ERR_RUNTIME, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                      (long long)(input->ndim ? input->sizes[0] : 1), (long long)M, (long long)mat->sizes[1],
                      (long long)vec->sizes[0]);
    if (input->dtype != mat->dtype || mat->dtype != vec->dtype)
        return tl_err(TL_ERR_RUNTIME, "addmv input tensors must have the same dtype, but got %s, %s, and %s", cname(input),
                      cname(mat), cname(vec));
    if (check_dtype_supported2(mat, "addmv_impl_cpu", "addmv_impl_cuda") < 0) return -1;
    tl_tensor vc = {0};
    int64_t sz[1] = {M}, gsz[2] = {M, 1};
    int rc = vec_as_matrix(&vc, vec, true);
    if (rc == 0) rc = run_product(out, 1, sz, (tl_dtype)mat->dtype, input, mat, &vc, 2, gsz, alpha, beta);
    tl_tensor_clear(&vc);
    if (rc == 0) rc = product_names(out, mat, vec, input);
    return rc;
}

static int check_batched(const tl_tensor *input, const tl_tensor *b1, const tl_tensor *b2, const char *op)
{
    if (check_inputs(b1, b2) < 0 || check_added(input, b1) < 0) return -1;
    if (b1->ndim != 3) return tl_err(TL_ERR_RUNTIME, "batch1 must be a 3D tensor");
    if (b2->ndim != 3) return tl_err(TL_ERR_RUNTIME, "batch2 must be a 3D tensor");
    return 0;
}

int tl_baddbmm(tl_tensor *out, const tl_tensor *input, const tl_tensor *b1, const tl_tensor *b2, tl_scalar beta,
               tl_scalar alpha)
{
    if (check_batched(input, b1, b2, "baddbmm") < 0) return -1;
    if (check_bmm_shapes(b1, b2, b1->sizes[0]) < 0) return -1;
    if (b1->dtype != b2->dtype)
        return tl_err(TL_ERR_RUNTIME, "expected scalar type %s but found %s", cname(b1), cname(b2));
    if (input->dtype != b1->dtype)
        return tl_err(TL_ERR_RUNTIME, "Input dtypes must be the same, got: input %s, batch1: %s, batch2: %s",
                      tl_dtype_typemeta((tl_dtype)input->dtype), tl_dtype_typemeta((tl_dtype)b1->dtype),
                      tl_dtype_typemeta((tl_dtype)b2->dtype));
    if (check_dtype_supported2(b1, "baddbmm", "baddbmm_cuda") < 0) return -1;
    int64_t sz[3] = {b1->sizes[0], b1->sizes[1], b2->sizes[2]};
    tl_tensor ex = {0};
    int rc = tl_expand(&ex, input, sz, 3);
    tl_tensor_clear(&ex);
    if (rc < 0) return -1;
    rc = run_product(out, 3, sz, (tl_dtype)b1->dtype, input, b1, b2, 3, sz, alpha, beta);
    return rc == 0 ? product_names(out, b1, b2, input) : rc; /* bmm's names, then add's */
}

int tl_addbmm(tl_tensor *out, const tl_tensor *input, const tl_tensor *b1, const tl_tensor *b2, tl_scalar beta,
              tl_scalar alpha)
{
    if (check_batched(input, b1, b2, "addbmm") < 0) return -1;
    if (b1->sizes[0] != b2->sizes[0])
        return tl_err(TL_ERR_RUNTIME, "batch1 and batch2 must have same number of batches, got %lld and %lld",
                      (long long)b1->sizes[0], (long long)b2->sizes[0]);
    if (b1->sizes[2] != b2->sizes[1])
        return tl_err(TL_ERR_RUNTIME, "Incompatible matrix sizes for bmm (%lldx%lld and %lldx%lld)",
                      (long long)b1->sizes[1], (long long)b1->sizes[2], (long long)b2->sizes[1], (long long)b2->sizes[2]);
    if (b1->dtype != b2->dtype || input->dtype != b1->dtype)
        return tl_err(TL_ERR_RUNTIME, "expected scalar type %s but found %s", cname(input),
                      cname(input->dtype != b1->dtype ? b1 : b2));
    if (check_dtype_supported2(b1, "addbmm", "addmm_cuda") < 0) return -1;
    int64_t B = b1->sizes[0], M = b1->sizes[1], K = b1->sizes[2], N = b2->sizes[2];
    int64_t sz[2] = {M, N};
    tl_tensor ex = {0};
    int rc = tl_expand(&ex, input, sz, 2);
    tl_tensor_clear(&ex);
    if (rc < 0) return -1;
    /* sum_b A_b @ B_b = [A_0 .. A_{B-1}] (M x B*K) @ [B_0; ..; B_{B-1}] (B*K x N) */
    tl_tensor A = {0}, Bm = {0}, perm = {0};
    tl_tensor b1v = tl_tensor_geom(b1, 3, b1->sizes, b1->strides), b2v = tl_tensor_geom(b2, 3, b2->sizes, b2->strides);
    int64_t pd[3] = {1, 0, 2};
    rc = tl_permute(&perm, &b1v, pd, 3); /* unnamed geometry: reshape refuses names */
    if (rc == 0) rc = tl_reshape(&A, &perm, (int64_t[]){M, B * K}, 2);
    if (rc == 0) rc = tl_reshape(&Bm, &b2v, (int64_t[]){B * K, N}, 2);
    if (rc == 0) rc = run_product(out, 2, sz, (tl_dtype)b1->dtype, input, &A, &Bm, 2, sz, alpha, beta);
    if (rc == 0) rc = addbmm_names(out, b1, b2, input);
    tl_tensor_clear(&A);
    tl_tensor_clear(&Bm);
    tl_tensor_clear(&perm);
    return rc;
}

