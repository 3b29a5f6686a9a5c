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

#ifndef C_KEYCHAIN_SYSTEM_H
#define C_KEYCHAIN_SYSTEM_H

#include <stddef.h>

/// Makes the process non-dumpable (Linux `prctl(PR_SET_DUMPABLE, 0)`): no core dump, and other
/// processes of the same user can neither attach to it nor read `/proc/PID/mem`. Returns 0 on
/// success, -1 where the call fails or does not exist.
int c_keychain_set_non_dumpable(void);

/// Whether the process is dumpable (1), not (0), or unknown (-1).
int c_keychain_is_dumpable(void);

/// Sets the core-file size limit to zero (soft and hard). Returns 0 on success.
int c_keychain_disable_core_files(void);

/// Whether the process of a pidfd is alive, not yet reaped (1), gone (0), or unknown (-1, where
/// there is no `pidfd_send_signal`).
int c_keychain_pidfd_is_alive(int pidfd);

/// A pidfd for process `pid` (`pidfd_open`), or -1 with `errno` where there is none.
int c_keychain_pidfd_open(int pid);

#endif
