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
        let device = try Device.current()
        let item = try SecItemCall.authenticating(query, on: device) { credentials throws(KeychainCoreError) in
            try device.keychain.add(query, credentials: credentials)
        }
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
        let device = try Device.current()
        let items = try SecItemCall.authenticating(parsed, on: device) { credentials throws(KeychainCoreError) in
            try device.keychain.search(parsed, credentials: credentials)
        }
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
        let device = try Device.current()
        try SecItemCall.authenticating(parsed, on: device) { credentials throws(KeychainCoreError) in
            try device.keychain.update(parsed, with: changes, credentials: credentials)
        }
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

    /// Apple's client loop: runs `body` with the context's credentials; when the engine answers
    /// "authentication needed", evaluates the item's access control on the context (prompting
    /// unless interaction is not allowed) and runs `body` again, at most 20 times.
    ///
    /// The context is the query's `kSecUseAuthenticationContext`, or a fresh one for this call.
    static func authenticating<T>(
        _ query: ItemQuery,
        on device: Device,
        _ body: (AuthenticationCredentials) throws(KeychainCoreError) -> T
    ) throws(KeychainCoreError) -> T {
        let provided = query.authenticationContext as? any AuthenticationSessionProviding
        let session: AuthenticationSession
        switch Result(catching: { () throws(AuthenticationFailure) in try provided?.authenticationSession() }) {
        case .success(let existing): session = existing ?? AuthenticationSession(device: device)
        case .failure(let failure): throw failure.keychainError
        }
        let interactive = query.authenticationUI == .allow && provided?.allowsInteraction != false
        for _ in 0..<maximumAuthenticationRounds {
            let attempt = Result { () throws(KeychainCoreError) in try body(session.credentials) }
            guard case .failure(let error) = attempt, error.code == .authenticationNeeded,
                let request = error.authenticationRequest
            else { return try attempt.get() }
            let reason = query.operationPrompt ?? provided?.defaultReason ?? ""
            let evaluated = Result { () throws(AuthenticationFailure) in
                try session.evaluate(
                    request.accessControl,
                    operation: request.operation,
                    missing: request.missingAlternatives,
                    reason: reason.isEmpty ? "access a keychain item" : reason,
                    interactionAllowed: interactive
                )
            }
            if case .failure(let failure) = evaluated { throw failure.keychainError }
        }
        throw KeychainCoreError(.authenticationFailed, "authentication did not succeed in \(maximumAuthenticationRounds) rounds")
    }

    /// Apple's bound on evaluations per keychain call.
    static let maximumAuthenticationRounds = 20

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
