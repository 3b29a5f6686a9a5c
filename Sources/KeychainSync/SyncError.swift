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

/// Why a circle's message was refused: what a device logs and counts, never applies.
///
/// No message of a circle is trusted further than its signature and its encryption: a row the
/// server altered, replayed or took from another circle, a device list signed by a device that
/// is no longer trusted, a grant for someone else — each ends here, and the exchange goes on.
package struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Reason: String, Sendable, CaseIterable {
        /// The bytes are not a message of this kind (truncated, an unknown version, trailing bytes).
        case malformed
        /// The message names another circle, another device or another item than the one it was
        /// read for.
        case misplaced
        /// The signature is not valid, or its signer is not a trusted device.
        case untrusted
        /// The ciphertext does not open with the circle's keys.
        case undecryptable
        /// The message is older than what the device already holds.
        case stale
        /// This device's own key could not be used: its TPM did not answer, or is another's.
        case unavailable
    }

    package var reason: Reason
    /// What was refused, without any secret or item attribute.
    package var detail: String

    package init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    package var description: String { "\(reason.rawValue): \(detail)" }
}
