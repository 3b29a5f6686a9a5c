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

/// Why a backup file cannot be written or read.
package enum BackupError: Error, Equatable, Sendable {
    /// The file does not begin as a backup does (empty, another kind of file).
    case notABackup
    /// The file was written by a newer version of the format.
    case newerVersion(UInt16)
    /// The header asks for key-derivation parameters or a chunk size outside the accepted bounds.
    case unsupportedParameters
    /// The password or private key does not open this file (or its header was altered).
    case wrongKey
    /// A chunk does not authenticate, the file is truncated, or something follows its end.
    case damaged
    /// A record is larger than the format allows.
    case recordTooLarge
}
