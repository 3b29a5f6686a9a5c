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

/// An error thrown by the keychain engine.
///
/// The mirror layer turns each error into Apple's `OSStatus` in one place; inside the engine the
/// error keeps a message that says what went wrong and, where there is one, the underlying cause.
/// Messages never contain secrets or attribute values.
package struct KeychainError: Error, Sendable {
    // MARK: Properties

    /// What kind of failure this is.
    package var code: Code

    /// What went wrong, for logs and the command-line tool.
    ///
    /// Never contains a secret.
    package var message: String

    /// The underlying error (SQLite, file system, cryptography), if any.
    package var cause: (any Error & Sendable)?

    /// Where the error was thrown.
    package var location: SourceLocation

    /// For ``Code/authenticationNeeded``: what must be evaluated before the operation is retried.
    package var authenticationRequest: AuthenticationRequest?

    // MARK: Initialization

    package init(
        _ code: Code,
        _ message: String,
        cause: (any Error & Sendable)? = nil,
        file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.location = SourceLocation(file: file, line: line)
    }
}

extension KeychainError {
    /// The kind of a ``KeychainError``.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package enum Kind: String, Hashable, Sendable, CaseIterable, Codable {
            case invalidParameter
            case noSuchClass
            case noSuchAttribute
            case duplicateItem
            case itemNotFound
            case interactionNotAllowed
            case notAvailable
            case authenticationFailed
            case userCanceled
            case passcodeBackoff
            case missingEntitlement
            case decode
            case io
            case unimplemented
            case dataTooLarge
            case internalInconsistency
            case authenticationNeeded
            case itemInvalidated
            case constraintDamaged
            case invalidKeychain
            case staleSnapshot
            case quotaExceeded
        }

        package var kind: Kind
        package init(_ kind: Kind) { self.kind = kind }

        /// A malformed query or a value of the wrong type (`errSecParam`).
        package static let invalidParameter = Code(.invalidParameter)
        /// An unknown item class (`errSecNoSuchClass`).
        package static let noSuchClass = Code(.noSuchClass)
        /// An attribute that may not be used here (`errSecNoSuchAttr`).
        package static let noSuchAttribute = Code(.noSuchAttribute)
        /// Another item already has the same primary key (`errSecDuplicateItem`).
        package static let duplicateItem = Code(.duplicateItem)
        /// No item matched (`errSecItemNotFound`).
        package static let itemNotFound = Code(.itemNotFound)
        /// The item's class key is locked (`errSecInteractionNotAllowed`).
        package static let interactionNotAllowed = Code(.interactionNotAllowed)
        /// The operation needs something the device does not have, such as a passcode (`errSecNotAvailable`).
        package static let notAvailable = Code(.notAvailable)
        /// A wrong passcode or failed authentication (`errSecAuthFailed`).
        package static let authenticationFailed = Code(.authenticationFailed)
        /// The person cancelled a prompt (`errSecUserCanceled`).
        package static let userCanceled = Code(.userCanceled)
        /// Too many wrong passcodes: the next attempt must wait (`errSecAuthFailed`).
        package static let passcodeBackoff = Code(.passcodeBackoff)
        /// An access group the process may not use (`errSecMissingEntitlement`).
        package static let missingEntitlement = Code(.missingEntitlement)
        /// Stored data that cannot be decrypted or decoded (`errSecDecode`).
        package static let decode = Code(.decode)
        /// The database or a file could not be read or written (`errSecIO`).
        package static let io = Code(.io)
        /// Not implemented on this platform yet (`errSecUnimplemented`).
        package static let unimplemented = Code(.unimplemented)
        /// A value larger than the keychain accepts (`errSecDataTooLarge`).
        package static let dataTooLarge = Code(.dataTooLarge)
        /// An internal inconsistency (`errSecInternalComponent`).
        package static let internalInconsistency = Code(.internalInconsistency)
        /// An item's access control must be evaluated first; the caller evaluates
        /// ``KeychainError/authenticationRequest`` and retries (Apple's private `errSecAuthNeeded`).
        package static let authenticationNeeded = Code(.authenticationNeeded)
        /// An item whose access control can never be satisfied again: its biometric set changed or
        /// the passcode was removed (`errSecDecode`; the item is dropped, as Apple drops it).
        package static let itemInvalidated = Code(.itemInvalidated)

        /// An access-control lock of the keybag failed its integrity check: the items sealed to it
        /// are refused (`errSecDecode`) but never deleted, and a new item with the same primary key
        /// is a duplicate.
        package static let constraintDamaged = Code(.constraintDamaged)
        /// The keychain's files cannot be used: a link, another user's file, a file others can
        /// write, or a database written by a newer version (`errSecInvalidKeychain`).
        package static let invalidKeychain = Code(.invalidKeychain)
        /// The transaction read a keybag that another process replaced meanwhile; the engine runs
        /// the operation again (`errSecIO` if it still fails).
        package static let staleSnapshot = Code(.staleSnapshot)

        /// A client that holds as much of the daemon as one may: connections, contexts, bytes of
        /// unfinished requests (`errSecQuotaExceeded`).
        package static let quotaExceeded = Code(.quotaExceeded)

        package var description: String { kind.rawValue }
    }

    /// A place in the engine's source.
    package struct SourceLocation: Hashable, Sendable, Codable {
        package var file: String
        package var line: Int
    }
}

extension KeychainError {
    /// An error that asks the caller to authenticate for `request` and retry.
    package static func authenticationNeeded(
        _ request: AuthenticationRequest,
        file: String = #fileID,
        line: Int = #line
    ) -> KeychainError {
        var error = KeychainError(
            .authenticationNeeded,
            "the item's access control must be satisfied first",
            file: file,
            line: line
        )
        error.authenticationRequest = request
        return error
    }
}

extension KeychainError: CustomStringConvertible {
    package var description: String {
        "\(code): \(message)"
    }
}

extension KeychainError: Codable {
    private enum CodingKeys: String, CodingKey {
        case code, message, cause, file, line, authenticationRequest
    }

    /// Decodes an error that crossed the engine boundary; its cause is only a description then.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = Code(try container.decode(Code.Kind.self, forKey: .code))
        message = try container.decode(String.self, forKey: .message)
        cause = try container.decodeIfPresent(String.self, forKey: .cause).map(DescribedError.init)
        location = SourceLocation(
            file: try container.decode(String.self, forKey: .file),
            line: try container.decode(Int.self, forKey: .line)
        )
        authenticationRequest = try container.decodeIfPresent(
            AuthenticationRequest.self,
            forKey: .authenticationRequest
        )
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.kind, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(cause.map { String(describing: $0) }, forKey: .cause)
        try container.encode(location.file, forKey: .file)
        try container.encode(location.line, forKey: .line)
        try container.encodeIfPresent(authenticationRequest, forKey: .authenticationRequest)
    }
}

/// The cause of an error that crossed the engine boundary: its description (which never holds a secret).
package struct DescribedError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
