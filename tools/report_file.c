#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_file.h"

/* What the signal handler reads: the temporary's name, complete before `pending` is set. */
static char tmp_path[PATH_MAX], final_path[PATH_MAX];
static volatile sig_atomic_t pending;

static void say(const char *text)
{
    /* write(2): async-signal-safe; a failed message changes nothing */
    ssize_t ignored = write(2, text, strlen(text));
    (void)ignored;
}

/* Removes the temporary and dies of the same signal (the shell sees 128 + n). */
static void on_signal(int sig)
{
    if (pending)
        unlink(tmp_path);
    say(sig == SIGINT ? "lockstep: interrupted (SIGINT)"
        : sig == SIGTERM ? "lockstep: terminated (SIGTERM)" : "lockstep: hung up (SIGHUP)");
    say(pending ? ", no report written\n" : "\n");
    /* SA_RESETHAND restored the default action; the signal is blocked until we return */
    raise(sig);
}

static void install_handlers(void)
{
    static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
        struct sigaction old;
        /* a signal ignored by whoever started us (nohup) stays ignored */
        if (!sigaction(signals[i], NULL, &old) && old.sa_handler != SIG_IGN)
            sigaction(signals[i], &sa, NULL);
    }
}

int report_file_begin(const char *path, const char **write_path)
{
    install_handlers();
    *write_path = path;
    if (!path)
        return 0;
    struct stat st;
    const int exists = !stat(path, &st);
    if (!strcmp(path, "-") || (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
        return 0;
    if (exists && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "cannot write the report to %s: %s\n", path, strerror(EISDIR));
        return -1;
    }
    /* a symbolic link stays one: the file it names is replaced */
    char target[PATH_MAX];
    if (exists && realpath(path, target))
        path = target;
    const char *slash = strrchr(path, '/');
    const int n = slash ? snprintf(tmp_path, sizeof(tmp_path), "%.*s/.%s.lockstep-XXXXXX",
                                   (int)(slash - path), path, slash + 1)
                        : snprintf(tmp_path, sizeof(tmp_path), ".%s.lockstep-XXXXXX", path);
    if (n < 0 || (size_t)n >= sizeof(tmp_path) ||
        (size_t)snprintf(final_path, sizeof(final_path), "%s", path) >= sizeof(final_path)) {
        fprintf(stderr, "cannot write the report to %s: %s\n", *write_path,
                strerror(ENAMETOOLONG));
        return -1;
    }
    const int fd = mkstemp(tmp_path);
    if (fd < 0) {
        const int e = errno;
        /* a writable file in a directory we may not create files in: written in place */
        if (exists && !access(path, W_OK))
            return 0;
        fprintf(stderr, "cannot write the report to %s: %s\n", *write_path, strerror(e));
        return -1;
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
    fchmod(fd, mode);
    close(fd);
    pending = 1;
    *write_path = tmp_path;
    return 0;
}

int report_file_commit(void)
{
    if (!pending)
        return 0;
    if (rename(tmp_path, final_path)) {
        const int e = errno;
        report_file_abandon();
        fprintf(stderr, "cannot write the report to %s: %s\n", final_path, strerror(e));
        return -1;
    }
    pending = 0;
    return 0;
}

void report_file_abandon(void)
{
    if (!pending)
        return;
    unlink(tmp_path); /* before clearing `pending`: a signal in between unlinks again, harmlessly */
    pending = 0;
}
