#ifndef CDLOG_CPCRE2_SHIM_H
#define CDLOG_CPCRE2_SHIM_H
// cdlog uses the 8-bit library only: log text is matched as UTF-8 bytes.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
