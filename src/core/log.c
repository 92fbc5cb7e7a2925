#include <stdarg.h>
#include <stdio.h>

#include "core/log.h"

static enum VmafLogLevel log_level = VMAF_LOG_LEVEL_WARNING;
static _Thread_local char last_error[1024];

void ls_log_set_level(enum VmafLogLevel level) { log_level = level; }

void ls_log(enum VmafLogLevel level, const char *fmt, ...)
{
    static const char *const names[] = { "", "ERROR", "WARNING", "INFO", "DEBUG" };
    if (level > log_level || level == VMAF_LOG_LEVEL_NONE)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "lockstep %s ", names[level]);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void ls_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
}

const char *lockstep_last_error(void) { return last_error; }
