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

import Crypto
import Foundation
import KeychainContract
import KeychainCore

/// The attribute pairs and metadata of one group's Secret Service items, held by the provider: what
/// answers a search or a property without decrypting items again, and, while the keychain is
/// locked, the only thing that can say which items a search finds (as locked).
///
/// Pairs are keyed hashes under a key of this run, never names or values. The index is rebuilt
/// from the keychain when anything else wrote to it through the daemon (``DaemonWrites``); the
/// provider's own writes keep it current. A search's candidates are checked against the items'
/// attributes; the secret is always read from the keychain.
struct SecretIndex {
    /// Item path → its pairs.
    private(set) var pairs: [String: Set<Data>] = [:]
    /// Item path → the item's metadata (never its secret), read while the keychain was unlocked.
    private(set) var items: [String: SecretItem] = [:]
    /// Collection id → the access control flags of its new items, as read since the index was built.
    var protections: [String: UInt] = [:]
    /// Whether reads are confirmed (``SecretStore/confirmsReads(group:)``), as read since it was built.
    var confirmsReads: Bool?
    /// Pair → the item paths that have it.
    private var paths: [Data: Set<String>] = [:]
    /// ``DaemonWrites/count`` when the index was built from the keychain; `nil` never built.
    var generation: Int?

    /// The paths that may have every pair of `query`.
    func candidates(_ query: Set<Data>) -> Set<String> {
        guard !query.isEmpty else { return Set(pairs.keys) }
        let sets = query.map { paths[$0] ?? [] }.sorted { $0.count < $1.count }
        guard var result = sets.first else { return [] }
        for next in sets.dropFirst() where !result.isEmpty { result.formIntersection(next) }
        return result
    }

    mutating func insert(_ path: String, _ item: SecretItem, _ itemPairs: Set<Data>) {
        remove(path)
        items[path] = item
        pairs[path] = itemPairs
        for pair in itemPairs { paths[pair, default: []].insert(path) }
    }

    mutating func remove(_ path: String) {
        items[path] = nil
        guard let old = pairs.removeValue(forKey: path) else { return }
        for pair in old {
            paths[pair]?.remove(path)
            if paths[pair]?.isEmpty == true { paths[pair] = nil }
        }
    }

    /// Forgets the items' metadata, keeping the pairs (the keychain locked): the next read while
    /// it is unlocked builds the index again.
    mutating func forgetMetadata() {
        items = [:]
        protections = [:]
        confirmsReads = nil
        generation = nil
    }

    mutating func removeAll(under prefix: String) {
        for path in pairs.keys where path.hasPrefix(prefix) { remove(path) }
    }
}

/// Counts the changes clients made to a keychain through the daemon's socket, so that the Secret
/// Service's index knows when to read the items again.
enum DaemonWrites {
    private static let counter = LockedState(0)

    static var count: Int { counter.withLock { $0 } }

    /// Notes `request` if it may have changed items.
    static func noteIfItChanges(_ request: EngineRequest) {
        switch request {
        case .add, .update, .delete, .restore: counter.withLock { $0 &+= 1 }
        default: break
        }
    }
}
