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

package import Foundation

/// The four `SecItem*` operations.
package enum KeychainOperation: Sendable, Codable {
    case add
    case copyMatching
    case update
    case delete
}

/// A parsed `SecItem*` dictionary: what to match or set, what to return, how to authenticate.
package struct ItemQuery: Sendable, Codable {
    // MARK: Matching and setting

    /// The item class (`kSecClass`).
    ///
    /// Only a persistent reference may stand in for it.
    package var itemClass: ItemClass
    /// Attribute values by Apple code: match criteria in a search, values on add.
    package var attributes: [String: AttributeValue] = [:]
    /// `kSecAttrSynchronizableAny`: match both synchronizable and non-synchronizable items.
    package var matchesAnySynchronizable = false
    /// `kSecAttrAccessible`, or the protection of `kSecAttrAccessControl`.
    package var protection: ProtectionClass?
    /// `kSecAttrAccessControl`.
    package var accessControl: AccessControl?
    /// `kSecValueData`.
    package var valueData: Data?
    /// `kSecValuePersistentRef`.
    package var persistentReference: PersistentReference?

    // MARK: Results

    /// `kSecMatchLimit`.
    package var matchLimit: MatchLimit = .one
    /// The `kSecReturn…` keys set to true.
    package var returnTypes: ReturnTypes = []

    // MARK: Authentication

    /// `kSecUseAuthenticationUI` (and the older `kSecUseNoAuthenticationUI`).
    package var authenticationUI: AuthenticationUI = .allow
    /// `kSecUseOperationPrompt`.
    package var operationPrompt: String?
    /// `kSecUseCredentialReference`: the authentication context whose credentials the engine may
    /// use.
    ///
    /// The mirror puts the reference of the caller's `LAContext` here, as Apple's client does
    /// before a call leaves the process; the context itself never reaches the engine.
    package var credentialReference: ContextReference?

    // MARK: Caller

    /// The access groups the request may use (the caller's `keychain-access-groups`); `nil` for
    /// the engine's own.
    ///
    /// A client of the daemon sends the groups it is configured with, as a process of the
    /// in-process engine uses its own: on Linux, access groups separate applications that cooperate
    /// (see ``AccessGroups``).
    package var accessGroups: AccessGroups?
    /// `kSecMatchHostOrSubdomainOfHost`: internet passwords whose server is this host or a
    /// subdomain of it.
    package var hostOrSubdomainOf: String?
    /// For a token key item: generate its private key (an add), or use it (a search for one item,
    /// whose result's data is the operation's output).
    ///
    /// Never set by the query parser.
    package var keyOperation: KeyOperation?

    package init(itemClass: ItemClass) {
        self.itemClass = itemClass
    }

    /// The access group the query names (`kSecAttrAccessGroup`), if any.
    package var accessGroup: String? {
        if case .string(let group)? = attributes[QueryKey.accessGroup] { return group }
        return nil
    }
}

/// `kSecMatchLimit`.
package enum MatchLimit: Hashable, Sendable, Codable {
    case one
    case all
    case count(Int)

    /// The most results to return, `nil` for no limit.
    package var maximum: Int? {
        switch self {
        case .one: 1
        case .all: nil
        case .count(let count): count
        }
    }

    /// Whether results come back as an array (anything but `kSecMatchLimitOne`).
    package var returnsArray: Bool { self != .one }
}

/// The `kSecReturn…` keys of a query.
package struct ReturnTypes: OptionSet, Hashable, Sendable, Codable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let data = ReturnTypes(rawValue: 1 << 0)
    package static let attributes = ReturnTypes(rawValue: 1 << 1)
    package static let reference = ReturnTypes(rawValue: 1 << 2)
    package static let persistentReference = ReturnTypes(rawValue: 1 << 3)
}

/// `kSecUseAuthenticationUI`.
package enum AuthenticationUI: String, Hashable, Sendable, Codable {
    /// Prompt if needed (`kSecUseAuthenticationUIAllow`, the default).
    case allow = "u_AuthUIA"
    /// Fail with `errSecInteractionNotAllowed` instead of prompting (`kSecUseAuthenticationUIFail`).
    case fail = "u_AuthUIF"
    /// Leave items that need authentication out of the results (`kSecUseAuthenticationUISkip`).
    case skip = "u_AuthUIS"
}

/// The changes of a `SecItemUpdate`.
package struct ItemUpdate: Sendable, Codable {
    /// New attribute values by Apple code.
    package var attributes: [String: AttributeValue] = [:]
    /// A new protection class, from `kSecAttrAccessible` or `kSecAttrAccessControl`.
    package var protection: ProtectionClass?
    /// A new access control.
    package var accessControl: AccessControl?
    /// A new secret.
    package var valueData: Data?

    package init() {}

    package var isEmpty: Bool {
        attributes.isEmpty && protection == nil && accessControl == nil && valueData == nil
    }
}
