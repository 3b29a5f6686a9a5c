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

/// Reads `SecItem*` dictionaries with Apple's rules: which keys each operation accepts, which value
/// types they take, and which combinations are refused.
///
/// Keys are Apple's raw constant values, spelled once in ``QueryKey`` (and ``ItemSchema`` for
/// attributes). Every refusal is `errSecParam` unless Apple documents another status (an unknown
/// class is `errSecNoSuchClass`).
package enum QueryParser {
    /// Largest secret accepted, a guard against memory exhaustion (Apple only warns above 32 KiB).
    package static let maximumSecretSize = 16 << 20
    /// Largest single attribute value accepted.
    package static let maximumAttributeSize = 1 << 20

    // MARK: Queries

    /// Parses the query (or the attributes of an add) of one operation.
    ///
    /// The mirror layer hands objects of its own as engine values: a `SecAccessControl` under
    /// `kSecAttrAccessControl` as an ``AccessControl``.
    package static func parse(
        _ dictionary: [String: Any],
        for operation: KeychainOperation
    ) throws(KeychainError) -> ItemQuery {
        var query = ItemQuery(itemClass: try itemClass(of: dictionary, operation: operation))
        let schema = ItemSchema.of(query.itemClass)

        for (key, value) in dictionary {
            switch key {
            case QueryKey.itemClass:
                continue
            case QueryKey.returnData, QueryKey.returnAttributes, QueryKey.returnReference,
                QueryKey.returnPersistentReference:
                // A delete returns nothing and ignores them (`_SecItemDelete`; Apple's si-43 deletes
                // with kSecReturnAttributes).
                guard operation != .update else { throw invalid("\(key) is not allowed in \(operation)") }
                guard let flag = boolean(value) else { throw invalid("\(key) must be a Boolean") }
                if flag && operation != .delete { query.returnTypes.insert(returnType(key)) }
            case QueryKey.matchLimit:
                switch operation {
                case .copyMatching: query.matchLimit = try matchLimit(value)
                case .add, .update: _ = try matchLimit(value)  // an add makes one item; an update acts on all matches
                case .delete:
                    // A delete removes every match: only a finite limit is refused (`_SecItemDelete`:
                    // `q_limit != kSecMatchUnlimited`).
                    guard try matchLimit(value) == .all else {
                        throw invalid("a finite kSecMatchLimit is not allowed in SecItemDelete")
                    }
                }
            case QueryKey.matchHostOrSubdomainOfHost:
                guard operation == .copyMatching else { throw invalid("\(key) is not allowed in \(operation)") }
                guard let host = value as? String else {
                    throw invalid("kSecMatchHostOrSubdomainOfHost must be a string")
                }
                // Apple matches servers of internet passwords only (SecItemServer.c: errSecUnsupportedOperation otherwise).
                guard query.itemClass == .internetPassword else {
                    throw KeychainError(
                        .unimplemented,
                        "kSecMatchHostOrSubdomainOfHost applies to internet passwords only"
                    )
                }
                query.hostOrSubdomainOf = host
            case _ where key.hasPrefix(QueryKey.matchPrefix):
                // Apple records other match options for searches (and applies only the ones it knows);
                // any of them makes an add, an update's query or a delete invalid.
                guard operation == .copyMatching else { throw invalid("\(key) is not allowed in \(operation)") }
            case QueryKey.valueData:
                let data = try secret(value)
                if operation == .add { query.valueData = data }
            case QueryKey.valuePersistentReference:
                guard operation != .add else { throw invalid("kSecValuePersistentRef is not allowed in add") }
                guard let data = value as? Data else { throw invalid("kSecValuePersistentRef must be data") }
                guard let reference = PersistentReference(data) else {
                    throw invalid("kSecValuePersistentRef is not a valid persistent reference")
                }
                query.persistentReference = reference
            case QueryKey.valueReference:
                throw invalid("kSecValueRef must be a certificate, key or identity reference")
            case QueryKey.authenticationUI:
                guard let string = value as? String, let ui = AuthenticationUI(rawValue: string) else {
                    throw invalid("kSecUseAuthenticationUI has an unknown value")
                }
                guard ui != .skip || operation == .copyMatching else {
                    throw invalid("kSecUseAuthenticationUISkip is only allowed in SecItemCopyMatching")
                }
                query.authenticationUI = ui
            case QueryKey.noAuthenticationUI:
                guard let flag = boolean(value) else { throw invalid("kSecUseNoAuthenticationUI must be a Boolean") }
                if flag { query.authenticationUI = .fail }
            case QueryKey.operationPrompt:
                guard let prompt = value as? String else { throw invalid("kSecUseOperationPrompt must be a string") }
                query.operationPrompt = prompt
            case QueryKey.authenticationContext:
                // The mirror replaces an `LAContext` by its reference before the query is parsed.
                throw invalid("kSecUseAuthenticationContext must be an LAContext")
            case QueryKey.credentialReference:
                guard let data = value as? Data, let reference = ContextReference(data) else {
                    throw invalid("kSecUseCredentialReference must be a context reference")
                }
                if dictionary[QueryKey.authenticationContext] != nil {
                    throw invalid("kSecUseAuthenticationContext and kSecUseCredentialReference together")
                }
                query.credentialReference = reference
            case QueryKey.dataProtectionKeychain:
                guard boolean(value) != nil else { throw invalid("kSecUseDataProtectionKeychain must be a Boolean") }
            case QueryKey.itemList:
                throw invalid("kSecUseItemList is not supported")
            case QueryKey.accessible:
                query.protection = try protection(value)
            case QueryKey.accessControl:
                query.accessControl = try accessControl(value)
            case QueryKey.synchronizable:
                if let string = value as? String, string == QueryKey.synchronizableAny {
                    guard operation != .add else {
                        throw invalid("kSecAttrSynchronizableAny is not allowed in add")
                    }
                    query.matchesAnySynchronizable = true
                } else if let flag = boolean(value) {
                    query.attributes[QueryKey.synchronizable] = .bool(flag)
                } else {
                    throw invalid("kSecAttrSynchronizable must be a Boolean or kSecAttrSynchronizableAny")
                }
            default:
                query.attributes[key] = try attributeValue(value, key: key, schema: schema)
            }
        }

        if let reference = query.persistentReference {
            if reference.itemClass != query.itemClass {
                throw KeychainError(.noSuchClass, "kSecValuePersistentRef is of another class than kSecClass")
            }
            if !query.attributes.isEmpty || query.protection != nil || query.accessControl != nil {
                throw invalid("kSecValuePersistentRef cannot be combined with attributes")
            }
        }

        try resolveProtection(&query.protection, accessControl: query.accessControl)
        if query.attributes[QueryKey.synchronizable] == nil && !query.matchesAnySynchronizable
            && query.persistentReference == nil
        {
            query.attributes[QueryKey.synchronizable] = .bool(false)
        }
        if operation == .add, case .bool(true)? = query.attributes[QueryKey.synchronizable] {
            // Apple checks an add and an update's changes only (SecItem.m); a search for such an
            // item simply finds none.
            try checkSynchronizable(protection: query.protection, accessControl: query.accessControl)
        }
        if operation == .add {
            // Dates are the engine's to set.
            query.attributes[QueryKey.creationDate] = nil
            query.attributes[QueryKey.modificationDate] = nil
        }
        return query
    }

    // MARK: Updates

    /// Parses the `attributesToUpdate` of `SecItemUpdate`.
    package static func parseUpdate(
        _ dictionary: [String: Any],
        itemClass: ItemClass
    ) throws(KeychainError) -> ItemUpdate {
        var update = ItemUpdate()
        let schema = ItemSchema.of(itemClass)
        for (key, value) in dictionary {
            switch key {
            case QueryKey.itemClass:
                throw KeychainError(.noSuchAttribute, "kSecClass cannot be updated")
            case QueryKey.valueData:
                update.valueData = try secret(value)
            case QueryKey.credentialReference:
                throw KeychainError(.noSuchAttribute, "kSecUseCredentialReference cannot be updated")
            case QueryKey.accessible:
                update.protection = try protection(value)
            case QueryKey.accessControl:
                update.accessControl = try accessControl(value)
            case QueryKey.synchronizable:
                guard let flag = boolean(value) else { throw invalid("kSecAttrSynchronizable must be a Boolean") }
                update.attributes[QueryKey.synchronizable] = .bool(flag)
            case QueryKey.creationDate, QueryKey.modificationDate:
                throw invalid("\(key) is maintained by the keychain")
            case QueryKey.dataProtectionKeychain:
                // A flag of the call, not an attribute: ignored among the changes, as Apple does.
                continue
            default:
                update.attributes[key] = try attributeValue(value, key: key, schema: schema)
            }
        }
        try resolveProtection(&update.protection, accessControl: update.accessControl)
        if case .bool(true)? = update.attributes[QueryKey.synchronizable] {
            try checkSynchronizable(protection: update.protection, accessControl: update.accessControl)
        }
        return update
    }

    // MARK: Pieces

    private static func itemClass(
        of dictionary: [String: Any],
        operation: KeychainOperation
    ) throws(KeychainError) -> ItemClass {
        guard let value = dictionary[QueryKey.itemClass] else {
            if operation != .add, let data = dictionary[QueryKey.valuePersistentReference] as? Data,
                let reference = PersistentReference(data)
            {
                return reference.itemClass
            }
            throw invalid("the query has no kSecClass")
        }
        guard let string = value as? String else { throw invalid("kSecClass must be a string") }
        guard let itemClass = ItemClass(rawValue: string) else {
            throw KeychainError(.noSuchClass, "unknown item class")
        }
        return itemClass
    }

    private static func returnType(_ key: String) -> ReturnTypes {
        switch key {
        case QueryKey.returnData: .data
        case QueryKey.returnAttributes: .attributes
        case QueryKey.returnReference: .reference
        default: .persistentReference
        }
    }

    private static func matchLimit(_ value: Any) throws(KeychainError) -> MatchLimit {
        if let string = value as? String {
            switch string {
            case QueryKey.matchLimitOne: return .one
            case QueryKey.matchLimitAll: return .all
            default: throw invalid("kSecMatchLimit has an unknown value")
            }
        }
        guard !(value is Data), let number = value as? NSNumber else {
            throw invalid("kSecMatchLimit must be kSecMatchLimitOne, kSecMatchLimitAll or a number")
        }
        let count = number.intValue
        guard Double(count) == number.doubleValue else {
            throw invalid("kSecMatchLimit must be an integer")
        }
        // As Apple's store: 1 is a single result, -1 (kCFNotFound) is unlimited, 0 finds nothing,
        // and any other negative number stops after the first result.
        switch count {
        case 1: return .one
        case -1: return .all
        case ..<0: return .count(1)
        default: return .count(count)
        }
    }

    private static func secret(_ value: Any) throws(KeychainError) -> Data {
        guard let data = value as? Data else { throw invalid("kSecValueData must be data") }
        guard data.count <= maximumSecretSize else {
            throw KeychainError(.dataTooLarge, "the secret is larger than \(maximumSecretSize) bytes")
        }
        return data
    }

    private static func accessControl(_ value: Any) throws(KeychainError) -> AccessControl {
        guard let accessControl = value as? AccessControl else {
            throw invalid("kSecAttrAccessControl must be a SecAccessControl")
        }
        return accessControl
    }

    private static func protection(_ value: Any) throws(KeychainError) -> ProtectionClass {
        guard let string = value as? String, let protection = ProtectionClass(rawValue: string) else {
            throw invalid("kSecAttrAccessible has an unknown value")
        }
        return protection
    }

    private static func resolveProtection(
        _ protection: inout ProtectionClass?,
        accessControl: AccessControl?
    ) throws(KeychainError) {
        guard let accessControl else { return }
        if let protection, protection != accessControl.protection {
            throw invalid("kSecAttrAccessible and kSecAttrAccessControl disagree")
        }
        protection = accessControl.protection
    }

    private static func checkSynchronizable(
        protection: ProtectionClass?,
        accessControl: AccessControl?
    ) throws(KeychainError) {
        // Any access control made by SecAccessControlCreateWithFlags carries constraints in Apple's
        // form (even with no flags), and Apple refuses every one on a synchronizable item
        // (SecItem.m; sec_acl_stress.c 250–251, every class): an access control cannot travel.
        if accessControl != nil {
            throw invalid("an item with kSecAttrAccessControl is not synchronizable")
        }
        // A ThisDeviceOnly class with synchronizable is accepted, as Apple's implementation does
        // (SecItem.h says "may not", but neither SecItem.m nor SecItemServer.c checks the pair):
        // the item stays on this device, as every item does here.
    }

    private static func attributeValue(
        _ value: Any,
        key: String,
        schema: ItemSchema
    ) throws(KeychainError) -> AttributeValue {
        guard let descriptor = schema.attribute(key) else {
            // Apple: a four-character attribute code the class lacks is errSecNoSuchAttr; anything else is errSecParam.
            if key.utf8.count == 4, key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), !key.contains("_") {
                throw KeychainError(
                    .noSuchAttribute,
                    "\(key) is not an attribute of class \(schema.itemClass.rawValue)"
                )
            }
            throw invalid("unknown key \(key)")
        }
        guard let parsed = AttributeValue(value, kind: descriptor.kind) else {
            throw invalid("\(descriptor.code) has a value of the wrong type")
        }
        let size: Int
        switch parsed {
        case .string(let string): size = string.utf8.count
        case .data(let data): size = data.count
        default: size = 0
        }
        guard size <= maximumAttributeSize else {
            throw KeychainError(.dataTooLarge, "\(descriptor.code) is larger than \(maximumAttributeSize) bytes")
        }
        return parsed
    }

    /// A Boolean as Core Foundation spells it: `true`, `kCFBooleanTrue` or a number.
    private static func boolean(_ value: Any) -> Bool? {
        if value is String { return nil }
        if let bool = value as? Bool { return bool }
        if let number = value as? NSNumber { return number.intValue != 0 }
        return nil
    }

    private static func invalid(_ message: String) -> KeychainError {
        KeychainError(.invalidParameter, message)
    }
}
