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


#ifndef C_SD_BUS_H
#define C_SD_BUS_H

// libsystemd's sd-bus, loaded at run time, and the conversations the keychain holds over it:
// systemd-logind's lock and sleep signals (securityd) and fprintd's fingerprint readers (the engine).
#include "sd_bus_loader.h"
#include "login_watch.h"
#include "fprintd_conversation.h"

#endif
