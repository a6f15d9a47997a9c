// Trampolines into libpq, opened on first use (see include/CLibPQLoader.h). Each function
// has libpq's own prototype (from libpq-fe.h), looks its target up once, and answers 0 or
// NULL when libpq cannot be loaded; PQconnectdb's NULL then reports d2s_libpq_load_error().
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <postgresql/libpq-fe.h>
#include "CLibPQLoader.h"

static void *library;
static const char *load_error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
  library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *error = dlerror();
    load_error = error ? error : "cannot load libpq.so.5";
  }
}

const char *d2s_libpq_load_error(void) { return load_error; }

static void *symbol(const char *name) {
  pthread_once(&once, load);
  return library ? dlsym(library, name) : NULL;
}

// Each trampoline: libpq's prototype, its target looked up once, 0 or NULL without libpq.
// Connections open on several threads at once: the target is read and written atomically
// (threads racing to look it up store the same address).
#define FORWARD(ret, name, params, args) \
  ret name params { \
    static ret(*target) params; \
    ret(*found) params = __atomic_load_n(&target, __ATOMIC_ACQUIRE); \
    if (!found) { \
      found = (ret(*) params)symbol(#name); \
      __atomic_store_n(&target, found, __ATOMIC_RELEASE); \
    } \
    return found ? found args : (ret)0; \
  }

#define FORWARD_VOID(name, params, args) \
  void name params { \
    static void(*target) params; \
    void(*found) params = __atomic_load_n(&target, __ATOMIC_ACQUIRE); \
    if (!found) { \
      found = (void(*) params)symbol(#name); \
      __atomic_store_n(&target, found, __ATOMIC_RELEASE); \
    } \
    if (found) found args; \
  }

FORWARD(int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize))
FORWARD_VOID(PQclear, (PGresult *res), (res))
FORWARD(char *, PQcmdTuples, (PGresult *res), (res))
FORWARD(PGconn *, PQconnectdb, (const char *conninfo), (conninfo))
FORWARD(PGconn *, PQconnectStart, (const char *conninfo), (conninfo))
FORWARD(PostgresPollingStatusType, PQconnectPoll, (PGconn *conn), (conn))
FORWARD(int, PQconsumeInput, (PGconn *conn), (conn))
FORWARD(char *, PQdb, (const PGconn *conn), (conn))
FORWARD(char *, PQerrorMessage, (const PGconn *conn), (conn))
FORWARD_VOID(PQfinish, (PGconn *conn), (conn))
FORWARD_VOID(PQfreeCancel, (PGcancel *cancel), (cancel))
FORWARD_VOID(PQfreemem, (void *ptr), (ptr))
FORWARD(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num))
FORWARD(char *, PQfname, (const PGresult *res, int field_num), (res, field_num))
FORWARD(PGcancel *, PQgetCancel, (PGconn *conn), (conn))
FORWARD(int, PQgetCopyData, (PGconn *conn, char **buffer, int async), (conn, buffer, async))
FORWARD(PGresult *, PQgetResult, (PGconn *conn), (conn))
FORWARD(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))
FORWARD(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))
FORWARD(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))
FORWARD(int, PQisBusy, (PGconn *conn), (conn))
FORWARD(int, PQnfields, (const PGresult *res), (res))
FORWARD(int, PQntuples, (const PGresult *res), (res))
FORWARD(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg))
FORWARD(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode))
FORWARD(char *, PQresultErrorMessage, (const PGresult *res), (res))
FORWARD(ExecStatusType, PQresultStatus, (const PGresult *res), (res))
FORWARD(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query))
FORWARD(int, PQsendQueryParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))
FORWARD(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg))
FORWARD(int, PQsocket, (const PGconn *conn), (conn))
FORWARD(ConnStatusType, PQstatus, (const PGconn *conn), (conn))
FORWARD(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))
FORWARD(int, PQserverVersion, (const PGconn *conn), (conn))
FORWARD(int, PQlibVersion, (void), ())
FORWARD(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query))
FORWARD(int, PQsendPrepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), (conn, stmtName, query, nParams, paramTypes))
FORWARD(int, PQsendQueryPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
FORWARD(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))
FORWARD(int, PQsetSingleRowMode, (PGconn *conn), (conn))
FORWARD_VOID(PQreset, (PGconn *conn), (conn))
FORWARD(int, PQresetStart, (PGconn *conn), (conn))
FORWARD(PostgresPollingStatusType, PQresetPoll, (PGconn *conn), (conn))
FORWARD(int, PQflush, (PGconn *conn), (conn))
FORWARD(int, PQsetnonblocking, (PGconn *conn, int arg), (conn, arg))
FORWARD(char *, PQescapeIdentifier, (PGconn *conn, const char *str, size_t len), (conn, str, len))
FORWARD(const char *, PQparameterStatus, (const PGconn *conn, const char *paramName), (conn, paramName))
// Pipeline mode (libpq 14 and later; an older libpq answers 0: no pipeline, statements go one by one).
FORWARD(int, PQenterPipelineMode, (PGconn *conn), (conn))
FORWARD(int, PQexitPipelineMode, (PGconn *conn), (conn))
FORWARD(int, PQpipelineSync, (PGconn *conn), (conn))
FORWARD(PGpipelineStatus, PQpipelineStatus, (const PGconn *conn), (conn))
