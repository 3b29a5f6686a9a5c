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

// Where the user's keychain daemon listens, whether the module may talk to what listens there, and
// one request and its reply within a deadline.
//
// The module runs as root inside the PAM host: a socket path under a folder the user (or, in
// /tmp, anyone) controls is checked before it is followed — the folder the user's own with mode
// 0700, the socket theirs — and the listener's uid, from the kernel, must be the one that may
// serve the user. No step waits past the deadline: a listener that never accepts or answers (a
// full backlog, a byte a minute) costs the login a bounded time.

#define _GNU_SOURCE
#include "pam_swift_keychain.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <security/pam_ext.h>

// The account a system-mode daemon runs as (DaemonEndpoint.systemUserName).
#define SWKC_SYSTEM_ACCOUNT "swift-keychain"

void swkc_deadline_in(struct timespec *deadline, long milliseconds) {
    clock_gettime(CLOCK_MONOTONIC, deadline);
    deadline->tv_sec += milliseconds / 1000;
    deadline->tv_nsec += (milliseconds % 1000) * 1000000L;
    if (deadline->tv_nsec >= 1000000000L) {
        deadline->tv_sec += 1;
        deadline->tv_nsec -= 1000000000L;
    }
}

int swkc_milliseconds_left(const struct timespec *deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long left = (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
    return left <= 0 ? 0 : (left > 3600000 ? 3600000 : (int)left);
}

const char *swkc_runtime_folder(pam_handle_t *pamh, const struct passwd *user, char *path, size_t size,
                                int *missing) {
    *missing = 0;
    const char *named = pam_getenv(pamh, "XDG_RUNTIME_DIR");
    if (named != NULL && named[0] == '/' && strlen(named) < size) {
        snprintf(path, size, "%s", named);
        return path;
    }
    struct stat status;
    if (snprintf(path, size, "/run/user/%u", (unsigned)user->pw_uid) < (int)size &&
        lstat(path, &status) == 0 && S_ISDIR(status.st_mode) && status.st_uid == user->pw_uid) {
        return path;
    }
    // Where systemd runs (sd_booted's test), logind makes the runtime folder: the session's
    // programs will use it, so a daemon on /tmp's socket would serve nobody.
    *missing = lstat("/run/systemd/system", &status) == 0 && S_ISDIR(status.st_mode);
    return NULL;
}

int swkc_user_socket(pam_handle_t *pamh, const struct passwd *user, char *path, size_t size) {
    char runtime[256];
    int missing = 0;
    int written;
    if (swkc_runtime_folder(pamh, user, runtime, sizeof runtime, &missing) != NULL) {
        written = snprintf(path, size, "%s/swift-keychain/socket", runtime);
    } else if (missing) {
        return -1;
    } else {
        written = snprintf(path, size, "/tmp/swift-keychain-%u/socket", (unsigned)user->pw_uid);
    }
    return written > 0 && (size_t)written < size ? 0 : -1;
}

int swkc_is_safe_user_socket(const char *path, const struct passwd *user, int *exists) {
    *exists = 0;
    char folder[4096];
    if (snprintf(folder, sizeof folder, "%s", path) >= (int)sizeof folder) return 0;
    char *slash = strrchr(folder, '/');
    if (slash == NULL || slash == folder) return 0;
    *slash = '\0';
    struct stat status;
    if (lstat(folder, &status) != 0) return errno == ENOENT;
    // A folder planted by someone else, or open to others: nothing in it is followed.
    if (!S_ISDIR(status.st_mode) || status.st_uid != user->pw_uid || (status.st_mode & 077) != 0) return 0;
    if (lstat(path, &status) != 0) return errno == ENOENT;
    *exists = 1;
    return S_ISSOCK(status.st_mode) && status.st_uid == user->pw_uid;
}

// Whether a listener running as `server` may serve `user` on a socket of `kind`.
static int may_serve(uid_t server, const struct passwd *user, enum swkc_socket_kind kind) {
    if (kind != SWKC_SYSTEM_SOCKET && server == user->pw_uid) return 1;
    if (kind == SWKC_USER_SOCKET) return 0;
    if (server == 0) return 1;
    char buffer[4096];
    struct passwd account, *found = NULL;
    return getpwnam_r(SWKC_SYSTEM_ACCOUNT, &account, buffer, sizeof buffer, &found) == 0 && found != NULL &&
           found->pw_uid == server;
}

// Connects `descriptor` (non-blocking) to `address` by the deadline; 0, or -1 with errno.
static int connect_within(int descriptor, const struct sockaddr_un *address, const struct timespec *deadline) {
    for (;;) {
        if (connect(descriptor, (const struct sockaddr *)address, sizeof *address) == 0) return 0;
        int saved = errno;
        if (saved == EINTR) continue;
        // A listener whose backlog is full refuses a non-blocking connect (EAGAIN): try again
        // until the deadline, never wait in connect itself.
        if (saved == EAGAIN && swkc_milliseconds_left(deadline) > 100) {
            struct timespec pause = {.tv_nsec = 100000000L};
            nanosleep(&pause, NULL);
            continue;
        }
        if (saved == EINPROGRESS) {
            struct pollfd wait = {.fd = descriptor, .events = POLLOUT};
            int error = 0;
            socklen_t length = sizeof error;
            if (poll(&wait, 1, swkc_milliseconds_left(deadline)) == 1 &&
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) {
                return 0;
            }
            saved = error != 0 ? error : ETIMEDOUT;
        }
        errno = saved == EAGAIN ? ETIMEDOUT : saved;
        return -1;
    }
}

int swkc_connect(const char *path, const struct passwd *user, enum swkc_socket_kind kind,
                 const struct timespec *deadline) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address.sun_path, path, strlen(path) + 1);
    int descriptor = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (descriptor < 0) return -1;
    // The path is the user's to change between the checks and connect: followed with the user's
    // file permissions, not root's, it reaches no socket the user could not reach.
    int previous_group = setfsgid(user->pw_gid);
    int previous = setfsuid(user->pw_uid);
    int connected = connect_within(descriptor, &address, deadline);
    setfsuid((uid_t)previous);
    setfsgid((gid_t)previous_group);
    if (connected != 0) {
        int saved = errno;
        close(descriptor);
        errno = saved;
        return -1;
    }
    struct ucred peer;
    socklen_t length = sizeof peer;
    if (getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &peer, &length) != 0 || !may_serve(peer.uid, user, kind)) {
        close(descriptor);
        return -2;
    }
    return descriptor;
}

// Waits until `descriptor` is ready for `events`; 0 when it is, -1 at the deadline or on an error.
static int wait_ready(int descriptor, short events, const struct timespec *deadline) {
    for (;;) {
        struct pollfd wait = {.fd = descriptor, .events = events};
        int polled = poll(&wait, 1, swkc_milliseconds_left(deadline));
        if (polled < 0 && errno == EINTR) continue;
        return polled == 1 ? 0 : -1;
    }
}

static int receive_exactly(int descriptor, unsigned char *bytes, size_t count, const struct timespec *deadline) {
    size_t received = 0;
    while (received < count) {
        if (wait_ready(descriptor, POLLIN, deadline) != 0) return -1;
        ssize_t part = recv(descriptor, bytes + received, count - received, 0);
        if (part < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (part <= 0) return -1;
        received += (size_t)part;
    }
    return 0;
}

int swkc_exchange(int descriptor, const struct swkc_buffer *frame, struct swkc_reply *reply,
                  const struct timespec *deadline) {
    size_t sent = 0;
    while (sent < frame->length) {
        if (wait_ready(descriptor, POLLOUT, deadline) != 0) return -1;
        ssize_t part = send(descriptor, frame->bytes + sent, frame->length - sent, MSG_NOSIGNAL);
        if (part < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (part <= 0) return -1;
        sent += (size_t)part;
    }
    unsigned char header[4];
    if (receive_exactly(descriptor, header, sizeof header, deadline) != 0) return -1;
    size_t length = ((size_t)header[0] << 24) | ((size_t)header[1] << 16) | ((size_t)header[2] << 8) | header[3];
    if (length == 0 || length > SWKC_MAXIMUM_REPLY) return -1;
    unsigned char *body = malloc(length);
    if (body == NULL) return -1;
    int decoded = receive_exactly(descriptor, body, length, deadline) == 0 ? swkc_decode_reply(body, length, reply) : -1;
    free(body);
    return decoded;
}
