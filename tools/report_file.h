/* The report file (-o PATH) appears whole or not at all: it is written to a temporary file in
 * the same directory and renamed over PATH once complete; a failed run, or one ended by SIGINT,
 * SIGTERM or SIGHUP, removes the temporary and leaves an existing PATH as it was. PATH "-" and
 * paths that are no regular file (/dev/stdout, /dev/full, a FIFO) are written directly. */
#ifndef LOCKSTEP_TOOLS_REPORT_FILE_H
#define LOCKSTEP_TOOLS_REPORT_FILE_H

/* Installs the signal handlers and, for a regular file, creates the temporary, so that an
 * unwritable PATH fails before any scoring. *write_path: where the report is to be written.
 * path NULL (no report): the handlers only. On failure prints one line and returns -1. */
int report_file_begin(const char *path, const char **write_path);
/* The report is complete in *write_path: renames it to PATH. On failure prints one line, removes
 * the temporary and returns -1. */
int report_file_commit(void);
/* Removes the temporary, if any (every exit path but a commit). */
void report_file_abandon(void);

#endif
