/* The per-game work of `tracker.pgn.scan` in C (CPython C API only).

   Each function here does what a piece of the pure Python reader does, with the same
   result, byte for byte; the Python code stays the definition and the fallback
   (`tracker/pgn/native.py` decides which runs; tests/test_pgn_native.py runs both):

   groups        `scan._Reader.groups` for the plain header + movetext case: the games it
                 reads itself, and (start, end, line) for each group the line machine reads
   fast_tags     `scan._fast_tags` (a header paragraph not valid UTF-8 is handed to it)
   fast_canonical, canonical, digest
                 `scan._fast_canonical`, `moves.canonical`, `moves.digest_of`
   normalize     `scan._normalize` after its byte order marks are dropped
   to_lf         the line ends of a block as `stream.blocks` converts them
   line_ends     `stream.LineCount.feed`'s count

   The rules' constants (MAX_TAGS, MAX_VALUE, the results, the bytes dropped, the move
   number bytes) and the RawGame class come from Python through `configure`.

   BLAKE2b is written here from RFC 7693 (the digest `hashlib.blake2b(digest_size=16)`
   gives; tested against it). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
#define HAVE_SSE2 1 /* 16 bytes looked at a time where the code says so; else one by one */
#endif

#define VERSION 3

/* ---- configuration (from Python) ---------------------------------------------------- */

static PyObject *RawGame = NULL;        /* the class */
static PyObject *tags_fallback = NULL;  /* scan._fast_tags, for a header not valid UTF-8 */
static Py_ssize_t max_tags = -1;
static Py_ssize_t max_value = -1;
static unsigned char keep[256];         /* bytes canonical() keeps (moves.DROP: not) */
static Py_ssize_t keep_space;           /* whether it keeps a space (a removed NAG is one) */
static unsigned char numbering[256];    /* bytes of move numbers */
static PyObject *results = NULL;        /* tuple of bytes: the results a movetext ends with */
static int result_by_last[256];         /* index into results by last byte, or -1 */

static PyObject *s_tags, *s_moves_digest, *s_has_moves, *s_line, *s_problems, *s_moves_end;
static PyObject *s_result; /* "Result", the tag */
static PyObject *empty_tuple, *empty_str;

static int configured(void)
{
    if (RawGame == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "tracker.pgn._speedups: configure() first");
        return 0;
    }
    return 1;
}

/* ---- small byte helpers --------------------------------------------------------------- */

static unsigned char is_ws[256];       /* b" \t\r\x0b\x0c" (scan._WS_LINES) */
static unsigned char is_alnum[256];    /* ASCII letters and digits */
static unsigned char is_word[256];     /* \w with re.ASCII */
static unsigned char is_special[256];  /* scan._SPECIALS: b";{}()[%$" */
static unsigned char is_digit[256];
static unsigned char in_comments[256]; /* what the comment pass looks at: `{`, `[`, `%` */
#define V_HIGH 1   /* a byte beyond ASCII */
#define V_ESCAPE 2 /* `\` */
#define V_CR 4
static unsigned char value_kind[256];  /* what a tag value holds */

static void init_tables(void)
{
    int c;
    const char *p;
    memset(is_ws, 0, sizeof is_ws);
    for (p = " \t\r\x0b\x0c"; *p; p++)
        is_ws[(unsigned char)*p] = 1;
    for (c = 0; c < 256; c++) {
        is_alnum[c] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        is_word[c] = is_alnum[c] || c == '_';
        is_digit[c] = c >= '0' && c <= '9';
        in_comments[c] = c == '{' || c == '[' || c == '%';
        value_kind[c] = (c >= 0x80 ? V_HIGH : 0) | (c == '\\' ? V_ESCAPE : 0) |
                        (c == '\r' ? V_CR : 0);
    }
    memset(is_special, 0, sizeof is_special);
    for (p = ";{}()[%$"; *p; p++)
        is_special[(unsigned char)*p] = 1;
}

static Py_ssize_t count_nl(const char *s, Py_ssize_t n)
{
    /* in runs of 255 bytes, so the compiler can count 16 or 32 bytes at a time */
    Py_ssize_t count = 0;
    while (n > 0) {
        Py_ssize_t run = n < 255 ? n : 255, i;
        unsigned char part = 0;
        for (i = 0; i < run; i++)
            part += s[i] == '\n';
        count += part;
        s += run;
        n -= run;
    }
    return count;
}

static Py_ssize_t last_of(const char *s, Py_ssize_t n, char c)
{
    while (n > 0) {
        n--;
        if (s[n] == c)
            return n;
    }
    return -1;
}

/* A growing scratch buffer (the GIL is held while it is used; nothing called meanwhile
   uses it). */
static char *scratch = NULL;
static Py_ssize_t scratch_size = 0;

static char *scratch_for(Py_ssize_t n)
{
    if (n < 256)
        n = 256;
    if (n > scratch_size) {
        char *grown = PyMem_Realloc(scratch, (size_t)n);
        if (grown == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        scratch = grown;
        scratch_size = n;
    }
    return scratch;
}

/* ---- BLAKE2b (RFC 7693), unkeyed ------------------------------------------------------- */

static const uint64_t b2_iv[8] = {
    0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL, 0x3C6EF372FE94F82BULL,
    0xA54FF53A5F1D36F1ULL, 0x510E527FADE682D1ULL, 0x9B05688C2B3E6C1FULL,
    0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL,
};

static const uint8_t b2_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define B2_G(a, b, c, d, x, y)               \
    do {                                     \
        v[a] = v[a] + v[b] + (x);            \
        v[d] = ROTR64(v[d] ^ v[a], 32);      \
        v[c] = v[c] + v[d];                  \
        v[b] = ROTR64(v[b] ^ v[c], 24);      \
        v[a] = v[a] + v[b] + (y);            \
        v[d] = ROTR64(v[d] ^ v[a], 16);      \
        v[c] = v[c] + v[d];                  \
        v[b] = ROTR64(v[b] ^ v[c], 63);      \
    } while (0)

static uint64_t load64(const unsigned char *p)
{
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) |
           ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) |
           ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

static void b2_compress(uint64_t h[8], const unsigned char block[128], uint64_t t, int last)
{
    uint64_t v[16], m[16];
    int i;
    for (i = 0; i < 16; i++)
        m[i] = load64(block + 8 * i);
    for (i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = b2_iv[i];
    }
    v[12] ^= t; /* the high word of the counter stays 0: inputs are far below 2**64 bytes */
    if (last)
        v[14] = ~v[14];
#define B2_ROUND(r)                                                   \
    do {                                                              \
        B2_G(0, 4, 8, 12, m[b2_sigma[r][0]], m[b2_sigma[r][1]]);      \
        B2_G(1, 5, 9, 13, m[b2_sigma[r][2]], m[b2_sigma[r][3]]);      \
        B2_G(2, 6, 10, 14, m[b2_sigma[r][4]], m[b2_sigma[r][5]]);     \
        B2_G(3, 7, 11, 15, m[b2_sigma[r][6]], m[b2_sigma[r][7]]);     \
        B2_G(0, 5, 10, 15, m[b2_sigma[r][8]], m[b2_sigma[r][9]]);     \
        B2_G(1, 6, 11, 12, m[b2_sigma[r][10]], m[b2_sigma[r][11]]);   \
        B2_G(2, 7, 8, 13, m[b2_sigma[r][12]], m[b2_sigma[r][13]]);    \
        B2_G(3, 4, 9, 14, m[b2_sigma[r][14]], m[b2_sigma[r][15]]);    \
    } while (0)
    /* the twelve rounds written out, so each message index is a constant */
    B2_ROUND(0);
    B2_ROUND(1);
    B2_ROUND(2);
    B2_ROUND(3);
    B2_ROUND(4);
    B2_ROUND(5);
    B2_ROUND(6);
    B2_ROUND(7);
    B2_ROUND(8);
    B2_ROUND(9);
    B2_ROUND(10);
    B2_ROUND(11);
#undef B2_ROUND
    for (i = 0; i < 8; i++)
        h[i] ^= v[i] ^ v[i + 8];
}

/* The BLAKE2b-128 digest of data, as 32 lower-case hex digits (a new str). */
static PyObject *b2_hex16(const unsigned char *data, Py_ssize_t n)
{
    static const char hex[] = "0123456789abcdef";
    uint64_t h[8];
    unsigned char block[128];
    uint64_t t = 0;
    PyObject *out;
    Py_UCS1 *w;
    int i;

    for (i = 0; i < 8; i++)
        h[i] = b2_iv[i];
    h[0] ^= 0x01010000ULL ^ 16; /* no key, 16-byte digest */
    while (n > 128) {
        t += 128;
        b2_compress(h, data, t, 0);
        data += 128;
        n -= 128;
    }
    memset(block, 0, sizeof block);
    memcpy(block, data, (size_t)n);
    t += (uint64_t)n;
    b2_compress(h, block, t, 1);

    out = PyUnicode_New(32, 127);
    if (out == NULL)
        return NULL;
    w = PyUnicode_1BYTE_DATA(out);
    for (i = 0; i < 16; i++) {
        unsigned char b = (unsigned char)(h[i / 8] >> (8 * (i % 8)));
        w[2 * i] = (Py_UCS1)hex[b >> 4];
        w[2 * i + 1] = (Py_UCS1)hex[b & 15];
    }
    return out;
}

/* ---- moves: moves.canonical, moves.digest_of, scan._fast_canonical -------------------- */

/* What canonical_into() does with a byte (the bits of `kind`). */
#define K_KEEP 1     /* kept (not in moves.DROP) */
#define K_DIGIT 2
#define K_DOT 4
#define K_DOLLAR 8
#define K_SPECIAL 16 /* one of scan._SPECIALS: b";{}()[%$" */
static unsigned char kind[256];

/* The index in `results` of the result without_result() last cut off, or -1 when the bytes
   it was given ended without one (moves.split_result). */
static int cut_result = -1;

/* The result at the end of canonical bytes cut off: their new length. */
static Py_ssize_t without_result(const char *canon, Py_ssize_t w)
{
    int idx;
    cut_result = -1;
    if (w > 0) {
        idx = result_by_last[(unsigned char)canon[w - 1]];
        if (idx >= 0) {
            PyObject *end = PyTuple_GET_ITEM(results, idx);
            Py_ssize_t k = PyBytes_GET_SIZE(end);
            if (k <= w && memcmp(canon + w - k, PyBytes_AS_STRING(end), (size_t)k) == 0) {
                w -= k;
                cut_result = idx;
            }
        }
    }
    return w;
}

/* Whether the result without_result() last cut off is the value of the Result tag of
   `tags` (-1 on error). Else the line machine reads the game (scan._Reader._groups): it
   says how the moves end (RawGame.moves_end). */
static int ends_as_tagged(PyObject *tags)
{
    PyObject *tag;
    if (cut_result < 0)
        return 0;
    tag = PyDict_GetItemWithError(tags, s_result);
    if (tag == NULL)
        return PyErr_Occurred() ? -1 : 0;
    return PyUnicode_Check(tag) &&
           PyUnicode_CompareWithASCIIString(
               tag, PyBytes_AS_STRING(PyTuple_GET_ITEM(results, cut_result))) == 0;
}

/* moves.canonical(src, final=True), written to dst (dst == src allowed: it never writes
   ahead of what it read). Returns the length; *specials gets the K_SPECIAL bit when a
   byte of scan._SPECIALS is in src.

   One pass: a NAG (`$` and digits) and black's move number (the digits just before two
   dots or more, and the dots) each count as a space, as `moves._NAG` and
   `moves._BLACK_NUMBER` replace them (in that order: a NAG's digits are never a move
   number's); the bytes of `moves.DROP` are dropped; then the result at the end. */
static Py_ssize_t canonical_into(const char *src, Py_ssize_t n, char *dst,
                                 unsigned char *specials)
{
    const unsigned char *s = (const unsigned char *)src;
    Py_ssize_t i, w = 0;
    Py_ssize_t mark = 0;  /* where in dst the digits just before s[i] start */
    Py_ssize_t pmark = 0; /* the same before s[i - 1] */
    unsigned char prevdot = 0; /* K_DOT when s[i - 1] is a `.` */
    unsigned char seen = 0;

    for (i = 0; i < n; i++) {
        unsigned char c = s[i], k = kind[c];
        seen |= k;
        /* the rare cases in one test: a `$`, or a `.` after a `.` */
        if (k & (K_DOLLAR | prevdot)) {
            if (c == '.') {
                /* the second dot: this run of dots and the digits before the first go */
                while (i + 1 < n && s[i + 1] == '.')
                    i++;
                w = pmark;
                dst[w] = ' ';
                w += keep_space;
                mark = w;
                prevdot = 0;
                continue;
            }
            if (i + 1 < n && (kind[s[i + 1]] & K_DIGIT)) {
                i++; /* a NAG: `$` and its digits */
                while (i + 1 < n && (kind[s[i + 1]] & K_DIGIT))
                    i++;
                dst[w] = ' ';
                w += keep_space;
                mark = w;
                prevdot = 0;
                continue;
            }
        }
        dst[w] = (char)c;
        pmark = mark;
        w += k & K_KEEP;
        mark = (k & K_DIGIT) ? mark : w;
        prevdot = k & K_DOT;
    }
    *specials = seen & K_SPECIAL;
    return without_result(dst, w);
}

/* Whether m holds no byte of scan._SPECIALS (b";{}()[%$") and no two dots in a row. */
static int plain_moves(const char *m, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    const unsigned char *s = (const unsigned char *)m;
    unsigned char seen = 0, pairs = 0, prev = 0;
#ifdef HAVE_SSE2
    const __m128i semi = _mm_set1_epi8(';'), lbrace = _mm_set1_epi8('{'),
                  rbrace = _mm_set1_epi8('}'), lparen = _mm_set1_epi8('('),
                  rparen = _mm_set1_epi8(')'), lbracket = _mm_set1_epi8('['),
                  percent = _mm_set1_epi8('%'), dollar = _mm_set1_epi8('$'),
                  dot = _mm_set1_epi8('.');
    for (; i + 17 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i y = _mm_loadu_si128((const __m128i *)(s + i + 1));
        __m128i hit = _mm_or_si128(
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, semi), _mm_cmpeq_epi8(x, lbrace)),
                         _mm_or_si128(_mm_cmpeq_epi8(x, rbrace), _mm_cmpeq_epi8(x, lparen))),
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, rparen), _mm_cmpeq_epi8(x, lbracket)),
                         _mm_or_si128(_mm_cmpeq_epi8(x, percent),
                                      _mm_cmpeq_epi8(x, dollar))));
        hit = _mm_or_si128(hit, _mm_and_si128(_mm_cmpeq_epi8(x, dot), _mm_cmpeq_epi8(y, dot)));
        if (_mm_movemask_epi8(hit))
            return 0;
    }
    if (i && s[i - 1] == '.')
        prev = K_DOT;
#endif
    for (; i < n; i++) {
        unsigned char k = kind[s[i]];
        seen |= k;
        pairs |= k & prev;
        prev = k;
    }
    return !(seen & K_SPECIAL) && !(pairs & K_DOT);
}

/* scan._fast_canonical(m) into dst (at least n bytes): the length, or -1 for None. */
static Py_ssize_t fast_canonical_into(const char *m, Py_ssize_t n, char *dst)
{
    const unsigned char *s = (const unsigned char *)m;
    Py_ssize_t i, w = 0, depth;
    unsigned char specials;

    /* The usual case: no byte of scan._SPECIALS, no two dots in a row (black's move
       number), so canonical() only drops the bytes of moves.DROP and the result. */
    if (!plain_moves(m, n)) {
        w = canonical_into(m, n, dst, &specials);
        if (!specials)
            return w;
        goto special;
    }
    for (i = 0; i + 8 <= n; i += 8) { /* each byte stored, the next one after it if kept */
        dst[w] = (char)s[i];
        w += keep[s[i]];
        dst[w] = (char)s[i + 1];
        w += keep[s[i + 1]];
        dst[w] = (char)s[i + 2];
        w += keep[s[i + 2]];
        dst[w] = (char)s[i + 3];
        w += keep[s[i + 3]];
        dst[w] = (char)s[i + 4];
        w += keep[s[i + 4]];
        dst[w] = (char)s[i + 5];
        w += keep[s[i + 5]];
        dst[w] = (char)s[i + 6];
        w += keep[s[i + 6]];
        dst[w] = (char)s[i + 7];
        w += keep[s[i + 7]];
    }
    for (; i < n; i++) {
        dst[w] = (char)s[i];
        w += keep[s[i]];
    }
    return without_result(dst, w);
special:
    if (memchr(m, ';', (size_t)n) != NULL)
        return -1;
    if (memchr(m, '{', (size_t)n) != NULL && last_of(m, n, '{') > last_of(m, n, '}'))
        return -1;
    /* comments `{...}` (to the next `}`) become one space; then no `[`, no `%` escape line */
    w = 0;
    for (i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (in_comments[c]) {
            if (c == '{') {
                const char *close = memchr(m + i + 1, '}', (size_t)(n - i - 1));
                i = close - m; /* there is one: the last `{` comes before the last `}` */
                dst[w++] = ' ';
                continue;
            }
            if (c == '[' || w == 0 || dst[w - 1] == '\n') /* `[`, or `%` starting a line */
                return -1;
        }
        dst[w++] = (char)c;
    }
    /* stray `}` and `)` become spaces, each outermost variation `(...)` one space */
    n = w;
    w = 0;
    depth = 0;
    for (i = 0; i < n; i++) {
        char c = dst[i];
        if (c == '(') {
            depth++;
        }
        else if (c == ')') {
            if (depth) {
                depth--;
                if (!depth)
                    dst[w++] = ' ';
            }
            else {
                dst[w++] = ' ';
            }
        }
        else if (!depth) {
            dst[w++] = c == '}' ? ' ' : c;
        }
    }
    if (depth)
        return -1;
    return canonical_into(dst, w, dst, &specials);
}

static int has_move(const char *canon, Py_ssize_t n)
{
    Py_ssize_t i;
    for (i = 0; i < n; i++)
        if (!numbering[(unsigned char)canon[i]])
            return 1;
    return 0;
}

/* moves.digest_of(canon): a new str. */
static PyObject *digest_of(const char *canon, Py_ssize_t n)
{
    if (n && has_move(canon, n))
        return b2_hex16((const unsigned char *)canon, n);
    Py_INCREF(empty_str);
    return empty_str;
}

/* ---- tags: scan._fast_tags ------------------------------------------------------------- */

/* Tag names seen, so the usual ones are made once. */
#define NAME_SLOTS 512
static PyObject *names[NAME_SLOTS];

static PyObject *name_of(const char *s, Py_ssize_t n)
{
    /* n >= 1; a slot by the length and three bytes (a collision only costs a new str) */
    unsigned int slot = ((unsigned int)n * 131u + (unsigned char)s[0] * 31u +
                         (unsigned char)s[n / 2] * 7u + (unsigned char)s[n - 1]) % NAME_SLOTS;
    PyObject *name = names[slot];
    if (name != NULL && PyUnicode_GET_LENGTH(name) == n &&
        memcmp(PyUnicode_1BYTE_DATA(name), s, (size_t)n) == 0) {
        Py_INCREF(name);
        return name;
    }
    name = PyUnicode_New(n, 127); /* names are ASCII */
    if (name == NULL)
        return NULL;
    memcpy(PyUnicode_1BYTE_DATA(name), s, (size_t)n);
    Py_XSETREF(names[slot], name);
    Py_INCREF(name);
    return name;
}

/* A tag value's bytes as str, unescaped when `\` is in them: a new str; NULL with no error
   set when they are not UTF-8 (*cr: a CR is in them, and NULL is returned). */
static PyObject *value_of(const char *s, Py_ssize_t n, int *cr)
{
    Py_ssize_t i;
    unsigned char seen = 0;
    PyObject *value;
    char *buf = NULL;

    for (i = 0; i < n; i++)
        seen |= value_kind[(unsigned char)s[i]];
    if (seen & V_CR) {
        *cr = 1;
        return NULL;
    }
    if (seen & V_ESCAPE) { /* \\ -> \ and \" -> ", left to right (decode.unescape) */
        Py_ssize_t w = 0;
        buf = PyMem_Malloc(n ? (size_t)n : 1);
        if (buf == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        for (i = 0; i < n; i++) {
            if (s[i] == '\\' && i + 1 < n && (s[i + 1] == '\\' || s[i + 1] == '"'))
                i++;
            buf[w++] = s[i];
        }
        s = buf;
        n = w;
    }
    if (!(seen & V_HIGH)) {
        value = PyUnicode_New(n, 127);
        if (value != NULL)
            memcpy(PyUnicode_1BYTE_DATA(value), s, (size_t)n);
    }
    else {
        value = PyUnicode_DecodeUTF8(s, n, NULL);
        if (value == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
            PyErr_Clear();
    }
    PyMem_Free(buf);
    return value;
}

/* The Python function's answer for the paragraph (a dict or None). */
static PyObject *tags_in_python(const char *h, Py_ssize_t n)
{
    PyObject *para = PyBytes_FromStringAndSize(h, n), *tags;
    if (para == NULL)
        return NULL;
    tags = PyObject_CallOneArg(tags_fallback, para);
    Py_DECREF(para);
    if (tags != NULL && tags != Py_None && !PyDict_CheckExact(tags)) {
        Py_DECREF(tags);
        PyErr_SetString(PyExc_TypeError, "the tags fallback must return a dict or None");
        return NULL;
    }
    return tags;
}

/* scan._fast_tags(h): a new dict, Py_None (new reference) or NULL on error.

   Each line must be `[`, a letter or digit, \w*, one space, `"`, the value, `"]` (the
   regular expression scan._FAST_TAG), no name twice, no CR, at most max_tags lines, no value
   longer than max_value characters. A paragraph not valid UTF-8 is read by the Python
   function (line by line, `decode.decode_text`). */
static PyObject *fast_tags(const char *h, Py_ssize_t n)
{
    Py_ssize_t at = 0, lines = 0;
    PyObject *tags;

    tags = PyDict_New();
    if (tags == NULL)
        return NULL;
    while (at <= n) {
        const char *line = h + at;
        const char *nl = memchr(line, '\n', (size_t)(n - at));
        Py_ssize_t len = nl ? nl - line : n - at, p = 2;
        PyObject *name, *value;
        int cr = 0;

        if (++lines > max_tags)
            goto none;
        if (len < 6 || line[0] != '[' || !is_alnum[(unsigned char)line[1]])
            goto none;
        while (p < len && is_word[(unsigned char)line[p]])
            p++;
        if (p + 4 > len || line[p] != ' ' || line[p + 1] != '"' || line[len - 1] != ']' ||
            line[len - 2] != '"')
            goto none;
        value = value_of(line + p + 2, len - 2 - (p + 2), &cr);
        if (value == NULL) {
            if (cr)
                goto none;
            if (PyErr_Occurred())
                goto error;
            /* not UTF-8: the paragraph is decoded line by line, in Python */
            Py_DECREF(tags);
            return tags_in_python(h, n);
        }
        if (PyUnicode_GET_LENGTH(value) > max_value) {
            Py_DECREF(value);
            goto none;
        }
        name = name_of(line + 1, p - 1);
        if (name == NULL) {
            Py_DECREF(value);
            goto error;
        }
        if (PyDict_SetItem(tags, name, value) < 0) {
            Py_DECREF(name);
            Py_DECREF(value);
            goto error;
        }
        Py_DECREF(name);
        Py_DECREF(value);
        if (PyDict_GET_SIZE(tags) != lines)
            goto none; /* a name given twice */
        at += len + 1;
    }
    return tags;
none:
    Py_DECREF(tags);
    Py_RETURN_NONE;
error:
    Py_DECREF(tags);
    return NULL;
}

/* ---- games: scan._Reader.groups -------------------------------------------------------- */

static PyObject *make_game(PyObject *tags, PyObject *digest, Py_ssize_t line)
{
    PyObject *game, *lineno;
    game = PyBaseObject_Type.tp_new((PyTypeObject *)RawGame, empty_tuple, NULL);
    if (game == NULL)
        return NULL;
    lineno = PyLong_FromSsize_t(line);
    /* object.__setattr__, in the order of the fields, as the frozen dataclass's __init__ */
    if (lineno == NULL || PyObject_GenericSetAttr(game, s_tags, tags) < 0 ||
        PyObject_GenericSetAttr(game, s_moves_digest, digest) < 0 ||
        PyObject_GenericSetAttr(game, s_has_moves,
                                PyUnicode_GET_LENGTH(digest) ? Py_True : Py_False) < 0 ||
        PyObject_GenericSetAttr(game, s_line, lineno) < 0 ||
        PyObject_GenericSetAttr(game, s_problems, empty_tuple) < 0 ||
        PyObject_GenericSetAttr(game, s_moves_end, Py_None) < 0) {
        Py_XDECREF(lineno);
        Py_DECREF(game);
        return NULL;
    }
    Py_DECREF(lineno);
    return game;
}

typedef struct {
    Py_ssize_t start, len, lines; /* lines: the newlines in it */
} para_t;

/* scan._is_start: `\n*\[[A-Za-z0-9]` at the start of the paragraph */
static int is_start(const char *p, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    while (i < n && p[i] == '\n')
        i++;
    return i + 1 < n && p[i] == '[' && is_alnum[(unsigned char)p[i + 1]];
}

/* scan._ends_in_moves: the last line is neither empty nor starts with `[`, `%` or `;` */
static int ends_in_moves(const char *p, Py_ssize_t n)
{
    Py_ssize_t at = last_of(p, n, '\n') + 1;
    char c;
    if (at >= n)
        return 0;
    c = p[at];
    return c != '[' && c != '%' && c != ';';
}

static int add_item(PyObject *items, PyObject *item)
{
    int failed;
    if (item == NULL)
        return -1;
    failed = PyList_Append(items, item);
    Py_DECREF(item);
    return failed;
}

/* The paragraphs of buf: buf.split(b"\n\n"), as (start, length, newlines in it). */
typedef struct {
    para_t *paras;
    Py_ssize_t n, cap;
    Py_ssize_t start, count, prev; /* the paragraph being read, its newlines so far, and
                                      the last newline not yet in a separator (or -2) */
} splitter;

static int split_newline(splitter *sp, Py_ssize_t at)
{
    if (sp->prev == at - 1) { /* "\n\n": the paragraph ends before the first */
        if (sp->n == sp->cap) {
            para_t *grown = PyMem_Realloc(sp->paras, sizeof(para_t) * (size_t)sp->cap * 2);
            if (grown == NULL)
                return -1;
            sp->paras = grown;
            sp->cap *= 2;
        }
        sp->paras[sp->n].start = sp->start;
        sp->paras[sp->n].len = at - 1 - sp->start;
        sp->paras[sp->n].lines = sp->count - 1;
        sp->n++;
        sp->start = at + 1;
        sp->count = 0;
        sp->prev = -2;
    }
    else {
        sp->count++;
        sp->prev = at;
    }
    return 0;
}

static para_t *paragraphs(const char *buf, Py_ssize_t size, Py_ssize_t *count, int *nul)
{
    splitter sp;
    Py_ssize_t i = 0;
    int zero = 0;

    sp.cap = 256;
    sp.n = 0;
    sp.start = 0;
    sp.count = 0;
    sp.prev = -2;
    sp.paras = PyMem_Malloc(sizeof(para_t) * (size_t)sp.cap);
    if (sp.paras == NULL)
        goto nomemory;
#ifdef HAVE_SSE2
    {
        const __m128i nl = _mm_set1_epi8('\n'), nothing = _mm_setzero_si128();
        __m128i zeros = _mm_setzero_si128();
        for (; i + 16 <= size; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(buf + i));
            unsigned int bits = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(x, nl));
            zeros = _mm_or_si128(zeros, _mm_cmpeq_epi8(x, nothing));
            while (bits) {
                int bit = 0;
                while (!(bits & (1u << bit)))
                    bit++;
                bits &= bits - 1;
                if (split_newline(&sp, i + bit) < 0)
                    goto nomemory;
            }
        }
        zero = _mm_movemask_epi8(zeros) != 0;
    }
#endif
    for (; i < size; i++) {
        if (buf[i] == '\n' && split_newline(&sp, i) < 0)
            goto nomemory;
        zero |= buf[i] == 0;
    }
    *nul = zero;
    if (sp.n == sp.cap) {
        para_t *grown = PyMem_Realloc(sp.paras, sizeof(para_t) * (size_t)(sp.cap + 1));
        if (grown == NULL)
            goto nomemory;
        sp.paras = grown;
    }
    sp.paras[sp.n].start = sp.start;
    sp.paras[sp.n].len = size - sp.start;
    sp.paras[sp.n].lines = sp.count;
    *count = sp.n + 1;
    return sp.paras;
nomemory:
    PyMem_Free(sp.paras);
    PyErr_NoMemory();
    return NULL;
}

/* groups(buf, base_line, final) -> (games, slow, open_group), or None when a NUL byte is
   in `buf` (the Python code reads it then)

   `scan._Reader.groups` when no line was cut: the games read here, in order; for each
   group the line machine reads, (index, start, end, line): before games[index], the games
   of buf[start:end], its first line numbered `line`; open_group is (offset, line) of the
   group left open at the end (unless `final`), or None. */
static PyObject *sp_groups(PyObject *mod, PyObject *args)
{
    PyObject *bufobj, *items = NULL, *slow = NULL, *open_group = NULL;
    Py_ssize_t base_line, size, n, i = 0, off = 0, line, last;
    int final, nul;
    const char *buf;
    para_t *paras;

    if (!PyArg_ParseTuple(args, "O!np:groups", &PyBytes_Type, &bufobj, &base_line, &final))
        return NULL;
    if (!configured())
        return NULL;
    buf = PyBytes_AS_STRING(bufobj);
    size = PyBytes_GET_SIZE(bufobj);
    paras = paragraphs(buf, size, &n, &nul);
    if (paras == NULL)
        return NULL;
    if (nul) {
        PyMem_Free(paras);
        Py_RETURN_NONE;
    }
    items = PyList_New(0);
    slow = PyList_New(0);
    if (items == NULL || slow == NULL)
        goto error;
    line = base_line;
    last = final ? n - 1 : n - 2; /* a fast pair (i, i + 1) needs i < last */

    while (i < n) {
        const char *h = buf + paras[i].start;
        Py_ssize_t hl = paras[i].len, k = 0, end, j;
        int moves;

        while (k < hl && h[k] == '\n') /* more blank lines */
            k++;
        h += k;
        hl -= k;
        off += k;
        line += k;
        if (!hl) {
            off += 2;
            line += 2;
            i++;
            continue;
        }
        if (i < last) {
            /* The usual case: a header paragraph, a movetext paragraph, then a game. */
            const char *raw_m = buf + paras[i + 1].start, *m = raw_m;
            Py_ssize_t raw_ml = paras[i + 1].len, ml = raw_ml;
            while (ml && *m == '\n') { /* two blank lines after the header: still one game */
                m++;
                ml--;
            }
            if (h[0] == '[' && ml && *m != '[' && *m != '%' && *m != ';' && *m != '\n' &&
                (i + 2 == n || is_start(buf + paras[i + 2].start, paras[i + 2].len)) &&
                hl > 1 && is_alnum[(unsigned char)h[1]]) {
                PyObject *tags = fast_tags(h, hl);
                if (tags == NULL)
                    goto error;
                if (tags != Py_None) {
                    char *dst = scratch_for(ml);
                    Py_ssize_t cl;
                    if (dst == NULL) {
                        Py_DECREF(tags);
                        goto error;
                    }
                    cl = fast_canonical_into(m, ml, dst);
                    if (cl >= 0) {
                        int agrees = ends_as_tagged(tags);
                        if (agrees < 0) {
                            Py_DECREF(tags);
                            goto error;
                        }
                        if (!agrees)
                            cl = -1; /* the line machine says how the moves end */
                    }
                    if (cl >= 0) {
                        PyObject *digest = digest_of(dst, cl), *game;
                        if (digest == NULL) {
                            Py_DECREF(tags);
                            goto error;
                        }
                        game = make_game(tags, digest, line);
                        Py_DECREF(digest);
                        Py_DECREF(tags);
                        if (add_item(items, game) < 0)
                            goto error;
                        off += hl + raw_ml + 4;
                        line += paras[i].lines - k + paras[i + 1].lines + 4;
                        i += 2;
                        continue;
                    }
                }
                Py_DECREF(tags);
            }
        }
        /* Anything else: the group runs to the next paragraph that starts a game after a
           paragraph ending in a movetext line; the line machine reads it, with the blank
           lines before that paragraph (as scan._Reader._groups does). */
        moves = ends_in_moves(h, hl);
        end = off + hl + 2;
        for (j = i + 1; j < n; j++) {
            const char *p = buf + paras[j].start;
            Py_ssize_t pl = paras[j].len;
            while (pl && *p == '\n') {
                p++;
                pl--;
            }
            if (pl) {
                if (moves && is_start(p, pl)) {
                    Py_ssize_t blanks = paras[j].len - pl;
                    end += blanks;
                    paras[j].start += blanks;
                    paras[j].len = pl;
                    paras[j].lines -= blanks;
                    break;
                }
                moves = ends_in_moves(p, pl);
            }
            end += paras[j].len + 2;
        }
        if (j == n && !final) {
            open_group = Py_BuildValue("(nn)", off, line);
            if (open_group == NULL)
                goto error;
            break;
        }
        if (end > size)
            end = size;
        if (add_item(slow, Py_BuildValue("(nnnn)", PyList_GET_SIZE(items), off, end, line)) < 0)
            goto error;
        line += count_nl(buf + off, end - off);
        off = end;
        i = j;
        continue;
    }
    PyMem_Free(paras);
    if (open_group == NULL) {
        open_group = Py_None;
        Py_INCREF(open_group);
    }
    return Py_BuildValue("(NNN)", items, slow, open_group);
error:
    PyMem_Free(paras);
    Py_XDECREF(items);
    Py_XDECREF(slow);
    return NULL;
}

/* ---- the bytes: scan._normalize, stream.blocks, stream.LineCount ------------------------ */

/* normalize(data): `data` with whitespace-only lines emptied (scan._normalize after
   drop_boms), `data` itself when there is none. */
static PyObject *sp_normalize(PyObject *mod, PyObject *arg)
{
    const char *s, *end, *p;
    Py_ssize_t n, w = 0;
    int found;
    char *out;
    PyObject *result;

    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "normalize() takes bytes");
        return NULL;
    }
    s = PyBytes_AS_STRING(arg);
    n = PyBytes_GET_SIZE(arg);
    end = s + n;
    found = n > 0 && is_ws[(unsigned char)s[0]];
    for (p = memchr(s, '\n', (size_t)n); p != NULL && !found;
         p = memchr(p + 1, '\n', (size_t)(end - p - 1))) {
        const char *q = p + 1;
        while (q < end && is_ws[(unsigned char)*q])
            q++;
        found = q > p + 1 && q < end && *q == '\n';
        if (q >= end)
            break;
    }
    if (!found) {
        Py_INCREF(arg);
        return arg;
    }
    out = PyMem_Malloc(n ? (size_t)n : 1);
    if (out == NULL)
        return PyErr_NoMemory();
    p = s;
    while (p < end) { /* one line (and its newline) at a time: `^[ \t\r\v\f]+$` removed */
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end, *q = p;
        while (q < stop && is_ws[(unsigned char)*q])
            q++;
        if (q < stop || q == p) {
            memcpy(out + w, p, (size_t)(stop - p));
            w += stop - p;
        }
        if (nl == NULL)
            break;
        out[w++] = '\n';
        p = nl + 1;
    }
    result = PyBytes_FromStringAndSize(out, w);
    PyMem_Free(out);
    return result;
}

/* to_lf(block): each line end of `block` one LF, as `stream.blocks` converts them: CR LF,
   CR CR LF... (CRs then LF) one LF, a CR alone one LF. `block` itself when it has no CR. */
static PyObject *sp_to_lf(PyObject *mod, PyObject *arg)
{
    const char *s, *end, *p;
    Py_ssize_t n, w = 0;
    PyObject *result;
    char *out;

    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "to_lf() takes bytes");
        return NULL;
    }
    s = PyBytes_AS_STRING(arg);
    n = PyBytes_GET_SIZE(arg);
    end = s + n;
    p = memchr(s, '\r', (size_t)n);
    if (p == NULL) {
        Py_INCREF(arg);
        return arg;
    }
    result = PyBytes_FromStringAndSize(NULL, n);
    if (result == NULL)
        return NULL;
    out = PyBytes_AS_STRING(result);
    memcpy(out, s, (size_t)(p - s));
    w = p - s;
    while (p < end) {
        const char *q = p, *next;
        while (q < end && *q == '\r')
            q++;
        if (q < end && *q == '\n') {
            out[w++] = '\n';
            q++;
        }
        else {
            memset(out + w, '\n', (size_t)(q - p));
            w += q - p;
        }
        next = q < end ? memchr(q, '\r', (size_t)(end - q)) : NULL;
        if (next == NULL)
            next = end;
        memcpy(out + w, q, (size_t)(next - q));
        w += next - q;
        p = next;
    }
    if (w == n)
        return result;
    {
        PyObject *cut = PyBytes_FromStringAndSize(out, w);
        Py_DECREF(result);
        return cut;
    }
}

/* line_ends(data, held) -> (ends, held): the line ends `stream.LineCount.feed` counts in
   `data` after `held` CRs, and the CRs `data` ends in (one line end each unless an LF
   follows). */
#define LINE_END_STEP(byte)                  \
    do {                                     \
        char c_ = (byte);                    \
        if (c_ == '\r') {                    \
            run++;                           \
        }                                    \
        else {                               \
            ends += c_ == '\n' ? 1 : run;    \
            run = 0;                         \
        }                                    \
    } while (0)

static PyObject *sp_line_ends(PyObject *mod, PyObject *args)
{
    PyObject *data;
    Py_ssize_t run, ends = 0, n, i;
    const char *s;

    if (!PyArg_ParseTuple(args, "O!n:line_ends", &PyBytes_Type, &data, &run))
        return NULL;
    if (run < 0) {
        PyErr_SetString(PyExc_ValueError, "line_ends(): held must be >= 0");
        return NULL;
    }
    s = PyBytes_AS_STRING(data);
    n = PyBytes_GET_SIZE(data);
    if (memchr(s, '\r', (size_t)n) == NULL) {
        ends = count_nl(s, n);
        if (n) {
            if (s[0] != '\n')
                ends += run; /* the CRs held were not followed by an LF */
            run = 0;
        }
        return Py_BuildValue("(nn)", ends, run);
    }
    i = 0;
#ifdef HAVE_SSE2
    {
        const __m128i cr = _mm_set1_epi8('\r'), lf = _mm_set1_epi8('\n');
        Py_ssize_t k;
        for (; i + 16 <= n; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
            unsigned int crs = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(x, cr));
            if (!crs && !run) { /* no CR in these 16 bytes, none held: their LFs */
                unsigned int lfs = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(x, lf));
                while (lfs) {
                    lfs &= lfs - 1;
                    ends++;
                }
                continue;
            }
            for (k = i; k < i + 16; k++) /* a CR among them, or CRs held: one by one */
                LINE_END_STEP(s[k]);
        }
    }
#endif
    for (; i < n; i++)
        LINE_END_STEP(s[i]);
    return Py_BuildValue("(nn)", ends, run);
}

/* count_lf(data): data.count(b"\n") */
static PyObject *sp_count_lf(PyObject *mod, PyObject *arg)
{
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "count_lf() takes bytes");
        return NULL;
    }
    return PyLong_FromSsize_t(count_nl(PyBytes_AS_STRING(arg), PyBytes_GET_SIZE(arg)));
}

/* ---- the single pieces, for the tests ---------------------------------------------------- */

static PyObject *sp_fast_tags(PyObject *mod, PyObject *arg)
{
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "fast_tags() takes bytes");
        return NULL;
    }
    if (!configured())
        return NULL;
    return fast_tags(PyBytes_AS_STRING(arg), PyBytes_GET_SIZE(arg));
}

static PyObject *sp_fast_canonical(PyObject *mod, PyObject *arg)
{
    Py_ssize_t n, cl;
    char *dst;
    PyObject *result;
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "fast_canonical() takes bytes");
        return NULL;
    }
    if (!configured())
        return NULL;
    n = PyBytes_GET_SIZE(arg);
    dst = PyMem_Malloc(n ? (size_t)n : 1);
    if (dst == NULL)
        return PyErr_NoMemory();
    cl = fast_canonical_into(PyBytes_AS_STRING(arg), n, dst);
    result = cl < 0 ? Py_NewRef(Py_None) : PyBytes_FromStringAndSize(dst, cl);
    PyMem_Free(dst);
    return result;
}

static PyObject *sp_canonical(PyObject *mod, PyObject *arg)
{
    Py_ssize_t n;
    char *dst;
    PyObject *result;
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "canonical() takes bytes");
        return NULL;
    }
    if (!configured())
        return NULL;
    n = PyBytes_GET_SIZE(arg);
    dst = PyMem_Malloc(n ? (size_t)n : 1);
    if (dst == NULL)
        return PyErr_NoMemory();
    {
        unsigned char specials;
        Py_ssize_t cl = canonical_into(PyBytes_AS_STRING(arg), n, dst, &specials);
        result = PyBytes_FromStringAndSize(dst, cl);
    }
    PyMem_Free(dst);
    return result;
}

static PyObject *sp_digest(PyObject *mod, PyObject *arg)
{
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "digest() takes bytes");
        return NULL;
    }
    if (!configured())
        return NULL;
    return digest_of(PyBytes_AS_STRING(arg), PyBytes_GET_SIZE(arg));
}

static PyObject *sp_blake2b_hex(PyObject *mod, PyObject *arg)
{
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "blake2b_hex() takes bytes");
        return NULL;
    }
    return b2_hex16((const unsigned char *)PyBytes_AS_STRING(arg), PyBytes_GET_SIZE(arg));
}

/* ---- configure ---------------------------------------------------------------------------- */

/* configure(RawGame, fast_tags, max_tags, max_value, results, drop, numbering) */
static PyObject *sp_configure(PyObject *mod, PyObject *args)
{
    PyObject *cls, *fallback, *ends, *drop_bytes, *number_bytes;
    Py_ssize_t tags_cap, value_cap, i;
    const char *p;

    if (!PyArg_ParseTuple(args, "O!OnnO!O!O!:configure", &PyType_Type, &cls, &fallback,
                          &tags_cap, &value_cap, &PyTuple_Type, &ends, &PyBytes_Type,
                          &drop_bytes, &PyBytes_Type, &number_bytes))
        return NULL;
    /* make_game() makes instances with object.__new__ and fills in their attributes */
    if (((PyTypeObject *)cls)->tp_new != PyBaseObject_Type.tp_new) {
        PyErr_SetString(PyExc_TypeError, "configure(): RawGame must be made by object.__new__");
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "configure(): fast_tags must be callable");
        return NULL;
    }
    /* canonical_into() relies on these: digits, dots and `$` are never dropped */
    for (p = "0123456789.$"; *p; p++) {
        if (memchr(PyBytes_AS_STRING(drop_bytes), *p, (size_t)PyBytes_GET_SIZE(drop_bytes))) {
            PyErr_SetString(PyExc_ValueError, "configure(): drop holds a digit, `.` or `$`");
            return NULL;
        }
    }
    /* every argument checked before anything is changed: result_by_last indexes the
       results tuple in use, so a call that fails leaves both as they were */
    for (i = 0; i < PyTuple_GET_SIZE(ends); i++) {
        PyObject *end = PyTuple_GET_ITEM(ends, i);
        if (!PyBytes_Check(end) || PyBytes_GET_SIZE(end) == 0) {
            PyErr_SetString(PyExc_ValueError, "configure(): results must be non-empty bytes");
            return NULL;
        }
    }
    for (i = 0; i < 256; i++)
        result_by_last[i] = -1;
    for (i = 0; i < PyTuple_GET_SIZE(ends); i++) {
        PyObject *end = PyTuple_GET_ITEM(ends, i);
        /* the last result with a given last byte, as a dict built from them keeps */
        result_by_last[(unsigned char)PyBytes_AS_STRING(end)[PyBytes_GET_SIZE(end) - 1]] =
            (int)i;
    }
    memset(keep, 1, sizeof keep);
    for (i = 0; i < PyBytes_GET_SIZE(drop_bytes); i++)
        keep[(unsigned char)PyBytes_AS_STRING(drop_bytes)[i]] = 0;
    keep_space = keep[' '];
    for (i = 0; i < 256; i++)
        kind[i] = (unsigned char)((keep[i] ? K_KEEP : 0) | (is_digit[i] ? K_DIGIT : 0) |
                                  (i == '.' ? K_DOT : 0) | (i == '$' ? K_DOLLAR : 0) |
                                  (is_special[i] ? K_SPECIAL : 0));
    memset(numbering, 0, sizeof numbering);
    for (i = 0; i < PyBytes_GET_SIZE(number_bytes); i++)
        numbering[(unsigned char)PyBytes_AS_STRING(number_bytes)[i]] = 1;
    max_tags = tags_cap;
    max_value = value_cap;
    Py_INCREF(cls);
    Py_XSETREF(RawGame, cls);
    Py_INCREF(fallback);
    Py_XSETREF(tags_fallback, fallback);
    Py_INCREF(ends);
    Py_XSETREF(results, ends);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", sp_configure, METH_VARARGS, "Give the rules' constants and RawGame."},
    {"groups", sp_groups, METH_VARARGS, "scan._Reader.groups's fast part."},
    {"normalize", sp_normalize, METH_O, "Whitespace-only lines emptied."},
    {"to_lf", sp_to_lf, METH_O, "Line ends as one LF each."},
    {"line_ends", sp_line_ends, METH_VARARGS, "Line ends counted as LineCount does."},
    {"count_lf", sp_count_lf, METH_O, "data.count(b'\\n')."},
    {"fast_tags", sp_fast_tags, METH_O, "scan._fast_tags."},
    {"fast_canonical", sp_fast_canonical, METH_O, "scan._fast_canonical."},
    {"canonical", sp_canonical, METH_O, "moves.canonical (final)."},
    {"digest", sp_digest, METH_O, "moves.digest_of."},
    {"blake2b_hex", sp_blake2b_hex, METH_O, "BLAKE2b, 16 bytes, as hex."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_speedups", "The per-game work of tracker.pgn.scan in C.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    PyObject *mod;
    init_tables();
    s_tags = PyUnicode_InternFromString("tags");
    s_moves_digest = PyUnicode_InternFromString("moves_digest");
    s_has_moves = PyUnicode_InternFromString("has_moves");
    s_line = PyUnicode_InternFromString("line");
    s_problems = PyUnicode_InternFromString("problems");
    s_moves_end = PyUnicode_InternFromString("moves_end");
    s_result = PyUnicode_InternFromString("Result");
    empty_tuple = PyTuple_New(0);
    empty_str = PyUnicode_New(0, 0);
    if (!s_tags || !s_moves_digest || !s_has_moves || !s_line || !s_problems || !s_moves_end ||
        !s_result || !empty_tuple || !empty_str)
        return NULL;
    mod = PyModule_Create(&module);
    if (mod == NULL)
        return NULL;
    if (PyModule_AddIntConstant(mod, "VERSION", VERSION) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
