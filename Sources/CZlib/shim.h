#ifndef CDLOG_CZLIB_SHIM_H
#define CDLOG_CZLIB_SHIM_H
#include <zlib.h>
#endif
