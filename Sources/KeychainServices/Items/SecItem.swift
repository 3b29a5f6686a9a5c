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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import Security
#else
public import Foundation
import KeychainCore
import KeychainDevice

/// Adds one or more items to a keychain.
///
/// - Parameters:
///   - attributes: The item's class, attributes and value (`kSecValueData`), and optionally
///     `kSecReturn…` keys asking for the new item.
///   - result: On return, the new item as the `kSecReturn…` keys ask; may be `nil` when none is set.
/// - Returns: `errSecSuccess`, `errSecDuplicateItem` if an item with the same primary key exists,
///   or another result code.
/// - Note: On Linux the keychain is the one of `KeychainDevice.Device.current()`: the
///   `KEYCHAIN_HOME` directory by default, or the one a test or the process selected.
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run { () throws(KeychainCoreError) in
        let query = try QueryParser.parse(try SecItemCall.dictionary(attributes), for: .add)
        if !query.returnTypes.isEmpty && result == nil {
            throw KeychainCoreError(.invalidParameter, "a kSecReturn key is set but result is NULL")
        }
        let keychain = try SecItemCall.keychain()
        let item = try keychain.add(query)
        if let result, !query.returnTypes.isEmpty {
            result.pointee = try SecItemResult.make([item], query: query)
        }
    }
}

/// Returns one or more keychain items that match a search query, or copies attributes of specific keychain items.
///
/// - Parameters:
///   - query: The item class, attributes to match, `kSecMatchLimit`, and `kSecReturn…` keys.
///   - result: On return, the matches in the shape the `kSecReturn…` keys and match limit ask for.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another result code.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run { () throws(KeychainCoreError) in
        let parsed = try QueryParser.parse(try SecItemCall.dictionary(query), for: .copyMatching)
        if !parsed.returnTypes.isEmpty && result == nil {
            throw KeychainCoreError(.invalidParameter, "a kSecReturn key is set but result is NULL")
        }
        try SecItemResult.validate(parsed)
        let items = try SecItemCall.keychain().search(parsed)
        if let result, !parsed.returnTypes.isEmpty {
            result.pointee = try SecItemResult.make(items, query: parsed)
        }
    }
}

/// Modifies items that match a search query.
///
/// - Parameters:
///   - query: The item class and attributes of the items to change.
///   - attributesToUpdate: The attributes and value to set.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, `errSecDuplicateItem` if a change would make
///   two items alike, or another result code.
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    SecItemCall.run { () throws(KeychainCoreError) in
        let parsed = try QueryParser.parse(try SecItemCall.dictionary(query), for: .update)
        let changes = try QueryParser.parseUpdate(
            try SecItemCall.dictionary(attributesToUpdate),
            itemClass: parsed.itemClass
        )
        try SecItemCall.keychain().update(parsed, with: changes)
    }
}

/// Deletes items that match a search query.
///
/// - Parameter query: The item class and attributes of the items to delete. Every match is deleted.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another result code.
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    SecItemCall.run { () throws(KeychainCoreError) in
        let parsed = try QueryParser.parse(try SecItemCall.dictionary(query), for: .delete)
        try SecItemCall.keychain().delete(parsed)
    }
}

/// The plumbing shared by the four `SecItem*` functions.
enum SecItemCall {
    /// Runs one call and turns its outcome into an `OSStatus`.
    static func run(_ body: () throws(KeychainCoreError) -> Void) -> OSStatus {
        do {
            try body()
            return errSecSuccess
        } catch {
            return error.osStatus
        }
    }

    /// The keychain this call uses.
    static func keychain() throws(KeychainCoreError) -> Keychain {
        try Device.current().keychain
    }

    /// A Core Foundation dictionary as `[String: Any]`; a non-string key is `errSecParam`.
    static func dictionary(_ dictionary: CFDictionary) throws(KeychainCoreError) -> [String: Any] {
        var result: [String: Any] = [:]
        result.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard let key = key as? String else {
                throw KeychainCoreError(.invalidParameter, "a query key is not a string")
            }
            // Mirror objects become engine values.
            result[key] = (value as? SecAccessControl)?.accessControl ?? value
        }
        return result
    }
}
#endif
