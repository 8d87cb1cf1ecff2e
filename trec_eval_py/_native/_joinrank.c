/*
 * Fused join and ranking of a run with its judgments (optional accelerator).
 *
 * Does in one pass over each topic what rankings.py does with sorts and a
 * sorted hash join: finds every run document's judgment and orders the
 * topic's documents by score descending, ties by docno descending in byte
 * order. The numpy implementation in rankings.py stays the reference and
 * the fallback; tests compare the two on random inputs.
 *
 * join_rank(qt, qdoc, qwidth, qrel, rt, rdoc, rwidth, score, num_topics,
 *           single, out_rel, out_count, split_rows[, out_row]) -> status
 *   qt, rt        int64 topic codes (0 <= code < num_topics) of qrels / run rows
 *   qdoc, rdoc    fixed-width NUL-padded docnos (qwidth / rwidth bytes a row)
 *   qrel          int64 judged levels of the qrels rows
 *   score         float64 scores of the run rows
 *   single        compare scores as C floats (trec_eval 9.0.8) when true
 *   out_rel       int64[len(rt)]: relevance code of each run document, topics
 *                 in code order, each topic's documents in rank order
 *                 (>= 0 level, -1 not in the qrels, -2 judged negative)
 *   out_count     int64[num_topics]: run documents per topic
 *   split_rows    from this many run rows (and two topics), the topics are
 *                 shared by two threads, half the rows each (whole topics;
 *                 each writes its own part of the outputs: the same bytes
 *                 as one thread); -1: never
 *   out_row       (optional) int64[len(rt)]: the run row of each document of
 *                 out_rel (aligned with it): what the scores, the docnos and
 *                 a validator's checks of the ranked rows are found by
 *   status        0 done; 1 a docno occurs twice in one topic (of the qrels
 *                 or of the run): the caller takes the reference path, which
 *                 reports the error
 * The GIL is released while it works.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#if !defined(_WIN32)
#include <pthread.h>
#define JOIN_THREADS 1
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONPOOL (-1)
#define UNJUDGED (-2)

typedef struct {
    const int64_t *rows; /* the topic's run rows; sorts permute positions into it */
    const char *doc;
    Py_ssize_t width;
    const double *score;
    int single;
} rank_ctx;

static inline Py_ssize_t doc_len(const char *p, Py_ssize_t width)
{
    const char *z = memchr(p, 0, width);
    return z ? z - p : width;
}

static inline uint64_t hash_bytes(const char *p, Py_ssize_t n)
{
    uint64_t h = 0x632BE59BD9B4E019ULL ^ (uint64_t)n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
        p += 8;
        n -= 8;
    }
    if (n) {
        uint64_t w = 0;
        memcpy(&w, p, n);
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    h *= 0xBF58476D1CE4E5B9ULL;
    return h ^ (h >> 31);
}

/* Order of run rows a, b: score descending, then docno descending. Docnos
   are NUL padded to one width and hold no NUL, so memcmp is byte order with
   shorter strings first, as strcmp. */
static inline int before(const rank_ctx *c, int64_t a, int64_t b)
{
    a = c->rows[a];
    b = c->rows[b];
    double sa = c->score[a], sb = c->score[b];
    if (c->single) {
        float fa = (float)sa, fb = (float)sb;
        if (fa != fb) return fa > fb;
    } else if (sa != sb) {
        return sa > sb;
    }
    return memcmp(c->doc + a * c->width, c->doc + b * c->width, c->width) > 0;
}

static void insertion_sort(const rank_ctx *c, int64_t *v, Py_ssize_t n)
{
    for (Py_ssize_t i = 1; i < n; i++) {
        int64_t x = v[i];
        Py_ssize_t j = i;
        while (j > 0 && before(c, x, v[j - 1])) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static void merge_sort(const rank_ctx *c, int64_t *v, int64_t *tmp, Py_ssize_t n)
{
    if (n <= 24) {
        insertion_sort(c, v, n);
        return;
    }
    Py_ssize_t h = n / 2, i = 0, j = h, k = 0;
    merge_sort(c, v, tmp, h);
    merge_sort(c, v + h, tmp, n - h);
    if (!before(c, v[h], v[h - 1])) return; /* already in order */
    memcpy(tmp, v, n * sizeof(int64_t));
    while (i < h && j < n) v[k++] = before(c, tmp[j], tmp[i]) ? tmp[j++] : tmp[i++];
    while (i < h) v[k++] = tmp[i++];
    while (j < n) v[k++] = tmp[j++];
}

/* Sort one topic's rows into rank order. Runs are usually written in rank
   order already: then only groups of tied scores need sorting. */
static void rank_topic(const rank_ctx *c, int64_t *v, int64_t *tmp, Py_ssize_t n)
{
    Py_ssize_t i = 1;
    for (; i < n; i++) {
        double a = c->score[c->rows[v[i - 1]]], b = c->score[c->rows[v[i]]];
        if (c->single ? ((float)a < (float)b) : (a < b)) break;
    }
    if (i < n) {
        merge_sort(c, v, tmp, n);
        return;
    }
    Py_ssize_t lo = 0;
    while (lo < n) {
        Py_ssize_t hi = lo + 1;
        double s = c->score[c->rows[v[lo]]];
        while (hi < n && (c->single ? ((float)c->score[c->rows[v[hi]]] == (float)s)
                                    : (c->score[c->rows[v[hi]]] == s))) hi++;
        if (hi - lo > 1) {
            if (hi - lo <= 24) insertion_sort(c, v + lo, hi - lo);
            else merge_sort(c, v + lo, tmp, hi - lo);
        }
        lo = hi;
    }
}

/* rows grouped by topic code (stable): start[t] .. start[t+1] in out */
static void group_rows(const int64_t *code, Py_ssize_t n, Py_ssize_t nt, int64_t *start, int64_t *out)
{
    memset(start, 0, (nt + 1) * sizeof(int64_t));
    for (Py_ssize_t i = 0; i < n; i++) start[code[i] + 1]++;
    for (Py_ssize_t t = 0; t < nt; t++) start[t + 1] += start[t];
    int64_t *fill = malloc((nt + 1) * sizeof(int64_t));
    if (!fill) return;
    memcpy(fill, start, (nt + 1) * sizeof(int64_t));
    for (Py_ssize_t i = 0; i < n; i++) out[fill[code[i]]++] = i;
    free(fill);
}

typedef struct {
    int64_t q;   /* qrels row or -1 */
    int64_t r;   /* run row or -1 */
    uint64_t h;
} slot_t;

static int contiguous(Py_buffer *b, Py_ssize_t item, Py_ssize_t n)
{
    return b->len == item * n;
}

/* One worker's share of the topics: [t0, t1), with buffers of its own. A topic's
   ranked rows go to out_rel[rstart[t] ...], where the serial walk would put
   them (the rows of the topics before it), so workers write disjoint parts. */
typedef struct {
    const int64_t *qrow, *rrow, *qstart, *rstart, *lev;
    const char *qd, *rd;
    Py_ssize_t qwidth, rwidth, max_ret, t0, t1;
    rank_ctx ctx;
    int64_t *rel, *count, *row_out;
    int status, oom;
} job_t;

static void run_job(job_t *j)
{
    const int64_t *qrow = j->qrow, *rrow = j->rrow, *qstart = j->qstart, *rstart = j->rstart, *lev = j->lev;
    const char *qd = j->qd, *rd = j->rd;
    Py_ssize_t qwidth = j->qwidth, rwidth = j->rwidth, cap = 0, m = j->max_ret ? j->max_ret : 1;
    int64_t *rel = j->rel, *count = j->count, *row_out = j->row_out;
    int64_t *tmp = malloc(m * sizeof(int64_t)), *pos = malloc(m * sizeof(int64_t)), *codes = malloc(m * sizeof(int64_t));
    slot_t *table = NULL;
    int status = 0, oom = !tmp || !pos || !codes;
    for (Py_ssize_t t = j->t0; t < j->t1 && !oom && !status; t++) {
        const int64_t *rv = rrow + rstart[t];
        Py_ssize_t n_r = rstart[t + 1] - rstart[t], n_q = qstart[t + 1] - qstart[t], out = rstart[t];
        count[t] = n_r;
        if (n_r == 0 && n_q == 0) continue;
        /* one open-addressing table per topic: qrels docnos, then run docnos */
        Py_ssize_t need = 16;
        while (need < 2 * (n_q + n_r)) need <<= 1;
        if (need > cap) {
            free(table);
            table = malloc(need * sizeof(slot_t));
            if (!table) { oom = 1; break; }
            cap = need;
        }
        for (Py_ssize_t i = 0; i < need; i++) table[i].q = table[i].r = -1;
        uint64_t mask = (uint64_t)need - 1;
        for (Py_ssize_t k = qstart[t]; k < qstart[t + 1] && !status; k++) {
            int64_t row = qrow[k];
            const char *p = qd + row * qwidth;
            Py_ssize_t len = doc_len(p, qwidth);
            uint64_t h = hash_bytes(p, len), s = h & mask;
            for (;;) {
                slot_t *e = &table[s];
                if (e->q < 0) { e->q = row; e->h = h; break; }
                if (e->h == h) {
                    const char *o = qd + e->q * qwidth;
                    if (doc_len(o, qwidth) == len && memcmp(o, p, len) == 0) { status = 1; break; }
                }
                s = (s + 1) & mask;
            }
        }
        /* (a topic without results still has its judgments checked for duplicates) */
        for (Py_ssize_t k = 0; k < n_r && !status; k++) {
            int64_t row = rv[k];
            const char *p = rd + row * rwidth;
            Py_ssize_t len = doc_len(p, rwidth);
            uint64_t h = hash_bytes(p, len), s = h & mask;
            int64_t code = NONPOOL;
            for (;;) {
                slot_t *e = &table[s];
                if (e->q < 0 && e->r < 0) { e->r = row; e->h = h; break; }
                if (e->h == h) {
                    const char *o = e->q >= 0 ? qd + e->q * qwidth : rd + e->r * rwidth;
                    Py_ssize_t ow = e->q >= 0 ? qwidth : rwidth;
                    if (doc_len(o, ow) == len && memcmp(o, p, len) == 0) {
                        if (e->r >= 0) { status = 1; break; }
                        e->r = row;
                        code = lev[e->q] < 0 ? UNJUDGED : lev[e->q];
                        break;
                    }
                }
                s = (s + 1) & mask;
            }
            codes[k] = code;
        }
        if (status) break;
        for (Py_ssize_t k = 0; k < n_r; k++) pos[k] = k;
        j->ctx.rows = rv;
        rank_topic(&j->ctx, pos, tmp, n_r);
        for (Py_ssize_t k = 0; k < n_r; k++) rel[out + k] = codes[pos[k]];
        if (row_out)
            for (Py_ssize_t k = 0; k < n_r; k++) row_out[out + k] = rv[pos[k]];
    }
    free(tmp);
    free(pos);
    free(codes);
    free(table);
    j->status = status;
    j->oom = oom;
}

#ifdef JOIN_THREADS
static void *job_thread(void *arg)
{
    run_job((job_t *)arg);
    return NULL;
}
#endif

static PyObject *join_rank(PyObject *self, PyObject *args)
{
    Py_buffer qt, qdoc, qrel, rt, rdoc, score, out_rel, out_count, out_row = {0};
    Py_ssize_t qwidth, rwidth, nt, split_rows;
    int single;
    PyObject *result = NULL;
    int status = 0, oom = 0;

    if (!PyArg_ParseTuple(args, "y*y*ny*y*y*ny*npw*w*n|w*", &qt, &qdoc, &qwidth, &qrel, &rt, &rdoc, &rwidth,
                          &score, &nt, &single, &out_rel, &out_count, &split_rows, &out_row))
        return NULL;
    Py_ssize_t nq = qt.len / 8, nr = rt.len / 8;
    if (qwidth < 1 || rwidth < 1 || nt < 0 || !contiguous(&qdoc, qwidth, nq) || !contiguous(&qrel, 8, nq) ||
        !contiguous(&rdoc, rwidth, nr) || !contiguous(&score, 8, nr) || !contiguous(&out_rel, 8, nr) ||
        !contiguous(&out_count, 8, nt) || (out_row.buf && !contiguous(&out_row, 8, nr))) {
        PyErr_SetString(PyExc_ValueError, "join_rank: inconsistent array sizes");
        goto done;
    }

    Py_BEGIN_ALLOW_THREADS
    int64_t *qstart = malloc((nt + 1) * sizeof(int64_t));
    int64_t *rstart = malloc((nt + 1) * sizeof(int64_t));
    int64_t *qrow = malloc((nq ? nq : 1) * sizeof(int64_t));
    int64_t *rrow = malloc((nr ? nr : 1) * sizeof(int64_t));
    if (!qstart || !rstart || !qrow || !rrow) {
        oom = 1;
    } else {
        Py_ssize_t max_ret = 0, t;
        group_rows(qt.buf, nq, nt, qstart, qrow);
        group_rows(rt.buf, nr, nt, rstart, rrow);
        for (t = 0; t < nt; t++)
            if (rstart[t + 1] - rstart[t] > max_ret) max_ret = rstart[t + 1] - rstart[t];
        job_t jobs[2];
        jobs[0] = (job_t){qrow, rrow, qstart, rstart, qrel.buf, qdoc.buf, rdoc.buf, qwidth, rwidth, max_ret, 0, nt,
                          {NULL, rdoc.buf, rwidth, score.buf, single}, out_rel.buf, out_count.buf, out_row.buf,
                          0, 0};
        jobs[1] = jobs[0];
        jobs[1].t0 = nt; /* no topics, unless the run is shared out below */
#ifdef JOIN_THREADS
        /* a big run: the second half of its rows (whole topics) on a second thread */
        if (split_rows >= 0 && nr >= split_rows && nt >= 2) {
            pthread_t th;
            Py_ssize_t mid = 1;
            while (mid < nt - 1 && rstart[mid] < nr / 2) mid++;
            jobs[0].t1 = jobs[1].t0 = mid;
            if (pthread_create(&th, NULL, job_thread, &jobs[1]) == 0) {
                run_job(&jobs[0]);
                pthread_join(th, NULL);
            } else {
                run_job(&jobs[0]);
                run_job(&jobs[1]);
            }
        } else
#endif
            run_job(&jobs[0]);
        status = jobs[0].status || jobs[1].status;
        oom = jobs[0].oom || jobs[1].oom;
    }
    free(qstart);
    free(rstart);
    free(qrow);
    free(rrow);
    Py_END_ALLOW_THREADS
    if (oom) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyLong_FromLong(status);
done:
    PyBuffer_Release(&qt);
    PyBuffer_Release(&qdoc);
    PyBuffer_Release(&qrel);
    PyBuffer_Release(&rt);
    PyBuffer_Release(&rdoc);
    PyBuffer_Release(&score);
    PyBuffer_Release(&out_rel);
    PyBuffer_Release(&out_count);
    if (out_row.buf) PyBuffer_Release(&out_row);
    return result;
}

static PyMethodDef methods[] = {
    {"join_rank", join_rank, METH_VARARGS, "Join run rows with judgments and rank them (see module source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_joinrank", NULL, -1, methods};

PyMODINIT_FUNC PyInit__joinrank(void) { return PyModule_Create(&module); }
