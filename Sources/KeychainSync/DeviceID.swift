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

/// A device of a circle, named by its keys: the first 16 bytes of a hash of its public keys, so
/// that no server can give one device's name to another device's keys.
package struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    package static let length = 16
    package let rawValue: Data

    /// The id that sorts before every other (sixteen zero bytes): no device's.
    package static let lowest = DeviceID(checked: Data(count: length))

    private init(checked rawValue: Data) { self.rawValue = rawValue }

    package init(rawValue: Data) throws(SyncError) {
        guard rawValue.count == Self.length else { throw SyncError(.malformed, "a device id is not 16 bytes") }
        self.rawValue = rawValue
    }

    /// The id as `security sync status` prints it and `security sync remove` takes it: 32 hex digits.
    package var description: String { rawValue.map { String(format: "%02x", $0) }.joined() }

    /// Reads an id as ``description`` writes it.
    package init?(hex: String) {
        guard hex.count == Self.length * 2, let data = Data(hexDigits: hex) else { return nil }
        rawValue = data
    }

    package static func < (lhs: DeviceID, rhs: DeviceID) -> Bool {
        lhs.rawValue.lexicographicallyPrecedes(rhs.rawValue)
    }
}

extension Data {
    /// The bytes `digits` spell in hexadecimal, or `nil` when they are not an even number of hex digits.
    package init?(hexDigits digits: String) {
        var bytes: [UInt8] = []
        var pending: UInt8?
        for character in digits {
            guard let value = character.hexDigitValue else { return nil }
            if let high = pending {
                bytes.append(high << 4 | UInt8(value))
                pending = nil
            } else {
                pending = UInt8(value)
            }
        }
        guard pending == nil else { return nil }
        self.init(bytes)
    }
}
