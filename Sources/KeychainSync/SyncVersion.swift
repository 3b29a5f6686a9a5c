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

/// When a change of an item was made, in a hybrid logical clock, and by which device: the order
/// every device of a circle agrees on.
///
/// Two changes of one item are ordered by wall-clock milliseconds, then by the clock's counter
/// (which orders changes within one millisecond, and a change made after seeing another whose
/// clock ran ahead), then by the device id. The greater version wins on every device, whatever
/// order the changes arrive in: that is the circle's conflict rule.
package struct SyncVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    package static let encodedLength = 8 + 4 + DeviceID.length

    package var milliseconds: UInt64
    package var counter: UInt32
    package var device: DeviceID

    package init(milliseconds: UInt64, counter: UInt32, device: DeviceID) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.device = device
    }

    /// 28 bytes, big-endian, so that byte order is version order (the server compares them so).
    package var encoded: Data {
        var writer = WireWriter()
        writer.append(milliseconds)
        writer.append(counter)
        writer.appendFixed(device.rawValue)
        return writer.bytes
    }

    package init(encoded: Data) throws(SyncError) {
        var reader = WireReader(encoded)
        milliseconds = try reader.uint64()
        counter = try reader.uint32()
        device = try DeviceID(rawValue: try reader.fixed(DeviceID.length))
        try reader.finish()
    }

    package static func < (lhs: SyncVersion, rhs: SyncVersion) -> Bool {
        (lhs.milliseconds, lhs.counter) != (rhs.milliseconds, rhs.counter)
            ? (lhs.milliseconds, lhs.counter) < (rhs.milliseconds, rhs.counter)
            : lhs.device < rhs.device
    }

    package var description: String { "\(milliseconds).\(counter)@\(device)" }
}

/// A device's hybrid logical clock: every version it stamps is greater than any it stamped or saw.
///
/// A value type: its owner keeps it behind its own lock (the keychain's writer).
package struct HybridLogicalClock: Sendable {
    package let device: DeviceID
    package private(set) var latest: SyncVersion

    package init(device: DeviceID, latest: SyncVersion? = nil) {
        self.device = device
        self.latest = latest ?? SyncVersion(milliseconds: 0, counter: 0, device: device)
    }

    /// A version for a change made now.
    package mutating func tick(now: Date) -> SyncVersion {
        let wall = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        if wall > latest.milliseconds {
            latest = SyncVersion(milliseconds: wall, counter: 0, device: device)
        } else if latest.counter < UInt32.max {
            latest = SyncVersion(milliseconds: latest.milliseconds, counter: latest.counter + 1, device: device)
        } else {
            // The counter never wraps (versions would go backwards): the next millisecond instead.
            latest = SyncVersion(milliseconds: latest.milliseconds &+ 1, counter: 0, device: device)
        }
        return latest
    }

    /// Takes in a version another device stamped, so that the next tick is after it.
    ///
    /// A version more than a day ahead of `now` is not followed (a device whose clock is wrong, or
    /// a forged row, must not drag every later change into its future).
    package mutating func observe(_ version: SyncVersion, now: Date) {
        let wall = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        guard version.milliseconds <= wall &+ 86_400_000 else { return }
        if (version.milliseconds, version.counter) > (latest.milliseconds, latest.counter) {
            latest = SyncVersion(milliseconds: version.milliseconds, counter: version.counter, device: device)
        }
    }
}
