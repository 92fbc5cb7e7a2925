/* Report files written whole or not at all (report_file.h). */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/report_file.h"

/* The temporaries pending in the process, as the signal handler reads them: a slot's name is
 * complete before its state becomes LIVE, and it stays until the state is FREE again. A process
 * rarely has more than two reports pending (the CLI: -o and --html); a report beyond the table
 * is still written atomically, only not removed by a signal. */
#define REPORT_SLOTS 16
enum { SLOT_FREE, SLOT_CLAIMED, SLOT_LIVE };
static atomic_int slot_state[REPORT_SLOTS];
static char slot_path[REPORT_SLOTS][PATH_MAX];

static int claim_slot(const char *tmp)
{
    for (int i = 0; i < REPORT_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (atomic_compare_exchange_strong(&slot_state[i], &expected, SLOT_CLAIMED)) {
            snprintf(slot_path[i], sizeof(slot_path[i]), "%s", tmp);
            atomic_store(&slot_state[i], SLOT_LIVE);
            return i;
        }
    }
    return -1;
}

static void release_slot(int slot)
{
    if (slot >= 0)
        atomic_store(&slot_state[slot], SLOT_FREE);
}

static int fail(const char *path, int e, char *err, size_t err_len)
{
    snprintf(err, err_len, "cannot write the report to %s: %s", path, strerror(e));
    return -e;
}

int ls_report_begin(LsReportFile *rf, const char *path, char *err, size_t err_len)
{
    memset(rf, 0, sizeof(*rf));
    rf->slot = -1;
    rf->path = rf->write_path = path;
    struct stat st;
    const int exists = !stat(path, &st);
    if (!strcmp(path, "-") || (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
        return 0;
    if (exists && S_ISDIR(st.st_mode))
        return fail(path, EISDIR, err, err_len);
    /* a symbolic link stays one: the file it names is replaced */
    char target[PATH_MAX];
    const char *final = exists && realpath(path, target) ? target : path;
    const char *slash = strrchr(final, '/');
    const int n = slash ? snprintf(rf->tmp, sizeof(rf->tmp), "%.*s/.%s.lockstep-XXXXXX",
                                   (int)(slash - final), final, slash + 1)
                        : snprintf(rf->tmp, sizeof(rf->tmp), ".%s.lockstep-XXXXXX", final);
    if (n < 0 || (size_t)n >= sizeof(rf->tmp) ||
        (size_t)snprintf(rf->final, sizeof(rf->final), "%s", final) >= sizeof(rf->final))
        return fail(path, ENAMETOOLONG, err, err_len);
    /* no signal between creating the temporary and recording it: it would stay behind */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    const int fd = mkstemp(rf->tmp);
    const int e = errno;
    if (fd >= 0)
        rf->slot = claim_slot(rf->tmp);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) {
        /* a writable file in a directory we may not create files in: written in place */
        if (exists && !access(path, W_OK))
            return 0;
        return fail(path, e, err, err_len);
    }
    /* the mode a new file gets (or the file's own, when replacing one), not mkstemp's 0600 */
    mode_t mode;
    if (exists) {
        mode = st.st_mode & 07777;
    } else {
        const mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    /* a file system without modes is no reason to fail the report */
    const int mode_failed = fchmod(fd, mode);
    (void)mode_failed;
    close(fd);
    rf->pending = true;
    rf->write_path = rf->tmp;
    return 0;
}

int ls_report_commit(LsReportFile *rf, char *err, size_t err_len)
{
    if (!rf->pending)
        return 0;
    if (rename(rf->tmp, rf->final)) {
        const int e = errno;
        ls_report_abandon(rf);
        return fail(rf->path, e, err, err_len);
    }
    rf->pending = false;
    release_slot(rf->slot);
    rf->slot = -1;
    return 0;
}

void ls_report_abandon(LsReportFile *rf)
{
    if (!rf->pending)
        return;
    /* before the slot is freed: a signal in between removes it again, harmlessly */
    unlink(rf->tmp);
    rf->pending = false;
    release_slot(rf->slot);
    rf->slot = -1;
}

void ls_report_error(const LsReportFile *rf, const char *message, char *err, size_t err_len)
{
    /* a message about something else than the file (a writer's own checks) stays as it is */
    if (!strstr(message, rf->write_path)) {
        snprintf(err, err_len, "%s", message);
        return;
    }
    const char *why = strrchr(message, ':');
    snprintf(err, err_len, "cannot write the report to %s: %s", rf->path,
             why && why[1] == ' ' ? why + 2 : message);
}

static void say(const char *text)
{
    /* write(2): async-signal-safe; a failed message changes nothing */
    const ssize_t ignored = write(2, text, strlen(text));
    (void)ignored;
}

/* Removes the pending temporaries and dies of the same signal (the shell sees 128 + n). */
static void on_signal(int sig)
{
    int removed = 0;
    for (int i = 0; i < REPORT_SLOTS; i++)
        if (atomic_load(&slot_state[i]) == SLOT_LIVE) {
            unlink(slot_path[i]);
            removed = 1;
        }
    /* SIGBUS: a page of a mapped input (frames borrowed from the file) is gone, which happens
     * when the file is cut short while it is scored */
    say(sig == SIGINT    ? "lockstep: interrupted (SIGINT)"
        : sig == SIGTERM ? "lockstep: terminated (SIGTERM)"
        : sig == SIGBUS  ? "lockstep: an input file was cut short while it was read (SIGBUS)"
                         : "lockstep: hung up (SIGHUP)");
    say(removed ? ", no report written\n" : "\n");
    /* SA_RESETHAND restored the default action; the signal is blocked until we return */
    raise(sig);
}

static atomic_bool signals_caught;

bool ls_report_signals_caught(void) { return atomic_load(&signals_caught); }

void ls_report_catch_signals(void)
{
    atomic_store(&signals_caught, true);
    static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGBUS };
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
        struct sigaction old;
        if (!sigaction(signals[i], NULL, &old) && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &sa, NULL);
    }
}
