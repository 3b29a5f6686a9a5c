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

// pam_swift_keychain.so: the login password unlocks the user's keychain, and the keychain's
// passcode follows the login password when it changes (pam_swift_keychain(8)).
//
//   auth      keeps the password the stack verified, for the session (zeroed when PAM ends);
//   session   hands it to the user's keychain daemon at the session's start;
//   password  hands the old and the new password to it after a change.
//
// The module never makes a login fail: whatever happens to the keychain, it returns PAM_IGNORE
// or PAM_SUCCESS, and logs one line (never a password). It runs inside login, gdm, sshd, sudo and
// su: plain C, no threads, no Swift runtime.

#include "pam_swift_keychain.h"

#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <security/pam_ext.h>

// The name the password is kept under between auth and session.
static const char kept_password[] = "pam_swift_keychain_password";

// The password the stack verified, with the uid of the user it was verified for: sudo -u bob
// verifies alice's password and opens bob's session, and alice's password must not go to bob.
struct kept {
    uid_t uid;
    size_t length;
    char password[];
};

// The seconds of a start_timeout= option: 1 to SWKC_MAXIMUM_START_SECONDS in decimal digits alone,
// 0 for anything else.
static long start_seconds(const char *text) {
    long seconds = 0;
    if (*text == '\0') return 0;
    for (const char *digit = text; *digit != '\0'; digit++) {
        if (*digit < '0' || *digit > '9') return 0;
        seconds = seconds * 10 + (*digit - '0');
        if (seconds > SWKC_MAXIMUM_START_SECONDS) return 0;
    }
    return seconds;
}

static void parse_options(pam_handle_t *pamh, int argc, const char **argv, struct swkc_options *options) {
    memset(options, 0, sizeof *options);
    options->start_milliseconds = SWKC_START_SECONDS * 1000L;
    for (int index = 0; index < argc; index++) {
        const char *option = argv[index];
        if (strcmp(option, "debug") == 0) {
            options->debug = 1;
        } else if (strcmp(option, "auto_start") == 0) {
            options->auto_start = 1;
        } else if (strcmp(option, "only_if_passcode_matches") == 0) {
            // The default, and the only way: a password that is not the passcode changes nothing.
        } else if (strcmp(option, "set_passcode_on_first_login") == 0) {
            options->set_passcode_on_first_login = 1;
        } else if (strncmp(option, "socket=", 7) == 0 && option[7] == '/') {
            options->socket = option + 7;
        } else if (strncmp(option, "securityd=", 10) == 0 && option[10] == '/') {
            options->securityd = option + 10;
        } else if (strncmp(option, "start_timeout=", 14) == 0) {
            long seconds = start_seconds(option + 14);
            if (seconds > 0) {
                options->start_milliseconds = seconds * 1000L;
            } else {
                pam_syslog(pamh, LOG_ERR, "%s is not a number of seconds from 1 to %d (ignored)", option,
                           SWKC_MAXIMUM_START_SECONDS);
            }
        } else {
            pam_syslog(pamh, LOG_ERR, "unknown option %s (ignored)", option);
        }
    }
}

// The account of the PAM user, in `buffer`; NULL (logged) when there is none.
static struct passwd *account(pam_handle_t *pamh, struct passwd *entry, char *buffer, size_t size) {
    const void *name = NULL;
    if (pam_get_item(pamh, PAM_USER, &name) != PAM_SUCCESS || name == NULL || ((const char *)name)[0] == '\0') {
        pam_syslog(pamh, LOG_NOTICE, "no user: the keychain was left as it was");
        return NULL;
    }
    struct passwd *found = NULL;
    if (getpwnam_r(name, entry, buffer, size, &found) != 0 || found == NULL) {
        pam_syslog(pamh, LOG_NOTICE, "no account for the user: the keychain was left as it was");
        return NULL;
    }
    return found;
}

static void forget_password(pam_handle_t *pamh, void *data, int status) {
    (void)pamh;
    (void)status;
    struct kept *kept = data;
    if (kept == NULL) return;
    explicit_bzero(kept, sizeof *kept + kept->length);
    free(kept);
}

SWKC_EXPORT int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    (void)flags;
    struct swkc_options options;
    parse_options(pamh, argc, argv, &options);
    const void *password = NULL;
    // An empty one is none: a module before may have wiped it (pam_wrapper's pam_matrix does).
    if (pam_get_item(pamh, PAM_AUTHTOK, &password) != PAM_SUCCESS || password == NULL ||
        ((const char *)password)[0] == '\0') {
        if (options.debug) pam_syslog(pamh, LOG_DEBUG, "no password in the stack to keep");
        return PAM_IGNORE;
    }
    struct passwd entry;
    char buffer[4096];
    struct passwd *user = account(pamh, &entry, buffer, sizeof buffer);
    if (user == NULL) return PAM_IGNORE;
    size_t length = strlen(password);
    struct kept *kept = malloc(sizeof *kept + length + 1);
    if (kept == NULL) return PAM_IGNORE;
    kept->uid = user->pw_uid;
    kept->length = length + 1;
    memcpy(kept->password, password, length + 1);
    if (pam_set_data(pamh, kept_password, kept, forget_password) != PAM_SUCCESS) {
        forget_password(pamh, kept, 0);
        return PAM_IGNORE;
    }
    if (options.debug) pam_syslog(pamh, LOG_DEBUG, "kept the password for the session");
    return PAM_IGNORE;
}

// What the module does where it has nothing to do (credentials, the session's end).
static int nothing(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    (void)pamh;
    (void)flags;
    (void)argc;
    (void)argv;
    return PAM_IGNORE;
}

SWKC_EXPORT int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    return nothing(pamh, flags, argc, argv);
}

SWKC_EXPORT int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    (void)flags;
    struct swkc_options options;
    parse_options(pamh, argc, argv, &options);
    struct passwd entry;
    char buffer[4096];
    struct passwd *user = account(pamh, &entry, buffer, sizeof buffer);
    if (user == NULL) return PAM_IGNORE;
    const void *data = NULL;
    if (pam_get_data(pamh, kept_password, &data) != PAM_SUCCESS) data = NULL;
    const struct kept *kept = data;
    if (kept == NULL || kept->password[0] == '\0') {
        // A key, a fingerprint or root's su: no password went through the stack.
        pam_syslog(pamh, LOG_INFO, "%s: no login password to unlock the keychain with; it stays as it was",
                   user->pw_name);
        return PAM_IGNORE;
    }
    if (kept->uid != user->pw_uid) {
        // sudo -u: the password checked was another user's.
        pam_syslog(pamh, LOG_INFO,
                   "%s: the password was checked for another user; the keychain stays as it was", user->pw_name);
        pam_set_data(pamh, kept_password, NULL, NULL);
        return PAM_IGNORE;
    }
    const char *password = kept->password;
    int result;
    if (strlen(password) > SWKC_MAXIMUM_PASSCODE) {
        pam_syslog(pamh, LOG_INFO, "%s: the login password is longer than any passcode; the keychain stays as it was",
                   user->pw_name);
        result = PAM_IGNORE;
    } else {
        result = swkc_hand_over(pamh, &options, user, SWKC_SESSION_OPENED, password, NULL,
                                options.set_passcode_on_first_login);
    }
    // Handed over: the copy kept since auth is zeroed now, not when PAM ends.
    pam_set_data(pamh, kept_password, NULL, NULL);
    return result;
}

SWKC_EXPORT int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    return nothing(pamh, flags, argc, argv);
}

SWKC_EXPORT int pam_sm_chauthtok(pam_handle_t *pamh, int flags, int argc, const char **argv) {
    if (!(flags & PAM_UPDATE_AUTHTOK)) return PAM_IGNORE;
    struct swkc_options options;
    parse_options(pamh, argc, argv, &options);
    struct passwd entry;
    char buffer[4096];
    struct passwd *user = account(pamh, &entry, buffer, sizeof buffer);
    if (user == NULL) return PAM_IGNORE;
    const void *old = NULL, *new = NULL;
    if (pam_get_item(pamh, PAM_OLDAUTHTOK, &old) != PAM_SUCCESS) old = NULL;
    if (pam_get_item(pamh, PAM_AUTHTOK, &new) != PAM_SUCCESS) new = NULL;
    if (old == NULL || new == NULL || ((const char *)old)[0] == '\0' || ((const char *)new)[0] == '\0') {
        // root's passwd USER asks for no old password: the keychain cannot be opened to change it.
        pam_syslog(pamh, LOG_INFO, "%s: the password changed without the old one; the keychain's passcode stays",
                   user->pw_name);
        return PAM_IGNORE;
    }
    if (strlen(old) > SWKC_MAXIMUM_PASSCODE || strlen(new) > SWKC_MAXIMUM_PASSCODE) {
        pam_syslog(pamh, LOG_INFO, "%s: a password longer than any passcode; the keychain's passcode stays",
                   user->pw_name);
        return PAM_IGNORE;
    }
    return swkc_hand_over(pamh, &options, user, SWKC_PASSWORD_CHANGED, old, new, 0);
}
