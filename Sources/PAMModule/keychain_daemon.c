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

// Handing a login event to the user's keychain daemon: which socket, checking who listens there,
// starting the user's own daemon when none does (auto_start), and one request and its reply.
//
// The module runs as root inside the PAM host: it never follows a path the user controls to a
// server it did not check (the listener's uid, from the kernel), never leaves a child for the
// host to reap, never lets the daemon inherit the host's descriptors or environment, and waits a
// bounded time for every step.

#define _GNU_SOURCE
#include "pam_swift_keychain.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <security/pam_ext.h>

// Where a system-mode daemon listens (DaemonEndpoint.systemSocketPath), and its account.
#define SWKC_SYSTEM_SOCKET "/run/swift-keychain/socket"
#define SWKC_SYSTEM_ACCOUNT "swift-keychain"
// How long a request may take: scrypt at the standard cost, or a passcode change re-sealing
// every protected item (seconds).
#define SWKC_REPLY_SECONDS 60
// How long a daemon started here may take to listen (milliseconds).
#define SWKC_START_MILLISECONDS 10000

static const char *const default_daemons[] = {"/usr/local/bin/securityd", "/usr/bin/securityd", NULL};

// The user's runtime folder: XDG_RUNTIME_DIR of the PAM environment (pam_systemd sets it), else
// /run/user/UID when it exists and is theirs; NULL when there is none.
static const char *runtime_folder(pam_handle_t *pamh, const struct passwd *user, char *path, size_t size) {
    const char *named = pam_getenv(pamh, "XDG_RUNTIME_DIR");
    if (named != NULL && named[0] == '/' && strlen(named) < size) {
        snprintf(path, size, "%s", named);
        return path;
    }
    struct stat status;
    if (snprintf(path, size, "/run/user/%u", (unsigned)user->pw_uid) < (int)size && stat(path, &status) == 0 &&
        S_ISDIR(status.st_mode) && status.st_uid == user->pw_uid) {
        return path;
    }
    return NULL;
}

// The socket of the user's own daemon for their standard keychain (DaemonEndpoint.forHome).
static int user_socket(pam_handle_t *pamh, const struct passwd *user, char *path, size_t size) {
    char runtime[256];
    int written = runtime_folder(pamh, user, runtime, sizeof runtime) != NULL
                      ? snprintf(path, size, "%s/swift-keychain/socket", runtime)
                      : snprintf(path, size, "/tmp/swift-keychain-%u/socket", (unsigned)user->pw_uid);
    return written > 0 && (size_t)written < size ? 0 : -1;
}

static int is_socket(const char *path) {
    struct stat status;
    return lstat(path, &status) == 0 && S_ISSOCK(status.st_mode);
}

// Whether `server` may serve `user`'s keychain on the socket: the user themselves (their own
// daemon), the system daemon's account, or root.
static int is_trusted_server(uid_t server, const struct passwd *user, int system_allowed) {
    if (server == user->pw_uid || server == 0) return 1;
    if (!system_allowed) return 0;
    char buffer[4096];
    struct passwd account, *found = NULL;
    return getpwnam_r(SWKC_SYSTEM_ACCOUNT, &account, buffer, sizeof buffer, &found) == 0 && found != NULL &&
           found->pw_uid == server;
}

// A connection to the daemon at `path` whose listener may serve `user`; -1 with errno when
// nothing listens there, -2 when something else does.
static int connect_checked(const char *path, const struct passwd *user, int system_allowed) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address.sun_path, path, strlen(path) + 1);
    int descriptor = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (descriptor < 0) return -1;
    if (connect(descriptor, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(descriptor);
        errno = saved;
        return -1;
    }
    struct ucred peer;
    socklen_t length = sizeof peer;
    if (getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 ||
        !is_trusted_server(peer.uid, user, system_allowed)) {
        close(descriptor);
        return -2;
    }
    struct timeval timeout = {.tv_sec = SWKC_REPLY_SECONDS};
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    return descriptor;
}

static const char *daemon_program(const struct swkc_options *options) {
    if (options->securityd != NULL) return access(options->securityd, X_OK) == 0 ? options->securityd : NULL;
    for (int index = 0; default_daemons[index] != NULL; index++) {
        if (access(default_daemons[index], X_OK) == 0) return default_daemons[index];
    }
    return NULL;
}

// In the daemon's process, before exec: becomes the user for good (or stays, when the host
// already runs as them); 0 on success.
static int become(const struct passwd *user) {
    if (geteuid() != 0) return geteuid() == user->pw_uid ? 0 : -1;
    if (initgroups(user->pw_name, user->pw_gid) != 0) return -1;
    if (setresgid(user->pw_gid, user->pw_gid, user->pw_gid) != 0) return -1;
    if (setresuid(user->pw_uid, user->pw_uid, user->pw_uid) != 0) return -1;
    // Root cannot be taken back.
    if (user->pw_uid != 0 && setuid(0) == 0) return -1;
    return 0;
}

// The daemon's process: a session of its own, the user's credentials, descriptors 0-2 on
// /dev/null and 3 the readiness pipe, an environment of its own; never returns.
static void run_daemon(const char *program, const struct passwd *user, const char *socket_path,
                       const char *runtime, int ready) {
    setsid();
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) _exit(127);
    // dup2 onto itself would keep close-on-exec.
    if (ready == 3 ? fcntl(3, F_SETFD, 0) != 0 : dup2(ready, 3) < 0) _exit(127);
    // Every other descriptor of the host (its sockets, its terminal) stays behind.
    if (close_range(4, ~0U, 0) != 0) {
        long most = sysconf(_SC_OPEN_MAX);
        for (long descriptor = 4; descriptor < (most > 0 && most < 65536 ? most : 65536); descriptor++) {
            close((int)descriptor);
        }
    }
    if (become(user) != 0) _exit(126);
    if (chdir(user->pw_dir) != 0 && chdir("/") != 0) _exit(127);
    char log[4200];
    if (snprintf(log, sizeof log, "%s.log", socket_path) >= (int)sizeof log) _exit(127);
    char home[4200], name[300], logname[300], runtime_variable[300];
    snprintf(home, sizeof home, "HOME=%s", user->pw_dir);
    snprintf(name, sizeof name, "USER=%s", user->pw_name);
    snprintf(logname, sizeof logname, "LOGNAME=%s", user->pw_name);
    char *environment[6] = {home, name, logname, "PATH=/usr/local/bin:/usr/bin:/bin", NULL, NULL};
    if (runtime != NULL) {
        snprintf(runtime_variable, sizeof runtime_variable, "XDG_RUNTIME_DIR=%s", runtime);
        environment[4] = runtime_variable;
    }
    char *arguments[] = {(char *)program, "--socket", (char *)socket_path, "--ready-fd", "3", "--log-file", log, NULL};
    execve(program, arguments, environment);
    _exit(127);
}

// Waits for the started daemon's report on `ready`: 0 when it listens (or another daemon was
// quicker and it closed the pipe without a word), -1 when it failed or took too long.
static int wait_until_ready(int ready) {
    char report[16] = {0};
    size_t received = 0;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (received < sizeof report - 1) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed >= SWKC_START_MILLISECONDS) return -1;
        struct pollfd wait = {.fd = ready, .events = POLLIN};
        int polled = poll(&wait, 1, (int)(SWKC_START_MILLISECONDS - elapsed));
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

// Starts the user's own daemon on `socket_path` and waits until it listens; 0 on success, else
// the reason in `why`.
static int start_daemon(pam_handle_t *pamh, const struct swkc_options *options, const struct passwd *user,
                        const char *socket_path, const char **why) {
    const char *program = daemon_program(options);
    if (program == NULL) {
        *why = "no securityd to start (securityd=PATH names it)";
        return -1;
    }
    if (geteuid() != 0 && geteuid() != user->pw_uid) {
        *why = "this program may not start a daemon as the user";
        return -1;
    }
    char runtime[256];
    const char *folder = runtime_folder(pamh, user, runtime, sizeof runtime);
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) {
        *why = "no pipe for the daemon's report";
        return -1;
    }
    // Two forks: the daemon's parent exits at once, so the host has no child of ours to reap.
    pid_t child = fork();
    if (child < 0) {
        close(ends[0]);
        close(ends[1]);
        *why = "cannot fork";
        return -1;
    }
    if (child == 0) {
        close(ends[0]);
        pid_t daemon = fork();
        if (daemon == 0) run_daemon(program, user, socket_path, folder, ends[1]);
        _exit(daemon < 0 ? 1 : 0);
    }
    close(ends[1]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    int ready = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? wait_until_ready(ends[0]) : -1;
    close(ends[0]);
    if (ready != 0) *why = "the daemon did not start (its log is beside its socket)";
    return ready;
}

// Sends `frame` on `descriptor` and reads the reply into `reply`; 0 on success.
static int exchange(int descriptor, const struct swkc_buffer *frame, struct swkc_reply *reply) {
    size_t sent = 0;
    while (sent < frame->length) {
        ssize_t count = send(descriptor, frame->bytes + sent, frame->length - sent, MSG_NOSIGNAL);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return -1;
        sent += (size_t)count;
    }
    unsigned char header[4];
    size_t received = 0;
    while (received < sizeof header) {
        ssize_t count = recv(descriptor, header + received, sizeof header - received, 0);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return -1;
        received += (size_t)count;
    }
    size_t length = ((size_t)header[0] << 24) | ((size_t)header[1] << 16) | ((size_t)header[2] << 8) | header[3];
    if (length == 0 || length > SWKC_MAXIMUM_REPLY) return -1;
    unsigned char *body = malloc(length);
    if (body == NULL) return -1;
    received = 0;
    while (received < length) {
        ssize_t count = recv(descriptor, body + received, length - received, 0);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) {
            free(body);
            return -1;
        }
        received += (size_t)count;
    }
    int decoded = swkc_decode_reply(body, length, reply);
    free(body);
    return decoded;
}

int swkc_hand_over(pam_handle_t *pamh, const struct swkc_options *options, const struct passwd *user,
                   enum swkc_event event, const char *first, const char *second, int flag) {
    char path[4096];
    int system_allowed = 1;
    int may_start = 0;
    if (options->socket != NULL) {
        snprintf(path, sizeof path, "%s", options->socket);
    } else if (is_socket(SWKC_SYSTEM_SOCKET)) {
        snprintf(path, sizeof path, "%s", SWKC_SYSTEM_SOCKET);
    } else if (user_socket(pamh, user, path, sizeof path) == 0) {
        system_allowed = 0;
        may_start = options->auto_start;
    } else {
        pam_syslog(pamh, LOG_NOTICE, "the keychain of %s was left as it was: its socket path is too long",
                   user->pw_name);
        return PAM_IGNORE;
    }
    int descriptor = connect_checked(path, user, system_allowed);
    if (descriptor == -1 && may_start && (errno == ENOENT || errno == ECONNREFUSED)) {
        const char *why = NULL;
        if (start_daemon(pamh, options, user, path, &why) != 0) {
            pam_syslog(pamh, LOG_NOTICE, "the keychain of %s was left as it was: %s", user->pw_name, why);
            return PAM_IGNORE;
        }
        descriptor = connect_checked(path, user, system_allowed);
    }
    if (descriptor == -2) {
        pam_syslog(pamh, LOG_WARNING,
                   "the keychain of %s was left as it was: %s is served by a program of another user",
                   user->pw_name, path);
        return PAM_IGNORE;
    }
    if (descriptor < 0) {
        pam_syslog(pamh, LOG_NOTICE, "the keychain of %s was left as it was: no keychain daemon at %s (%s)",
                   user->pw_name, path, strerror(errno));
        return PAM_IGNORE;
    }
    struct swkc_buffer frame = {0};
    struct swkc_reply reply;
    int encoded = swkc_encode_login(&frame, event, user->pw_uid, first, second, flag);
    int answered = encoded == 0 ? exchange(descriptor, &frame, &reply) : -1;
    swkc_buffer_free(&frame);
    close(descriptor);
    if (encoded != 0) {
        pam_syslog(pamh, LOG_NOTICE, "the keychain of %s was left as it was: out of memory", user->pw_name);
        return PAM_IGNORE;
    }
    if (answered != 0) {
        pam_syslog(pamh, LOG_NOTICE,
                   "the keychain of %s was left as it was: the keychain daemon did not answer (or speaks another version than %d)",
                   user->pw_name, SWKC_WIRE_VERSION);
        return PAM_IGNORE;
    }
    if (reply.outcome < 0) {
        pam_syslog(pamh, LOG_NOTICE, "the keychain of %s was left as it was: %s (%s)", user->pw_name, reply.message,
                   reply.code);
        return PAM_IGNORE;
    }
    pam_syslog(pamh, LOG_INFO, "%s: %s", user->pw_name, swkc_outcome_summary(reply.outcome));
    return PAM_SUCCESS;
}
