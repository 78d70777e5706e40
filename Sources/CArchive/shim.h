#ifndef CDLOG_CARCHIVE_SHIM_H
#define CDLOG_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
