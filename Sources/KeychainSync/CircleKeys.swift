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

package import Crypto
package import Foundation

/// The classes a synchronised item travels in: one circle key each, so that an item readable only
/// while unlocked stays sealed on a device that is locked when it arrives.
package enum SyncClass: UInt8, Sendable, CaseIterable {
    /// `kSecAttrAccessibleWhenUnlocked` items.
    case whenUnlocked = 1
    /// `kSecAttrAccessibleAfterFirstUnlock` and `kSecAttrAccessibleAlways` items, and deletions.
    case afterFirstUnlock = 2
}

/// One generation of a circle's keys: a key per class, and the key that names items.
///
/// Removing a device makes a new generation, which only the remaining devices receive; every
/// item is written again under it. The naming key stays for the circle's life: item names are
/// keyed hashes of primary keys, so a removed device can tell that an item it knew changed, never
/// what it became.
package struct CircleKeys: Sendable {
    package let generation: UInt32
    package let whenUnlocked: SymmetricKey
    package let afterFirstUnlock: SymmetricKey
    package let naming: SymmetricKey

    package init(generation: UInt32, whenUnlocked: SymmetricKey, afterFirstUnlock: SymmetricKey, naming: SymmetricKey) {
        self.generation = generation
        self.whenUnlocked = whenUnlocked
        self.afterFirstUnlock = afterFirstUnlock
        self.naming = naming
    }

    /// A circle's first keys.
    package static func first() -> CircleKeys {
        CircleKeys(
            generation: 1,
            whenUnlocked: SymmetricKey(size: .bits256),
            afterFirstUnlock: SymmetricKey(size: .bits256),
            naming: SymmetricKey(size: .bits256)
        )
    }

    /// What the circle's signed list commits to: a hash of the generation and every key, so that
    /// no grant can hand a device other keys (or another naming key) than the list's.
    package var digest: Data {
        var hash = SHA256()
        hash.update(data: Data("swift-keychain sync keys".utf8))
        var generationBytes = WireWriter()
        generationBytes.append(generation)
        hash.update(data: generationBytes.bytes)
        for key in [whenUnlocked, afterFirstUnlock, naming] { key.withUnsafeBytes { hash.update(bufferPointer: $0) } }
        return Data(hash.finalize())
    }

    /// The next generation: new class keys, the same naming key.
    ///
    /// - Throws: ``SyncError/Reason/malformed`` for the last generation there is.
    package func rotated() throws(SyncError) -> CircleKeys {
        guard generation < UInt32.max else { throw SyncError(.malformed, "no generation follows the last one") }
        return CircleKeys(
            generation: generation + 1,
            whenUnlocked: SymmetricKey(size: .bits256),
            afterFirstUnlock: SymmetricKey(size: .bits256),
            naming: naming
        )
    }

    package func key(for syncClass: SyncClass) -> SymmetricKey {
        switch syncClass {
        case .whenUnlocked: whenUnlocked
        case .afterFirstUnlock: afterFirstUnlock
        }
    }

    /// The keys' bytes, for the device's own keychain items: `whenUnlocked` alone goes into a
    /// `WhenUnlockedThisDeviceOnly` item, the rest into an `AfterFirstUnlockThisDeviceOnly` one.
    package func rawRepresentation(of part: Part) -> Data {
        var writer = WireWriter()
        writer.append(generation)
        switch part {
        case .whenUnlocked:
            writer.appendField(whenUnlocked.withUnsafeBytes { Data($0) })
        case .afterFirstUnlock:
            writer.appendField(afterFirstUnlock.withUnsafeBytes { Data($0) })
            writer.appendField(naming.withUnsafeBytes { Data($0) })
        }
        return writer.bytes
    }

    /// The two parts a device keeps in its keychain.
    package enum Part: Sendable { case whenUnlocked, afterFirstUnlock }

    /// Keys put together from a device's items: the `afterFirstUnlock` part, and the
    /// `whenUnlocked` one when the device is unlocked (else a key that opens nothing is in its place
    /// and ``hasWhenUnlocked`` is false).
    package init(afterFirstUnlock afu: Data, whenUnlocked wu: Data?) throws(SyncError) {
        var reader = WireReader(afu)
        generation = try reader.uint32()
        let afterFirstUnlock = try reader.field()
        let naming = try reader.field()
        try reader.finish()
        guard afterFirstUnlock.count == 32, naming.count == 32 else {
            throw SyncError(.malformed, "a circle key is not 32 bytes")
        }
        self.afterFirstUnlock = SymmetricKey(data: afterFirstUnlock)
        self.naming = SymmetricKey(data: naming)
        if let wu {
            var reader = WireReader(wu)
            guard try reader.uint32() == generation else {
                throw SyncError(.misplaced, "the circle's keys are of two generations")
            }
            let key = try reader.field()
            try reader.finish()
            guard key.count == 32 else { throw SyncError(.malformed, "a circle key is not 32 bytes") }
            whenUnlocked = SymmetricKey(data: key)
            hasWhenUnlocked = true
        } else {
            whenUnlocked = SymmetricKey(size: .bits256)
            hasWhenUnlocked = false
        }
    }

    /// Whether the `whenUnlocked` key is the circle's (false while the device is locked).
    package private(set) var hasWhenUnlocked = true
}

extension SymmetricKey {
    /// Whether two keys hold the same bytes (compared in constant time).
    package func equals(_ other: SymmetricKey) -> Bool {
        withUnsafeBytes { mine in
            other.withUnsafeBytes { theirs in
                guard mine.count == theirs.count else { return false }
                var difference: UInt8 = 0
                for index in 0..<mine.count { difference |= mine[index] ^ theirs[index] }
                return difference == 0
            }
        }
    }
}
