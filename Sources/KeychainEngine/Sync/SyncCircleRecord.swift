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

import Foundation
import KeychainCore
package import KeychainSync

/// What a device keeps of its circle between runs: the circle's state and the server.
///
/// Where the device is in the server's stream is kept beside it, in the clear
/// (``Keychain/syncCursor()``): it changes with every exchange.
package struct SyncCircleRecord: Sendable {
    package var state: CircleState
    /// The server's URL, with its password (kept in the device's keychain, never printed).
    package var server: String

    package init(state: CircleState, server: String) {
        self.state = state
        self.server = server
    }

    /// The part readable after the first unlock: identity, list, server, and the keys of
    /// class `afterFirstUnlock` of every generation.
    func afterFirstUnlockPart() -> Data {
        var writer = WireWriter()
        writer.appendField(state.circle.rawValue)
        writer.appendField(state.identity.rawRepresentation)
        writer.appendField(state.list.encoded)
        writer.appendField(Data(server.utf8))
        let generations = state.keys.values.sorted { $0.generation < $1.generation }
        writer.append(UInt32(generations.count))
        for keys in generations { writer.appendField(keys.rawRepresentation(of: .afterFirstUnlock)) }
        return writer.bytes
    }

    /// The generation a key part begins with.
    private static func generation(of part: Data) -> UInt32 {
        part.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The part readable while unlocked: the `whenUnlocked` keys of every generation.
    ///
    /// `nil` when the state lacks one of them (read while locked): the stored part is then kept.
    func whenUnlockedPart() -> Data? {
        let generations = state.keys.values.filter(\.hasWhenUnlocked).sorted { $0.generation < $1.generation }
        guard generations.count == state.keys.count else { return nil }
        var writer = WireWriter()
        writer.append(UInt32(generations.count))
        for keys in generations { writer.appendField(keys.rawRepresentation(of: .whenUnlocked)) }
        return writer.bytes
    }

    /// Reads the record back; the `whenUnlocked` keys stand in as unavailable when `whenUnlocked` is `nil`.
    ///
    /// The device's identity keys kept in a TPM are used through `deviceKeys`.
    init(afterFirstUnlock: Data, whenUnlocked: Data?, deviceKeys: (any DeviceKeyStore)?) throws(KeychainError) {
        do throws(SyncError) {
            var reader = WireReader(afterFirstUnlock)
            let circle = try CircleID(rawValue: try reader.field())
            let identity = try DeviceIdentity(rawRepresentation: try reader.field(), store: deviceKeys)
            let list = try DeviceList(firstOf: try reader.field(), circle: circle)
            let server = String(decoding: try reader.field(), as: UTF8.self)
            let count = Int(try reader.uint32())
            var afu: [Data] = []
            for _ in 0..<min(count, 1024) { afu.append(try reader.field()) }
            try reader.finish()
            var wu: [Data] = []
            if let whenUnlocked {
                var reader = WireReader(whenUnlocked)
                let count = Int(try reader.uint32())
                for _ in 0..<min(count, 1024) { wu.append(try reader.field()) }
                try reader.finish()
            }
            // Matched by generation (each part begins with it): a generation whose whenUnlocked key
            // was not written (the keychain locked meanwhile) is held without it.
            let whenUnlockedParts = Dictionary(wu.map { (Self.generation(of: $0), $0) }) { first, _ in first }
            var keys: [UInt32: CircleKeys] = [:]
            for part in afu {
                let generation = try CircleKeys(
                    afterFirstUnlock: part,
                    whenUnlocked: whenUnlockedParts[Self.generation(of: part)]
                )
                keys[generation.generation] = generation
            }
            self.init(
                state: CircleState(circle: circle, identity: identity, list: list, keys: keys),
                server: server
            )
        } catch {
            if error.reason == .unavailable {
                throw KeychainError(
                    .notAvailable,
                    "the device's keys in its circle are in a TPM this keychain cannot use"
                )
            }
            throw KeychainError(.decode, "the keychain's circle record is damaged (\(error.reason.rawValue))")
        }
    }
}
