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
import KeychainCrypto

/// An identity: a certificate together with the private key of its public key (Apple's
/// `SecIdentityRef`).
///
/// The keychain holds an identity as its two items, a certificate and a private key whose
/// application label is the certificate's public-key hash; `kSecClassIdentity` queries find the
/// pairs.
public final class SecIdentity: NSObject, @unchecked Sendable {
    // Immutable after initialization.
    let certificate: SecCertificate
    let privateKey: SecKey

    init(certificate: SecCertificate, privateKey: SecKey) {
        self.certificate = certificate
        self.privateKey = privateKey
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecIdentity else { return false }
        return other.certificate == certificate && other.privateKey == privateKey
    }

    public override var hash: Int {
        certificate.hashValue
    }

    public override var description: String {
        "<SecIdentityRef: certificate \(SecCertificateCopySubjectSummary(certificate).map { $0 as String } ?? "?")>"
    }
}

/// Retrieves a certificate associated with an identity.
///
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecIdentityCopyCertificate(
    _ identityRef: SecIdentity,
    _ certificateRef: UnsafeMutablePointer<SecCertificate?>
) -> OSStatus {
    certificateRef.pointee = identityRef.certificate
    return errSecSuccess
}

/// Retrieves the private key associated with an identity.
///
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecIdentityCopyPrivateKey(
    _ identityRef: SecIdentity,
    _ privateKeyRef: UnsafeMutablePointer<SecKey?>
) -> OSStatus {
    privateKeyRef.pointee = identityRef.privateKey
    return errSecSuccess
}

/// Creates an identity from a certificate and the private key of its public key.
///
/// - Returns: The identity, or `nil` when `privateKey` is not the private key of the
///   certificate's public key.
@discardableResult
public func SecIdentityCreate(
    _ allocator: CFAllocator?,
    _ certificate: SecCertificate,
    _ privateKey: SecKey
) -> SecIdentity? {
    guard privateKey.material.isPrivate, let publicKey = SecCertificateCopyKey(certificate),
        publicKey.material.publicKeyData == privateKey.material.publicKeyData
    else { return nil }
    return SecIdentity(certificate: certificate, privateKey: privateKey)
}

/// Creates an identity from a certificate and the keychain's private key for its public key.
///
/// - Parameters:
///   - keychainOrArray: Ignored: the keychain is the one `SecItem*` calls use.
///   - certificateRef: The certificate.
///   - identityRef: On return, the identity.
/// - Returns: `errSecSuccess`, or `errSecItemNotFound` when the keychain holds no private key
///   whose application label is the certificate's public-key hash.
@discardableResult
public func SecIdentityCreateWithCertificate(
    _ keychainOrArray: CFTypeRef?,
    _ certificateRef: SecCertificate,
    _ identityRef: UnsafeMutablePointer<SecIdentity?>
) -> OSStatus {
    let attributes = try? CertificateAttributes.attributes(ofDER: certificateRef.der)
    guard case .data(let hash)? = attributes?["pkhh"] else { return errSecItemNotFound }
    var result: CFTypeRef?
    let query: [String: Any] = [
        kSecClass as String: kSecClassKey, kSecAttrApplicationLabel as String: hash,
        kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecReturnRef as String: true,
    ]
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    guard status == errSecSuccess else { return status }
    guard let key = result as? SecKey else { return errSecItemNotFound }
    identityRef.pointee = SecIdentity(certificate: certificateRef, privateKey: key)
    return errSecSuccess
}

/// The type identifier of identities.
@discardableResult
public func SecIdentityGetTypeID() -> CFTypeID {
    CFTypeIdentifier.secIdentity.rawValue
}
#endif
