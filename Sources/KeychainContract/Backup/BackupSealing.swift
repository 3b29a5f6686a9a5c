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

package import Foundation

/// What a backup file is sealed to: a password (scrypt in the file's header), or a recipient's
/// P-256 public key (X9.63) for unattended backups that only the holder of its private key reads.
package enum BackupSealing: Sendable, Codable {
    case password(String)
    case recipient(publicKey: Data)
}

/// What opens a backup file: its password, or the recipient's P-256 private key (raw, 32 bytes).
package enum BackupOpening: Sendable, Codable {
    case password(String)
    case privateKey(Data)
}
