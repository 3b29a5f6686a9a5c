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

#ifndef C_LOGIN_WATCH_H
#define C_LOGIN_WATCH_H

#include <stdint.h>

/// A connection to the system bus that follows systemd-logind's lock requests, through
/// libsystemd's sd-bus, loaded when the watch opens (no build-time dependency: where
/// `libsystemd.so.0` or the system bus is missing, the watch does not open).
typedef struct c_login_watch c_login_watch;

/// What the system asked for.
enum {
    /// Nothing within the time-out.
    C_LOGIN_NOTHING = 0,
    /// A session of `uid` is to be locked or was locked (`org.freedesktop.login1.Session.Lock`,
    /// sent by `loginctl lock-session`, `lock-sessions` and idle or lid policies; or its
    /// `LockedHint` property turning true, which screen lockers set when they lock).
    C_LOGIN_LOCK_SESSION = 1,
    /// The machine is about to sleep (`org.freedesktop.login1.Manager.PrepareForSleep(true)`).
    C_LOGIN_SLEEP = 2,
    /// The bus connection failed; the watch is over.
    C_LOGIN_CLOSED = -1,
};

/// Opens the watch on the system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set). Returns NULL, with a
/// short static reason in `*reason`, when libsystemd or the bus is unavailable.
c_login_watch *c_login_watch_open(const char **reason);

/// Waits at most `timeout_ms` for the next request; for `C_LOGIN_LOCK_SESSION`, `*uid` is the
/// owner of the session (a lock whose session's owner cannot be read is reported with
/// `*uid` = UINT32_MAX, which matches no user).
int c_login_watch_next(c_login_watch *watch, int timeout_ms, uint32_t *uid);

/// Closes the watch.
void c_login_watch_close(c_login_watch *watch);

#endif
