/* The games rows of a batch bound and stored through SQLite's C API (issue 18).

   `insert(connection, sql, rows, games=None, fixed=(), picks=())` prepares `sql` (one
   INSERT) on the database handle of `connection` (a `sqlite3.Connection`, or a subclass)
   and, for each row, binds its values with sqlite3_bind_*, steps and resets the one
   prepared statement; it returns the rows inserted (sqlite3_changes summed, what
   `executemany(sql, rows).rowcount` gives). A row's values are `rows[i]`, then `fixed`,
   then `games[i][p]` for each `p` of `picks` (so that the writer need not build the
   concatenated tuple: tracker.store.games). The statement is finalized on every path; the
   transaction is the caller's (left as it is, also after an error: the caller rolls back).

   Values are bound as Python's sqlite3 binds them: None as NULL, an int (a bool as 0 or 1)
   as a 64-bit integer (OverflowError beyond), a float as a double, a str as its UTF-8 (a
   lone surrogate raises UnicodeEncodeError), bytes and other buffers as a blob; any other
   type raises sqlite3.ProgrammingError, as sqlite3 does for a type it has no adapter for.
   An SQLite error raises the exception class sqlite3 raises for its code (IntegrityError
   for a constraint, OperationalError for "database is locked", ...), with sqlite3's
   message and its `sqlite_errorcode` and `sqlite_errorname`. Signals are looked at every
   `SIGNAL_EVERY` rows (Ctrl-C stops a long batch).

   CPython has no public API for the handle: `pysqlite_Connection` starts with
   `PyObject_HEAD; sqlite3 *db;` in the versions checked (Modules/_sqlite/connection.h of
   3.11.2 and 3.13.5; `LAYOUT` is 0 when built for any other version, or for a
   free-threaded build, and `insert` then refuses). A closed connection has a NULL handle.

   The module must call the same SQLite library as Python's `_sqlite3` (a second copy
   working on one handle corrupts memory): at import it looks up, through
   `dlopen(_sqlite3.__file__, RTLD_NOLOAD)`, every sqlite3_* function it calls and compares
   each address with the one it was linked to. `LINKED` says whether they all matched
   (`WHY` what did not); `insert` refuses when they did not. tracker/store/native.py decides
   whether it is used. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <sqlite3.h>
#include <string.h>
#ifndef _WIN32
#include <dlfcn.h>
#endif

#define VERSION 1
#define SIGNAL_EVERY 256 /* rows between two looks at the signals */

#if !defined(Py_GIL_DISABLED) && \
    ((PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000) || \
     (PY_VERSION_HEX >= 0x030D0000 && PY_VERSION_HEX < 0x030E0000))
#define LAYOUT 1
#else
#define LAYOUT 0
#endif

/* The start of CPython's pysqlite_Connection (Modules/_sqlite/connection.h). */
typedef struct {
    PyObject_HEAD
    sqlite3 *db;
} connection_head;

static PyObject *connection_type = NULL; /* sqlite3.Connection */
static PyObject *e_programming, *e_operational, *e_integrity, *e_database, *e_internal,
    *e_data, *e_interface;
static int linked = 0;
static char why[256] = "";

/* Every sqlite3_* function this module calls (checked against Python's copy). */
#define FUNCTIONS(X) \
    X(sqlite3_libversion) X(sqlite3_threadsafe) X(sqlite3_prepare_v2) \
    X(sqlite3_bind_parameter_count) X(sqlite3_bind_null) X(sqlite3_bind_int64) \
    X(sqlite3_bind_double) X(sqlite3_bind_text) X(sqlite3_bind_blob) X(sqlite3_step) \
    X(sqlite3_reset) X(sqlite3_finalize) X(sqlite3_changes) X(sqlite3_errcode) \
    X(sqlite3_extended_errcode) X(sqlite3_errmsg) X(sqlite3_get_autocommit) \
    X(sqlite3_stmt_readonly)

/* The names sqlite3 gives the result codes (`sqlite_errorname`): those of sqlite3.h. */
static const struct {
    int code;
    const char *name;
} error_names[] = {
#ifdef SQLITE_ERROR
    {SQLITE_ERROR, "SQLITE_ERROR"},
#endif
#ifdef SQLITE_INTERNAL
    {SQLITE_INTERNAL, "SQLITE_INTERNAL"},
#endif
#ifdef SQLITE_PERM
    {SQLITE_PERM, "SQLITE_PERM"},
#endif
#ifdef SQLITE_ABORT
    {SQLITE_ABORT, "SQLITE_ABORT"},
#endif
#ifdef SQLITE_BUSY
    {SQLITE_BUSY, "SQLITE_BUSY"},
#endif
#ifdef SQLITE_LOCKED
    {SQLITE_LOCKED, "SQLITE_LOCKED"},
#endif
#ifdef SQLITE_NOMEM
    {SQLITE_NOMEM, "SQLITE_NOMEM"},
#endif
#ifdef SQLITE_READONLY
    {SQLITE_READONLY, "SQLITE_READONLY"},
#endif
#ifdef SQLITE_INTERRUPT
    {SQLITE_INTERRUPT, "SQLITE_INTERRUPT"},
#endif
#ifdef SQLITE_IOERR
    {SQLITE_IOERR, "SQLITE_IOERR"},
#endif
#ifdef SQLITE_CORRUPT
    {SQLITE_CORRUPT, "SQLITE_CORRUPT"},
#endif
#ifdef SQLITE_NOTFOUND
    {SQLITE_NOTFOUND, "SQLITE_NOTFOUND"},
#endif
#ifdef SQLITE_FULL
    {SQLITE_FULL, "SQLITE_FULL"},
#endif
#ifdef SQLITE_CANTOPEN
    {SQLITE_CANTOPEN, "SQLITE_CANTOPEN"},
#endif
#ifdef SQLITE_PROTOCOL
    {SQLITE_PROTOCOL, "SQLITE_PROTOCOL"},
#endif
#ifdef SQLITE_EMPTY
    {SQLITE_EMPTY, "SQLITE_EMPTY"},
#endif
#ifdef SQLITE_SCHEMA
    {SQLITE_SCHEMA, "SQLITE_SCHEMA"},
#endif
#ifdef SQLITE_TOOBIG
    {SQLITE_TOOBIG, "SQLITE_TOOBIG"},
#endif
#ifdef SQLITE_CONSTRAINT
    {SQLITE_CONSTRAINT, "SQLITE_CONSTRAINT"},
#endif
#ifdef SQLITE_MISMATCH
    {SQLITE_MISMATCH, "SQLITE_MISMATCH"},
#endif
#ifdef SQLITE_MISUSE
    {SQLITE_MISUSE, "SQLITE_MISUSE"},
#endif
#ifdef SQLITE_NOLFS
    {SQLITE_NOLFS, "SQLITE_NOLFS"},
#endif
#ifdef SQLITE_AUTH
    {SQLITE_AUTH, "SQLITE_AUTH"},
#endif
#ifdef SQLITE_FORMAT
    {SQLITE_FORMAT, "SQLITE_FORMAT"},
#endif
#ifdef SQLITE_RANGE
    {SQLITE_RANGE, "SQLITE_RANGE"},
#endif
#ifdef SQLITE_NOTADB
    {SQLITE_NOTADB, "SQLITE_NOTADB"},
#endif
#ifdef SQLITE_NOTICE
    {SQLITE_NOTICE, "SQLITE_NOTICE"},
#endif
#ifdef SQLITE_WARNING
    {SQLITE_WARNING, "SQLITE_WARNING"},
#endif
#ifdef SQLITE_ROW
    {SQLITE_ROW, "SQLITE_ROW"},
#endif
#ifdef SQLITE_DONE
    {SQLITE_DONE, "SQLITE_DONE"},
#endif
#ifdef SQLITE_ERROR_MISSING_COLLSEQ
    {SQLITE_ERROR_MISSING_COLLSEQ, "SQLITE_ERROR_MISSING_COLLSEQ"},
#endif
#ifdef SQLITE_ERROR_RETRY
    {SQLITE_ERROR_RETRY, "SQLITE_ERROR_RETRY"},
#endif
#ifdef SQLITE_ERROR_SNAPSHOT
    {SQLITE_ERROR_SNAPSHOT, "SQLITE_ERROR_SNAPSHOT"},
#endif
#ifdef SQLITE_IOERR_READ
    {SQLITE_IOERR_READ, "SQLITE_IOERR_READ"},
#endif
#ifdef SQLITE_IOERR_SHORT_READ
    {SQLITE_IOERR_SHORT_READ, "SQLITE_IOERR_SHORT_READ"},
#endif
#ifdef SQLITE_IOERR_WRITE
    {SQLITE_IOERR_WRITE, "SQLITE_IOERR_WRITE"},
#endif
#ifdef SQLITE_IOERR_FSYNC
    {SQLITE_IOERR_FSYNC, "SQLITE_IOERR_FSYNC"},
#endif
#ifdef SQLITE_IOERR_DIR_FSYNC
    {SQLITE_IOERR_DIR_FSYNC, "SQLITE_IOERR_DIR_FSYNC"},
#endif
#ifdef SQLITE_IOERR_TRUNCATE
    {SQLITE_IOERR_TRUNCATE, "SQLITE_IOERR_TRUNCATE"},
#endif
#ifdef SQLITE_IOERR_FSTAT
    {SQLITE_IOERR_FSTAT, "SQLITE_IOERR_FSTAT"},
#endif
#ifdef SQLITE_IOERR_UNLOCK
    {SQLITE_IOERR_UNLOCK, "SQLITE_IOERR_UNLOCK"},
#endif
#ifdef SQLITE_IOERR_RDLOCK
    {SQLITE_IOERR_RDLOCK, "SQLITE_IOERR_RDLOCK"},
#endif
#ifdef SQLITE_IOERR_DELETE
    {SQLITE_IOERR_DELETE, "SQLITE_IOERR_DELETE"},
#endif
#ifdef SQLITE_IOERR_BLOCKED
    {SQLITE_IOERR_BLOCKED, "SQLITE_IOERR_BLOCKED"},
#endif
#ifdef SQLITE_IOERR_NOMEM
    {SQLITE_IOERR_NOMEM, "SQLITE_IOERR_NOMEM"},
#endif
#ifdef SQLITE_IOERR_ACCESS
    {SQLITE_IOERR_ACCESS, "SQLITE_IOERR_ACCESS"},
#endif
#ifdef SQLITE_IOERR_CHECKRESERVEDLOCK
    {SQLITE_IOERR_CHECKRESERVEDLOCK, "SQLITE_IOERR_CHECKRESERVEDLOCK"},
#endif
#ifdef SQLITE_IOERR_LOCK
    {SQLITE_IOERR_LOCK, "SQLITE_IOERR_LOCK"},
#endif
#ifdef SQLITE_IOERR_CLOSE
    {SQLITE_IOERR_CLOSE, "SQLITE_IOERR_CLOSE"},
#endif
#ifdef SQLITE_IOERR_DIR_CLOSE
    {SQLITE_IOERR_DIR_CLOSE, "SQLITE_IOERR_DIR_CLOSE"},
#endif
#ifdef SQLITE_IOERR_SHMOPEN
    {SQLITE_IOERR_SHMOPEN, "SQLITE_IOERR_SHMOPEN"},
#endif
#ifdef SQLITE_IOERR_SHMSIZE
    {SQLITE_IOERR_SHMSIZE, "SQLITE_IOERR_SHMSIZE"},
#endif
#ifdef SQLITE_IOERR_SHMLOCK
    {SQLITE_IOERR_SHMLOCK, "SQLITE_IOERR_SHMLOCK"},
#endif
#ifdef SQLITE_IOERR_SHMMAP
    {SQLITE_IOERR_SHMMAP, "SQLITE_IOERR_SHMMAP"},
#endif
#ifdef SQLITE_IOERR_SEEK
    {SQLITE_IOERR_SEEK, "SQLITE_IOERR_SEEK"},
#endif
#ifdef SQLITE_IOERR_DELETE_NOENT
    {SQLITE_IOERR_DELETE_NOENT, "SQLITE_IOERR_DELETE_NOENT"},
#endif
#ifdef SQLITE_IOERR_MMAP
    {SQLITE_IOERR_MMAP, "SQLITE_IOERR_MMAP"},
#endif
#ifdef SQLITE_IOERR_GETTEMPPATH
    {SQLITE_IOERR_GETTEMPPATH, "SQLITE_IOERR_GETTEMPPATH"},
#endif
#ifdef SQLITE_IOERR_CONVPATH
    {SQLITE_IOERR_CONVPATH, "SQLITE_IOERR_CONVPATH"},
#endif
#ifdef SQLITE_IOERR_VNODE
    {SQLITE_IOERR_VNODE, "SQLITE_IOERR_VNODE"},
#endif
#ifdef SQLITE_IOERR_AUTH
    {SQLITE_IOERR_AUTH, "SQLITE_IOERR_AUTH"},
#endif
#ifdef SQLITE_IOERR_BEGIN_ATOMIC
    {SQLITE_IOERR_BEGIN_ATOMIC, "SQLITE_IOERR_BEGIN_ATOMIC"},
#endif
#ifdef SQLITE_IOERR_COMMIT_ATOMIC
    {SQLITE_IOERR_COMMIT_ATOMIC, "SQLITE_IOERR_COMMIT_ATOMIC"},
#endif
#ifdef SQLITE_IOERR_ROLLBACK_ATOMIC
    {SQLITE_IOERR_ROLLBACK_ATOMIC, "SQLITE_IOERR_ROLLBACK_ATOMIC"},
#endif
#ifdef SQLITE_IOERR_DATA
    {SQLITE_IOERR_DATA, "SQLITE_IOERR_DATA"},
#endif
#ifdef SQLITE_IOERR_CORRUPTFS
    {SQLITE_IOERR_CORRUPTFS, "SQLITE_IOERR_CORRUPTFS"},
#endif
#ifdef SQLITE_LOCKED_SHAREDCACHE
    {SQLITE_LOCKED_SHAREDCACHE, "SQLITE_LOCKED_SHAREDCACHE"},
#endif
#ifdef SQLITE_LOCKED_VTAB
    {SQLITE_LOCKED_VTAB, "SQLITE_LOCKED_VTAB"},
#endif
#ifdef SQLITE_BUSY_RECOVERY
    {SQLITE_BUSY_RECOVERY, "SQLITE_BUSY_RECOVERY"},
#endif
#ifdef SQLITE_BUSY_SNAPSHOT
    {SQLITE_BUSY_SNAPSHOT, "SQLITE_BUSY_SNAPSHOT"},
#endif
#ifdef SQLITE_BUSY_TIMEOUT
    {SQLITE_BUSY_TIMEOUT, "SQLITE_BUSY_TIMEOUT"},
#endif
#ifdef SQLITE_CANTOPEN_NOTEMPDIR
    {SQLITE_CANTOPEN_NOTEMPDIR, "SQLITE_CANTOPEN_NOTEMPDIR"},
#endif
#ifdef SQLITE_CANTOPEN_ISDIR
    {SQLITE_CANTOPEN_ISDIR, "SQLITE_CANTOPEN_ISDIR"},
#endif
#ifdef SQLITE_CANTOPEN_FULLPATH
    {SQLITE_CANTOPEN_FULLPATH, "SQLITE_CANTOPEN_FULLPATH"},
#endif
#ifdef SQLITE_CANTOPEN_CONVPATH
    {SQLITE_CANTOPEN_CONVPATH, "SQLITE_CANTOPEN_CONVPATH"},
#endif
#ifdef SQLITE_CANTOPEN_DIRTYWAL
    {SQLITE_CANTOPEN_DIRTYWAL, "SQLITE_CANTOPEN_DIRTYWAL"},
#endif
#ifdef SQLITE_CANTOPEN_SYMLINK
    {SQLITE_CANTOPEN_SYMLINK, "SQLITE_CANTOPEN_SYMLINK"},
#endif
#ifdef SQLITE_CORRUPT_VTAB
    {SQLITE_CORRUPT_VTAB, "SQLITE_CORRUPT_VTAB"},
#endif
#ifdef SQLITE_CORRUPT_SEQUENCE
    {SQLITE_CORRUPT_SEQUENCE, "SQLITE_CORRUPT_SEQUENCE"},
#endif
#ifdef SQLITE_CORRUPT_INDEX
    {SQLITE_CORRUPT_INDEX, "SQLITE_CORRUPT_INDEX"},
#endif
#ifdef SQLITE_READONLY_RECOVERY
    {SQLITE_READONLY_RECOVERY, "SQLITE_READONLY_RECOVERY"},
#endif
#ifdef SQLITE_READONLY_CANTLOCK
    {SQLITE_READONLY_CANTLOCK, "SQLITE_READONLY_CANTLOCK"},
#endif
#ifdef SQLITE_READONLY_ROLLBACK
    {SQLITE_READONLY_ROLLBACK, "SQLITE_READONLY_ROLLBACK"},
#endif
#ifdef SQLITE_READONLY_DBMOVED
    {SQLITE_READONLY_DBMOVED, "SQLITE_READONLY_DBMOVED"},
#endif
#ifdef SQLITE_READONLY_CANTINIT
    {SQLITE_READONLY_CANTINIT, "SQLITE_READONLY_CANTINIT"},
#endif
#ifdef SQLITE_READONLY_DIRECTORY
    {SQLITE_READONLY_DIRECTORY, "SQLITE_READONLY_DIRECTORY"},
#endif
#ifdef SQLITE_ABORT_ROLLBACK
    {SQLITE_ABORT_ROLLBACK, "SQLITE_ABORT_ROLLBACK"},
#endif
#ifdef SQLITE_CONSTRAINT_CHECK
    {SQLITE_CONSTRAINT_CHECK, "SQLITE_CONSTRAINT_CHECK"},
#endif
#ifdef SQLITE_CONSTRAINT_COMMITHOOK
    {SQLITE_CONSTRAINT_COMMITHOOK, "SQLITE_CONSTRAINT_COMMITHOOK"},
#endif
#ifdef SQLITE_CONSTRAINT_FOREIGNKEY
    {SQLITE_CONSTRAINT_FOREIGNKEY, "SQLITE_CONSTRAINT_FOREIGNKEY"},
#endif
#ifdef SQLITE_CONSTRAINT_FUNCTION
    {SQLITE_CONSTRAINT_FUNCTION, "SQLITE_CONSTRAINT_FUNCTION"},
#endif
#ifdef SQLITE_CONSTRAINT_NOTNULL
    {SQLITE_CONSTRAINT_NOTNULL, "SQLITE_CONSTRAINT_NOTNULL"},
#endif
#ifdef SQLITE_CONSTRAINT_PRIMARYKEY
    {SQLITE_CONSTRAINT_PRIMARYKEY, "SQLITE_CONSTRAINT_PRIMARYKEY"},
#endif
#ifdef SQLITE_CONSTRAINT_TRIGGER
    {SQLITE_CONSTRAINT_TRIGGER, "SQLITE_CONSTRAINT_TRIGGER"},
#endif
#ifdef SQLITE_CONSTRAINT_UNIQUE
    {SQLITE_CONSTRAINT_UNIQUE, "SQLITE_CONSTRAINT_UNIQUE"},
#endif
#ifdef SQLITE_CONSTRAINT_VTAB
    {SQLITE_CONSTRAINT_VTAB, "SQLITE_CONSTRAINT_VTAB"},
#endif
#ifdef SQLITE_CONSTRAINT_ROWID
    {SQLITE_CONSTRAINT_ROWID, "SQLITE_CONSTRAINT_ROWID"},
#endif
#ifdef SQLITE_CONSTRAINT_PINNED
    {SQLITE_CONSTRAINT_PINNED, "SQLITE_CONSTRAINT_PINNED"},
#endif
#ifdef SQLITE_CONSTRAINT_DATATYPE
    {SQLITE_CONSTRAINT_DATATYPE, "SQLITE_CONSTRAINT_DATATYPE"},
#endif
#ifdef SQLITE_NOTICE_RECOVER_WAL
    {SQLITE_NOTICE_RECOVER_WAL, "SQLITE_NOTICE_RECOVER_WAL"},
#endif
#ifdef SQLITE_NOTICE_RECOVER_ROLLBACK
    {SQLITE_NOTICE_RECOVER_ROLLBACK, "SQLITE_NOTICE_RECOVER_ROLLBACK"},
#endif
#ifdef SQLITE_WARNING_AUTOINDEX
    {SQLITE_WARNING_AUTOINDEX, "SQLITE_WARNING_AUTOINDEX"},
#endif
#ifdef SQLITE_AUTH_USER
    {SQLITE_AUTH_USER, "SQLITE_AUTH_USER"},
#endif
#ifdef SQLITE_OK_LOAD_PERMANENTLY
    {SQLITE_OK_LOAD_PERMANENTLY, "SQLITE_OK_LOAD_PERMANENTLY"},
#endif
#ifdef SQLITE_OK_SYMLINK
    {SQLITE_OK_SYMLINK, "SQLITE_OK_SYMLINK"},
#endif
    {0, NULL},
};

static const char *error_name(int code)
{
    int i;
    for (i = 0; error_names[i].name != NULL; i++) {
        if (error_names[i].code == code)
            return error_names[i].name;
    }
    return NULL;
}

/* The exception sqlite3 raises for a primary result code (Modules/_sqlite/util.c). */
static PyObject *error_class(int code)
{
    switch (code & 0xff) {
    case SQLITE_INTERNAL:
    case SQLITE_NOTFOUND:
        return e_internal;
    case SQLITE_NOMEM:
        return NULL; /* MemoryError */
    case SQLITE_ERROR:
    case SQLITE_PERM:
    case SQLITE_ABORT:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_READONLY:
    case SQLITE_INTERRUPT:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_PROTOCOL:
    case SQLITE_EMPTY:
    case SQLITE_SCHEMA:
        return e_operational;
    case SQLITE_CORRUPT:
        return e_database;
    case SQLITE_TOOBIG:
        return e_data;
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
        return e_integrity;
    case SQLITE_MISUSE:
    case SQLITE_RANGE:
        return e_interface;
    default:
        return e_database;
    }
}

/* Raise what sqlite3 raises for the last error of `db` (its extended code and message). */
static void set_error(sqlite3 *db)
{
    int code = sqlite3_extended_errcode(db);
    PyObject *type = error_class(code), *msg, *exc, *value;
    const char *name;
    if (type == NULL) {
        PyErr_NoMemory();
        return;
    }
    if (!(msg = PyUnicode_FromString(sqlite3_errmsg(db))))
        return;
    exc = PyObject_CallOneArg(type, msg);
    Py_DECREF(msg);
    if (exc == NULL)
        return;
    if (!(value = PyLong_FromLong(code)) ||
        PyObject_SetAttrString(exc, "sqlite_errorcode", value) < 0)
        goto done;
    Py_DECREF(value);
    name = error_name(code);
    if (!(value = PyUnicode_FromString(name ? name : "unknown")) ||
        PyObject_SetAttrString(exc, "sqlite_errorname", value) < 0)
        goto done;
    PyErr_SetObject(type, exc);
done:
    Py_XDECREF(value);
    Py_DECREF(exc);
}

/* Bind `value` as parameter `pos` (1-based), as sqlite3's bind_param does. Strings and
   bytes are bound SQLITE_STATIC: the caller holds the row (and so its values) until the
   statement has been stepped and reset. 0 on success, -1 with an exception set. */
static int bind(sqlite3 *db, sqlite3_stmt *st, int pos, PyObject *value)
{
    int rc;
    if (value == Py_None) {
        rc = sqlite3_bind_null(st, pos);
    } else if (PyLong_Check(value)) { /* int, bool and other int subclasses */
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (overflow) {
            PyErr_SetString(PyExc_OverflowError,
                            "Python int too large to convert to SQLite INTEGER");
            return -1;
        }
        rc = sqlite3_bind_int64(st, pos, (sqlite3_int64)v);
    } else if (PyFloat_Check(value)) {
        double v = PyFloat_AsDouble(value);
        if (v == -1.0 && PyErr_Occurred())
            return -1;
        rc = sqlite3_bind_double(st, pos, v);
    } else if (PyUnicode_Check(value)) {
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(value, &size);
        if (text == NULL)
            return -1;
        if (size > INT_MAX) {
            PyErr_SetString(PyExc_OverflowError, "string longer than INT_MAX bytes");
            return -1;
        }
        rc = sqlite3_bind_text(st, pos, text, (int)size, SQLITE_STATIC);
    } else if (PyBytes_Check(value)) {
        if (PyBytes_GET_SIZE(value) > INT_MAX) {
            PyErr_SetString(PyExc_OverflowError, "BLOB longer than INT_MAX bytes");
            return -1;
        }
        rc = sqlite3_bind_blob(st, pos, PyBytes_AS_STRING(value),
                               (int)PyBytes_GET_SIZE(value), SQLITE_STATIC);
    } else if (PyObject_CheckBuffer(value)) { /* a bytearray, a memoryview: copied */
        Py_buffer view;
        if (PyObject_GetBuffer(value, &view, PyBUF_SIMPLE) != 0)
            return -1;
        if (view.len > INT_MAX) {
            PyErr_SetString(PyExc_OverflowError, "BLOB longer than INT_MAX bytes");
            PyBuffer_Release(&view);
            return -1;
        }
        rc = sqlite3_bind_blob(st, pos, view.buf, (int)view.len, SQLITE_TRANSIENT);
        PyBuffer_Release(&view);
    } else {
        PyErr_Format(e_programming, "Error binding parameter %d: type '%s' is not supported",
                     pos, Py_TYPE(value)->tp_name);
        return -1;
    }
    if (rc != SQLITE_OK) {
        set_error(db);
        return -1;
    }
    return 0;
}

static PyObject *b_insert(PyObject *mod, PyObject *args, PyObject *kw)
{
    static char *names[] = {"connection", "sql", "rows", "games", "fixed", "picks", NULL};
    PyObject *conn, *sql, *rows, *games = Py_None, *fixed = NULL, *picks = NULL;
    PyObject *row = NULL, *game = NULL, *result = NULL;
    Py_ssize_t n, i, j, nfixed = 0, npicks = 0, *pick = NULL, width;
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    const char *text, *tail;
    Py_ssize_t text_size;
    long long changes = 0;
    int rc, params;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "OUO!|OO!O!:insert", names, &conn, &sql,
                                     &PyList_Type, &rows, &games, &PyTuple_Type, &fixed,
                                     &PyTuple_Type, &picks))
        return NULL;
    if (!LAYOUT || !linked) {
        PyErr_Format(PyExc_RuntimeError, "tracker.store._batch cannot be used here: %s",
                     !LAYOUT ? "built for a Python whose sqlite3.Connection is not known"
                             : why);
        return NULL;
    }
    if (!PyObject_TypeCheck(conn, (PyTypeObject *)connection_type)) {
        PyErr_Format(PyExc_TypeError, "connection must be a sqlite3.Connection, not %.100s",
                     Py_TYPE(conn)->tp_name);
        return NULL;
    }
    db = ((connection_head *)conn)->db;
    if (db == NULL) {
        PyErr_SetString(e_programming, "Cannot operate on a closed database.");
        return NULL;
    }
    n = PyList_GET_SIZE(rows);
    if (games != Py_None) {
        if (!PyList_Check(games) || PyList_GET_SIZE(games) != n) {
            PyErr_SetString(PyExc_ValueError, "games must be a list as long as rows");
            return NULL;
        }
    }
    if (fixed != NULL)
        nfixed = PyTuple_GET_SIZE(fixed);
    if (picks != NULL && (npicks = PyTuple_GET_SIZE(picks)) > 0) {
        if (games == Py_None) {
            PyErr_SetString(PyExc_ValueError, "picks need games");
            return NULL;
        }
        if (!(pick = PyMem_New(Py_ssize_t, npicks)))
            return PyErr_NoMemory();
        for (j = 0; j < npicks; j++) {
            pick[j] = PyLong_AsSsize_t(PyTuple_GET_ITEM(picks, j));
            if (pick[j] == -1 && PyErr_Occurred())
                goto finally;
            if (pick[j] < 0) {
                PyErr_SetString(PyExc_ValueError, "picks must not be negative");
                goto finally;
            }
        }
    }
    if (sqlite3_get_autocommit(db)) {
        /* sqlite3 would begin a transaction first; the writer always has one */
        PyErr_SetString(e_programming, "insert needs a transaction begun on the connection");
        goto finally;
    }
    if (!(text = PyUnicode_AsUTF8AndSize(sql, &text_size)))
        goto finally;
    if (text_size > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "SQL longer than INT_MAX bytes");
        goto finally;
    }
    Py_BEGIN_ALLOW_THREADS
    rc = sqlite3_prepare_v2(db, text, (int)text_size, &st, &tail);
    Py_END_ALLOW_THREADS
    if (rc != SQLITE_OK) {
        set_error(db);
        goto finally;
    }
    if (st == NULL || sqlite3_stmt_readonly(st)) {
        PyErr_SetString(e_programming, "insert can only run one INSERT, UPDATE or DELETE");
        goto finally;
    }
    while (*tail == ' ' || *tail == '\t' || *tail == '\n' || *tail == '\r' || *tail == ';')
        tail++;
    if (*tail != '\0') {
        PyErr_SetString(e_programming, "You can only execute one statement at a time.");
        goto finally;
    }
    params = sqlite3_bind_parameter_count(st);

    /* (the sizes are looked at again for each row: another thread may change the lists
       while a step runs without the GIL; the row and its game are held meanwhile) */
    for (i = 0; i < PyList_GET_SIZE(rows); i++) {
        PyObject *const *values, *const *of_game = NULL;
        Py_ssize_t size, game_size = 0;
        row = Py_NewRef(PyList_GET_ITEM(rows, i));
        if (games != Py_None) {
            if (i >= PyList_GET_SIZE(games)) {
                PyErr_SetString(PyExc_ValueError, "games must be a list as long as rows");
                goto finally;
            }
            game = Py_NewRef(PyList_GET_ITEM(games, i));
        }
        if (!PyTuple_Check(row)) {
            PyErr_Format(PyExc_TypeError, "row %zd must be a tuple, not %.100s", i,
                         Py_TYPE(row)->tp_name);
            goto finally;
        }
        size = PyTuple_GET_SIZE(row);
        values = &PyTuple_GET_ITEM(row, 0);
        if (game != NULL) {
            if (!PyTuple_Check(game)) {
                PyErr_Format(PyExc_TypeError, "game %zd must be a tuple, not %.100s", i,
                             Py_TYPE(game)->tp_name);
                goto finally;
            }
            game_size = PyTuple_GET_SIZE(game);
            of_game = &PyTuple_GET_ITEM(game, 0);
        }
        width = size + nfixed + npicks;
        if (width != params) {
            PyErr_Format(e_programming,
                         "Incorrect number of bindings supplied. The current statement uses "
                         "%d, and there are %zd supplied.", params, width);
            goto finally;
        }
        for (j = 0; j < size; j++) {
            if (bind(db, st, (int)j + 1, values[j]) < 0)
                goto finally;
        }
        for (j = 0; j < nfixed; j++) {
            if (bind(db, st, (int)(size + j) + 1, PyTuple_GET_ITEM(fixed, j)) < 0)
                goto finally;
        }
        for (j = 0; j < npicks; j++) {
            if (pick[j] >= game_size) {
                PyErr_Format(PyExc_IndexError, "game %zd has no item %zd", i, pick[j]);
                goto finally;
            }
            if (bind(db, st, (int)(size + nfixed + j) + 1, of_game[pick[j]]) < 0)
                goto finally;
        }
        Py_BEGIN_ALLOW_THREADS
        rc = sqlite3_step(st);
        Py_END_ALLOW_THREADS
        if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
            set_error(db); /* (before the reset: its code and message are the step's) */
            goto finally;
        }
        if (rc == SQLITE_DONE)
            changes += sqlite3_changes(db);
        sqlite3_reset(st);
        Py_CLEAR(row);
        Py_CLEAR(game);
        if ((i + 1) % SIGNAL_EVERY == 0 && PyErr_CheckSignals() < 0)
            goto finally;
    }
    result = PyLong_FromLongLong(changes);

finally:
    if (st != NULL) {
        Py_BEGIN_ALLOW_THREADS
        sqlite3_finalize(st); /* (resets it first; its code repeats the step's error) */
        Py_END_ALLOW_THREADS
    }
    Py_XDECREF(row);
    Py_XDECREF(game);
    PyMem_Free(pick);
    return result;
}

/* Whether the sqlite3_* functions this module was linked to are those of Python's
   `_sqlite3` module; `why` says what differs when not. */
static int check_linked(PyObject *sqlite_module)
{
#ifdef _WIN32
    (void)sqlite_module;
    snprintf(why, sizeof why, "the SQLite library cannot be checked on Windows");
    return 0;
#else
    PyObject *file = PyObject_GetAttrString(sqlite_module, "__file__");
    const char *path;
    void *handle;
    int same = 1;
    if (file == NULL || !PyUnicode_Check(file) || !(path = PyUnicode_AsUTF8(file))) {
        PyErr_Clear();
        Py_XDECREF(file);
        snprintf(why, sizeof why, "Python's _sqlite3 module has no file");
        return 0;
    }
    handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (handle == NULL) {
        snprintf(why, sizeof why, "%s is not loaded", path);
        Py_DECREF(file);
        return 0;
    }
#define SAME(f)                                                                          \
    if (same && dlsym(handle, #f) != (void *)&f) {                                       \
        snprintf(why, sizeof why, "%s is not the function Python's _sqlite3 calls", #f); \
        same = 0;                                                                        \
    }
    FUNCTIONS(SAME)
#undef SAME
    dlclose(handle);
    Py_DECREF(file);
    if (same && !sqlite3_threadsafe()) {
        snprintf(why, sizeof why, "the SQLite library is not thread-safe");
        same = 0;
    }
    return same;
#endif
}

static PyMethodDef methods[] = {
    {"insert", (PyCFunction)(void (*)(void))b_insert, METH_VARARGS | METH_KEYWORDS,
     "insert(connection, sql, rows, games=None, fixed=(), picks=()) -> rows inserted"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_batch", "The writer's games rows bound through SQLite's C API.",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__batch(void)
{
    PyObject *mod, *sqlite_module = PyImport_ImportModule("_sqlite3");
    if (sqlite_module == NULL)
        return NULL;
    if (!(connection_type = PyObject_GetAttrString(sqlite_module, "Connection")) ||
        !PyType_Check(connection_type) ||
        !(e_programming = PyObject_GetAttrString(sqlite_module, "ProgrammingError")) ||
        !(e_operational = PyObject_GetAttrString(sqlite_module, "OperationalError")) ||
        !(e_integrity = PyObject_GetAttrString(sqlite_module, "IntegrityError")) ||
        !(e_database = PyObject_GetAttrString(sqlite_module, "DatabaseError")) ||
        !(e_internal = PyObject_GetAttrString(sqlite_module, "InternalError")) ||
        !(e_data = PyObject_GetAttrString(sqlite_module, "DataError")) ||
        !(e_interface = PyObject_GetAttrString(sqlite_module, "InterfaceError"))) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ImportError, "_sqlite3.Connection is not a type");
        Py_DECREF(sqlite_module);
        return NULL;
    }
    linked = check_linked(sqlite_module);
    Py_DECREF(sqlite_module);
    mod = PyModule_Create(&module);
    if (mod == NULL)
        return NULL;
    if (PyModule_AddIntConstant(mod, "VERSION", VERSION) < 0 ||
        PyModule_AddIntConstant(mod, "LAYOUT", LAYOUT) < 0 ||
        PyModule_AddObjectRef(mod, "LINKED", linked ? Py_True : Py_False) < 0 ||
        PyModule_AddStringConstant(mod, "WHY", why) < 0 ||
        PyModule_AddStringConstant(mod, "SQLITE_VERSION", sqlite3_libversion()) < 0 ||
        PyModule_AddIntConstant(mod, "SIGNAL_EVERY", SIGNAL_EVERY) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
