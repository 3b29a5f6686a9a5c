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

#ifndef C_TPM_H
#define C_TPM_H

#include <stddef.h>
#include <stdint.h>

// A TPM connection through tpm2-tss's TCTI loader (libtss2-tctildr), loaded at run time: a system
// without tpm2-tss builds, and has no TPM to talk to. Only the transport is here: KeychainTPM
// writes and reads the TPM's commands itself.

/// Opens the TCTI `conf` ("device:/dev/tpmrm0", "swtpm:path=/run/swtpm.sock", …); NULL with a
/// static `reason` when the library is missing or the TPM cannot be reached.
void *c_tpm_open(const char *conf, const char **reason);

/// Sends one command; 0 or the TCTI's response code.
uint32_t c_tpm_transmit(void *tcti, const uint8_t *command, size_t size);

/// Receives the response to the last command into `response` (`*size` bytes of room, then the
/// length read); `timeout` in milliseconds, -1 to block. 0 or the TCTI's response code.
uint32_t c_tpm_receive(void *tcti, uint8_t *response, size_t *size, int32_t timeout);

/// Closes a connection `c_tpm_open` made.
void c_tpm_close(void *tcti);

#endif
