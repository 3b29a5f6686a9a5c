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

// What a keychain is opened with — `KeychainHome`, `DeviceConfiguration`, `PasscodePrompt`, the
// biometry kinds — belongs to the engine contract, which the engine sits on too; a program that
// imports this module sees it here, as NIOPosix's clients see NIOCore.
@_exported public import KeychainContract
