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
import Foundation
import KeychainCore
import KeychainDevice

/// Builds the `result` of `SecItemAdd` and `SecItemCopyMatching` in Apple's shapes.
///
/// One `kSecReturn…` key gives that value alone (`Data` for data and persistent references, a
/// dictionary for attributes); several give a dictionary holding the attributes plus `v_Data` and
/// `v_PersistentRef`; a match limit other than one gives an array of those.
///
/// `kSecReturnRef` gives a `SecKey` for a key and a `SecCertificate` for a certificate (under
/// `v_Ref` when other return keys ask for a dictionary). On a password item it makes no reference
/// (passwords have no object type), as in Apple's `SecItemResultCopyPrepared`: alone it gives no
/// result (an array leaves the item out); with other return keys the dictionary is the one a
/// reference is made from — every attribute, `kSecClass` and the item's data (securityd's
/// `SecDbItemCopyResult`).
enum SecItemResult {
    /// Refuses return keys that this implementation cannot honour yet.
    static func validate(_ query: ItemQuery) throws(KeychainError) {
        guard query.returnTypes.contains(.reference) else { return }
        guard query.itemClass != .identity else {
            throw KeychainError(.unimplemented, "kSecReturnRef for identities is not supported yet")
        }
    }

    /// What the engine must return for `query`: a reference is made from the attributes and data.
    static func engineQuery(_ query: ItemQuery) -> ItemQuery {
        guard query.returnTypes.contains(.reference) else { return query }
        var query = query
        query.returnTypes.formUnion([.attributes, .data])
        return query
    }

    static func make(_ items: [ItemResult], call: SecItemCall, device: Device) throws(KeychainError) -> AnyObject? {
        let query = call.query
        try validate(query)
        let values = items.compactMap { item in
            single(item, returnTypes: query.returnTypes) {
                SecItemReference.object(for: item, device: device, context: call.provided)
            }
        }
        if query.matchLimit.returnsArray {
            return values as NSArray
        }
        return values.first
    }

    private static func single(
        _ item: ItemResult,
        returnTypes: ReturnTypes,
        object makeObject: () -> AnyObject?
    ) -> AnyObject? {
        if returnTypes.contains(.reference), let object = makeObject() {
            guard returnTypes != .reference else { return object }
            var dictionary = returnTypes.contains(.attributes) ? attributes(of: item) : [:]
            dictionary["v_Ref"] = object
            if returnTypes.contains(.data), let data = item.data { dictionary["v_Data"] = data }
            if returnTypes.contains(.persistentReference) {
                dictionary["v_PersistentRef"] = item.persistentReference.data
            }
            return dictionary as NSDictionary
        }
        if returnTypes.contains(.reference) {
            guard returnTypes != .reference else { return nil }
            var dictionary = attributes(of: item)
            dictionary[QueryKey.itemClass] = item.itemClass.rawValue
            if let data = item.data { dictionary["v_Data"] = data }
            if returnTypes.contains(.persistentReference) {
                dictionary["v_PersistentRef"] = item.persistentReference.data
            }
            return dictionary as NSDictionary
        }
        switch returnTypes {
        case .data:
            return (item.data ?? Data()) as NSData
        case .persistentReference:
            return item.persistentReference.data as NSData
        case .attributes:
            return attributes(of: item) as NSDictionary
        default:
            var dictionary = returnTypes.contains(.attributes) ? attributes(of: item) : [:]
            // An item added without data has none (`si-80-empty-data.c`); alone, data is empty data.
            if returnTypes.contains(.data), let data = item.data {
                dictionary["v_Data"] = data
            }
            if returnTypes.contains(.persistentReference) {
                dictionary["v_PersistentRef"] = item.persistentReference.data
            }
            return dictionary as NSDictionary
        }
    }

    /// The attribute dictionary of an item, keyed by Apple's raw attribute codes.
    static func attributes(of item: ItemResult) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for (code, value) in item.attributes {
            dictionary[code] = value.foundationValue
        }
        dictionary["pdmn"] = item.accessControl.protection.rawValue
        dictionary["accc"] = SecAccessControl(item.accessControl)
        return dictionary
    }
}
#endif
