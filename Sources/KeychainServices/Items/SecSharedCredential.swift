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
import Dispatch

// Shared web credentials are the passwords Safari saves for a website, which an app with that
// website in its associated domains may read and add. Linux has neither Safari nor associated
// domains: as on macOS (`SecSharedCredential.c`, where the synchronous calls answer
// `errSecUnimplemented`), the calls check their arguments, then complete with an error, on another
// thread. The password generator works.

/// The key of the password in a shared web credential's dictionary.
nonisolated(unsafe) public let kSecSharedPassword: CFString = SecConstantString("spwd")

/// Adds, changes or (with a `nil` password) removes a shared web credential.
///
/// On Linux there is no store of shared web credentials: the completion handler receives an error,
/// `errSecParam` if `fqdn` or `account` is empty, else `errSecUnimplemented`.
///
/// - Parameters:
///   - fqdn: The website's fully qualified domain name.
///   - account: The account name.
///   - password: The password, or `nil` to remove the credential.
///   - completionHandler: Called once, on another thread, with the error.
public func SecAddSharedWebCredential(
    _ fqdn: CFString,
    _ account: CFString,
    _ password: CFString?,
    _ completionHandler: @escaping (CFError?) -> Void
) {
    let status = (fqdn as String).isEmpty || (account as String).isEmpty ? errSecParam : errSecUnimplemented
    let message =
        status == errSecParam
        ? "fqdn or account was not of type CFString, or not provided"
        : "shared web credentials are not supported on this platform"
    SharedWebCredentials.complete(status, message) { completionHandler($0) }
}

/// Asks for the shared web credentials of a website.
///
/// On Linux there are none: the completion handler receives no credentials and an error,
/// `errSecParam` if `fqdn` (which has no default here: there are no associated domains) or a
/// given `account` is empty, else `errSecUnimplemented`.
///
/// - Parameters:
///   - fqdn: The website's fully qualified domain name.
///   - account: The account name, or `nil` for every account.
///   - completionHandler: Called once, on another thread, with the credentials and the error.
public func SecRequestSharedWebCredential(
    _ fqdn: CFString?,
    _ account: CFString?,
    _ completionHandler: @escaping (CFArray?, CFError?) -> Void
) {
    var message: String?
    if let fqdn, (fqdn as String).isEmpty {
        message = "fqdn was empty or not a CFString"
    } else if fqdn == nil {
        message = "fqdn was NULL, and no associated domains found"
    } else if let account, (account as String).isEmpty {
        message = "account was empty or not a CFString"
    }
    let status = message == nil ? errSecUnimplemented : errSecParam
    SharedWebCredentials.complete(status, message ?? "shared web credentials are not supported on this platform") {
        completionHandler(nil, $0)
    }
}

/// A new random password in Safari's suggested form `xxx-xxx-xxx-xxx`, with at least one
/// lower-case letter, one upper-case letter and one digit, and none of the characters that are
/// easily confused (`i`, `j`, `l`, `I`, `O`, `0`, `1`).
///
/// - Returns: The password.
@discardableResult
public func SecCreateSharedWebCredentialPassword() -> CFString? {
    SharedWebCredentials.password() as CFString
}

/// What the shared-web-credential functions share.
enum SharedWebCredentials {
    static let allowed = Array("abcdefghkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    static let required = [Set("abcdefghkmnopqrstuvwxyz"), Set("ABCDEFGHJKLMNPQRSTUVWXYZ"), Set("3456789")]

    /// Calls `handler` on another thread with an error in `NSOSStatusErrorDomain`.
    static func complete(_ status: OSStatus, _ message: String, _ handler: @escaping (CFError?) -> Void) {
        // Apple's block carries no Sendable promise; it is called exactly once, from one thread.
        nonisolated(unsafe) let handler = handler
        DispatchQueue.global().async {
            handler(
                NSError(
                    domain: NSOSStatusErrorDomain,
                    code: Int(status),
                    userInfo: [NSLocalizedDescriptionKey: message]
                )
            )
        }
    }

    /// Twelve characters from `allowed` in four groups of three, drawn until every required set
    /// is present.
    static func password() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let characters = (0..<12).map { _ in allowed[Int.random(in: 0..<allowed.count, using: &generator)] }
            guard required.allSatisfy({ !$0.isDisjoint(with: characters) }) else { continue }
            return stride(from: 0, to: 12, by: 3).map { String(characters[$0..<$0 + 3]) }.joined(separator: "-")
        }
    }
}
#endif
