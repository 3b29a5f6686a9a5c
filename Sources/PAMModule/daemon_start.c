//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keychain open source project
//
// Copyright (c) 2026 the swift-keychain project authors
// Licensed under Apache License v2.0
//
// See LICENSE.txt for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Starting the user's own securityd (auto_start): a program only root can have put there, run as
// the user in a session of its own, with nothing of the login program but a pipe for its report.

#define _GNU_SOURCE
#include "pam_swift_keychain.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const default_daemons[] = {"/usr/local/bin/securityd", "/usr/bin/securityd", NULL};

// Whether only root can change `path` or put another file in its place: it and every folder above
// it belong to root and are writable by nobody else (a sticky folder such as /tmp keeps others'
// hands off root's entries). `resolved` receives the path without links, the one to run (a link
// on the way could change after the check).
static int is_roots_alone(const char *path, char resolved[PATH_MAX]) {
    if (realpath(path, resolved) == NULL) return 0;
    char checked[PATH_MAX];
    memcpy(checked, resolved, PATH_MAX);
    struct stat status;
    if (stat(checked, &status) != 0 || !S_ISREG(status.st_mode) || status.st_uid != 0 ||
        (status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        return 0;
    }
    for (char *slash = strrchr(checked, '/'); slash != NULL; slash = strrchr(checked, '/')) {
        if (slash == checked) {
            checked[1] = '\0';
        } else {
            *slash = '\0';
        }
        if (stat(checked, &status) != 0 || status.st_uid != 0) return 0;
        if ((status.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (status.st_mode & S_ISVTX) == 0) return 0;
        if (slash == checked) break;
    }
    return 1;
}

// The daemon to run, resolved into `resolved`; NULL when there is none root alone could have put there.
static const char *daemon_program(const struct swkc_options *options, char resolved[PATH_MAX]) {
    if (options->securityd != NULL) return is_roots_alone(options->securityd, resolved) ? resolved : NULL;
    for (int index = 0; default_daemons[index] != NULL; index++) {
        if (is_roots_alone(default_daemons[index], resolved)) return resolved;
    }
    return NULL;
}

// The user's groups, looked up before fork (NSS may take locks a forked child of a threaded host
// would never get back); NULL when they cannot be.
static gid_t *groups_of(const struct passwd *user, int *count) {
    int size = 32;
    for (int round = 0; round < 8; round++) {
        gid_t *groups = malloc((size_t)size * sizeof *groups);
        if (groups == NULL) return NULL;
        int found = size;
        if (getgrouplist(user->pw_name, user->pw_gid, groups, &found) >= 0) {
            *count = found;
            return groups;
        }
        free(groups);
        size = found > size ? found : size * 2;
    }
    return NULL;
}

// In the daemon's process, before exec: becomes the user for good — every uid and gid the
// user's, the user's groups — or fails; 0 on success.
static int become(const struct passwd *user, const gid_t *groups, int count) {
    uid_t real, effective, saved;
    if (getresuid(&real, &effective, &saved) != 0) return -1;
    // A host that only set its effective uid to the user's keeps root elsewhere: take it back
    // first, so that the groups and gids can be dropped too.
    if (effective != 0 && (real == 0 || saved == 0) && seteuid(0) != 0) return -1;
    if (geteuid() == 0 && setgroups((size_t)count, groups) != 0) return -1;
    if (setresgid(user->pw_gid, user->pw_gid, user->pw_gid) != 0) return -1;
    if (setresuid(user->pw_uid, user->pw_uid, user->pw_uid) != 0) return -1;
    gid_t real_group, effective_group, saved_group;
    if (getresuid(&real, &effective, &saved) != 0 || real != user->pw_uid || effective != user->pw_uid ||
        saved != user->pw_uid || getresgid(&real_group, &effective_group, &saved_group) != 0 ||
        real_group != user->pw_gid || effective_group != user->pw_gid || saved_group != user->pw_gid) {
        return -1;
    }
    // Root cannot be taken back.
    if (user->pw_uid != 0 && setuid(0) == 0) return -1;
    return 0;
}

// What the daemon runs with, written before fork: the child only calls the kernel.
struct launch {
    const char *program;
    char log[4200];
    char home[4200];
    char name[300];
    char logname[300];
    char runtime[300];
    char *environment[6];
    char *arguments[8];
};

static int prepare(struct launch *launch, const char *program, const struct passwd *user, const char *socket_path,
                   const char *runtime) {
    memset(launch, 0, sizeof *launch);
    launch->program = program;
    if (snprintf(launch->log, sizeof launch->log, "%s.log", socket_path) >= (int)sizeof launch->log ||
        snprintf(launch->home, sizeof launch->home, "HOME=%s", user->pw_dir) >= (int)sizeof launch->home ||
        snprintf(launch->name, sizeof launch->name, "USER=%s", user->pw_name) >= (int)sizeof launch->name ||
        snprintf(launch->logname, sizeof launch->logname, "LOGNAME=%s", user->pw_name) >= (int)sizeof launch->logname) {
        return -1;
    }
    launch->environment[0] = launch->home;
    launch->environment[1] = launch->name;
    launch->environment[2] = launch->logname;
    launch->environment[3] = "PATH=/usr/local/bin:/usr/bin:/bin";
    if (runtime != NULL) {
        if (snprintf(launch->runtime, sizeof launch->runtime, "XDG_RUNTIME_DIR=%s", runtime) >= (int)sizeof launch->runtime) {
            return -1;
        }
        launch->environment[4] = launch->runtime;
    }
    char *arguments[] = {(char *)program, "--socket", (char *)socket_path, "--ready-fd", "3", "--log-file", launch->log, NULL};
    memcpy(launch->arguments, arguments, sizeof arguments);
    return 0;
}

// Ends the daemon's process before exec, saying so on descriptor 4 (closed by a successful exec).
static void fail(int code) {
    unsigned char byte = (unsigned char)code;
    ssize_t written = write(4, &byte, 1);
    (void)written;
    _exit(code);
}

// The daemon's process: default signal dispositions and no blocked signal, a session of its own,
// descriptors 0-2 on /dev/null, 3 the readiness pipe and 4 (until exec) the failure pipe, the
// user's credentials and an environment of its own; never returns.
static void run_daemon(const struct launch *launch, const struct passwd *user, const gid_t *groups, int count,
                       int ready, int failure) {
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP) signal(number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    setsid();
    // Out of the way of 0-3 first: a host may have had 0-2 closed, and the pipe be one of them.
    ready = fcntl(ready, F_DUPFD_CLOEXEC, 10);
    failure = fcntl(failure, F_DUPFD_CLOEXEC, 10);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (ready < 0 || failure < 0 || null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 ||
        dup2(ready, 3) < 0 || dup3(failure, 4, O_CLOEXEC) < 0) {
        _exit(127);
    }
    // dup2 onto itself keeps close-on-exec: cleared for 0-3 whatever they were.
    for (int descriptor = 0; descriptor <= 3; descriptor++) {
        if (fcntl(descriptor, F_SETFD, 0) != 0) fail(127);
    }
    // Every other descriptor of the host (its sockets, its terminal) stays behind.
    if (close_range(5, ~0U, 0) != 0) {
        long most = sysconf(_SC_OPEN_MAX);
        for (long descriptor = 5; descriptor < (most > 0 && most < 65536 ? most : 65536); descriptor++) {
            close((int)descriptor);
        }
    }
    if (become(user, groups, count) != 0) fail(126);
    if (chdir(user->pw_dir) != 0 && chdir("/") != 0) fail(127);
    execve(launch->program, launch->arguments, launch->environment);
    fail(127);
}

// Waits until `deadline` for the started daemon's report on `ready`: 0 when it listens (or another
// daemon was quicker and it closed the pipe without a word), -1 when it failed or took too long.
static int wait_until_ready(int ready, const struct timespec *deadline) {
    char report[16] = {0};
    size_t received = 0;
    while (received < sizeof report - 1) {
        struct pollfd wait = {.fd = ready, .events = POLLIN};
        int polled = poll(&wait, 1, swkc_milliseconds_left(deadline));
        if (polled < 0 && errno == EINTR) continue;
        if (polled <= 0) return -1;
        ssize_t count = read(ready, report + received, sizeof report - 1 - received);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        received += (size_t)count;
        if (memchr(report, '\n', received) != NULL) break;
    }
    return received == 0 || strncmp(report, "ready\n", 6) == 0 ? 0 : -1;
}

int swkc_start_daemon(pam_handle_t *pamh, const struct swkc_options *options, const struct passwd *user,
                      const char *socket_path, const char **why) {
    char resolved[PATH_MAX];
    const char *program = daemon_program(options, resolved);
    if (program == NULL) {
        *why = "no securityd that only root can change (securityd=PATH names it)";
        return -1;
    }
    if (geteuid() != 0 && geteuid() != user->pw_uid) {
        *why = "this program may not start a daemon as the user";
        return -1;
    }
    char runtime[256];
    int missing = 0;
    const char *folder = swkc_runtime_folder(pamh, user, runtime, sizeof runtime, &missing);
    int count = 0;
    gid_t *groups = groups_of(user, &count);
    if (groups == NULL) {
        *why = "the user's groups cannot be read";
        return -1;
    }
    struct launch *launch = malloc(sizeof *launch);
    if (launch == NULL || prepare(launch, program, user, socket_path, folder) != 0) {
        free(launch);
        free(groups);
        *why = "the daemon's paths are too long";
        return -1;
    }
    int ends[2], failed[2];
    if (pipe2(ends, O_CLOEXEC) != 0) {
        free(launch);
        free(groups);
        *why = "no pipe for the daemon's report";
        return -1;
    }
    if (pipe2(failed, O_CLOEXEC | O_NONBLOCK) != 0) {
        close(ends[0]);
        close(ends[1]);
        free(launch);
        free(groups);
        *why = "no pipe for the daemon's report";
        return -1;
    }
    // One deadline for the whole start (start_timeout=): the fork below and the daemon's report.
    struct timespec deadline;
    swkc_deadline_in(&deadline, options->start_milliseconds);
    // Two forks: the daemon's parent exits at once, so the host has no child of ours to reap.
    pid_t child = fork();
    if (child < 0) {
        close(ends[0]);
        close(ends[1]);
        close(failed[0]);
        close(failed[1]);
        free(launch);
        free(groups);
        *why = "cannot fork";
        return -1;
    }
    if (child == 0) {
        close(ends[0]);
        close(failed[0]);
        // No fork handlers of a threaded host in the copy of a copy: _Fork only asks the kernel.
        pid_t daemon = _Fork();
        if (daemon == 0) run_daemon(launch, user, groups, count, ends[1], failed[1]);
        _exit(daemon < 0 ? 1 : 0);
    }
    close(ends[1]);
    close(failed[1]);
    free(launch);
    free(groups);
    // The first child exits as soon as it forked; a host whose SIGCHLD handler reaps it first
    // leaves ECHILD and a status of 0, which counts as that. A child stuck in fork is killed.
    int status = 0;
    for (;;) {
        pid_t waited = waitpid(child, &status, WNOHANG);
        if (waited == child || (waited < 0 && errno != EINTR)) break;
        if (swkc_milliseconds_left(&deadline) == 0) {
            kill(child, SIGKILL);
            while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        struct timespec pause = {.tv_nsec = 10000000L};
        nanosleep(&pause, NULL);
    }
    int ready = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? wait_until_ready(ends[0], &deadline) : -1;
    close(ends[0]);
    // A process that ended before exec said why: the report's silence was not another daemon's.
    unsigned char code = 0;
    ssize_t failure = read(failed[0], &code, 1);
    close(failed[0]);
    if (failure == 1) {
        *why = code == 126 ? "the daemon's process could not become the user" : "securityd could not be run";
        return -1;
    }
    if (ready != 0) *why = "the daemon did not start (its log is beside its socket)";
    return ready;
}
