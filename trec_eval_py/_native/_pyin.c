/*
 * Python objects to columns, for judgments and runs held in Python.
 *
 * Optional accelerator for trec_eval_py.engine.parse.python: each function
 * handles only the plain case (exact dicts, str keys, float or int values)
 * and returns None for anything else, so that the numpy twin in python.py
 * -- which knows every rule and builds every error message -- decides.
 * Both give the same bytes.
 *
 * flatten(inners) -> (matrix, width, values, lengths) | None
 *   inners: list of dicts {docno: value}. matrix: bytearray of n * width
 *   bytes, each docno's UTF-8 bytes NUL-padded to width (numpy "S<width>");
 *   values: bytearray of n doubles (float, or int of at most 2**53 in
 *   magnitude, which a double holds exactly); lengths: bytearray of one int64 per dict. None when an
 *   item is not a dict, a key is not a str (or holds NUL, or does not encode
 *   to UTF-8), a value is neither a float nor an exact int, or an int is
 *   beyond 2**53 in magnitude.
 * pack(items) -> (matrix, width) | None
 *   items: list of str, as flatten's keys.
 * pack_offsets(data, offsets) -> (matrix, width) | None
 *   Arrow's layout: string i is data[offsets[i]:offsets[i + 1]] (offsets:
 *   int64, n + 1 of them). None when a string holds a NUL byte.
 * doubles(items) -> values | None
 *   items: list of floats and exact ints, as flatten's values.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* the UTF-8 bytes of a str key, or NULL (no exception set) when it is not a
 * str, does not encode, or holds a NUL */
static const char *key_bytes(PyObject *key, Py_ssize_t *len)
{
    const char *s;
    if (!PyUnicode_Check(key))
        return NULL;
    if (PyUnicode_IS_ASCII(key)) {
        *len = PyUnicode_GET_LENGTH(key);
        s = (const char *)PyUnicode_DATA(key);
    } else {
        s = PyUnicode_AsUTF8AndSize(key, len);
        if (s == NULL) {
            PyErr_Clear();
            return NULL;
        }
    }
    if (*len && memchr(s, 0, (size_t)*len) != NULL)
        return NULL;
    return s;
}

/* a value as a double; 0 when it is neither a float nor an exact int (or overflows) */
static int value_double(PyObject *v, double *out)
{
    if (PyFloat_Check(v)) {
        *out = PyFloat_AS_DOUBLE(v);
        return 1;
    }
    if (PyLong_CheckExact(v)) {
        double d = PyLong_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        /* beyond 2**53 a double no longer holds every int: the numpy twin keeps it exact */
        if (d > 9007199254740992.0 || d < -9007199254740992.0)
            return 0;
        *out = d;
        return 1;
    }
    return 0;
}

static PyObject *new_bytes(Py_ssize_t size)
{
    PyObject *b = PyByteArray_FromStringAndSize(NULL, size);
    if (b != NULL && size)
        memset(PyByteArray_AS_STRING(b), 0, (size_t)size);
    return b;
}

static PyObject *flatten(PyObject *self, PyObject *args)
{
    PyObject *inners;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &inners))
        return NULL;
    Py_ssize_t ntop = PyList_GET_SIZE(inners), n = 0, width = 1;
    for (Py_ssize_t t = 0; t < ntop; t++) {
        PyObject *d = PyList_GET_ITEM(inners, t);
        if (!PyDict_CheckExact(d))
            Py_RETURN_NONE;
        Py_ssize_t pos = 0, len;
        PyObject *k, *v;
        while (PyDict_Next(d, &pos, &k, &v)) {
            double x;
            if (key_bytes(k, &len) == NULL || !value_double(v, &x))
                Py_RETURN_NONE;
            if (len > width)
                width = len;
        }
        n += PyDict_GET_SIZE(d);
    }
    PyObject *matrix = new_bytes(n * width);
    PyObject *values = new_bytes(n * (Py_ssize_t)sizeof(double));
    PyObject *lengths = new_bytes(ntop * (Py_ssize_t)sizeof(int64_t));
    if (matrix == NULL || values == NULL || lengths == NULL)
        goto fail;
    char *m = PyByteArray_AS_STRING(matrix);
    double *val = (double *)PyByteArray_AS_STRING(values);
    int64_t *lens = (int64_t *)PyByteArray_AS_STRING(lengths);
    Py_ssize_t i = 0;
    for (Py_ssize_t t = 0; t < ntop; t++) {
        PyObject *d = PyList_GET_ITEM(inners, t);
        Py_ssize_t pos = 0, len;
        PyObject *k, *v;
        lens[t] = PyDict_GET_SIZE(d);
        while (PyDict_Next(d, &pos, &k, &v)) {
            const char *s = key_bytes(k, &len);
            if (s == NULL || i >= n || !value_double(v, &val[i]))
                goto none;  /* unreachable unless a dict changed under us */
            memcpy(m + i * width, s, (size_t)len);
            i++;
        }
    }
    if (i != n)
        goto none;
    PyObject *out = Py_BuildValue("(OnOO)", matrix, width, values, lengths);
    Py_DECREF(matrix);
    Py_DECREF(values);
    Py_DECREF(lengths);
    return out;
none:
    Py_XDECREF(matrix);
    Py_XDECREF(values);
    Py_XDECREF(lengths);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(matrix);
    Py_XDECREF(values);
    Py_XDECREF(lengths);
    return NULL;
}

static PyObject *pack(PyObject *self, PyObject *args)
{
    PyObject *items;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &items))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items), width = 1, len;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (key_bytes(PyList_GET_ITEM(items, i), &len) == NULL)
            Py_RETURN_NONE;
        if (len > width)
            width = len;
    }
    PyObject *matrix = new_bytes(n * width);
    if (matrix == NULL)
        return NULL;
    char *m = PyByteArray_AS_STRING(matrix);
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *s = key_bytes(PyList_GET_ITEM(items, i), &len);
        if (s == NULL || len > width) {
            Py_DECREF(matrix);
            Py_RETURN_NONE;
        }
        memcpy(m + i * width, s, (size_t)len);
    }
    PyObject *out = Py_BuildValue("(On)", matrix, width);
    Py_DECREF(matrix);
    return out;
}

static PyObject *pack_offsets(PyObject *self, PyObject *args)
{
    Py_buffer data, offs;
    if (!PyArg_ParseTuple(args, "y*y*", &data, &offs))
        return NULL;
    PyObject *out = NULL;
    const char *d = (const char *)data.buf;
    const int64_t *o = (const int64_t *)offs.buf;
    Py_ssize_t n = offs.len / (Py_ssize_t)sizeof(int64_t) - 1, width = 1;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "offsets: at least one needed");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int64_t a = o[i], b = o[i + 1];
        if (a < 0 || b < a || b > data.len) {
            PyErr_SetString(PyExc_ValueError, "offsets out of order or out of the data");
            goto done;
        }
        if (b - a > width)
            width = (Py_ssize_t)(b - a);
    }
    if (n > 0 && memchr(d + o[0], 0, (size_t)(o[n] - o[0])) != NULL) {
        out = Py_None;
        Py_INCREF(out);
        goto done;
    }
    PyObject *matrix = new_bytes(n * width);
    if (matrix == NULL)
        goto done;
    char *m = PyByteArray_AS_STRING(matrix);
    for (Py_ssize_t i = 0; i < n; i++)
        memcpy(m + i * width, d + o[i], (size_t)(o[i + 1] - o[i]));
    out = Py_BuildValue("(On)", matrix, width);
    Py_DECREF(matrix);
done:
    PyBuffer_Release(&data);
    PyBuffer_Release(&offs);
    return out;
}

static PyObject *doubles(PyObject *self, PyObject *args)
{
    PyObject *items;
    if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &items))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(items);
    PyObject *values = new_bytes(n * (Py_ssize_t)sizeof(double));
    if (values == NULL)
        return NULL;
    double *val = (double *)PyByteArray_AS_STRING(values);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!value_double(PyList_GET_ITEM(items, i), &val[i])) {
            Py_DECREF(values);
            Py_RETURN_NONE;
        }
    }
    return values;
}

static PyMethodDef methods[] = {
    {"flatten", flatten, METH_VARARGS, "dicts {docno: value} to padded docnos, doubles and lengths (see source)."},
    {"pack", pack, METH_VARARGS, "a list of str to NUL-padded UTF-8 rows (see source)."},
    {"pack_offsets", pack_offsets, METH_VARARGS, "Arrow-style strings to NUL-padded rows (see source)."},
    {"doubles", doubles, METH_VARARGS, "a list of floats and ints to doubles (see source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_pyin", NULL, -1, methods};

PyMODINIT_FUNC PyInit__pyin(void) { return PyModule_Create(&module); }
