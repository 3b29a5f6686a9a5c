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


#ifndef C_FPRINTD_CONVERSATION_H
#define C_FPRINTD_CONVERSATION_H

#include <stddef.h>
#include <stdint.h>

/// A conversation with fprintd (`net.reactivated.Fprint`) on the system bus, through libsystemd's
/// sd-bus, loaded when the conversation opens (no build-time dependency: where `libsystemd.so.0`
/// or the system bus is missing, it does not open).
///
/// Nothing is asked of fprintd's well-known name: `c_fprint_find_owner` reports the name's current
/// owner and the user it runs as (the bus daemon's `GetConnectionUnixUser`), the caller decides
/// whether to believe it, and `c_fprint_use_owner` names the unique name that every later call goes
/// to and whose signals alone are read. A program that takes the name on a bus that allows it is
/// believed only if the caller accepts the user it runs as.
typedef struct c_fprint c_fprint;

/// Outcomes; the negative ones leave a message in `c_fprint_error`.
enum {
    C_FPRINT_OK = 0,
    /// libsystemd or the system bus is not there.
    C_FPRINT_NO_BUS = -1,
    /// fprintd is not on the bus and cannot be started.
    C_FPRINT_NO_SERVICE = -2,
    /// No owner was accepted (`c_fprint_use_owner`).
    C_FPRINT_UNTRUSTED = -3,
    /// fprintd has no reader.
    C_FPRINT_NO_DEVICE = -4,
    /// Nothing is enrolled for the user.
    C_FPRINT_NOT_ENROLLED = -5,
    /// Another program has claimed the reader.
    C_FPRINT_BUSY = -6,
    /// No answer within the time-out.
    C_FPRINT_TIMEOUT = -7,
    /// `c_fprint_cancel` was called.
    C_FPRINT_CANCELLED = -8,
    /// Any other failure of a call or of the bus.
    C_FPRINT_FAILED = -9,
};

/// Opens the system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set); NULL, with `*status`, when it cannot.
c_fprint *c_fprint_open(int *status);

/// Closes the conversation.
void c_fprint_close(c_fprint *fprint);

/// Makes the verification or enrolment of this conversation (from another thread) end with
/// `C_FPRINT_CANCELLED`, whether it is in progress or starts later: a cancelled conversation is done.
void c_fprint_cancel(c_fprint *fprint);

/// Finds the owner of fprintd's name (starting fprintd if the bus can): its unique name into `owner`,
/// and the user it runs as into `*uid` (UINT32_MAX when the bus does not say). Trusts nothing.
int c_fprint_find_owner(c_fprint *fprint, char *owner, size_t size, uint32_t *uid);

/// Makes `owner`, a unique name (`:1.42`) the caller accepted, the one this conversation talks to.
/// Until then every call below ends with `C_FPRINT_UNTRUSTED`.
int c_fprint_use_owner(c_fprint *fprint, const char *owner);

/// The last failure's message.
const char *c_fprint_error(c_fprint *fprint);

/// The default reader's object path and name.
int c_fprint_device(c_fprint *fprint, char *path, size_t path_size, char *name, size_t name_size);

/// The fingers enrolled for the calling user on the reader at `device`, one per line; the count,
/// 0 when none, or a negative outcome.
int c_fprint_enrolled(c_fprint *fprint, const char *device, char *fingers, size_t size);

/// Claims the reader for the calling user, asks for any enrolled finger, and waits at most
/// `timeout_ms` for fprintd's final status (`verify-match`, `verify-no-match`, `verify-disconnected`,
/// `verify-unknown-error`); retry statuses (`verify-retry-scan`, …) do not end it. The final status is
/// copied to `result`. The reader is released before it returns.
int c_fprint_verify(c_fprint *fprint, const char *device, int timeout_ms, char *result, size_t size);

/// Claims the reader and enrols `finger` (fprintd's names: `right-index-finger`, …), waiting at most
/// `timeout_ms` for each stage. The final status (`enroll-completed`, `enroll-failed`, …) is copied to `result`.
int c_fprint_enroll(c_fprint *fprint, const char *device, const char *finger, int timeout_ms, char *result, size_t size);

#endif
