/*
 * One-pass scanner for whitespace-separated line formats (qrels, runs).
 *
 * Optional accelerator for trec_eval_py.engine.parse.fields: it finds the wanted
 * fields of every content line and converts numeric fields, producing the
 * same columns as the numpy implementation in fields.py (which is used when
 * this module is not built). Blank lines and lines whose first non-blank
 * byte is '#' are skipped. Blanks are space, tab, CR, VT and FF.
 *
 * scan(data, min_fields, max_fields, kinds) -> tuple
 *   kinds: tuple of (field_index, kind) with kind 0 = text, 1 = float, 2 = int
 *   success:  ("ok", n_rows, columns, widths, last_line, n_lines)
 *             columns[i] is bytes: n_rows * widths[i] bytes of NUL-padded text,
 *             or n_rows doubles / int64s in native byte order; columns[-1]
 *             the content rows' line numbers (int64); n_lines the number of
 *             physical lines (a last line without '\n' counts)
 *   failure:  ("nul", lineno, 0)            a NUL byte (checked before anything else)
 *             ("cr", lineno, 0)             a carriage return that does not end a
 *                                           line (CR-only line endings), idem
 *             ("fields", lineno, count)     wrong number of fields
 *             ("number", lineno, i)         kinds[i]'s field is not a number
 *             ("width", lineno, i)          n_rows * widest kinds[i] text field
 *                                           would exceed max_column_bytes;
 *                                           lineno holds the widest one
 *   Each failure is the first of its kind, not necessarily the first bad
 *   line: the caller rescans the lines before it for an earlier problem.
 * scan(data, min_fields, max_fields, kinds, max_column_bytes) bounds each
 *   padded text column, so that one huge field cannot exhaust memory.
 *
 * count_newlines(data, start, end) -> int: data.count(b"\n", start, end) for
 *   0 <= start, end <= len(data) (the readers count the lines of each piece).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define SCAN_SIMD 1
#endif

/* The '\n' bytes in [p, end): 16 bytes at a time where SSE2 is there (a
   memchr per line costs more on short lines). */
static Py_ssize_t count_newlines(const char *p, const char *end)
{
    Py_ssize_t n = 0;
#if defined(__SSE2__)
    const __m128i vnl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (end - p >= 16) {
        /* byte counters, each at most 255 before they are summed */
        __m128i acc = zero, sums;
        int k;
        for (k = 0; k < 255 && end - p >= 16; k++, p += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), vnl));
        sums = _mm_sad_epu8(acc, zero);
        n += _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
    }
#endif
    for (; p < end; p++) n += *p == '\n';
    return n;
}

#define MAX_WANTED 8
#define NUM_BUF 400

static unsigned char cls[256];

#ifdef SCAN_SIMD
/* Bit masks of 64 bytes: which are '\n', which are blanks (space, tab, CR,
   VT, FF: the bytes 9 to 13 but '\n', and 32). Lines are found and split
   with bit operations on these instead of a test per byte. */
typedef struct {
    uint64_t nl, blank;
} masks_t;

static inline masks_t block_masks(const char *p)
{
    const __m128i vnl = _mm_set1_epi8('\n'), vsp = _mm_set1_epi8(' ');
    const __m128i v9 = _mm_set1_epi8(9), v4 = _mm_set1_epi8(4);
    masks_t m = {0, 0};
    int k;
    for (k = 0; k < 4; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(p + 16 * k));
        __m128i t = _mm_sub_epi8(x, v9);
        __m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(t, v4), t); /* 9 <= x <= 13 */
        __m128i isnl = _mm_cmpeq_epi8(x, vnl);
        __m128i bl = _mm_andnot_si128(isnl, _mm_or_si128(ctl, _mm_cmpeq_epi8(x, vsp)));
        m.nl |= (uint64_t)(unsigned)_mm_movemask_epi8(isnl) << (16 * k);
        m.blank |= (uint64_t)(unsigned)_mm_movemask_epi8(bl) << (16 * k);
    }
    return m;
}

/* The masks of the 64 bytes at data[lo..lo+64), from the blocks of 64 bytes
   the data is cut into (two blocks, kept from one line to the next). */
typedef struct {
    const char *data;
    Py_ssize_t block; /* index of m[0]'s block, -1 none */
    masks_t m[2];
} window_t;

static inline masks_t window_at(window_t *w, Py_ssize_t lo)
{
    Py_ssize_t b = lo >> 6;
    int off = (int)(lo & 63);
    masks_t r;
    if (b != w->block) {
        if (b == w->block + 1) w->m[0] = w->m[1];
        else w->m[0] = block_masks(w->data + (b << 6));
        w->m[1] = block_masks(w->data + ((b + 1) << 6));
        w->block = b;
    }
    if (!off) return w->m[0];
    r.nl = (w->m[0].nl >> off) | (w->m[1].nl << (64 - off));
    r.blank = (w->m[0].blank >> off) | (w->m[1].blank << (64 - off));
    return r;
}
#endif

typedef struct {
    int field;
    int kind;
    Py_ssize_t width;
    char *out;
} want_t;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* [+-]? (digits [. digits*] | . digits) ([eE] [+-]? digits)?  |  [+-]? inf(inity)? */
static int valid_float(const char *p, Py_ssize_t n)
{
    Py_ssize_t i = 0, d = 0;
    if (i < n && (p[i] == '+' || p[i] == '-')) i++;
    if (n - i == 3 && strncasecmp(p + i, "inf", 3) == 0) return 1;
    if (n - i == 8 && strncasecmp(p + i, "infinity", 8) == 0) return 1;
    while (i < n && is_digit(p[i])) { i++; d++; }
    if (i < n && p[i] == '.') {
        i++;
        while (i < n && is_digit(p[i])) { i++; d++; }
    }
    if (d == 0) return 0;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        Py_ssize_t e = 0;
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) i++;
        while (i < n && is_digit(p[i])) { i++; e++; }
        if (e == 0) return 0;
    }
    return i == n;
}

static int valid_int(const char *p, Py_ssize_t n)
{
    Py_ssize_t i = 0, d = 0;
    if (i < n && (p[i] == '+' || p[i] == '-')) i++;
    while (i < n && is_digit(p[i])) { i++; d++; }
    return d > 0 && i == n;
}

static const double pow10[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Exact fast path for plain decimals (Clinger): with at most 2^53 as the
   digit string's value and a power of ten up to 1e22, both exactly
   representable, one IEEE multiplication or division rounds correctly, so
   the result equals strtod's. Returns 0 when the token needs the slow path. */
static int fast_decimal(const char *p, Py_ssize_t n, double *out)
{
    Py_ssize_t i = 0;
    int neg = 0, exp10 = 0, digits = 0;
    uint64_t m = 0;
    if (i < n && (p[i] == '+' || p[i] == '-')) neg = p[i++] == '-';
    while (i < n && is_digit(p[i])) {
        if (++digits > 15) return 0;
        m = m * 10 + (uint64_t)(p[i++] - '0');
    }
    if (i < n && p[i] == '.') {
        i++;
        while (i < n && is_digit(p[i])) {
            if (++digits > 15) return 0;
            m = m * 10 + (uint64_t)(p[i++] - '0');
            exp10--;
        }
    }
    if (i != n || digits == 0) return 0;
    if (exp10 < -22) return 0;
    *out = exp10 ? (double)m / pow10[-exp10] : (double)m;
    if (neg) *out = -*out;
    return 1;
}

/* Runs without the GIL; takes it back only for the rare slow path, since
   CPython's own strtod (locale-independent) wants it. */
/* NUL-terminated copy of a token: on the stack, or on the heap for the
   rare valid number of NUM_BUF characters or more (NULL if out of memory). */
static char *token_copy(const char *p, Py_ssize_t n, char *small)
{
    char *buf = n < NUM_BUF ? small : malloc(n + 1);
    if (buf) {
        memcpy(buf, p, n);
        buf[n] = '\0';
    }
    return buf;
}

/* 1 converted, 0 not a number, -1 out of memory */
static int convert(const want_t *w, const char *p, Py_ssize_t n, Py_ssize_t row, PyThreadState **save)
{
    char small[NUM_BUF];
    char *buf, *end;
    int ok = 1;
    if (w->kind == 1) {
        double v;
        /* what fast_decimal accepts is a valid number: check the rest only */
        if (fast_decimal(p, n, &v)) {
            memcpy(w->out + row * 8, &v, 8);
            return 1;
        }
        if (!valid_float(p, n)) return 0;
        if (!(buf = token_copy(p, n, small))) return -1;
        PyEval_RestoreThread(*save);
        v = PyOS_string_to_double(buf, &end, NULL);
        if (v == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            ok = 0;
        }
        *save = PyEval_SaveThread();
        if (ok) memcpy(w->out + row * 8, &v, 8);
    } else {
        long long v;
        if (!valid_int(p, n)) return 0;
        if (n <= 18) { /* at most 18 digits: no overflow, no copy for strtoll */
            Py_ssize_t i = p[0] == '+' || p[0] == '-';
            v = 0;
            for (; i < n; i++) v = v * 10 + (p[i] - '0');
            if (p[0] == '-') v = -v;
            memcpy(w->out + row * 8, &v, 8);
            return 1;
        }
        if (!(buf = token_copy(p, n, small))) return -1;
        errno = 0;
        v = strtoll(buf, &end, 10);
        if (errno == ERANGE) ok = 0;
        else memcpy(w->out + row * 8, &v, 8);
    }
    if (buf != small) free(buf);
    return ok;
}

typedef struct {
    const char *data;
    Py_ssize_t size;
    int min_fields, max_fields;
    want_t *want;
    Py_ssize_t nw;
    /* outputs, room for one row per line: per text field the (offset,
       length) of every row's token, per numeric field the converted values
       (in want[i].out); line numbers */
    int64_t *tok_start[MAX_WANTED];
    int32_t *tok_len[MAX_WANTED];
    int64_t *lineno_out;
    signed char field_want[16];  /* field index -> wanted slot, or -1 */
    int enough;                  /* fields after which the rest of a line may be skipped */
    Py_ssize_t n_lines;
    Py_ssize_t last_lo, last_hi;
    Py_ssize_t wide_line[MAX_WANTED];  /* line of each text field's widest value */
    /* failure report */
    int err;            /* 0 none, 1 field count, 2 number, 3 out of memory */
    Py_ssize_t err_line, err_arg;
} scan_t;

/* One pass over the data without the GIL: tokenises each line once,
   records the wanted text fields' places and converts the numeric ones.
   A field-count error anywhere is reported before a number error (the
   numpy scanner's order), so after a bad number only counts are checked.
   Returns the number of content rows. */
static Py_ssize_t run_pass(scan_t *st)
{
    const char *data = st->data;
    Py_ssize_t size = st->size, pos = 0, lineno = 0, row = 0, i;
    want_t *want = st->want;
    Py_ssize_t nw = st->nw;
    int bad_number = 0;
    Py_ssize_t num_line = 0, num_arg = 0;
    PyThreadState *save = PyEval_SaveThread();
#ifdef SCAN_SIMD
    window_t win = {NULL, -2, {{0, 0}, {0, 0}}};
    /* a line starting before this has both its blocks inside the data */
    Py_ssize_t simd_end = (size >> 6) >= 2 ? ((size >> 6) - 1) << 6 : 0;
    win.data = data;
#endif
    while (pos < size) {
        Py_ssize_t lo = pos, hi, p;
        Py_ssize_t starts[MAX_WANTED], lens[MAX_WANTED];
        int count = 0;
        lineno++;
#ifdef SCAN_SIMD
        if (lo < simd_end) {
            masks_t m = window_at(&win, lo);
            if (m.nl) { /* the line ends within 64 bytes */
                int len = __builtin_ctzll(m.nl);
                uint64_t word = ~m.blank & ((1ULL << len) - 1); /* the token bytes */
                uint64_t first, last;
                hi = lo + len;
                pos = hi + 1;
                if (!word || data[lo + __builtin_ctzll(word)] == '#') continue;
                first = word & ~(word << 1); /* a token's first byte */
                last = word & ~(word >> 1);  /* a token's last byte */
                while (first) {
                    Py_ssize_t s = lo + __builtin_ctzll(first), e = lo + __builtin_ctzll(last) + 1;
                    if (count < 16) {
                        int k = st->field_want[count];
                        if (k >= 0) { starts[k] = s; lens[k] = e - s; }
                    } else {
                        for (i = 0; i < nw; i++)
                            if (want[i].field == count) { starts[i] = s; lens[i] = e - s; }
                    }
                    count++;
                    if (count == st->enough) break; /* no upper bound: the rest is not needed */
                    first &= first - 1;
                    last &= last - 1;
                }
                goto counted;
            }
        }
#endif
        {
            const char *nl = memchr(data + pos, '\n', size - pos);
            hi = nl ? nl - data : size;
        }
        pos = hi + 1;
        p = lo;
        while (p < hi && cls[(unsigned char)data[p]]) p++;
        if (p == hi || data[p] == '#') continue;
        while (p < hi) {
            Py_ssize_t s = p;
            while (p < hi && !cls[(unsigned char)data[p]]) p++;
            if (count < 16) {
                int k = st->field_want[count];
                if (k >= 0) { starts[k] = s; lens[k] = p - s; }
            } else {
                for (i = 0; i < nw; i++)
                    if (want[i].field == count) { starts[i] = s; lens[i] = p - s; }
            }
            count++;
            if (count == st->enough) break; /* no upper bound: the rest is not needed */
            while (p < hi && cls[(unsigned char)data[p]]) p++;
        }
#ifdef SCAN_SIMD
    counted:
#endif
        if (count < st->min_fields || (st->max_fields >= 0 && count > st->max_fields)) {
            st->err = 1; st->err_line = lineno; st->err_arg = count;
            break;
        }
        if (bad_number) continue;
        for (i = 0; i < nw; i++) {
            if (want[i].kind == 0) {
                if (lens[i] > want[i].width) {
                    want[i].width = lens[i];
                    st->wide_line[i] = lineno;
                }
                st->tok_start[i][row] = starts[i];
                st->tok_len[i][row] = (int32_t)lens[i];
            } else {
                int c = convert(&want[i], data + starts[i], lens[i], row, &save);
                if (c < 0) {
                    st->err = 3;
                    break;
                }
                if (c == 0) {
                    bad_number = 1; num_line = lineno; num_arg = i;
                    break;
                }
            }
        }
        if (st->err) break;
        if (bad_number) continue;
        st->lineno_out[row] = lineno;
        st->last_lo = lo;
        st->last_hi = hi;
        row++;
    }
    PyEval_RestoreThread(save);
    st->n_lines = lineno;
    if (!st->err && bad_number) {
        st->err = 2; st->err_line = num_line; st->err_arg = num_arg;
    }
    return row;
}

static void free_scan(scan_t *st)
{
    Py_ssize_t i;
    for (i = 0; i < st->nw; i++) {
        free(st->tok_start[i]);
        free(st->tok_len[i]);
    }
}

static PyObject *scan(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int min_fields, max_fields;
    Py_ssize_t max_column_bytes = -1;
    PyObject *kinds;
    want_t want[MAX_WANTED];
    Py_ssize_t nw, i, r, cap = 0;
    Py_ssize_t n_rows = 0;
    scan_t st;
    PyObject *cols = NULL, *widths = NULL, *result = NULL;

    if (!PyArg_ParseTuple(args, "y*iiO!|n", &view, &min_fields, &max_fields, &PyTuple_Type, &kinds,
                          &max_column_bytes))
        return NULL;
    nw = PyTuple_GET_SIZE(kinds);
    if (nw > MAX_WANTED) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "too many wanted fields");
    }
    for (i = 0; i < nw; i++) {
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(kinds, i), "ii", &want[i].field, &want[i].kind)) {
            PyBuffer_Release(&view);
            return NULL;
        }
        want[i].width = 1;
        want[i].out = NULL;
    }

    memset(&st, 0, sizeof st);
    st.data = (const char *)view.buf;
    st.size = view.len;
    st.min_fields = min_fields;
    st.max_fields = max_fields;
    st.want = want;
    st.nw = nw;
    memset(st.field_want, -1, sizeof st.field_want);
    st.enough = max_fields < 0 ? min_fields : -1;
    for (i = 0; i < nw; i++) {
        if (want[i].field < 16) st.field_want[want[i].field] = (signed char)i;
        if (max_fields < 0 && want[i].field + 1 > st.enough) st.enough = want[i].field + 1;
    }
    {   /* a NUL byte or a bare CR anywhere is reported first, by line; count
           lines for room */
        const char *z, *c = NULL, *q = st.data, *end = st.data + st.size, *stop = end;
        Py_ssize_t lines = 1;
        Py_BEGIN_ALLOW_THREADS
        z = memchr(st.data, 0, st.size);
        if (z) stop = z;
        /* a CR is bare unless only CRs stand between it and a line end */
        for (q = st.data; q < stop && (q = memchr(q, '\r', stop - q)) != NULL; ) {
            const char *r = q;
            while (r < end && *r == '\r') r++;
            if (r < end && *r != '\n') { c = q; stop = q; break; }
            q = r;
        }
        lines += count_newlines(st.data, stop);
        Py_END_ALLOW_THREADS
        if (z || c) {
            PyBuffer_Release(&view);
            return Py_BuildValue("(snn)", c ? "cr" : "nul", lines, (Py_ssize_t)0);
        }
        cap = lines;
    }
    cols = PyTuple_New(nw + 1);
    if (!cols) goto fail;
    for (i = 0; i < nw; i++) {
        PyObject *b = NULL;
        if (want[i].kind == 0) {
            st.tok_start[i] = malloc(cap * sizeof(int64_t));
            st.tok_len[i] = malloc(cap * sizeof(int32_t));
            if (!st.tok_start[i] || !st.tok_len[i]) { PyErr_NoMemory(); goto fail; }
            b = Py_None;
            Py_INCREF(b);
        } else {
            b = PyBytes_FromStringAndSize(NULL, cap * 8);
            if (!b) goto fail;
            want[i].out = PyBytes_AS_STRING(b);
        }
        PyTuple_SET_ITEM(cols, i, b);
    }
    {
        PyObject *b = PyBytes_FromStringAndSize(NULL, cap * 8);
        if (!b) goto fail;
        st.lineno_out = (int64_t *)PyBytes_AS_STRING(b);
        PyTuple_SET_ITEM(cols, nw, b);
    }
    n_rows = run_pass(&st);
    if (st.err) {
        Py_DECREF(cols);
        free_scan(&st);
        PyBuffer_Release(&view);
        if (st.err == 3) return PyErr_NoMemory();
        return Py_BuildValue("(snn)", st.err == 1 ? "fields" : "number", st.err_line, st.err_arg);
    }
    for (i = 0; i < nw; i++) {
        if (want[i].kind == 0 && max_column_bytes >= 0 && n_rows &&
            want[i].width > max_column_bytes / n_rows) {
            Py_DECREF(cols);
            free_scan(&st);
            PyBuffer_Release(&view);
            return Py_BuildValue("(snn)", "width", st.wide_line[i], i);
        }
    }
    for (i = 0; i <= nw; i++) {  /* text columns now that widths are known; trim the rest */
        PyObject *b = PyTuple_GET_ITEM(cols, i);
        if (i < nw && want[i].kind == 0) {
            PyObject *t = PyBytes_FromStringAndSize(NULL, n_rows * want[i].width);
            if (!t) goto fail;
            PyTuple_SET_ITEM(cols, i, t);
            Py_DECREF(b);
        } else if (n_rows < cap) {
            PyTuple_SET_ITEM(cols, i, NULL);
            if (_PyBytes_Resize(&b, n_rows * 8) < 0) goto fail;
            PyTuple_SET_ITEM(cols, i, b);
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (i = 0; i < nw; i++) {
        if (want[i].kind != 0) continue;
        char *out = PyBytes_AS_STRING(PyTuple_GET_ITEM(cols, i));
        Py_ssize_t w = want[i].width;
        const int64_t *ts = st.tok_start[i];
        const int32_t *tl = st.tok_len[i];
        for (r = 0; r < n_rows; r++) {
            char *o = out + r * w;
            memcpy(o, st.data + ts[r], tl[r]);
            if (tl[r] < w) memset(o + tl[r], 0, w - tl[r]);
        }
    }
    Py_END_ALLOW_THREADS
    widths = PyTuple_New(nw);
    if (!widths) goto fail;
    for (i = 0; i < nw; i++)
        PyTuple_SET_ITEM(widths, i, PyLong_FromSsize_t(want[i].kind == 0 ? want[i].width : 8));
    result = Py_BuildValue("(snOOy#n)", "ok", n_rows, cols, widths,
                           (const char *)view.buf + st.last_lo, st.last_hi - st.last_lo, st.n_lines);
    Py_DECREF(cols);
    Py_DECREF(widths);
    free_scan(&st);
    PyBuffer_Release(&view);
    return result;
fail:
    Py_XDECREF(cols);
    free_scan(&st);
    PyBuffer_Release(&view);
    return NULL;
}

/* count_newlines(data, start, end) -> the '\n' bytes in data[start:end] (bytes.count
   of one byte, 16 bytes at a time; the bounds are clipped as a slice's) */
static PyObject *count_lines(PyObject *self, PyObject *args)
{
    Py_buffer view;
    Py_ssize_t start, end, n;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &start, &end)) return NULL;
    if (start < 0) start = 0;
    if (end > view.len) end = view.len;
    n = 0;
    if (start < end) {
        Py_BEGIN_ALLOW_THREADS
        n = count_newlines((const char *)view.buf + start, (const char *)view.buf + end);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&view);
    return PyLong_FromSsize_t(n);
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, "Split lines into wanted columns (see module source)."},
    {"count_newlines", count_lines, METH_VARARGS, "The newline bytes in data[start:end]."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_scan", NULL, -1, methods};

PyMODINIT_FUNC PyInit__scan(void)
{
    cls[' '] = cls['\t'] = cls['\r'] = cls['\v'] = cls['\f'] = 1;
    return PyModule_Create(&module);
}
