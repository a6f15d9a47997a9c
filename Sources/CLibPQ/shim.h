#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
#include <libpq-fe.h>  // -I/usr/include/postgresql comes from pkgConfig "libpq"
#endif
