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

#ifndef C_ATTACK_SUPPORT_H
#define C_ATTACK_SUPPORT_H

#include <stddef.h>

/// Opens a new pseudo-terminal: returns the leader's descriptor (or -1) and writes the follower's
/// path into `name`.
int c_attack_open_pty(char *name, size_t length);

/// Starts `path` with `arguments` and `environment` (NULL-terminated) on the terminal `terminal`
/// (standard input, output and error), with no signal blocked and default signal actions, as a
/// shell starts a command. Returns its process ID, or -1.
int c_attack_spawn_on_terminal(const char *path, char *const arguments[], char *const environment[], int terminal);

#endif
