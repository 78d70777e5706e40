#ifndef CDLOG_CSQLITE_SHIM_H
#define CDLOG_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
