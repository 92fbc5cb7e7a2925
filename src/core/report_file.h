/* A report file that appears whole or not at all: written to a temporary file beside it and
 * renamed over it once complete, so that a failed write (a full disk, a file size limit), a failed
 * run or one ended by a signal leaves no partial report and an existing one as it was. Every
 * report lockstep writes goes through it: -o (XML, JSON, CSV, SUB, and shard reports), --html and
 * `lockstep merge -o`.
 *
 * Path "-" (stdout) and paths that are no regular file (/dev/stdout, /dev/full, a FIFO) are
 * written directly; so is an existing writable file in a directory where no file can be created.
 *
 * Signals: ls_report_catch_signals (called by the CLI's main, never by the library) makes SIGINT,
 * SIGTERM, SIGHUP and SIGBUS (an input file cut short under the CLI's mapping of it) remove the
 * temporaries of every report pending in the process, with one line saying why, before the
 * process dies of the signal. A library caller keeps its own signal handling; what it
 * interrupts is a temporary file whose name starts with ".NAME.lockstep-". */
#ifndef LOCKSTEP_CORE_REPORT_FILE_H
#define LOCKSTEP_CORE_REPORT_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct LsReportFile {
    const char *path;          /* as given, for messages */
    const char *write_path;    /* what to open for writing: the temporary, or path */
    char tmp[PATH_MAX];        /* the temporary, while pending */
    char final[PATH_MAX];      /* what the temporary is renamed to (a link's target) */
    int slot;                  /* in the table the signal handler reads; -1: none */
    bool pending;
} LsReportFile;

/* Creates the temporary (0666 less the umask, or the mode of the file it will replace): an
 * unwritable path fails here, before any work. Returns 0, or a negative errno with "cannot write
 * the report to PATH: REASON" in err (nothing is left to abandon then). */
int ls_report_begin(LsReportFile *rf, const char *path, char *err, size_t err_len);
/* Renames the temporary over the path; on failure removes it, fills err as above and returns a
 * negative errno. Nothing to do for a report written directly. */
int ls_report_commit(LsReportFile *rf, char *err, size_t err_len);
/* Removes the temporary of a report not committed (idempotent; a zeroed struct is fine). */
void ls_report_abandon(LsReportFile *rf);
/* "cannot write the report to PATH: REASON", REASON taken from a writer's message about the
 * file it wrote ("could not write TMP: No space left on device"): its text after the last ": ".
 * A message that does not name that file is copied as it is. */
void ls_report_error(const LsReportFile *rf, const char *message, char *err, size_t err_len);

/* For programs (the CLI): installs the SIGINT, SIGTERM and SIGHUP handlers that remove every
 * pending temporary, say in one line which signal ended the run, and end the process with the
 * signal. Signals the process was started with ignored (nohup) stay ignored. */
void ls_report_catch_signals(void);
/* Whether ls_report_catch_signals ran in this process: the CLI's runs then map their input files
 * (frames borrowed from the page cache), whose SIGBUS it reports; a library caller's runs copy
 * the frames, since a file cut short under a mapping would kill its process silently. */
bool ls_report_signals_caught(void);

#endif
