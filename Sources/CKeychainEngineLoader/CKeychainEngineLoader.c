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


// The mirror modules (Security, KeychainServices, LocalAuthentication, LocalAuth), KeychainDevice
// and KeychainContract never import the engine: a module that imports them (swift-certificates'
// X509 does, under `canImport(Security)`) must not need GRDB, swift-crypto or this package's C
// modules. The engine is linked into every product all the same, and this constructor introduces
// it to the contract's `LinkedEngine` before `main` runs.

#include "CKeychainEngineLoader.h"

__attribute__((constructor)) static void c_keychain_load_engine(void) {
    swift_keychain_register_engine();
}
