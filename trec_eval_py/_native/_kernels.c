/*
 * Rank loops of the heaviest measures (optional accelerator for their modules).
 *
 * Each function here is the C twin of one measure module's numpy kernel
 * (bpref.py, infap.py, g.py, rndcg.py, ndcg_rel.py, map.py, bing.py), of the
 * gain tables' lookups and running dcg (_gains.py), of the interpolated
 * precisions (_interp.py) or of the batch padding (join/batch.py): it walks each topic's ranks once instead of building a
 * dozen temporary matrices, and it performs the same floating-point
 * operations in the same order as the numpy code, so the results are the
 * same bits. Where the numpy code sums a row with a running total (cumsum,
 * or row_sums in _cmath.c), the loop here starts the total at the row's
 * first value and adds the others left to right, padding included, exactly
 * as those do. Logarithms are the C library's log2(), which is what the
 * numpy code reaches through math.log2 (the dcg discounts come from the
 * numpy code's own table of them).
 *
 * Arrays come as contiguous buffers: int64 for relevance codes and counts,
 * float64 for gains and results; a padded matrix has ``width`` columns.
 * The build passes no fast-math flag: the compiler keeps every operation
 * as written (no reassociation, no fused multiply-add on x86-64's base ISA).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
/* keep a * b + c as two roundings wherever the target has fused multiply-add */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <math.h>
#include <stdint.h>
#include <string.h>

/* relevance code of a pooled but unjudged document (join/batch.py's UNJUDGED) */
#define UNJUDGED (-2)
#define INFAP_EPSILON 0.00001

/* Buffers are checked for length here so that a wrong call is an error, not
 * a read past the end. */
static int check_len(Py_buffer *b, Py_ssize_t items, const char *what)
{
    if (b->len != items * 8) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of 8 bytes expected, got %zd bytes", what, items, b->len);
        return -1;
    }
    return 0;
}

#define RELEASE(...)                                                                   \
    do {                                                                               \
        Py_buffer *bufs_[] = {__VA_ARGS__};                                            \
        for (size_t k_ = 0; k_ < sizeof bufs_ / sizeof bufs_[0]; k_++)                 \
            PyBuffer_Release(bufs_[k_]);                                               \
    } while (0)

/* math.log2 as trec_eval_py's c_log2 spells it: the C library's log2 for
 * positive values, -inf at 0, a NaN kept as it is, the sign-set NaN for
 * negatives (what x86 gives for 0.0/0.0 and log of a negative). */
static double c_log2(double v)
{
    if (v > 0.0) return log2(v);
    if (v == 0.0) return -INFINITY;
    if (v != v) return v;
    return copysign(NAN, -1.0);
}

/* pad_rows(flat, offsets, lo, hi, width, out): out is a (hi-lo) x width
 * matrix of 8-byte items already filled with the padding value; row r gets
 * flat[offsets[lo+r] : offsets[lo+r+1]]. */
static PyObject *pad_rows(PyObject *self, PyObject *args)
{
    Py_buffer flat, offs, out;
    Py_ssize_t lo, hi, width;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*nnnw*", &flat, &offs, &lo, &hi, &width, &out)) return NULL;
    const int64_t *o = offs.buf;
    Py_ssize_t n_offs = offs.len / 8;
    int bad = lo < 0 || hi < lo || hi >= n_offs || width < 1 || out.len != (hi - lo) * width * 8;
    for (Py_ssize_t t = lo; !bad && t < hi; t++) {
        bad = o[t] < 0 || o[t + 1] < o[t] || o[t + 1] - o[t] > width || o[t + 1] * 8 > flat.len;
    }
    if (bad) {
        RELEASE(&flat, &offs, &out);
        PyErr_SetString(PyExc_ValueError, "pad_rows: offsets, rows or width do not fit the buffers");
        return NULL;
    }
    const char *src = flat.buf;
    char *dst = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t t = lo; t < hi; t++) {
        memcpy(dst + (t - lo) * width * 8, src + o[t] * 8, (size_t)(o[t + 1] - o[t]) * 8);
    }
    Py_END_ALLOW_THREADS
    RELEASE(&flat, &offs, &out);
    Py_RETURN_NONE;
}

/* bpref_sums(rel, width, num_ret, num_rel, num_nonrel, level, out): bpref.py's
 * row sums of the per-document terms (before the division by R). */
static PyObject *bpref_sums(PyObject *self, PyObject *args)
{
    Py_buffer rel, num_ret, num_rel, num_nonrel, out;
    Py_ssize_t width;
    long long level;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ny*y*y*Lw*", &rel, &width, &num_ret, &num_rel, &num_nonrel, &level, &out))
        return NULL;
    Py_ssize_t n = out.len / 8;
    if (width < 1 || check_len(&rel, n * width, "bpref_sums rel") || check_len(&num_ret, n, "bpref_sums num_ret") ||
        check_len(&num_rel, n, "bpref_sums num_rel") || check_len(&num_nonrel, n, "bpref_sums num_nonrel")) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bpref_sums: width must be positive");
        RELEASE(&rel, &num_ret, &num_rel, &num_nonrel, &out);
        return NULL;
    }
    const int64_t *r = rel.buf, *nr = num_ret.buf, *R = num_rel.buf, *N = num_nonrel.buf;
    double *o = out.buf;
    const int64_t rel_level = level > 0 ? level : 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *row = r + i * width;
        const double capped_max = (double)(N[i] < R[i] ? N[i] : R[i]);
        int64_t nonrel_above = 0;
        double s = 0.0;
        for (Py_ssize_t j = 0; j < width; j++) {
            const int valid = j < nr[i];
            const int64_t c = row[j];
            if (valid && c >= 0 && c < level) nonrel_above++;
            double term = 0.0;
            if (valid && c >= rel_level) {
                if (nonrel_above > 0) {
                    const double capped = (double)(nonrel_above < R[i] ? nonrel_above : R[i]);
                    term = 1.0 - capped / capped_max;
                } else {
                    term = 1.0;
                }
            }
            s = j == 0 ? term : s + term;
        }
        o[i] = s;
    }
    Py_END_ALLOW_THREADS
    RELEASE(&rel, &num_ret, &num_rel, &num_nonrel, &out);
    Py_RETURN_NONE;
}

/* infap_sums(rel, width, num_ret, level, out): infap.py's row sums of the
 * estimated precision at each judged relevant document (before dividing by R). */
static PyObject *infap_sums(PyObject *self, PyObject *args)
{
    Py_buffer rel, num_ret, out;
    Py_ssize_t width;
    long long level;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ny*Lw*", &rel, &width, &num_ret, &level, &out)) return NULL;
    Py_ssize_t n = out.len / 8;
    if (width < 1 || check_len(&rel, n * width, "infap_sums rel") || check_len(&num_ret, n, "infap_sums num_ret")) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "infap_sums: width must be positive");
        RELEASE(&rel, &num_ret, &out);
        return NULL;
    }
    const int64_t *r = rel.buf, *nr = num_ret.buf;
    double *o = out.buf;
    const int64_t rel_level = level > 0 ? level : 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *row = r + i * width;
        /* counts through this rank, the document itself included, as the
         * numpy code's cumulative sums are */
        int64_t rel_through = 0, nonrel_through = 0, unjudged_through = 0;
        double s = 0.0;
        for (Py_ssize_t j = 0; j < width; j++) {
            const int valid = j < nr[i];
            const int64_t c = row[j];
            const int is_rel = valid && c >= rel_level;
            rel_through += is_rel;
            nonrel_through += valid && c >= 0 && c < level;
            unjudged_through += valid && c == UNJUDGED;
            double term = 0.0;
            if (is_rel) {
                if (j == 0) {
                    term = 1.0; /* a relevant document at the top counts fully */
                } else {
                    const int64_t rel_above = rel_through - 1;
                    const double fj = (double)j;
                    const double pooled = (double)(rel_above + nonrel_through + unjudged_through);
                    term = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * (pooled / fj) *
                           (((double)rel_above + INFAP_EPSILON) /
                            ((double)(rel_above + nonrel_through) + 2 * INFAP_EPSILON));
                }
            }
            s = j == 0 ? term : s + term;
        }
        o[i] = s;
    }
    Py_END_ALLOW_THREADS
    RELEASE(&rel, &num_ret, &out);
    Py_RETURN_NONE;
}

/* g(ret, width, ideal, ideal_width, out): g.py's normalized gain per topic,
 * from the retrieved gains (n x width) and the ideal gains (n x ideal_width). */
static PyObject *g_values(PyObject *self, PyObject *args)
{
    Py_buffer ret, ideal, out;
    Py_ssize_t width, iwidth;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ny*nw*", &ret, &width, &ideal, &iwidth, &out)) return NULL;
    Py_ssize_t n = out.len / 8;
    if (width < 1 || iwidth < 1 || check_len(&ret, n * width, "g ret") || check_len(&ideal, n * iwidth, "g ideal")) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "g: widths must be positive");
        RELEASE(&ret, &ideal, &out);
        return NULL;
    }
    const double *rg = ret.buf, *ig = ideal.buf;
    double *o = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const double *row = rg + i * width, *irow = ig + i * iwidth;
        double gained = 0.0, spent = 0.0, total = 0.0, best = 0.0;
        for (Py_ssize_t j = 0; j < width; j++) {
            const double best_here = j < iwidth ? irow[j] : 0.0;
            const double cost = best_here >= 1.0 ? best_here : 1.0;
            gained = j == 0 ? row[j] : gained + row[j];
            spent = j == 0 ? cost : spent + cost;
            const double term = row[j] != 0.0 ? row[j] / c_log2((2.0 + spent) - gained) : 0.0;
            total = j == 0 ? term : total + term;
        }
        for (Py_ssize_t j = 0; j < iwidth; j++) best = j == 0 ? irow[j] : best + irow[j];
        o[i] = best > 0.0 ? total / best : 0.0;
    }
    Py_END_ALLOW_THREADS
    RELEASE(&ret, &ideal, &out);
    Py_RETURN_NONE;
}

/* Running sums of gain / log2(rank + 1) along a row (the numpy code's
 * running(discounted(x)), with ``skip_zero`` giving 0.0 for a zero gain as
 * its np.where does); out has ``len`` items. ``disc`` holds log2(j + 2) for
 * j < len: _gains.py's table of discounts, passed in so that both sides
 * divide by the same numbers (and no logarithm is taken per document). */
static void running_dcg(const double *x, Py_ssize_t len, int skip_zero, const double *disc, double *out)
{
    double s = 0.0;
    for (Py_ssize_t j = 0; j < len; j++) {
        const double d = (skip_zero && x[j] == 0.0) ? 0.0 : x[j] / disc[j];
        s = j == 0 ? d : s + d;
        out[j] = s;
    }
}

/* rndcg(ret, width, ideal, ideal_width, ideal_len, num_ret, num_rel, disc, out):
 * rndcg.py's per-topic values (disc: log2(j + 2), at least max(width, ideal_width) items). */
static PyObject *rndcg_values(PyObject *self, PyObject *args)
{
    Py_buffer ret, ideal, ilen, num_ret, num_rel, discs, out;
    Py_ssize_t width, iwidth;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ny*ny*y*y*y*w*", &ret, &width, &ideal, &iwidth, &ilen, &num_ret, &num_rel, &discs,
                          &out))
        return NULL;
    Py_ssize_t n = out.len / 8;
    if (width < 1 || iwidth < 1 || check_len(&ret, n * width, "rndcg ret") ||
        check_len(&ideal, n * iwidth, "rndcg ideal") || check_len(&ilen, n, "rndcg ideal_len") ||
        check_len(&num_ret, n, "rndcg num_ret") || check_len(&num_rel, n, "rndcg num_rel") ||
        discs.len / 8 < (width > iwidth ? width : iwidth)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "rndcg: widths or discounts do not fit");
        RELEASE(&ret, &ideal, &ilen, &num_ret, &num_rel, &discs, &out);
        return NULL;
    }
    const double *disc = discs.buf;
    double *dcg = PyMem_Malloc((size_t)(width + iwidth) * sizeof(double));
    if (!dcg) {
        RELEASE(&ret, &ideal, &ilen, &num_ret, &num_rel, &discs, &out);
        return PyErr_NoMemory();
    }
    double *idcg = dcg + width;
    const double *rg = ret.buf, *ig = ideal.buf;
    const int64_t *m = ilen.buf, *nr = num_ret.buf, *R = num_rel.buf;
    double *o = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const double *irow = ig + i * iwidth;
        running_dcg(rg + i * width, width, 1, disc, dcg);
        running_dcg(irow, iwidth, 0, disc, idcg);
        /* position p = 0 .. max(width, iwidth): dcg and ideal dcg through
         * rank p (0 at p = 0, the last value past a row's end) */
        const Py_ssize_t positions = (width > iwidth ? width : iwidth) + 1;
        double total = 0.0;
        int64_t count = 0;
        for (Py_ssize_t p = 0; p < positions; p++) {
            double term = 0.0;
            if (p >= 1 && p <= m[i]) {
                const double here = p < iwidth ? irow[p] : 0.0;
                const double before = p - 1 < iwidth ? irow[p - 1] : 0.0;
                const double best = idcg[(p < iwidth ? p : iwidth) - 1];
                if (here != before && best > 0.0) {
                    term = dcg[(p < width ? p : width) - 1] / best;
                    count++;
                }
            }
            total = p == 0 ? term : total + term;
        }
        if (m[i] >= 1 && m[i] + 1 < nr[i]) {
            total = total + dcg[width - 1] / idcg[iwidth - 1];
            count++;
        }
        const double value = total / (double)count;
        o[i] = R[i] > 0 ? value : 0.0;
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(dcg);
    RELEASE(&ret, &ideal, &ilen, &num_ret, &num_rel, &discs, &out);
    Py_RETURN_NONE;
}

/* ndcg_rel(ret, width, ideal, ideal_width, ideal_len, disc, out): ndcg_rel.py's
 * per-topic values (disc: log2(j + 2), at least max(width, ideal_width) items). */
static PyObject *ndcg_rel_values(PyObject *self, PyObject *args)
{
    Py_buffer ret, ideal, ilen, discs, out;
    Py_ssize_t width, iwidth;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ny*ny*y*w*", &ret, &width, &ideal, &iwidth, &ilen, &discs, &out)) return NULL;
    Py_ssize_t n = out.len / 8;
    if (width < 1 || iwidth < 1 || check_len(&ret, n * width, "ndcg_rel ret") ||
        check_len(&ideal, n * iwidth, "ndcg_rel ideal") || check_len(&ilen, n, "ndcg_rel ideal_len") ||
        discs.len / 8 < (width > iwidth ? width : iwidth)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ndcg_rel: widths or discounts do not fit");
        RELEASE(&ret, &ideal, &ilen, &discs, &out);
        return NULL;
    }
    const double *disc = discs.buf;
    double *dcg = PyMem_Malloc((size_t)(width + iwidth) * sizeof(double));
    if (!dcg) {
        RELEASE(&ret, &ideal, &ilen, &discs, &out);
        return PyErr_NoMemory();
    }
    double *idcg = dcg + width;
    const double *rg = ret.buf, *ig = ideal.buf;
    const int64_t *m = ilen.buf;
    double *o = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const double *row = rg + i * width;
        running_dcg(row, width, 1, disc, dcg);
        running_dcg(ig + i * iwidth, iwidth, 0, disc, idcg);
        double total = 0.0;
        int64_t hits = 0;
        for (Py_ssize_t j = 0; j < width; j++) {
            double term = 0.0;
            if (row[j] > 0.0) {
                term = dcg[j] / idcg[j < iwidth ? j : iwidth - 1];
                hits++;
            }
            total = j == 0 ? term : total + term;
        }
        const double missed = (double)(m[i] - hits);
        total = total + missed * dcg[width - 1] / idcg[iwidth - 1];
        o[i] = total > 0.0 ? total / (double)m[i] : 0.0;
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(dcg);
    RELEASE(&ret, &ideal, &ilen, &discs, &out);
    Py_RETURN_NONE;
}

/* gains_of(rel, width, num_ret, lut, out): out[i, j] = lut[rel[i, j] + 2] for a
 * ranked document whose code is -2 .. len(lut) - 3, 0.0 for any other code and
 * past the ranking's end (_gains.py's retrieved_gains with a table's lookup). */
static PyObject *gains_of(PyObject *self, PyObject *args)
{
    Py_buffer rel, num_ret, lut, out;
    Py_ssize_t width;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ny*y*w*", &rel, &width, &num_ret, &lut, &out)) return NULL;
    Py_ssize_t n = num_ret.len / 8;
    if (width < 1 || check_len(&rel, n * width, "gains_of rel") || check_len(&out, n * width, "gains_of out") ||
        lut.len % 8) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "gains_of: width or table do not fit");
        RELEASE(&rel, &num_ret, &lut, &out);
        return NULL;
    }
    const int64_t *r = rel.buf, *nr = num_ret.buf;
    const double *g = lut.buf;
    const int64_t entries = lut.len / 8;
    double *o = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *row = r + i * width;
        double *orow = o + i * width;
        for (Py_ssize_t j = 0; j < width; j++) {
            const int64_t k = row[j] + 2;
            orow[j] = (j < nr[i] && k >= 0 && k < entries) ? g[k] : 0.0;
        }
    }
    Py_END_ALLOW_THREADS
    RELEASE(&rel, &num_ret, &lut, &out);
    Py_RETURN_NONE;
}

/* ideal_gains(judged, jwidth, carrier, gains, out, out_len): each topic's ideal
 * ranking (_gains.py's _ideal). carrier[level] is the table entry carrying the
 * count of documents judged at ``level`` (-1 for none), gains[k] entry k's gain
 * (entries in increasing-gain order). The ranking takes every judged document
 * at its carrier, entries from the last down, and stops at the first entry
 * with documents whose gain is not positive. out (n x jwidth) must be zeroed. */
static PyObject *ideal_gains(PyObject *self, PyObject *args)
{
    Py_buffer judged, carrier, gains, out, out_len;
    Py_ssize_t jwidth;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*ny*y*w*w*", &judged, &jwidth, &carrier, &gains, &out, &out_len)) return NULL;
    Py_ssize_t n = out_len.len / 8;
    Py_ssize_t levels = carrier.len / 8, entries = gains.len / 8;
    if (jwidth < 1 || check_len(&judged, n * jwidth, "ideal_gains judged") ||
        check_len(&out, n * jwidth, "ideal_gains out") || carrier.len % 8 || gains.len % 8) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "ideal_gains: width or tables do not fit");
        RELEASE(&judged, &carrier, &gains, &out, &out_len);
        return NULL;
    }
    const int64_t *jr = judged.buf, *car = carrier.buf;
    for (Py_ssize_t lv = 0; lv < levels; lv++) {
        if (car[lv] < -1 || car[lv] >= entries) {
            RELEASE(&judged, &carrier, &gains, &out, &out_len);
            PyErr_SetString(PyExc_ValueError, "ideal_gains: a carrier is not an entry of the table");
            return NULL;
        }
    }
    int64_t *count = PyMem_Calloc((size_t)(entries ? entries : 1), sizeof(int64_t));
    if (!count) {
        RELEASE(&judged, &carrier, &gains, &out, &out_len);
        return PyErr_NoMemory();
    }
    const double *g = gains.buf;
    double *o = out.buf;
    int64_t *len = out_len.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *row = jr + i * jwidth;
        for (Py_ssize_t j = 0; j < jwidth; j++) {
            const int64_t lv = row[j];
            if (lv >= 0 && lv < levels && car[lv] >= 0) count[car[lv]]++;
        }
        double *orow = o + i * jwidth;
        int64_t taken = 0;
        int stop = 0;
        for (Py_ssize_t k = entries - 1; k >= 0; k--) {
            if (!stop && count[k] > 0) {
                if (g[k] <= 0.0) {
                    stop = 1;
                } else {
                    for (int64_t c = 0; c < count[k]; c++) orow[taken++] = g[k];
                }
            }
            count[k] = 0;
        }
        len[i] = taken;
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(count);
    RELEASE(&judged, &carrier, &gains, &out, &out_len);
    Py_RETURN_NONE;
}

/* The sum, per topic, of a term at each document passing the rank-by-rank
 * test (code >= level), and whether any did (found: one byte per topic):
 *   ap_sums(rel, width, num_ret, level, sums, found): the precision there
 *     (map.py);
 *   bing_sums(rel, width, num_ret, level, disc, sums, found): 1 / log2(2 +
 *     the documents above that did not pass), disc holding log2(j + 2) for at
 *     least width items (bing.py). */
static PyObject *passing_sums(PyObject *args, int with_disc, const char *name)
{
    Py_buffer rel, num_ret, discs = {0}, out, found;
    Py_ssize_t width;
    long long level;
    int parsed = with_disc
        ? PyArg_ParseTuple(args, "y*ny*Ly*w*w*", &rel, &width, &num_ret, &level, &discs, &out, &found)
        : PyArg_ParseTuple(args, "y*ny*Lw*w*", &rel, &width, &num_ret, &level, &out, &found);
    if (!parsed) return NULL;
    Py_ssize_t n = out.len / 8;
    if (width < 1 || check_len(&rel, n * width, name) || check_len(&num_ret, n, name) || found.len != n ||
        (with_disc && discs.len / 8 < width)) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: width, discounts or outputs do not fit", name);
        RELEASE(&rel, &num_ret, &discs, &out, &found);
        return NULL;
    }
    const int64_t *r = rel.buf, *nr = num_ret.buf;
    const double *disc = with_disc ? discs.buf : NULL;
    double *o = out.buf;
    char *f = found.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *row = r + i * width;
        int64_t seen = 0;
        double s = 0.0;
        for (Py_ssize_t j = 0; j < width; j++) {
            const int is_rel = j < nr[i] && row[j] >= level;
            const int64_t before = seen;
            seen += is_rel;
            double term = 0.0;
            if (is_rel) term = disc ? 1.0 / disc[(int64_t)j - before] : (double)seen / (double)(j + 1);
            s = j == 0 ? term : s + term;
        }
        o[i] = s;
        f[i] = seen > 0;
    }
    Py_END_ALLOW_THREADS
    RELEASE(&rel, &num_ret, &discs, &out, &found);
    Py_RETURN_NONE;
}

static PyObject *ap_sums(PyObject *self, PyObject *args)
{
    (void)self;
    return passing_sums(args, 0, "ap_sums");
}

static PyObject *bing_sums(PyObject *self, PyObject *args)
{
    (void)self;
    return passing_sums(args, 1, "bing_sums");
}

/* dcg_at(x, width, skip_zero, cols, disc, out): the running sums of
 * x / log2(rank + 1) along each row of x (n x width), read at the columns
 * ``cols`` (0-based, each below width): out is n x len(cols). skip_zero makes
 * a zero gain's term 0.0 (the numpy code's np.where on the gains); disc holds
 * log2(j + 2), at least width items. _gains.py's dcg_at. */
static PyObject *dcg_at(PyObject *self, PyObject *args)
{
    Py_buffer x, cols, discs, out;
    Py_ssize_t width;
    int skip_zero;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*npy*y*w*", &x, &width, &skip_zero, &cols, &discs, &out)) return NULL;
    Py_ssize_t k = cols.len / 8;
    Py_ssize_t n = width >= 1 ? x.len / 8 / width : 0;
    const int64_t *c = cols.buf;
    int bad = width < 1 || k < 1 || cols.len % 8 || check_len(&x, n * width, "dcg_at x") ||
              check_len(&out, n * k, "dcg_at out") || discs.len / 8 < width;
    for (Py_ssize_t m = 0; !bad && m < k; m++) bad = c[m] < 0 || c[m] >= width;
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "dcg_at: width, columns or discounts do not fit");
        RELEASE(&x, &cols, &discs, &out);
        return NULL;
    }
    const double *disc = discs.buf;
    double *run = PyMem_Malloc((size_t)width * sizeof(double));
    if (!run) {
        RELEASE(&x, &cols, &discs, &out);
        return PyErr_NoMemory();
    }
    const double *v = x.buf;
    double *o = out.buf;
    Py_ssize_t last = 0; /* only the columns up to the last one asked for are summed */
    for (Py_ssize_t m = 0; m < k; m++) if (c[m] > last) last = c[m];
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        running_dcg(v + i * width, last + 1, skip_zero, disc, run);
        for (Py_ssize_t m = 0; m < k; m++) o[i * k + m] = run[c[m]];
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(run);
    RELEASE(&x, &cols, &discs, &out);
    Py_RETURN_NONE;
}

/* iprec_pick(rel_so_far, best, width, counts, k, num_rel_ret, num_ret, out):
 * _interp.py's interpolated_precision_at_counts from its two matrices (n x
 * width, int64 and float64) and the counts (n x k, int64): for a count from 1
 * to the topic's relevant retrieved, the best precision from the rank where
 * the walk's relevant count first reaches it; a count of 0 or less, the best
 * precision from the first relevant document; a larger count, 0; a topic
 * without relevant documents retrieved, 0, or the sign-set NaN (0/0) when
 * nothing was retrieved. Picks values only: no arithmetic. */
static PyObject *iprec_pick(PyObject *self, PyObject *args)
{
    Py_buffer rsf, best, counts, nrr, num_ret, out;
    Py_ssize_t width, k;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*ny*ny*y*w*", &rsf, &best, &width, &counts, &k, &nrr, &num_ret, &out))
        return NULL;
    Py_ssize_t n = nrr.len / 8;
    if (width < 1 || k < 1 || check_len(&rsf, n * width, "iprec_pick rel_so_far") ||
        check_len(&best, n * width, "iprec_pick best") || check_len(&counts, n * k, "iprec_pick counts") ||
        check_len(&num_ret, n, "iprec_pick num_ret") || check_len(&out, n * k, "iprec_pick out")) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "iprec_pick: widths must be positive");
        RELEASE(&rsf, &best, &counts, &nrr, &num_ret, &out);
        return NULL;
    }
    const int64_t *so_far = rsf.buf, *c = counts.buf, *rr = nrr.buf, *nr = num_ret.buf;
    const double *b = best.buf;
    double *o = out.buf;
    const double nan_0_0 = copysign(NAN, -1.0);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *row = so_far + i * width;
        for (Py_ssize_t m = 0; m < k; m++) {
            const int64_t count = c[i * k + m];
            double v;
            if (count > rr[i]) {
                v = 0.0; /* never reached */
            } else if (rr[i] <= 0) {
                v = nr[i] > 0 ? 0.0 : nan_0_0;
            } else {
                const int64_t target = count < 1 ? 1 : count;
                /* the first column whose count reaches target (the row's counts never decrease) */
                Py_ssize_t lo = 0, hi = width;
                while (lo < hi) {
                    const Py_ssize_t mid = lo + (hi - lo) / 2;
                    if (row[mid] < target) lo = mid + 1;
                    else hi = mid;
                }
                v = b[i * width + (lo < width ? lo : width - 1)];
            }
            o[i * k + m] = v;
        }
    }
    Py_END_ALLOW_THREADS
    RELEASE(&rsf, &best, &counts, &nrr, &num_ret, &out);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"pad_rows", pad_rows, METH_VARARGS, "Copy each topic's flat slice into its row of a prefilled padded matrix."},
    {"gains_of", gains_of, METH_VARARGS, "Gain of each ranked document through a table indexed by code + 2."},
    {"ideal_gains", ideal_gains, METH_VARARGS, "Each topic's ideal ranking of gains and its length."},
    {"ap_sums", ap_sums, METH_VARARGS, "Average precision's per-topic sums of precision at relevant documents."},
    {"bing_sums", bing_sums, METH_VARARGS, "binG's per-topic sums of 1/log2(2 + non-relevant above)."},
    {"dcg_at", dcg_at, METH_VARARGS, "Running sums of gain / log2(rank + 1) along each row, at given columns."},
    {"iprec_pick", iprec_pick, METH_VARARGS, "Interpolated precision at given counts of relevant documents."},
    {"bpref_sums", bpref_sums, METH_VARARGS, "bpref's per-topic sums of document terms (before dividing by R)."},
    {"infap_sums", infap_sums, METH_VARARGS, "infAP's per-topic sums of estimated precisions (before dividing by R)."},
    {"g", g_values, METH_VARARGS, "Normalized gain G per topic."},
    {"rndcg", rndcg_values, METH_VARARGS, "Rndcg per topic."},
    {"ndcg_rel", ndcg_rel_values, METH_VARARGS, "ndcg_rel per topic."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernels", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
