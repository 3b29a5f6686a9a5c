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
package import KeychainSync

/// What `security sync status` shows of a circle's exchange.
package struct SyncStatus: Sendable, Equatable {
    /// When the device last completed an exchange with the server.
    package var lastExchange: Date?
    /// Why the last attempt failed (the server away, refusing, the keychain locked), if it did.
    package var lastError: String?
    /// Changes made here and not sent yet.
    package var pending = 0
    /// Items sent and received since the daemon started.
    package var sent = 0
    package var received = 0
    /// Messages from the server that were refused (bad signature, another circle, undecryptable,
    /// replayed or older), by reason.
    package var refused: [SyncError.Reason: Int] = [:]
    /// Whether this device was removed from its circle.
    package var isRemoved = false
    /// Whether the device waits for the keys of the circle's current generation.
    package var awaitsKeys = false

    package init() {}
}
