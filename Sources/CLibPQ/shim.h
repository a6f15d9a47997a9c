#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// libpq's declarations only: the functions come from the CLibPQLoader target, which loads
// libpq on first use (a program that never opens PostgreSQL never loads it).
#include <postgresql/libpq-fe.h>
#endif
