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
package import KeychainCore

/// An access control object: an item's accessibility and the conditions on its use.
///
/// Create one with ``SecAccessControlCreateWithFlags(_:_:_:_:)`` and pass it under
/// `kSecAttrAccessControl`.
public final class SecAccessControl: NSObject, @unchecked Sendable {
    // Immutable after initialization.
    package let accessControl: AccessControl

    package init(_ accessControl: AccessControl) {
        self.accessControl = accessControl
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? SecAccessControl)?.accessControl == accessControl
    }

    public override var hash: Int {
        accessControl.hashValue
    }

    public override var description: String {
        "<SecAccessControl protection: \(accessControl.protection.rawValue), flags: \(accessControl.flags)>"
    }
}

/// Options that determine how an access-controlled item may be used.
public struct SecAccessControlCreateFlags: OptionSet, Hashable, Sendable {
    public let rawValue: CFOptionFlags

    public init(rawValue: CFOptionFlags) {
        self.rawValue = rawValue
    }

    /// Biometry or the device passcode.
    ///
    /// Survives adding or removing fingers and re-enrolling a face.
    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    /// Any enrolled finger or face.
    ///
    /// The item survives enrolment changes.
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    /// The fingers or face enrolled now.
    ///
    /// Adding or removing one, or re-enrolling, makes the item unreadable for good.
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    /// The device passcode.
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    /// A paired companion device.
    public static let companion = SecAccessControlCreateFlags(rawValue: 1 << 5)
    /// At least one of the constraints must be satisfied.
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    /// All of the constraints must be satisfied.
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    /// The constraints apply to private-key operations (signing, key exchange).
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    /// An extra encryption of the item with a password the application supplies.
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)

    /// The former name of ``biometryAny``.
    @available(*, deprecated, renamed: "biometryAny")
    public static let touchIDAny = biometryAny
    /// The former name of ``biometryCurrentSet``.
    @available(*, deprecated, renamed: "biometryCurrentSet")
    public static let touchIDCurrentSet = biometryCurrentSet
    /// The former name of ``companion``.
    @available(*, deprecated, renamed: "companion")
    public static let watch = companion
}

/// Creates a new access control object with the specified protection type and flags.
///
/// - Parameters:
///   - allocator: Ignored; pass `nil` or `kCFAllocatorDefault`.
///   - protection: One of the `kSecAttrAccessible…` values.
///   - flags: The conditions on the item's use.
///   - error: On failure, an error in `NSOSStatusErrorDomain` with code `errSecParam`.
/// - Returns: The access control object, or `nil` if the protection or the flags are invalid.
@discardableResult
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?,
    _ protection: CFTypeRef,
    _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    func fail(_ message: String) -> SecAccessControl? {
        error?.pointee = Unmanaged.passRetained(
            NSError(
                domain: NSOSStatusErrorDomain,
                code: Int(errSecParam),
                userInfo: [NSLocalizedDescriptionKey: "SecAccessControl: \(message)"]
            )
        )
        return nil
    }
    guard let string = protection as? String, let protectionClass = ProtectionClass(rawValue: string) else {
        return fail("invalid protection")
    }
    if flags.contains(.or) && flags.contains(.and) {
        return fail("only one logical operation can be set")
    }
    if flags.contains(.biometryAny) && flags.contains(.biometryCurrentSet) {
        return fail("only one bio constraint can be set")
    }
    if flags.contains(.userPresence) {
        let allowed: SecAccessControlCreateFlags = [.userPresence, .applicationPassword, .privateKeyUsage]
        if !flags.isSubset(of: allowed) {
            return fail(
                "kSecAccessControlUserPresence can be combined only with kSecAccessControlApplicationPassword and kSecAccessControlPrivateKeyUsage"
            )
        }
    }
    return SecAccessControl(AccessControl(protection: protectionClass, flags: flags.rawValue))
}

// `NSOSStatusErrorDomain` comes from Foundation, on Linux too: declaring it here would make it
// ambiguous in every file that imports Foundation and Security.
#endif
