#ifndef CDLOG_CSCAN_H
#define CDLOG_CSCAN_H
/* CScan: byte-level work in C, one header per job. */
#include "cscan_bytes.h"
#include "cscan_window.h"
#include "cscan_json.h"
#include "cscan_process.h"
#include "cscan_headers.h"
#include "cscan_quiet.h"
#include "cscan_template.h"
#endif
