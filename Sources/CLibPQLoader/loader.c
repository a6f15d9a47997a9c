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

int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize) {
  static int (*target)(PGcancel *cancel, char *errbuf, int errbufsize);
  if (!target) target = (int(*)(PGcancel *cancel, char *errbuf, int errbufsize))symbol("PQcancel");
  return target ? target(cancel, errbuf, errbufsize) : (int)0;
}

void PQclear(PGresult *res) {
  static void (*target)(PGresult *res);
  if (!target) target = (void(*)(PGresult *res))symbol("PQclear");
  if (target) target(res);
}

char * PQcmdTuples(PGresult *res) {
  static char * (*target)(PGresult *res);
  if (!target) target = (char *(*)(PGresult *res))symbol("PQcmdTuples");
  return target ? target(res) : (char *)0;
}

PGconn * PQconnectdb(const char *conninfo) {
  static PGconn * (*target)(const char *conninfo);
  if (!target) target = (PGconn *(*)(const char *conninfo))symbol("PQconnectdb");
  return target ? target(conninfo) : (PGconn *)0;
}

PGconn * PQconnectStart(const char *conninfo) {
  static PGconn * (*target)(const char *conninfo);
  if (!target) target = (PGconn *(*)(const char *conninfo))symbol("PQconnectStart");
  return target ? target(conninfo) : (PGconn *)0;
}

PostgresPollingStatusType PQconnectPoll(PGconn *conn) {
  static PostgresPollingStatusType (*target)(PGconn *conn);
  if (!target) target = (PostgresPollingStatusType(*)(PGconn *conn))symbol("PQconnectPoll");
  return target ? target(conn) : (PostgresPollingStatusType)0;
}

int PQconsumeInput(PGconn *conn) {
  static int (*target)(PGconn *conn);
  if (!target) target = (int(*)(PGconn *conn))symbol("PQconsumeInput");
  return target ? target(conn) : (int)0;
}

char * PQdb(const PGconn *conn) {
  static char * (*target)(const PGconn *conn);
  if (!target) target = (char *(*)(const PGconn *conn))symbol("PQdb");
  return target ? target(conn) : (char *)0;
}

char * PQerrorMessage(const PGconn *conn) {
  static char * (*target)(const PGconn *conn);
  if (!target) target = (char *(*)(const PGconn *conn))symbol("PQerrorMessage");
  return target ? target(conn) : (char *)0;
}

void PQfinish(PGconn *conn) {
  static void (*target)(PGconn *conn);
  if (!target) target = (void(*)(PGconn *conn))symbol("PQfinish");
  if (target) target(conn);
}

void PQfreeCancel(PGcancel *cancel) {
  static void (*target)(PGcancel *cancel);
  if (!target) target = (void(*)(PGcancel *cancel))symbol("PQfreeCancel");
  if (target) target(cancel);
}

void PQfreemem(void *ptr) {
  static void (*target)(void *ptr);
  if (!target) target = (void(*)(void *ptr))symbol("PQfreemem");
  if (target) target(ptr);
}

Oid PQftype(const PGresult *res, int field_num) {
  static Oid (*target)(const PGresult *res, int field_num);
  if (!target) target = (Oid(*)(const PGresult *res, int field_num))symbol("PQftype");
  return target ? target(res, field_num) : (Oid)0;
}

char * PQfname(const PGresult *res, int field_num) {
  static char * (*target)(const PGresult *res, int field_num);
  if (!target) target = (char *(*)(const PGresult *res, int field_num))symbol("PQfname");
  return target ? target(res, field_num) : (char *)0;
}

PGcancel * PQgetCancel(PGconn *conn) {
  static PGcancel * (*target)(PGconn *conn);
  if (!target) target = (PGcancel *(*)(PGconn *conn))symbol("PQgetCancel");
  return target ? target(conn) : (PGcancel *)0;
}

int PQgetCopyData(PGconn *conn, char **buffer, int async) {
  static int (*target)(PGconn *conn, char **buffer, int async);
  if (!target) target = (int(*)(PGconn *conn, char **buffer, int async))symbol("PQgetCopyData");
  return target ? target(conn, buffer, async) : (int)0;
}

PGresult * PQgetResult(PGconn *conn) {
  static PGresult * (*target)(PGconn *conn);
  if (!target) target = (PGresult *(*)(PGconn *conn))symbol("PQgetResult");
  return target ? target(conn) : (PGresult *)0;
}

int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
  static int (*target)(const PGresult *res, int tup_num, int field_num);
  if (!target) target = (int(*)(const PGresult *res, int tup_num, int field_num))symbol("PQgetisnull");
  return target ? target(res, tup_num, field_num) : (int)0;
}

int PQgetlength(const PGresult *res, int tup_num, int field_num) {
  static int (*target)(const PGresult *res, int tup_num, int field_num);
  if (!target) target = (int(*)(const PGresult *res, int tup_num, int field_num))symbol("PQgetlength");
  return target ? target(res, tup_num, field_num) : (int)0;
}

char * PQgetvalue(const PGresult *res, int tup_num, int field_num) {
  static char * (*target)(const PGresult *res, int tup_num, int field_num);
  if (!target) target = (char *(*)(const PGresult *res, int tup_num, int field_num))symbol("PQgetvalue");
  return target ? target(res, tup_num, field_num) : (char *)0;
}

int PQisBusy(PGconn *conn) {
  static int (*target)(PGconn *conn);
  if (!target) target = (int(*)(PGconn *conn))symbol("PQisBusy");
  return target ? target(conn) : (int)0;
}

int PQnfields(const PGresult *res) {
  static int (*target)(const PGresult *res);
  if (!target) target = (int(*)(const PGresult *res))symbol("PQnfields");
  return target ? target(res) : (int)0;
}

int PQntuples(const PGresult *res) {
  static int (*target)(const PGresult *res);
  if (!target) target = (int(*)(const PGresult *res))symbol("PQntuples");
  return target ? target(res) : (int)0;
}

int PQputCopyEnd(PGconn *conn, const char *errormsg) {
  static int (*target)(PGconn *conn, const char *errormsg);
  if (!target) target = (int(*)(PGconn *conn, const char *errormsg))symbol("PQputCopyEnd");
  return target ? target(conn, errormsg) : (int)0;
}

char * PQresultErrorField(const PGresult *res, int fieldcode) {
  static char * (*target)(const PGresult *res, int fieldcode);
  if (!target) target = (char *(*)(const PGresult *res, int fieldcode))symbol("PQresultErrorField");
  return target ? target(res, fieldcode) : (char *)0;
}

char * PQresultErrorMessage(const PGresult *res) {
  static char * (*target)(const PGresult *res);
  if (!target) target = (char *(*)(const PGresult *res))symbol("PQresultErrorMessage");
  return target ? target(res) : (char *)0;
}

ExecStatusType PQresultStatus(const PGresult *res) {
  static ExecStatusType (*target)(const PGresult *res);
  if (!target) target = (ExecStatusType(*)(const PGresult *res))symbol("PQresultStatus");
  return target ? target(res) : (ExecStatusType)0;
}

int PQsendQuery(PGconn *conn, const char *query) {
  static int (*target)(PGconn *conn, const char *query);
  if (!target) target = (int(*)(PGconn *conn, const char *query))symbol("PQsendQuery");
  return target ? target(conn, query) : (int)0;
}

int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
  static int (*target)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
  if (!target) target = (int(*)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat))symbol("PQsendQueryParams");
  return target ? target(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat) : (int)0;
}

PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
  static PQnoticeProcessor (*target)(PGconn *conn, PQnoticeProcessor proc, void *arg);
  if (!target) target = (PQnoticeProcessor(*)(PGconn *conn, PQnoticeProcessor proc, void *arg))symbol("PQsetNoticeProcessor");
  return target ? target(conn, proc, arg) : (PQnoticeProcessor)0;
}

int PQsocket(const PGconn *conn) {
  static int (*target)(const PGconn *conn);
  if (!target) target = (int(*)(const PGconn *conn))symbol("PQsocket");
  return target ? target(conn) : (int)0;
}

ConnStatusType PQstatus(const PGconn *conn) {
  static ConnStatusType (*target)(const PGconn *conn);
  if (!target) target = (ConnStatusType(*)(const PGconn *conn))symbol("PQstatus");
  return target ? target(conn) : (ConnStatusType)0;
}

PGTransactionStatusType PQtransactionStatus(const PGconn *conn) {
  static PGTransactionStatusType (*target)(const PGconn *conn);
  if (!target) target = (PGTransactionStatusType(*)(const PGconn *conn))symbol("PQtransactionStatus");
  return target ? target(conn) : (PGTransactionStatusType)0;
}

int PQserverVersion(const PGconn *conn) {
  static int (*target)(const PGconn *conn);
  if (!target) target = (int(*)(const PGconn *conn))symbol("PQserverVersion");
  return target ? target(conn) : (int)0;
}

int PQlibVersion(void) {
  static int (*target)(void);
  if (!target) target = (int(*)(void))symbol("PQlibVersion");
  return target ? target() : (int)0;
}

PGresult * PQexec(PGconn *conn, const char *query) {
  static PGresult * (*target)(PGconn *conn, const char *query);
  if (!target) target = (PGresult *(*)(PGconn *conn, const char *query))symbol("PQexec");
  return target ? target(conn, query) : (PGresult *)0;
}

PGresult * PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
  static PGresult * (*target)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
  if (!target) target = (PGresult *(*)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat))symbol("PQexecParams");
  return target ? target(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat) : (PGresult *)0;
}

int PQsetSingleRowMode(PGconn *conn) {
  static int (*target)(PGconn *conn);
  if (!target) target = (int(*)(PGconn *conn))symbol("PQsetSingleRowMode");
  return target ? target(conn) : (int)0;
}

void PQreset(PGconn *conn) {
  static void (*target)(PGconn *conn);
  if (!target) target = (void(*)(PGconn *conn))symbol("PQreset");
  if (target) target(conn);
}

int PQresetStart(PGconn *conn) {
  static int (*target)(PGconn *conn);
  if (!target) target = (int(*)(PGconn *conn))symbol("PQresetStart");
  return target ? target(conn) : (int)0;
}

PostgresPollingStatusType PQresetPoll(PGconn *conn) {
  static PostgresPollingStatusType (*target)(PGconn *conn);
  if (!target) target = (PostgresPollingStatusType(*)(PGconn *conn))symbol("PQresetPoll");
  return target ? target(conn) : (PostgresPollingStatusType)0;
}

int PQflush(PGconn *conn) {
  static int (*target)(PGconn *conn);
  if (!target) target = (int(*)(PGconn *conn))symbol("PQflush");
  return target ? target(conn) : (int)0;
}

int PQsetnonblocking(PGconn *conn, int arg) {
  static int (*target)(PGconn *conn, int arg);
  if (!target) target = (int(*)(PGconn *conn, int arg))symbol("PQsetnonblocking");
  return target ? target(conn, arg) : (int)0;
}

char * PQescapeIdentifier(PGconn *conn, const char *str, size_t len) {
  static char * (*target)(PGconn *conn, const char *str, size_t len);
  if (!target) target = (char *(*)(PGconn *conn, const char *str, size_t len))symbol("PQescapeIdentifier");
  return target ? target(conn, str, len) : (char *)0;
}

const char * PQparameterStatus(const PGconn *conn, const char *paramName) {
  static const char * (*target)(const PGconn *conn, const char *paramName);
  if (!target) target = (const char *(*)(const PGconn *conn, const char *paramName))symbol("PQparameterStatus");
  return target ? target(conn, paramName) : (const char *)0;
}
