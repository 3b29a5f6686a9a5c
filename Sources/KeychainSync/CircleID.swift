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

/// A circle: the devices of one user that share their synchronizable items, named by 16 random bytes.
package struct CircleID: Hashable, Sendable, CustomStringConvertible {
    package static let length = 16
    package let rawValue: Data

    package init(rawValue: Data) throws(SyncError) {
        guard rawValue.count == Self.length else { throw SyncError(.malformed, "a circle id is not 16 bytes") }
        self.rawValue = rawValue
    }

    /// A new circle's id.
    package static func make() -> CircleID {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return CircleID(checked: Data(bytes))
    }

    private init(checked rawValue: Data) { self.rawValue = rawValue }

    package init?(hex: String) {
        guard hex.count == Self.length * 2, let data = Data(hexDigits: hex) else { return nil }
        rawValue = data
    }

    package var description: String { rawValue.map { String(format: "%02x", $0) }.joined() }
}
