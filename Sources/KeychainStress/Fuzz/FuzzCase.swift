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

/// One fuzz input: a function and its dictionaries (or, for `SecAccessControlCreateWithFlags`,
/// a protection value and flags).
struct FuzzCase {
    enum Function: String, CaseIterable {
        case add, copyMatching, update, delete, accessControl
    }

    var function: Function
    var query: [String: Any]
    var changes: [String: Any] = [:]
    var flags: CFOptionFlags = 0
    var wantsResult = true

    /// Reads a corpus file: `{"function": …, "query": {…}, "changes": {…}, "flags": n}`.
    ///
    /// Values are JSON, with `{"data": "<hex>"}` for data and `{"date": <seconds since 1970>}` for
    /// dates.
    init(corpusFile url: URL) throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        guard let root = object as? [String: Any], let name = root["function"] as? String,
            let function = Function(rawValue: name)
        else { throw StressError("\(url.lastPathComponent): not a fuzz case") }
        self.function = function
        query = Self.decode(root["query"]) as? [String: Any] ?? [:]
        changes = Self.decode(root["changes"]) as? [String: Any] ?? [:]
        flags = (root["flags"] as? NSNumber)?.uintValue ?? 0
    }

    init(function: Function, query: [String: Any], changes: [String: Any] = [:], flags: CFOptionFlags = 0) {
        self.function = function
        self.query = query
        self.changes = changes
        self.flags = flags
    }

    private static func decode(_ value: Any?) -> Any? {
        switch value {
        case let dictionary as [String: Any]:
            if let hex = dictionary["data"] as? String, dictionary.count == 1 { return Data(hex: hex) }
            if let seconds = dictionary["date"] as? NSNumber, dictionary.count == 1 {
                return Date(timeIntervalSince1970: seconds.doubleValue)
            }
            return dictionary.mapValues { decode($0) ?? NSNull() }
        case let array as [Any]: return array.map { decode($0) ?? NSNull() }
        default: return value
        }
    }

    /// Runs the case; the status returned (`errSecSuccess` or `errSecParam` for access control).
    func run() -> OSStatus {
        var result: CFTypeRef?
        switch function {
        case .add where wantsResult: return SecItemAdd(query as CFDictionary, &result)
        case .add: return SecItemAdd(query as CFDictionary, nil)
        case .copyMatching where wantsResult: return SecItemCopyMatching(query as CFDictionary, &result)
        case .copyMatching: return SecItemCopyMatching(query as CFDictionary, nil)
        case .update: return SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        case .delete: return SecItemDelete(query as CFDictionary)
        case .accessControl:
            let protection = query[kSecAttrAccessible as String] ?? NSNull()
            var error: Unmanaged<CFError>?
            let created = SecAccessControlCreateWithFlags(
                nil,
                protection as CFTypeRef,
                SecAccessControlCreateFlags(rawValue: flags),
                &error
            )
            if created == nil && error == nil { return errSecInternalComponent }  // a failure must explain itself
            return created == nil ? errSecParam : errSecSuccess
        }
    }
}

extension Data {
    init(hex: String) {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { break }
            bytes.append(value)
        }
        self.init(bytes)
    }
}
