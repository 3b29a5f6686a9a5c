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

// libsystemd's sd-bus, loaded at run time; KeychainBus speaks D-Bus over it for every part of the
// keychain (the Secret Service, systemd-logind's lock and sleep signals, fprintd's readers).
#include "sd_bus_loader.h"

#endif
