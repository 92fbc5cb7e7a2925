#ifndef LOCKSTEP_CORE_LOG_H
#define LOCKSTEP_CORE_LOG_H

#include "lockstep/lockstep.h"

void ls_log_set_level(enum VmafLogLevel level);
void ls_log(enum VmafLogLevel level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Thread-local last error, read back with lockstep_last_error(). */
void ls_set_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
