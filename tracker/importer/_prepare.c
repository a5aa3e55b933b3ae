/* The per-game work of `tracker.importer.prepare.Preparer.row` in C (CPython C API only).

   `row(preparer, tags, moves_digest, has_moves, line)`, which binds as a method
   (`Preparer.row`), does what `Preparer.row_pure` does, with the same result (the same PreparedGame or Skipped, the same warnings in the same order, the same
   memo dicts afterwards): the tag lookups, the memo dicts' hits, the cheap checks, the
   identity and the tuple. On a memo miss or a rare case it calls the preparer's Python
   method or the module's function that handles it (`_player`, `_check`, `_context`,
   `_elo_of`, `_no_tc_list`, `_signals`, `_with_round`, `_list`, `_site`, `_fide`,
   `_title`, `_elo_warning`, `_same_player`, `_not_rated_reason`), so the rules stay in
   Python, in one place. `tracker/importer/prepare.py` decides which runs;
   tests/test_prepare_native.py runs both.

   The module's constants (PreparedGame, RESULTS, the functions, NOTHING, the lists, the
   rare tags) come from Python through `configure`.

   SHA-256 is written here from FIPS 180-4 (the digest `hashlib.sha256` gives; tested
   against it), with the CPU's SHA instructions where it has them. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VERSION 1

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------------------- */

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

#define ROTR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha_compress(uint32_t h[8], const unsigned char *block)
{
    uint32_t w[64], a, b, c, d, e, f, g, k, t1, t2;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = ((uint32_t)block[4 * i] << 24) | ((uint32_t)block[4 * i + 1] << 16) |
               ((uint32_t)block[4 * i + 2] << 8) | (uint32_t)block[4 * i + 3];
    for (i = 16; i < 64; i++) {
        uint32_t s0 = ROTR32(w[i - 15], 7) ^ ROTR32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROTR32(w[i - 2], 17) ^ ROTR32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (i = 0; i < 64; i++) {
        t1 = k + (ROTR32(e, 6) ^ ROTR32(e, 11) ^ ROTR32(e, 25)) + ((e & f) ^ (~e & g)) +
             sha_k[i] + w[i];
        t2 = (ROTR32(a, 2) ^ ROTR32(a, 13) ^ ROTR32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

/* The same with the CPU's SHA instructions (x86 SHA extensions), where it has them
   (`sha_ni`, found at import): the state as sha_compress keeps it, `blocks` blocks.
   TRACKER_NO_SHA_NI defined: the portable code only (the environment variable of that
   name set to 1 at import: the same, for the module's life). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && \
    !defined(TRACKER_NO_SHA_NI)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI 1

__attribute__((target("sha,sse4.1"))) static void sha_compress_ni(uint32_t h[8],
                                                                  const unsigned char *data,
                                                                  Py_ssize_t blocks)
{
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i state0, state1, tmp, msg, abef, cdgh, w[16];
    int g;
    tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1); /* CDAB */
    state1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B); /* EFGH */
    state0 = _mm_alignr_epi8(tmp, state1, 8);    /* ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xF0); /* CDGH */
    while (blocks-- > 0) {
        abef = state0;
        cdgh = state1;
        for (g = 0; g < 16; g++) {
            if (g < 4)
                w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)), swap);
            else
                w[g] = _mm_sha256msg2_epu32(
                    _mm_add_epi32(_mm_sha256msg1_epu32(w[g - 4], w[g - 3]),
                                  _mm_alignr_epi8(w[g - 1], w[g - 2], 4)),
                    w[g - 1]);
            msg = _mm_add_epi32(w[g], _mm_loadu_si128((const __m128i *)&sha_k[4 * g]));
            state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
            state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(msg, 0x0E));
        }
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
        data += 64;
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);    /* FEBA */
    state1 = _mm_shuffle_epi32(state1, 0xB1); /* DCHG */
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(tmp, state1, 0xF0)); /* DCBA */
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(state1, tmp, 8));    /* HGFE */
}

static int cpu_has_sha(void)
{
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3))
        return 0;
    if (__get_cpuid_max(0, NULL) < 7)
        return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 29)) != 0; /* SHA */
}
#endif

static int sha_ni = 0; /* whether sha256_of uses sha_compress_ni */

/* The SHA-256 digest of data (32 bytes into out); `portable`: never the SHA instructions. */
static void sha256_of(const unsigned char *data, Py_ssize_t n, unsigned char out[32],
                      int portable)
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    unsigned char last[128];
    uint64_t bits = (uint64_t)n * 8;
    Py_ssize_t rest, pad, i, whole = n / 64;
#ifdef HAVE_SHA_NI
    int ni = sha_ni && !portable;
#else
    int ni = 0;
    (void)portable;
#endif
#ifdef HAVE_SHA_NI
    if (ni && whole > 0)
        sha_compress_ni(h, data, whole);
#endif
    if (!ni) {
        for (i = 0; i < whole; i++)
            sha_compress(h, data + 64 * i);
    }
    data += 64 * whole;
    rest = n - 64 * whole;
    memcpy(last, data, (size_t)rest);
    last[rest] = 0x80;
    pad = rest < 56 ? 64 : 128;
    memset(last + rest + 1, 0, (size_t)(pad - rest - 1));
    for (i = 0; i < 8; i++)
        last[pad - 1 - i] = (unsigned char)(bits >> (8 * i));
#ifdef HAVE_SHA_NI
    if (ni)
        sha_compress_ni(h, last, pad / 64);
#endif
    if (!ni) {
        sha_compress(h, last);
        if (pad == 128)
            sha_compress(h, last + 64);
    }
    for (i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(h[i] >> 8);
        out[4 * i + 3] = (unsigned char)h[i];
    }
}

/* ---- configuration (from Python) ------------------------------------------------------ */

static PyTypeObject *PreparedGame = NULL; /* the tuple subclass */
static PyObject *results = NULL;          /* model.RESULTS (a frozenset) */
static PyObject *f_fide, *f_not_rated, *f_title, *f_elo_warning, *f_same_player;
static PyObject *nothing = NULL;          /* eventnames.NOTHING */
static PyObject *lists = NULL;            /* the RatingList members */
static PyObject *list_values = NULL;      /* their values, as plain str */
static PyObject *tc_reason = NULL;        /* NotRated.TIME_CONTROL's value */
static Py_ssize_t identity_bytes = 16;
static Py_ssize_t rows_running = 0; /* rows begun and not yet ended (callbacks may call row) */

/* The tags looked up, interned once (a tag dict's keys hash alike and compare by value). */
enum {
    T_WHITE, T_BLACK, T_RESULT, T_WFIDE, T_BFIDE, T_EVENT, T_SITE, T_DATE, T_EVENTDATE,
    T_ROUND, T_WELO, T_BELO, T_TC,
    /* the rare ones (prepare._RARE), from here to the end */
    T_WDIFF, T_WRD, T_BDIFF, T_BRD, T_VARIANT, T_FEN, T_SETUP, T_TERMINATION, T_WTITLE,
    T_BTITLE, T_COUNT
};
#define T_RARE T_WDIFF
#define BIT(t) ((uint32_t)1 << (t))
#define RARE_BITS (BIT(T_COUNT) - BIT(T_RARE))
/* the tags only online platforms write */
#define ONLINE_BITS (BIT(T_WDIFF) | BIT(T_WRD) | BIT(T_BDIFF) | BIT(T_BRD))
static const char *const tag_names[T_COUNT] = {
    "White", "Black", "Result", "WhiteFideId", "BlackFideId", "Event", "Site", "Date",
    "EventDate", "Round", "WhiteElo", "BlackElo", "TimeControl",
    "WhiteRatingDiff", "WhiteRD", "BlackRatingDiff", "BlackRD", "Variant", "FEN", "SetUp",
    "Termination", "WhiteTitle", "BlackTitle",
};
static PyObject *tag[T_COUNT];

static PyObject *m_player, *m_check, *m_context, *m_elo_of, *m_no_tc_list, *m_signals,
    *m_with_round, *m_list, *m_site, *m_row_pure, *m_strip, *s_value, *s_memos;
static PyObject *s_empty, *s_star, *s_white, *s_black;

static int configured(void)
{
    if (PreparedGame == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "tracker.importer._prepare: configure() first");
        return 0;
    }
    return 1;
}

/* ---- small helpers --------------------------------------------------------------------- */

/* The tag names by hash: 64 slots, open addressing (made by the module's init). */
#define NAME_TABLE 64
static struct {
    Py_hash_t hash;
    int which; /* -1: empty */
} name_table[NAME_TABLE];

static int init_name_table(void)
{
    int i;
    for (i = 0; i < NAME_TABLE; i++)
        name_table[i].which = -1;
    for (i = 0; i < T_COUNT; i++) {
        Py_hash_t h = PyObject_Hash(tag[i]);
        size_t at;
        if (h == -1)
            return -1;
        for (at = (size_t)h % NAME_TABLE; name_table[at].which >= 0; at = (at + 1) % NAME_TABLE)
            ;
        name_table[at].hash = h;
        name_table[at].which = i;
    }
    return 0;
}

/* take_tags by a lookup of each name. */
static int lookups(PyObject *tags, PyObject *got[T_COUNT], uint32_t *present)
{
    int i;
    for (i = 0; i < T_COUNT; i++) {
        PyObject *value = PyDict_GetItemWithError(tags, tag[i]);
        if (value == NULL) {
            if (PyErr_Occurred())
                return -1;
            continue;
        }
        got[i] = Py_NewRef(value); /* before the next lookup, which may run Python code */
        *present |= (uint32_t)1 << i;
    }
    return 0;
}

/* The references take_tags took, given back: got[] all None again. */
static void release_tags(PyObject *got[T_COUNT], uint32_t *present)
{
    int i;
    for (i = 0; i < T_COUNT; i++) {
        if (*present & ((uint32_t)1 << i))
            Py_DECREF(got[i]);
        got[i] = Py_None;
    }
    *present = 0;
}

/* Every looked-up tag's value or None, into got[]: one pass over the dict's items (its
   keys' hashes are kept in them), the same values as a lookup of each. The values found
   are new references, their bits set in *present (release_tags gives them back): the
   Python code that row runs later (the callbacks, a value's __hash__ and __eq__ in the
   memo lookups) may change or empty the dict. -1 on error (what was taken is in
   *present). */
static int take_tags(PyObject *tags, PyObject *got[T_COUNT], uint32_t *present)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int i;
    for (i = 0; i < T_COUNT; i++)
        got[i] = Py_None;
    *present = 0;
    while (PyDict_Next(tags, &pos, &key, &value)) {
        Py_hash_t h;
        size_t at;
        if (!PyUnicode_CheckExact(key)) { /* a key of another type: as the dict compares */
            release_tags(got, present);
            return lookups(tags, got, present);
        }
        if (!PyUnicode_IS_ASCII(key))
            continue; /* no tag name */
        h = ((PyASCIIObject *)key)->hash;
        if (h == -1 && (h = PyObject_Hash(key)) == -1)
            return -1;
        for (at = (size_t)h % NAME_TABLE; name_table[at].which >= 0;
             at = (at + 1) % NAME_TABLE) {
            PyObject *name;
            if (name_table[at].hash != h)
                continue;
            name = tag[name_table[at].which];
            if (name == key ||
                (PyUnicode_GET_LENGTH(name) == PyUnicode_GET_LENGTH(key) &&
                 memcmp(PyUnicode_1BYTE_DATA(name), PyUnicode_1BYTE_DATA(key),
                        (size_t)PyUnicode_GET_LENGTH(key)) == 0)) {
                uint32_t bit = (uint32_t)1 << name_table[at].which;
                if (*present & bit) /* no dict has two equal keys: never */
                    Py_DECREF(got[name_table[at].which]);
                got[name_table[at].which] = Py_NewRef(value);
                *present |= bit;
                break;
            }
        }
    }
    return 0;
}

/* A memo dict's value for key (a new reference); NULL with no error set: a miss. */
static PyObject *hit(PyObject *memo, PyObject *key)
{
    PyObject *v = PyDict_GetItemWithError(memo, key);
    Py_XINCREF(v);
    return v;
}

/* Python's truth of o (str and None quickly). -1 on error. */
static int truthy(PyObject *o)
{
    if (o == Py_None)
        return 0;
    if (PyUnicode_CheckExact(o))
        return PyUnicode_GET_LENGTH(o) != 0;
    if (o == Py_True)
        return 1;
    if (o == Py_False)
        return 0;
    return PyObject_IsTrue(o);
}

/* o.strip() for a str (a new reference); the same object when nothing would go. */
static PyObject *strip(PyObject *o)
{
    Py_ssize_t n;
    if (PyUnicode_CheckExact(o)) {
        n = PyUnicode_GET_LENGTH(o);
        if (n == 0 || (!Py_UNICODE_ISSPACE(PyUnicode_READ_CHAR(o, 0)) &&
                       !Py_UNICODE_ISSPACE(PyUnicode_READ_CHAR(o, n - 1))))
            return Py_NewRef(o);
    }
    return PyObject_CallMethodNoArgs(o, m_strip);
}

/* preparer.name(args...) (a new reference). */
static PyObject *call_method(PyObject *self, PyObject *name, PyObject *a, PyObject *b,
                             PyObject *c, PyObject *d, PyObject *e, Py_ssize_t nargs)
{
    PyObject *stack[6] = {self, a, b, c, d, e};
    return PyObject_VectorcallMethod(name, stack, (size_t)(nargs + 1) |
                                     PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

/* A tuple of n items (a memo's value), else a TypeError. */
static int is_tuple(PyObject *o, Py_ssize_t n)
{
    if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == n)
        return 1;
    PyErr_Format(PyExc_TypeError, "tracker.importer._prepare: expected a tuple of %zd", n);
    return 0;
}

/* prepare._fide of a non-empty tag (a new reference): a plain string of ASCII digits here,
   anything else by the Python function. */
static PyObject *fide_of(PyObject *t)
{
    if (PyUnicode_CheckExact(t) && PyUnicode_IS_ASCII(t)) {
        Py_ssize_t n = PyUnicode_GET_LENGTH(t), i;
        const unsigned char *s = PyUnicode_1BYTE_DATA(t);
        long long value = 0;
        if (n > 0 && n <= 18) {
            for (i = 0; i < n; i++) {
                if (s[i] < '0' || s[i] > '9')
                    break;
                value = value * 10 + (s[i] - '0');
            }
            if (i == n) {
                /* 0 < value < 2**62 (18 digits are below 2**62) */
                if (value > 0)
                    return PyLong_FromLongLong(value);
                Py_RETURN_NONE;
            }
        }
    }
    return PyObject_CallOneArg(f_fide, t);
}

/* A RatingList member's value (a new reference): lst.value. */
static PyObject *value_of(PyObject *lst)
{
    Py_ssize_t i;
    for (i = 0; i < PyTuple_GET_SIZE(lists); i++) {
        if (PyTuple_GET_ITEM(lists, i) == lst)
            return Py_NewRef(PyTuple_GET_ITEM(list_values, i));
    }
    return PyObject_GetAttr(lst, s_value);
}

/* f"{line}: {text}" appended to the warnings (format(), as the f-string calls it). */
static int warn(PyObject *warnings, PyObject *line, PyObject *text)
{
    PyObject *a = NULL, *b = NULL, *s = NULL;
    int rc = -1;
    if ((a = PyObject_Format(line, NULL)) && (b = PyObject_Format(text, NULL)) &&
        (s = PyUnicode_FromFormat("%U: %U", a, b)))
        rc = PyList_Append(warnings, s);
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(s);
    return rc;
}

/* The UTF-8 bytes of a str as `encode("utf-8", "surrogatepass")` gives them: *keep holds
   a bytes object when one had to be made. NULL on error. */
static const char *utf8(PyObject *s, Py_ssize_t *n, PyObject **keep)
{
    const char *p;
    *keep = NULL;
    if (PyUnicode_IS_ASCII(s)) {
        *n = PyUnicode_GET_LENGTH(s);
        return (const char *)PyUnicode_1BYTE_DATA(s);
    }
    p = PyUnicode_AsUTF8AndSize(s, n);
    if (p != NULL)
        return p;
    if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
        return NULL;
    PyErr_Clear();  /* a lone surrogate: encoded as surrogatepass does */
    *keep = PyUnicode_AsEncodedString(s, "utf-8", "surrogatepass");
    if (*keep == NULL)
        return NULL;
    *n = PyBytes_GET_SIZE(*keep);
    return PyBytes_AS_STRING(*keep);
}

/* The identity: the first identity_bytes bytes of the sha256 of the six parts joined by
   \x1f (None as "", and the date and round, `date_tag or ''`, as "" when false), as
   bytes. */
static PyObject *identity_of(PyObject *const parts[6])
{
    const char *p[6];
    Py_ssize_t n[6], total = 5, i, at = 0;
    PyObject *keep[6] = {NULL, NULL, NULL, NULL, NULL, NULL}, *formatted[6] = {NULL};
    PyObject *out = NULL;
    char small[1024], *buf = small;
    unsigned char digest[32];
    for (i = 0; i < 6; i++) {
        PyObject *s = parts[i];
        if (s == Py_None)
            s = s_empty;
        else if (!PyUnicode_CheckExact(s)) {  /* as an f-string formats it */
            if (i == 2 || i == 3) {
                int t = PyObject_IsTrue(s);
                if (t < 0)
                    goto done;
                if (!t)
                    s = s_empty;
            }
            if (s != s_empty && !(s = formatted[i] = PyObject_Format(s, NULL)))
                goto done;
        }
        p[i] = utf8(s, &n[i], &keep[i]);
        if (p[i] == NULL)
            goto done;
        total += n[i];
    }
    if (total > (Py_ssize_t)sizeof small) {
        buf = PyMem_Malloc((size_t)total);
        if (buf == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    for (i = 0; i < 6; i++) {
        memcpy(buf + at, p[i], (size_t)n[i]);
        at += n[i];
        if (i < 5)
            buf[at++] = '\x1f';
    }
    sha256_of((const unsigned char *)buf, total, digest, 0);
    out = PyBytes_FromStringAndSize((const char *)digest, identity_bytes);
done:
    if (buf != small)
        PyMem_Free(buf);
    for (i = 0; i < 6; i++) {
        Py_XDECREF(keep[i]);
        Py_XDECREF(formatted[i]);
    }
    return out;
}

/* ---- row ------------------------------------------------------------------------------- */

/* `row` is the one instance of this type: a function that binds as a method does
   (`Preparer.row = row`; `preparer.row` is a bound method, `Preparer.row(preparer, ...)`
   works too). */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
} RowObject;

/* The preparer's memo dicts and warnings list, `_memos` (made once by its __init__: they
   are emptied, never replaced), checked; a new reference. */
#define MEMOS 7
static PyObject *memos_of(PyObject *preparer)
{
    PyObject *m = PyObject_GetAttr(preparer, s_memos);
    int i;
    if (m == NULL)
        return NULL;
    if (!PyTuple_CheckExact(m) || PyTuple_GET_SIZE(m) != MEMOS)
        goto bad;
    for (i = 0; i < MEMOS - 1; i++) {
        if (!PyDict_CheckExact(PyTuple_GET_ITEM(m, i)))
            goto bad;
    }
    if (!PyList_CheckExact(PyTuple_GET_ITEM(m, MEMOS - 1)))
        goto bad;
    return m;
bad:
    Py_DECREF(m);
    PyErr_SetString(PyExc_TypeError, "row(): the preparer's _memos are not 6 dicts and a list");
    return NULL;
}

/* row(preparer, tags, moves_digest, has_moves, line): Preparer.row_pure's result. */
static PyObject *row_call(PyObject *op, PyObject *const *args, size_t nargsf,
                          PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *pre, *tags, *digest, *has_moves, *line;
    PyObject *players, *contexts, *elos, *no_tc, *round_signals, *tc_memo, *warnings;
    /* borrowed: from got[] or from owned tuples */
    PyObject *wtag, *btag, *result, *wfide, *bfide, *white, *wnorm, *black, *bnorm;
    PyObject *event, *site, *event_norm, *online, *site_key, *date_tag, *iso, *event_date;
    PyObject *start, *date_warning, *welo_tag, *belo_tag, *welo, *belo, *wstored, *bstored;
    PyObject *setup, *termination, *wtitle_tag, *btitle_tag, *assumed, *reason_tc;
    PyObject *rare[T_COUNT - T_RARE], *v;
    /* owned: got[i] where present has bit i (else it is None) */
    PyObject *got[T_COUNT];
    uint32_t present = 0;
    PyObject *memos = NULL, *wpl = NULL, *bpl = NULL, *checked = NULL, *wid = NULL;
    PyObject *bid = NULL, *key = NULL, *ctx = NULL, *round_ = NULL, *forced = NULL;
    PyObject *variant = NULL, *fen = NULL, *we = NULL, *be = NULL, *tc = NULL;
    PyObject *listed = NULL, *lst = NULL, *reason = NULL, *identity = NULL;
    PyObject *wtitle = NULL, *btitle = NULL, *out = NULL, *tmp = NULL;
    int t, i;

    if (!configured())
        return NULL;
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "row() takes the preparer first");
        return NULL;
    }
    if (nargs != 5 || kwnames != NULL || !PyDict_CheckExact(args[1]) ||
        !PyUnicode_CheckExact(args[2])) {  /* not the import's call: the Python code */
        PyObject *pure = PyObject_GetAttr(args[0], m_row_pure);
        if (pure == NULL)
            return NULL;
        out = PyObject_Vectorcall(pure, args + 1, (size_t)(nargs - 1), kwnames);
        Py_DECREF(pure);
        return out;
    }
    pre = args[0];
    tags = args[1];
    digest = args[2];
    has_moves = args[3];
    line = args[4];
    if (!(memos = memos_of(pre)))
        return NULL;
    players = PyTuple_GET_ITEM(memos, 0);
    contexts = PyTuple_GET_ITEM(memos, 1);
    elos = PyTuple_GET_ITEM(memos, 2);
    no_tc = PyTuple_GET_ITEM(memos, 3);
    round_signals = PyTuple_GET_ITEM(memos, 4);
    tc_memo = PyTuple_GET_ITEM(memos, 5);
    warnings = PyTuple_GET_ITEM(memos, 6);
    rows_running++;

    /* the players */
    if (take_tags(tags, got, &present) < 0)
        goto done;
    wtag = got[T_WHITE];
    if (!(wpl = hit(players, wtag))) {
        if (PyErr_Occurred() ||
            !(wpl = call_method(pre, m_player, wtag, NULL, NULL, NULL, NULL, 1)))
            goto done;
    }
    if (!is_tuple(wpl, 2))
        goto done;
    btag = got[T_BLACK];
    if (!(bpl = hit(players, btag))) {
        if (PyErr_Occurred() ||
            !(bpl = call_method(pre, m_player, btag, NULL, NULL, NULL, NULL, 1)))
            goto done;
    }
    if (!is_tuple(bpl, 2))
        goto done;
    white = PyTuple_GET_ITEM(wpl, 0);
    wnorm = PyTuple_GET_ITEM(wpl, 1);
    black = PyTuple_GET_ITEM(bpl, 0);
    bnorm = PyTuple_GET_ITEM(bpl, 1);
    result = got[T_RESULT];
    {
        int good;
        if ((good = truthy(wnorm)) < 0)
            goto done;
        if (good && (good = truthy(bnorm)) < 0)
            goto done;
        if (good && (good = PySet_Contains(results, result)) < 0)
            goto done;
        if (!good) {
            checked = call_method(pre, m_check, white, wnorm, black, bnorm, result, 5);
            if (checked == NULL || !is_tuple(checked, 2))
                goto done;
            if (PyTuple_GET_ITEM(checked, 0) != Py_None) {
                out = Py_NewRef(PyTuple_GET_ITEM(checked, 0));
                goto done;
            }
            result = PyTuple_GET_ITEM(checked, 1);
        }
    }

    /* the FIDE IDs, the same player */
    wfide = got[T_WFIDE];
    bfide = got[T_BFIDE];
    if ((t = truthy(wfide)) < 0)
        goto done;
    if (!(wid = t ? fide_of(wfide) : Py_NewRef(Py_None)))
        goto done;
    if ((t = truthy(bfide)) < 0)
        goto done;
    if (!(bid = t ? fide_of(bfide) : Py_NewRef(Py_None)))
        goto done;
    if ((t = PyObject_RichCompareBool(wnorm, bnorm, Py_EQ)) < 0)
        goto done;
    if (!t && wid != Py_None && (t = PyObject_RichCompareBool(wid, bid, Py_EQ)) < 0)
        goto done;
    if (t) {
        out = PyObject_CallOneArg(f_same_player, white);
        goto done;
    }

    /* the context: event, site, dates */
    if (!(key = PyTuple_Pack(4, got[T_EVENT], got[T_SITE], got[T_DATE], got[T_EVENTDATE])))
        goto done;
    if (!(ctx = hit(contexts, key))) {
        if (PyErr_Occurred() ||
            !(ctx = call_method(pre, m_context, key, NULL, NULL, NULL, NULL, 1)))
            goto done;
    }
    if (!is_tuple(ctx, 11))
        goto done;
    event = PyTuple_GET_ITEM(ctx, 0);
    site = PyTuple_GET_ITEM(ctx, 1);
    event_norm = PyTuple_GET_ITEM(ctx, 2);
    online = PyTuple_GET_ITEM(ctx, 3);
    site_key = PyTuple_GET_ITEM(ctx, 4);
    date_tag = PyTuple_GET_ITEM(ctx, 5);
    iso = PyTuple_GET_ITEM(ctx, 6);
    event_date = PyTuple_GET_ITEM(ctx, 8);
    start = PyTuple_GET_ITEM(ctx, 9);
    date_warning = PyTuple_GET_ITEM(ctx, 10);
    if (date_warning != Py_None && warn(warnings, line, date_warning) < 0)
        goto done;

    v = got[T_ROUND];
    if (!(round_ = v == Py_None ? Py_NewRef(Py_None) : strip(v)))
        goto done;
    welo_tag = got[T_WELO];
    belo_tag = got[T_BELO];

    /* the rare tags (there, whatever their values: as _RARE.isdisjoint(tags) and `in tags`) */
    for (i = T_RARE; i < T_COUNT; i++)
        rare[i - T_RARE] = got[i];
    if (!(present & RARE_BITS)) {
        variant = Py_NewRef(s_empty);
        fen = Py_NewRef(s_empty);
        setup = termination = wtitle_tag = btitle_tag = Py_None;
    }
    else {
        if ((t = truthy(online)) < 0)
            goto done;
        if (!t && (present & ONLINE_BITS)) {
            forced = call_method(pre, m_site, event, site, Py_True, NULL, NULL, 3);
            if (forced == NULL || !is_tuple(forced, 2))
                goto done;
            online = Py_True;
            site_key = PyTuple_GET_ITEM(forced, 1);
        }
        for (i = 0; i < 2; i++) {
            PyObject *given = rare[(i ? T_FEN : T_VARIANT) - T_RARE], *s;
            if ((t = truthy(given)) < 0)
                goto done;
            if (!(s = t ? strip(given) : Py_NewRef(s_empty)))
                goto done;
            if (i)
                fen = s;
            else
                variant = s;
        }
        setup = rare[T_SETUP - T_RARE];
        termination = rare[T_TERMINATION - T_RARE];
        wtitle_tag = rare[T_WTITLE - T_RARE];
        btitle_tag = rare[T_BTITLE - T_RARE];
    }

    /* the ratings */
    if ((t = truthy(online)) < 0)
        goto done;
    if (t) {
        welo = belo = Py_None;
        wstored = welo_tag;
        bstored = belo_tag;
    }
    else {
        if (!(we = hit(elos, welo_tag))) {
            if (PyErr_Occurred() ||
                !(we = call_method(pre, m_elo_of, welo_tag, NULL, NULL, NULL, NULL, 1)))
                goto done;
        }
        if (!is_tuple(we, 3) || (t = truthy(PyTuple_GET_ITEM(we, 2))) < 0)
            goto done;
        if (t) {
            tmp = PyObject_CallFunctionObjArgs(f_elo_warning, s_white,
                                               welo_tag == Py_None ? s_empty : welo_tag, NULL);
            if (tmp == NULL || warn(warnings, line, tmp) < 0)
                goto done;
            Py_CLEAR(tmp);
        }
        if (!(be = hit(elos, belo_tag))) {
            if (PyErr_Occurred() ||
                !(be = call_method(pre, m_elo_of, belo_tag, NULL, NULL, NULL, NULL, 1)))
                goto done;
        }
        if (!is_tuple(be, 3) || (t = truthy(PyTuple_GET_ITEM(be, 2))) < 0)
            goto done;
        if (t) {
            tmp = PyObject_CallFunctionObjArgs(f_elo_warning, s_black,
                                               belo_tag == Py_None ? s_empty : belo_tag, NULL);
            if (tmp == NULL || warn(warnings, line, tmp) < 0)
                goto done;
            Py_CLEAR(tmp);
        }
        welo = PyTuple_GET_ITEM(we, 0);
        wstored = PyTuple_GET_ITEM(we, 1);
        belo = PyTuple_GET_ITEM(be, 0);
        bstored = PyTuple_GET_ITEM(be, 1);
    }

    /* the list */
    v = got[T_TC];
    if (v == Py_None)
        tc = Py_NewRef(Py_None);
    else {
        if (!(tc = strip(v)))
            goto done;
        if ((t = truthy(tc)) < 0)
            goto done;
        if (!t)
            Py_SETREF(tc, Py_NewRef(Py_None));
    }
    if (tc == Py_None) {  /* the list depends on the event and round names only */
        if (!(listed = hit(no_tc, event))) {
            if (PyErr_Occurred() ||
                !(listed = call_method(pre, m_no_tc_list, event, NULL, NULL, NULL, NULL, 1)))
                goto done;
        }
        if ((t = truthy(round_)) < 0)
            goto done;
        if (t) {
            PyObject *signals = hit(round_signals, round_);
            if (signals == NULL) {
                if (PyErr_Occurred() ||
                    !(signals = call_method(pre, m_signals, round_signals, round_, NULL,
                                            NULL, NULL, 2)))
                    goto done;
            }
            t = signals != nothing;
            Py_DECREF(signals);
            if (t) {
                Py_SETREF(listed, call_method(pre, m_with_round, event, round_, NULL, NULL,
                                              NULL, 2));
                if (listed == NULL)
                    goto done;
            }
        }
        if (!is_tuple(listed, 3))
            goto done;
        lst = Py_NewRef(PyTuple_GET_ITEM(listed, 0));
        assumed = PyTuple_GET_ITEM(listed, 1);
        reason_tc = PyTuple_GET_ITEM(listed, 2);
    }
    else {
        PyObject *max_elo, *found;
        if (belo == Py_None)
            max_elo = welo;
        else if (welo == Py_None)
            max_elo = belo;
        else {
            if ((t = PyObject_RichCompareBool(welo, belo, Py_GT)) < 0)
                goto done;
            max_elo = t ? welo : belo;
        }
        Py_SETREF(key, PyTuple_Pack(3, tc, start, max_elo));
        if (key == NULL)
            goto done;
        found = hit(tc_memo, key);
        if (found == NULL && PyErr_Occurred())
            goto done;
        if (found != NULL && PyTuple_Check(found) && PyTuple_GET_SIZE(found) == 2 &&
            PyTuple_GET_ITEM(found, 0) != Py_None) {  /* what _list gives on a hit */
            if ((t = truthy(PyTuple_GET_ITEM(found, 1))) < 0 ||
                !(lst = value_of(PyTuple_GET_ITEM(found, 0)))) {
                Py_DECREF(found);
                goto done;
            }
            Py_DECREF(found);
            assumed = Py_False;
            reason_tc = t ? tc_reason : Py_None;
        }
        else {
            Py_XDECREF(found);
            listed = call_method(pre, m_list, tc, start, max_elo, event, round_, 5);
            if (listed == NULL || !is_tuple(listed, 3) ||
                !(lst = value_of(PyTuple_GET_ITEM(listed, 0))))
                goto done;
            assumed = PyTuple_GET_ITEM(listed, 1);
            reason_tc = PyTuple_GET_ITEM(listed, 2);
        }
    }

    /* whether it counts for rating */
    {
        int rare_reason;
        if ((rare_reason = truthy(online)) < 0)
            goto done;
        if (!rare_reason && (rare_reason = truthy(variant)) < 0)
            goto done;
        if (!rare_reason && (rare_reason = truthy(fen)) < 0)
            goto done;
        if (!rare_reason && (rare_reason = truthy(setup)) < 0)
            goto done;
        if (!rare_reason && (rare_reason = PyObject_RichCompareBool(result, s_star, Py_EQ)) < 0)
            goto done;
        if (!rare_reason && (rare_reason = truthy(termination)) < 0)
            goto done;
        if (!rare_reason) {
            if ((t = truthy(has_moves)) < 0)
                goto done;
            rare_reason = !t;
        }
        if (!rare_reason && (rare_reason = truthy(reason_tc)) < 0)
            goto done;
        if (!rare_reason)
            rare_reason = welo == Py_None;
        if (rare_reason) {
            PyObject *setup_s, *stack[12];
            if ((t = truthy(setup)) < 0)
                goto done;
            if (!(setup_s = t ? strip(setup) : Py_NewRef(s_empty)))
                goto done;
            stack[0] = online, stack[1] = variant, stack[2] = fen, stack[3] = setup_s;
            stack[4] = result, stack[5] = termination, stack[6] = has_moves;
            stack[7] = reason_tc, stack[8] = welo_tag, stack[9] = belo_tag, stack[10] = welo;
            stack[11] = belo;
            reason = PyObject_Vectorcall(f_not_rated, stack, 12, NULL);
            Py_DECREF(setup_s);
            if (reason == NULL)
                goto done;
        }
        else
            reason = Py_NewRef(Py_None);
    }

    /* the identity, the titles */
    {
        PyObject *parts[6];
        parts[0] = wnorm, parts[1] = bnorm, parts[2] = date_tag, parts[3] = round_;
        parts[4] = event_norm, parts[5] = digest;
        if (!(identity = identity_of(parts)))
            goto done;
    }
    if ((t = truthy(wtitle_tag)) < 0)
        goto done;
    if (!(wtitle = t ? PyObject_CallOneArg(f_title, wtitle_tag) : Py_NewRef(Py_None)))
        goto done;
    if ((t = truthy(btitle_tag)) < 0)
        goto done;
    if (!(btitle = t ? PyObject_CallOneArg(f_title, btitle_tag) : Py_NewRef(Py_None)))
        goto done;

    /* the PreparedGame, as tuple.__new__(PreparedGame, values) makes it */
    if ((t = truthy(variant)) < 0)
        goto done;
    {
        PyObject *values[30];
        values[0] = line, values[1] = white, values[2] = wnorm, values[3] = wid;
        values[4] = black, values[5] = bnorm, values[6] = bid, values[7] = event;
        values[8] = site_key, values[9] = event_date, values[10] = online;
        values[11] = identity, values[12] = iso, values[13] = date_tag, values[14] = round_;
        values[15] = result, values[16] = welo, values[17] = belo, values[18] = wstored;
        values[19] = bstored, values[20] = wtitle, values[21] = btitle, values[22] = tc;
        values[23] = termination, values[24] = t ? variant : Py_None;
        values[25] = has_moves, values[26] = lst, values[27] = assumed;
        values[28] = reason == Py_None ? Py_True : Py_False, values[29] = reason;
        if (!(out = PreparedGame->tp_alloc(PreparedGame, 30)))
            goto done;
        for (i = 0; i < 30; i++)
            PyTuple_SET_ITEM(out, i, Py_NewRef(values[i]));
    }

done:
    if (memos != NULL) {
        rows_running--;
        release_tags(got, &present);
    }
    Py_XDECREF(memos);
    Py_XDECREF(wpl);
    Py_XDECREF(bpl);
    Py_XDECREF(checked);
    Py_XDECREF(wid);
    Py_XDECREF(bid);
    Py_XDECREF(key);
    Py_XDECREF(ctx);
    Py_XDECREF(round_);
    Py_XDECREF(forced);
    Py_XDECREF(variant);
    Py_XDECREF(fen);
    Py_XDECREF(we);
    Py_XDECREF(be);
    Py_XDECREF(tc);
    Py_XDECREF(listed);
    Py_XDECREF(lst);
    Py_XDECREF(reason);
    Py_XDECREF(identity);
    Py_XDECREF(wtitle);
    Py_XDECREF(btitle);
    Py_XDECREF(tmp);
    return out;
}

static PyObject *row_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None)
        return Py_NewRef(self);
    return PyMethod_New(self, obj);
}

static PyTypeObject RowType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tracker.importer._prepare.Row",
    .tp_basicsize = sizeof(RowObject),
    .tp_vectorcall_offset = offsetof(RowObject, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "row(preparer, tags, moves_digest, has_moves, line): Preparer.row_pure's result.",
    .tp_descr_get = row_get,
};

static RowObject row_object = {PyObject_HEAD_INIT(&RowType) row_call};

/* ---- module functions ------------------------------------------------------------------ */

/* sha256(data, portable): hashlib.sha256(data).digest() (for the tests; portable: without
   the SHA instructions). */
static PyObject *sp_sha256(PyObject *mod, PyObject *args)
{
    unsigned char digest[32];
    PyObject *data;
    int portable;
    if (!PyArg_ParseTuple(args, "O!p:sha256", &PyBytes_Type, &data, &portable))
        return NULL;
    sha256_of((const unsigned char *)PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), digest,
              portable);
    return PyBytes_FromStringAndSize((const char *)digest, 32);
}

/* configure(PreparedGame, RESULTS, _fide, _not_rated_reason, _title, _elo_warning,
             _same_player, NOTHING, lists, values, time_control, rare, identity_bytes) */
static PyObject *sp_configure(PyObject *mod, PyObject *args)
{
    PyObject *cls, *res, *fide, *not_rated, *title, *elo_warning, *same, *none_said;
    PyObject *members, *values, *tc_value, *rare_tags;
    Py_ssize_t id_bytes, i;
    if (!PyArg_ParseTuple(args, "O!OOOOOOOO!O!UOn:configure", &PyType_Type, &cls, &res,
                          &fide, &not_rated, &title, &elo_warning, &same, &none_said,
                          &PyTuple_Type, &members, &PyTuple_Type, &values, &tc_value,
                          &rare_tags, &id_bytes))
        return NULL;
    if (rows_running > 0) { /* a row holds the constants it took (from a callback) */
        PyErr_SetString(PyExc_RuntimeError, "configure(): not while a row() runs");
        return NULL;
    }
    if (!PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type) ||
        ((PyTypeObject *)cls)->tp_basicsize != PyTuple_Type.tp_basicsize ||
        ((PyTypeObject *)cls)->tp_dictoffset != 0) {
        PyErr_SetString(PyExc_TypeError, "configure(): PreparedGame must be a plain tuple "
                                         "subclass (no instance dict)");
        return NULL;
    }
    if (!PyFrozenSet_Check(res)) {
        PyErr_SetString(PyExc_TypeError, "configure(): RESULTS must be a frozenset");
        return NULL;
    }
    if (!PyCallable_Check(fide) || !PyCallable_Check(not_rated) || !PyCallable_Check(title) ||
        !PyCallable_Check(elo_warning) || !PyCallable_Check(same)) {
        PyErr_SetString(PyExc_TypeError, "configure(): the functions must be callable");
        return NULL;
    }
    if (PyTuple_GET_SIZE(members) != PyTuple_GET_SIZE(values)) {
        PyErr_SetString(PyExc_ValueError, "configure(): one value a list");
        return NULL;
    }
    for (i = 0; i < PyTuple_GET_SIZE(values); i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(values, i))) {
            PyErr_SetString(PyExc_TypeError, "configure(): the lists' values must be str");
            return NULL;
        }
    }
    /* the rare tags this file looks up must be prepare._RARE */
    if (!PyAnySet_Check(rare_tags) || PySet_GET_SIZE(rare_tags) != T_COUNT - T_RARE) {
        PyErr_SetString(PyExc_ValueError, "configure(): not the rare tags of this source");
        return NULL;
    }
    for (i = T_RARE; i < T_COUNT; i++) {
        int in = PySet_Contains(rare_tags, tag[i]);
        if (in < 0)
            return NULL;
        if (!in) {
            PyErr_SetString(PyExc_ValueError, "configure(): not the rare tags of this source");
            return NULL;
        }
    }
    if (id_bytes < 1 || id_bytes > 32) {
        PyErr_SetString(PyExc_ValueError, "configure(): identity_bytes from 1 to 32");
        return NULL;
    }
    Py_XSETREF(PreparedGame, (PyTypeObject *)Py_NewRef(cls));
    Py_XSETREF(results, Py_NewRef(res));
    Py_XSETREF(f_fide, Py_NewRef(fide));
    Py_XSETREF(f_not_rated, Py_NewRef(not_rated));
    Py_XSETREF(f_title, Py_NewRef(title));
    Py_XSETREF(f_elo_warning, Py_NewRef(elo_warning));
    Py_XSETREF(f_same_player, Py_NewRef(same));
    Py_XSETREF(nothing, Py_NewRef(none_said));
    Py_XSETREF(lists, Py_NewRef(members));
    Py_XSETREF(list_values, Py_NewRef(values));
    Py_XSETREF(tc_reason, Py_NewRef(tc_value));
    identity_bytes = id_bytes;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", sp_configure, METH_VARARGS, "Give the preparer's constants and functions."},
    {"sha256", sp_sha256, METH_VARARGS, "SHA-256 of bytes (the digest)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_prepare", "The per-game work of Preparer.row in C.", -1,
    methods, NULL, NULL, NULL, NULL,
};

static PyObject *intern(const char *s)
{
    return PyUnicode_InternFromString(s);
}

PyMODINIT_FUNC PyInit__prepare(void)
{
    PyObject *mod;
    int i;
    for (i = 0; i < T_COUNT; i++) {
        if (!(tag[i] = intern(tag_names[i])))
            return NULL;
    }
    if (!(m_player = intern("_player")) || !(m_check = intern("_check")) ||
        !(m_context = intern("_context")) || !(m_elo_of = intern("_elo_of")) ||
        !(m_no_tc_list = intern("_no_tc_list")) || !(m_signals = intern("_signals")) ||
        !(m_with_round = intern("_with_round")) || !(m_list = intern("_list")) ||
        !(m_site = intern("_site")) || !(m_row_pure = intern("row_pure")) ||
        !(m_strip = intern("strip")) || !(s_value = intern("value")) ||
        !(s_memos = intern("_memos")) ||
        !(s_empty = PyUnicode_New(0, 0)) || !(s_star = intern("*")) ||
        !(s_white = intern("White")) || !(s_black = intern("Black")))
        return NULL;
    if (init_name_table() < 0 || PyType_Ready(&RowType) < 0)
        return NULL;
    mod = PyModule_Create(&module);
    if (mod == NULL)
        return NULL;
#ifdef HAVE_SHA_NI
    {
        /* TRACKER_NO_SHA_NI=1: the portable code, as on a CPU without them (the tests) */
        const char *off = getenv("TRACKER_NO_SHA_NI");
        sha_ni = cpu_has_sha() && !(off != NULL && strcmp(off, "1") == 0);
    }
#endif
    if (PyModule_AddIntConstant(mod, "VERSION", VERSION) < 0 ||
        PyModule_AddIntConstant(mod, "SHA_NI", sha_ni) < 0 ||
        PyModule_AddObjectRef(mod, "row", (PyObject *)&row_object) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
