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


#ifndef C_KEYCHAIN_ENGINE_LOADER_H
#define C_KEYCHAIN_ENGINE_LOADER_H

/// Registers the keychain engine with `LinkedEngine` (in `KeychainContract`) (defined in Swift, in `KeychainEngine`).
///
/// Nothing calls it by hand: the constructor in this target does, when the program loads.
void swift_keychain_register_engine(void);

#endif
