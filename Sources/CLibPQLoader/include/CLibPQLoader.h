#ifndef CLIBPQLOADER_H
#define CLIBPQLOADER_H
// libpq is loaded when PostgreSQL is first used, not when a process starts: this target
// defines every libpq function D2S calls as a trampoline into libpq.so.5, opened with dlopen
// on the first call. A program that only opens SQLite files never loads libpq and the ~20
// libraries it needs (Kerberos, LDAP, TLS), which is most of d2s-repl's start-up time.

/// Why libpq could not be loaded, or NULL when it is loaded (or not yet tried).
const char *d2s_libpq_load_error(void);

#endif
