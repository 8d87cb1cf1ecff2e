/*
 * C's log() over an array (optional accelerator for aggregate.py).
 *
 * trec_eval takes geometric means with the C library's log(); numpy's own
 * vectorised log may differ from it in the last bit, Python's math.log is
 * the C library's but costs a Python call per value. This loop calls the
 * same log() as math.log, so the results are identical to it, bit for bit.
 *
 * log_floor(values, floor, out): out[i] = log(max(values[i], floor)) for
 * float64 buffers of equal length (a NaN value stays NaN, as with max()).
 *
 * row_sums(matrix, cols, out): out[i] = the sum of row i of a C-contiguous
 * float64 matrix with ``cols`` columns, added left to right: the last column
 * of numpy's cumsum along the rows, bit for bit, without writing the
 * whole cumulative matrix.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

static PyObject *log_floor(PyObject *self, PyObject *args)
{
    Py_buffer in, out;
    double floor_;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*dw*", &in, &floor_, &out)) return NULL;
    if (in.len != out.len || in.len % 8) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "log_floor: buffers of float64 of one length needed");
        return NULL;
    }
    const double *v = in.buf;
    double *o = out.buf;
    Py_ssize_t n = in.len / 8;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        double x = v[i];
        /* max(x, floor) in Python keeps x unless floor > x: NaN stays NaN */
        o[i] = log(floor_ > x ? floor_ : x);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyObject *row_sums(PyObject *self, PyObject *args)
{
    Py_buffer in, out;
    Py_ssize_t cols;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*nw*", &in, &cols, &out)) return NULL;
    Py_ssize_t rows = out.len / 8;
    if (cols < 1 || out.len % 8 || in.len != rows * cols * 8) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, "row_sums: a float64 matrix of rows x cols and rows outputs needed");
        return NULL;
    }
    const double *v = in.buf;
    double *o = out.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < rows; i++) {
        const double *r = v + i * cols;
        double s = r[0];
        for (Py_ssize_t j = 1; j < cols; j++) s += r[j];
        o[i] = s;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"row_sums", row_sums, METH_VARARGS, "Left-to-right sums of the rows of a float64 matrix."},
    {"log_floor", log_floor, METH_VARARGS, "out[i] = log(max(values[i], floor)) with the C library's log."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cmath", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cmath(void) { return PyModule_Create(&module); }
