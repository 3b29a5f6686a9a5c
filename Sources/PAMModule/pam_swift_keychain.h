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

// The PAM module's own declarations: its options, the login message it writes in the engine's
// compact wire form (Sources/KeychainContract/Engine/Wire/CompactForm+Login.swift), and the
// hand-over to securityd. Not a public header: the module's only interface is PAM's.

#ifndef PAM_SWIFT_KEYCHAIN_H
#define PAM_SWIFT_KEYCHAIN_H

#include <pwd.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include <security/pam_modules.h>

// The PAM entry points are the module's only exported symbols (it builds with hidden visibility).
#define SWKC_EXPORT __attribute__((visibility("default")))

// The engine wire format's version (EngineWire.version); PAMModuleTests compares the two.
#define SWKC_WIRE_VERSION 10
// The byte after the version: a request or a reply in the compact form.
#define SWKC_KIND_REQUEST 1
#define SWKC_KIND_RESPONSE 2
// The compact request and replies the module uses.
#define SWKC_REQUEST_LOGIN 5
#define SWKC_RESPONSE_ERROR 3
#define SWKC_RESPONSE_LOGIN 5
// The longest passcode a keychain accepts (KeybagService.maximumPasscodeLength): a longer
// password cannot be one, and is not sent.
#define SWKC_MAXIMUM_PASSCODE 1024
// The longest reply the module reads.
#define SWKC_MAXIMUM_REPLY 65536

// The login events the module hands over (LoginEvent).
enum swkc_event {
    SWKC_SESSION_OPENED = 0,
    SWKC_PASSWORD_CHANGED = 1,
};

// The module's options, from its line in the PAM configuration (documented in
// pam_swift_keychain(8)).
struct swkc_options {
    int debug;
    int auto_start;
    int set_passcode_on_first_login;
    // socket=PATH: the daemon's socket, instead of the system daemon's or the user's own.
    const char *socket;
    // securityd=PATH: the daemon auto_start runs.
    const char *securityd;
    // start_timeout=SECONDS: how long auto_start waits for the daemon to listen.
    long start_milliseconds;
};

// How long auto_start waits for a daemon to listen unless start_timeout= says otherwise, and the
// longest start_timeout= takes (seconds).
#define SWKC_START_SECONDS 10
#define SWKC_MAXIMUM_START_SECONDS 600

// A growing byte buffer whose bytes are zeroed when it is freed (it holds passwords).
struct swkc_buffer {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
    int failed;
};

// What a reply said: an outcome (LoginOutcome's raw value), or the keychain's error.
struct swkc_reply {
    int outcome;
    char code[64];
    char message[256];
};

// login_message.c
void swkc_buffer_free(struct swkc_buffer *buffer);
int swkc_encode_login(struct swkc_buffer *frame, enum swkc_event event, uid_t user, const char *first,
                      const char *second, int flag);
int swkc_decode_reply(const unsigned char *bytes, size_t length, struct swkc_reply *reply);
const char *swkc_outcome_summary(int outcome);

// Which socket a connection is to, and so who may listen on it: the user's own daemon (the
// user alone), the system daemon (its account or root), or the one socket= names (any of these).
enum swkc_socket_kind {
    SWKC_USER_SOCKET,
    SWKC_SYSTEM_SOCKET,
    SWKC_NAMED_SOCKET,
};

// daemon_socket.c
void swkc_deadline_in(struct timespec *deadline, long milliseconds);
int swkc_milliseconds_left(const struct timespec *deadline);
const char *swkc_runtime_folder(pam_handle_t *pamh, const struct passwd *user, char *path, size_t size,
                                int *missing);
int swkc_user_socket(pam_handle_t *pamh, const struct passwd *user, char *path, size_t size);
int swkc_is_safe_user_socket(const char *path, const struct passwd *user, int *exists);
int swkc_connect(const char *path, const struct passwd *user, enum swkc_socket_kind kind,
                 const struct timespec *deadline);
int swkc_exchange(int descriptor, const struct swkc_buffer *frame, struct swkc_reply *reply,
                  const struct timespec *deadline);

// daemon_start.c
int swkc_start_daemon(pam_handle_t *pamh, const struct swkc_options *options, const struct passwd *user,
                      const char *socket_path, const char **why);

// keychain_daemon.c
int swkc_hand_over(pam_handle_t *pamh, const struct swkc_options *options, const struct passwd *user,
                   enum swkc_event event, const char *first, const char *second, int flag);

#endif
