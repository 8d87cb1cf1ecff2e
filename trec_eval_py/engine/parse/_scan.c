/*
 * One-pass scanner for whitespace-separated line formats (qrels, runs).
 *
 * Optional accelerator for trec_eval_py.parse.fields: it finds the wanted
 * fields of every content line and converts numeric fields, producing the
 * same columns as the numpy implementation in fields.py (which is used when
 * this module is not built). Blank lines and lines whose first non-blank
 * byte is '#' are skipped. Blanks are space, tab, CR, VT and FF.
 *
 * scan(data, min_fields, max_fields, kinds) -> tuple
 *   kinds: tuple of (field_index, kind) with kind 0 = text, 1 = float, 2 = int
 *   success:  ("ok", n_rows, columns, widths, linenos, last_line)
 *             columns[i] is bytes: n_rows * widths[i] bytes of NUL-padded text,
 *             or n_rows doubles / int64s in native byte order
 *   failure:  ("fields", lineno, count)     wrong number of fields
 *             ("number", lineno, i)         kinds[i]'s field is not a number
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WANTED 8
#define NUM_BUF 400

static unsigned char cls[256];

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
static int convert(const want_t *w, const char *p, Py_ssize_t n, Py_ssize_t row, PyThreadState **save)
{
    char buf[NUM_BUF];
    char *end;
    if (n >= NUM_BUF) return 0;
    memcpy(buf, p, n);
    buf[n] = '\0';
    if (w->kind == 1) {
        double v;
        if (!valid_float(p, n)) return 0;
        if (fast_decimal(p, n, &v)) {
            memcpy(w->out + row * 8, &v, 8);
            return 1;
        }
        PyEval_RestoreThread(*save);
        v = PyOS_string_to_double(buf, &end, NULL);
        if (v == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            *save = PyEval_SaveThread();
            return 0;
        }
        *save = PyEval_SaveThread();
        memcpy(w->out + row * 8, &v, 8);
    } else {
        long long v;
        if (!valid_int(p, n)) return 0;
        errno = 0;
        v = strtoll(buf, &end, 10);
        if (errno == ERANGE) return 0;
        memcpy(w->out + row * 8, &v, 8);
    }
    return 1;
}

typedef struct {
    const char *data;
    Py_ssize_t size;
    int min_fields, max_fields;
    want_t *want;
    Py_ssize_t nw;
    int64_t *lineno_out;
    Py_ssize_t last_lo, last_hi;
    /* failure report */
    int err;            /* 0 none, 1 field count, 2 number */
    Py_ssize_t err_line, err_arg;
} scan_t;

/* One pass over the data without the GIL. Pass 0 measures (rows, widths);
   pass 1 fills the columns. Returns the number of content rows. */
static Py_ssize_t run_pass(scan_t *st, int pass)
{
    const char *data = st->data;
    Py_ssize_t size = st->size, pos = 0, lineno = 0, row = 0, i;
    want_t *want = st->want;
    Py_ssize_t nw = st->nw;
    PyThreadState *save = PyEval_SaveThread();
    while (pos < size) {
        Py_ssize_t lo = pos, hi, p;
        Py_ssize_t starts[MAX_WANTED], lens[MAX_WANTED];
        int count = 0;
        const char *nl = memchr(data + pos, '\n', size - pos);
        hi = nl ? nl - data : size;
        pos = hi + 1;
        lineno++;
        p = lo;
        while (p < hi && cls[(unsigned char)data[p]]) p++;
        if (p == hi || data[p] == '#') continue;
        while (p < hi) {
            Py_ssize_t s = p;
            while (p < hi && !cls[(unsigned char)data[p]]) p++;
            for (i = 0; i < nw; i++) {
                if (want[i].field == count) { starts[i] = s; lens[i] = p - s; }
            }
            count++;
            while (p < hi && cls[(unsigned char)data[p]]) p++;
        }
        if (count < st->min_fields || (st->max_fields >= 0 && count > st->max_fields)) {
            st->err = 1; st->err_line = lineno; st->err_arg = count;
            break;
        }
        if (pass == 0) {
            for (i = 0; i < nw; i++)
                if (want[i].kind == 0 && lens[i] > want[i].width) want[i].width = lens[i];
            st->last_lo = lo;
            st->last_hi = hi;
        } else {
            for (i = 0; i < nw; i++) {
                if (want[i].kind == 0) {
                    memcpy(want[i].out + row * want[i].width, data + starts[i], lens[i]);
                } else if (!convert(&want[i], data + starts[i], lens[i], row, &save)) {
                    st->err = 2; st->err_line = lineno; st->err_arg = i;
                    break;
                }
            }
            if (st->err) break;
            st->lineno_out[row] = lineno;
        }
        row++;
    }
    PyEval_RestoreThread(save);
    return row;
}

static PyObject *scan(PyObject *self, PyObject *args)
{
    Py_buffer view;
    int min_fields, max_fields;
    PyObject *kinds;
    want_t want[MAX_WANTED];
    Py_ssize_t nw, i;
    int pass;
    Py_ssize_t n_rows = 0;
    scan_t st;
    PyObject *cols = NULL, *widths = NULL, *linenos = NULL, *result = NULL;

    if (!PyArg_ParseTuple(args, "y*iiO!", &view, &min_fields, &max_fields, &PyTuple_Type, &kinds))
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

    st.data = (const char *)view.buf;
    st.size = view.len;
    st.min_fields = min_fields;
    st.max_fields = max_fields;
    st.want = want;
    st.nw = nw;
    st.lineno_out = NULL;
    st.last_lo = st.last_hi = 0;
    st.err = 0;
    for (pass = 0; pass < 2; pass++) {
        Py_ssize_t row = run_pass(&st, pass);
        if (st.err) {
            PyBuffer_Release(&view);
            Py_XDECREF(cols);
            return Py_BuildValue("(snn)", st.err == 1 ? "fields" : "number", st.err_line, st.err_arg);
        }
        if (pass == 0) {
            n_rows = row;
            cols = PyTuple_New(nw + 1);
            if (!cols) goto fail;
            for (i = 0; i < nw; i++) {
                Py_ssize_t item = want[i].kind == 0 ? want[i].width : 8;
                PyObject *b = PyBytes_FromStringAndSize(NULL, n_rows * item);
                if (!b) goto fail;
                memset(PyBytes_AS_STRING(b), 0, n_rows * item);
                want[i].out = PyBytes_AS_STRING(b);
                PyTuple_SET_ITEM(cols, i, b);
            }
            linenos = PyBytes_FromStringAndSize(NULL, n_rows * 8);
            if (!linenos) goto fail;
            st.lineno_out = (int64_t *)PyBytes_AS_STRING(linenos);
            PyTuple_SET_ITEM(cols, nw, linenos);
        }
    }
    widths = PyTuple_New(nw);
    if (!widths) goto fail;
    for (i = 0; i < nw; i++)
        PyTuple_SET_ITEM(widths, i, PyLong_FromSsize_t(want[i].kind == 0 ? want[i].width : 8));
    result = Py_BuildValue("(snOOy#)", "ok", n_rows, cols, widths,
                           (const char *)view.buf + st.last_lo, st.last_hi - st.last_lo);
    Py_DECREF(cols);
    Py_DECREF(widths);
    PyBuffer_Release(&view);
    return result;
fail:
    Py_XDECREF(cols);
    PyBuffer_Release(&view);
    return NULL;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, "Split lines into wanted columns (see module source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_scan", NULL, -1, methods};

PyMODINIT_FUNC PyInit__scan(void)
{
    cls[' '] = cls['\t'] = cls['\r'] = cls['\v'] = cls['\f'] = 1;
    return PyModule_Create(&module);
}
