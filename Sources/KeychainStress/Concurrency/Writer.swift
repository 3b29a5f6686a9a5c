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
import KeychainServices
import KeychainTesting

/// One thread's share of the concurrency run: random adds, reads, updates and deletes of items
/// only it touches (so every status is predictable), plus updates of the shared item's attribute
/// it owns, if any.
///
/// Any status other than the predicted one is a failure.
struct Writer {
    /// The shared item's attributes, one per owning writer: concurrent updates of one item must
    /// not undo one another.
    nonisolated(unsafe) static let sharedAttributes: [CFString] = [
        kSecAttrLabel, kSecAttrComment, kSecAttrDescription, kSecAttrType,
    ]
    static let service = "concurrency"
    static let sharedAccount = "shared"

    let name: String
    /// The index in ``sharedAttributes`` this writer updates, if any.
    let sharedAttribute: Int?
    var generator: SplitMix64

    /// Versions of this writer's items as it last set them.
    private(set) var model: [Int: UInt64] = [:]
    private(set) var lastSharedStep: Int?
    private(set) var failures: [String] = []
    private(set) var operations = 0

    init(name: String, sharedAttribute: Int?, seed: UInt64) {
        self.name = name
        self.sharedAttribute = sharedAttribute
        generator = SplitMix64(seed: seed)
    }

    /// After-first-unlock items: the lock/unlock thread does not change what their operations return.
    private var items: StressItems {
        StressItems(service: "\(Self.service)-\(name)", protection: kSecAttrAccessibleAfterFirstUnlock)
    }

    mutating func run(operations count: Int, keys: Int = 16) {
        for step in 0..<count {
            operations += 1
            if let attribute = sharedAttribute, generator.next() % 4 == 0 {
                updateShared(attribute, step: step)
                continue
            }
            let key = Int(generator.next() % UInt64(keys))
            let version = UInt64(step + 1)
            switch (generator.next() % 4, model[key]) {
            case (0, _):
                expect(
                    items.add(key, version: version),
                    model[key] == nil ? errSecSuccess : errSecDuplicateItem,
                    "add \(key)"
                )
                if model[key] == nil { model[key] = version }
            case (1, let current):
                let (status, data) = items.read(key)
                expect(status, current == nil ? errSecItemNotFound : errSecSuccess, "read \(key)")
                if let current, status == errSecSuccess, data != StressItems.secret(key, version: current) {
                    failures.append("\(name): read \(key) returned another version's secret")
                }
            case (2, let current):
                expect(
                    items.update(key, version: version),
                    current == nil ? errSecItemNotFound : errSecSuccess,
                    "update \(key)"
                )
                if current != nil { model[key] = version }
            default:
                expect(items.delete(key), model[key] == nil ? errSecItemNotFound : errSecSuccess, "delete \(key)")
                model[key] = nil
            }
        }
    }

    private mutating func updateShared(_ attribute: Int, step: Int) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: Self.service,
            kSecAttrAccount as String: Self.sharedAccount,
        ]
        let changes: [String: Any] = [
            Self.sharedAttributes[attribute] as String: Self.sharedValue(name, step: step, attribute: attribute)
        ]
        expect(SecItemUpdate(query as CFDictionary, changes as CFDictionary), errSecSuccess, "update shared")
        lastSharedStep = step
    }

    /// The value `name` gives its shared attribute at `step`: `kSecAttrType` is a four-character
    /// code (a number), the others are strings.
    static func sharedValue(_ name: String, step: Int, attribute: Int) -> Any {
        guard sharedAttributes[attribute] == kSecAttrType else { return "\(name)-\(step)" }
        return NSNumber(value: UInt32(step + 1))
    }

    private mutating func expect(_ status: OSStatus, _ wanted: OSStatus, _ operation: String) {
        if status != wanted { failures.append("\(name): \(operation) returned \(status), expected \(wanted)") }
    }

    var outcome: Outcome {
        Outcome(
            name: name,
            model: Dictionary(uniqueKeysWithValues: model.map { (String($0.key), $0.value) }),
            sharedAttribute: sharedAttribute,
            lastSharedStep: lastSharedStep,
            failures: failures,
            operations: operations
        )
    }

    /// What a writer did and was told, as a worker process reports it.
    struct Outcome: Codable {
        var name: String
        var model: [String: UInt64]
        var sharedAttribute: Int?
        var lastSharedStep: Int?
        var failures: [String]
        var operations: Int

        /// Checks the writer's items in the keychain against what it was told (from any view).
        func verify() -> [String] {
            let expected = Dictionary(
                uniqueKeysWithValues: model.compactMap { key, value in Int(key).map { ($0, value) } }
            )
            switch StressItems(service: "\(Writer.service)-\(name)").list() {
            case .items(let found):
                return found == expected ? [] : ["\(name): items differ from the acknowledged operations"]
            case .damaged(let reason): return ["\(name): \(reason)"]
            case .failed(let status): return ["\(name): listing returned \(status)"]
            }
        }

        /// Checks that the shared item holds this writer's last value of its attribute.
        func verifyShared(_ attributes: [String: Any]) -> [String] {
            guard let attribute = sharedAttribute, let step = lastSharedStep else { return [] }
            let key = Writer.sharedAttributes[attribute] as String
            let expected = Writer.sharedValue(name, step: step, attribute: attribute)
            let found = attributes[key]
            let same =
                (found as? String).map { $0 == expected as? String }
                ?? (found as? NSNumber).map { $0 == expected as? NSNumber } ?? false
            return same ? [] : ["\(name): the shared item lost its update of \(key) (lost update)"]
        }
    }
}
