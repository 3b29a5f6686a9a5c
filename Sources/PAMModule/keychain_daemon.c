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

// Handing a login event to the user's keychain daemon: which socket (the one named by socket=, the
// system daemon's, or the user's own, started with auto_start), then one request and its reply.
// Whatever happens, one line goes to syslog and the login goes on.

#define _GNU_SOURCE
#include "pam_swift_keychain.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <security/pam_ext.h>

// Where a system-mode daemon listens (DaemonEndpoint.systemSocketPath).
#define SWKC_SYSTEM_SOCKET_PATH "/run/swift-keychain/socket"
// How long connecting, sending and the reply may take in all, counted again after a daemon
// started here listens (its start has start_timeout= of its own): scrypt at the standard cost, or
// a passcode change re-sealing every protected item (milliseconds).
#define SWKC_REPLY_MILLISECONDS 60000

static int is_socket(const char *path) {
    struct stat status;
    return lstat(path, &status) == 0 && S_ISSOCK(status.st_mode);
}

// The connection for `user`, with the daemon started first when that is allowed and needed (then
// `deadline` starts again); a negative number when there is none, with the reason logged.
static int connection(pam_handle_t *pamh, const struct swkc_options *options, const struct passwd *user,
                      struct timespec *deadline) {
    char path[4096];
    enum swkc_socket_kind kind;
    if (options->socket != NULL) {
        snprintf(path, sizeof path, "%s", options->socket);
        kind = SWKC_NAMED_SOCKET;
    } else if (is_socket(SWKC_SYSTEM_SOCKET_PATH)) {
        snprintf(path, sizeof path, "%s", SWKC_SYSTEM_SOCKET_PATH);
        kind = SWKC_SYSTEM_SOCKET;
    } else if (swkc_user_socket(pamh, user, path, sizeof path) == 0) {
        kind = SWKC_USER_SOCKET;
    } else {
        pam_syslog(pamh, LOG_NOTICE,
                   "the keychain of %s was left as it was: the user's runtime folder does not exist yet "
                   "(the module's session line must follow pam_systemd.so)",
                   user->pw_name);
        return -1;
    }
    int exists = 1;
    if (kind == SWKC_USER_SOCKET && !swkc_is_safe_user_socket(path, user, &exists)) {
        pam_syslog(pamh, LOG_WARNING,
                   "the keychain of %s was left as it was: %s or its folder does not belong to the user alone",
                   user->pw_name, path);
        return -1;
    }
    int descriptor = exists ? swkc_connect(path, user, kind, deadline) : -1;
    if (!exists) errno = ENOENT;
    if (descriptor == -1 && kind == SWKC_USER_SOCKET && options->auto_start &&
        (errno == ENOENT || errno == ECONNREFUSED)) {
        const char *why = NULL;
        if (swkc_start_daemon(pamh, options, user, path, &why) != 0) {
            pam_syslog(pamh, LOG_NOTICE, "the keychain of %s was left as it was: %s", user->pw_name, why);
            return -1;
        }
        swkc_deadline_in(deadline, SWKC_REPLY_MILLISECONDS);
        if (!swkc_is_safe_user_socket(path, user, &exists)) {
            descriptor = -2;
        } else if (!exists) {
            // The daemon reported nothing and is not there (it could not start, or run as the user).
            descriptor = -1;
            errno = ENOENT;
        } else {
            descriptor = swkc_connect(path, user, kind, deadline);
        }
    }
    if (descriptor == -2) {
        pam_syslog(pamh, LOG_WARNING,
                   "the keychain of %s was left as it was: %s is served by a program that may not serve it",
                   user->pw_name, path);
    } else if (descriptor < 0) {
        pam_syslog(pamh, LOG_NOTICE, "the keychain of %s was left as it was: no keychain daemon at %s (%s)",
                   user->pw_name, path, strerror(errno));
    }
    return descriptor;
}

int swkc_hand_over(pam_handle_t *pamh, const struct swkc_options *options, const struct passwd *user,
                   enum swkc_event event, const char *first, const char *second, int flag) {
    struct timespec deadline;
    swkc_deadline_in(&deadline, SWKC_REPLY_MILLISECONDS);
    int descriptor = connection(pamh, options, user, &deadline);
    if (descriptor < 0) return PAM_IGNORE;
    struct swkc_buffer frame = {0};
    struct swkc_reply reply;
    int encoded = swkc_encode_login(&frame, event, user->pw_uid, first, second, flag);
    int answered = encoded == 0 ? swkc_exchange(descriptor, &frame, &reply, &deadline) : -1;
    swkc_buffer_free(&frame);
    close(descriptor);
    if (encoded != 0) {
        pam_syslog(pamh, LOG_NOTICE, "the keychain of %s was left as it was: out of memory", user->pw_name);
        return PAM_IGNORE;
    }
    if (answered != 0) {
        pam_syslog(pamh, LOG_NOTICE,
                   "the keychain of %s was left as it was: the keychain daemon did not answer in time "
                   "(or speaks another version than %d)",
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
