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
///   - result: On return, the new item as the `kSecReturn…` keys ask; may be `nil` (the result is
///     then dropped, as Apple's client drops it).
/// - Returns: `errSecSuccess`, `errSecDuplicateItem` if an item with the same primary key exists,
///   or another result code.
/// - Note: On Linux the keychain is the one of `KeychainDevice.Device.current()`: the
///   `KEYCHAIN_HOME` directory by default, or the one a test or the process selected.
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    if let values = IdentityItems.identityValues(of: attributes) {
        return IdentityItems.add(values, result)
    }
    return SecItemCall.run { () throws(KeychainError) in
        let call = try SecItemCall.parse(attributes, for: .add)
        // A result that cannot be made is refused before anything is stored.
        try SecItemResult.validate(call.query)
        let device = try Device.current()
        let item = try call.authenticating(on: device) { query throws(KeychainError) in
            try device.engine.add(SecItemResult.engineQuery(query))
        }
        if let result, !call.query.returnTypes.isEmpty {
            result.pointee = try SecItemResult.make([item], call: call, device: device)
        }
    }
}

/// Returns one or more keychain items that match a search query, or copies attributes of specific keychain items.
///
/// - Parameters:
///   - query: The item class, attributes to match, `kSecMatchLimit`, and `kSecReturn…` keys.
///   - result: On return, the matches in the shape the `kSecReturn…` keys and match limit ask for.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another result code.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    if let values = IdentityItems.identityValues(of: query) {
        return IdentityItems.copyMatching(values, result)
    }
    return SecItemCall.run { () throws(KeychainError) in
        let call = try SecItemCall.parse(query, for: .copyMatching)
        try SecItemResult.validate(call.query)
        let match = try CertificateMatch.parse(SecItemCall.dictionary(query), itemClass: call.query.itemClass)
        let device = try Device.current()
        var items = try call.authenticating(on: device) { query throws(KeychainError) in
            let engineQuery = SecItemResult.engineQuery(query)
            return try device.engine.search(match?.widen(engineQuery) ?? engineQuery)
        }
        if let match {
            items = match.select(items, limit: call.query.matchLimit, returnTypes: call.query.returnTypes)
            guard !items.isEmpty else { throw KeychainError(.itemNotFound, "no certificate passes the match options") }
        }
        if let result, !call.query.returnTypes.isEmpty {
            result.pointee = try SecItemResult.make(items, call: call, device: device)
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
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    if let values = IdentityItems.identityValues(of: query) {
        return IdentityItems.update(values, IdentityItems.values(of: attributesToUpdate) ?? [:])
    }
    return SecItemCall.run { () throws(KeychainError) in
        let call = try SecItemCall.parse(query, for: .update)
        let changes = try QueryParser.parseUpdate(
            try SecItemCall.dictionary(attributesToUpdate),
            itemClass: call.query.itemClass
        )
        let device = try Device.current()
        try call.authenticating(on: device) { query throws(KeychainError) in
            try device.engine.update(query, with: changes)
        }
    }
}

/// Deletes items that match a search query.
///
/// - Parameter query: The item class and attributes of the items to delete. Every match is deleted.
/// - Returns: `errSecSuccess`, `errSecItemNotFound`, or another result code.
///
/// Deleting never needs an item's access control; through `securityd`, deleting a sandboxed
/// app's items from another program needs the user's presence, asked as for a read.
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    if let values = IdentityItems.identityValues(of: query) {
        return IdentityItems.delete(values)
    }
    return SecItemCall.run { () throws(KeychainError) in
        let call = try SecItemCall.parse(query, for: .delete)
        let device = try Device.current()
        try call.authenticating(on: device) { query throws(KeychainError) in try device.engine.delete(query) }
    }
}

/// One `SecItem*` call: its parsed query, and the authentication context it brought.
struct SecItemCall {
    /// The parsed query; its credential reference names the caller's context, if it brought one.
    var query: ItemQuery
    /// The caller's `LAContext`, if any.
    var provided: (any AuthenticationContextProviding)?
    /// The handle that keeps the caller's context alive for the call.
    var handle: ContextHandle?

    /// Runs one call and turns its outcome into an `OSStatus`.
    static func run(_ body: () throws(KeychainError) -> Void) -> OSStatus {
        do {
            try body()
            return errSecSuccess
        } catch {
            return error.osStatus
        }
    }

    /// Parses a query, replacing its `kSecUseAuthenticationContext` by the context's reference
    /// (`kSecUseCredentialReference`), as Apple's client does before a call leaves the process.
    static func parse(_ dictionary: CFDictionary, for operation: KeychainOperation) throws(KeychainError) -> SecItemCall
    {
        var values = try Self.dictionary(dictionary)
        IssuerNormalization.apply(to: &values)
        var provided: (any AuthenticationContextProviding)?
        var handle: ContextHandle?
        if let context = values[QueryKey.authenticationContext] as? any AuthenticationContextProviding {
            guard values[QueryKey.credentialReference] == nil else {
                throw KeychainError(
                    .invalidParameter,
                    "kSecUseAuthenticationContext and kSecUseCredentialReference together"
                )
            }
            do {
                handle = try context.contextHandle()
            } catch {
                throw error.keychainError
            }
            provided = context
            values[QueryKey.authenticationContext] = nil
            values[QueryKey.credentialReference] = handle?.reference.data
        }
        try SecItemReference.expand(&values, for: operation)
        let query = try QueryParser.parse(values, for: operation)
        return SecItemCall(query: query, provided: provided, handle: handle)
    }

    /// Apple's client loop: runs `body` with the call's context; when the engine answers
    /// "authentication needed", evaluates the item's access control on the context (prompting
    /// unless interaction is not allowed) and runs `body` again, at most 20 times.
    ///
    /// The context is the query's `kSecUseAuthenticationContext`, or one of the call's own. Most
    /// calls need none: a call without a context runs first without one (the engine treats "no
    /// context" as a context that has earned nothing) and makes its own only when the engine asks
    /// for authentication — through `securityd`, two round trips fewer for every plain call.
    func authenticating<T>(
        on device: Device,
        _ body: (ItemQuery) throws(KeychainError) -> T
    ) throws(KeychainError) -> T {
        var query = query
        var attempt = Result { () throws(KeychainError) in try body(query) }
        var callContext: ContextHandle?
        // Both contexts must live until the call ends: releasing one forgets what it earned.
        defer { withExtendedLifetime((handle, callContext)) {} }
        let interactive = query.authenticationUI == .allow && provided?.allowsInteraction != false
        for _ in 0..<Self.maximumAuthenticationRounds {
            guard case .failure(let error) = attempt, error.code == .authenticationNeeded,
                let request = error.authenticationRequest
            else { return try attempt.get() }
            if query.credentialReference == nil {
                let made = try ContextHandle(engine: device.engine)
                callContext = made
                query.credentialReference = made.reference
            }
            guard let reference = query.credentialReference else {
                throw KeychainError(.internalInconsistency, "the call has no authentication context")
            }
            let reason = query.operationPrompt ?? provided?.defaultReason ?? ""
            let evaluated = Result { () throws(AuthenticationFailure) in
                try device.engine.evaluate(
                    request.accessControl,
                    operation: request.operation,
                    missing: request.missingAlternatives,
                    for: reference,
                    reason: reason.isEmpty ? "access a keychain item" : reason,
                    interactionAllowed: interactive
                )
            }
            if case .failure(let failure) = evaluated { throw failure.keychainError }
            attempt = Result { () throws(KeychainError) in try body(query) }
        }
        guard case .failure(let error) = attempt, error.code == .authenticationNeeded else { return try attempt.get() }
        throw KeychainError(
            .authenticationFailed,
            "authentication did not succeed in \(Self.maximumAuthenticationRounds) rounds"
        )
    }

    /// Apple's bound on evaluations per keychain call.
    static let maximumAuthenticationRounds = 20

    /// A Core Foundation dictionary as `[String: Any]`; a non-string key is `errSecParam`.
    static func dictionary(_ dictionary: CFDictionary) throws(KeychainError) -> [String: Any] {
        var result: [String: Any] = [:]
        result.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard let key = key as? String else {
                throw KeychainError(.invalidParameter, "a query key is not a string")
            }
            // Mirror objects become engine values.
            result[key] = (value as? SecAccessControl)?.accessControl ?? value
        }
        return result
    }
}
#endif
