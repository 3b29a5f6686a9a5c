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
import KeychainCrypto

/// The password of a PKCS #12 file, in `SecPKCS12Import`'s options.
nonisolated(unsafe) public let kSecImportExportPassphrase: CFString = SecConstantString("passphrase")
/// An imported item's label (macOS only; iOS, and this platform, return none).
nonisolated(unsafe) public let kSecImportItemLabel: CFString = SecConstantString("label")
/// An imported item's key ID (macOS only; iOS, and this platform, return none).
nonisolated(unsafe) public let kSecImportItemKeyID: CFString = SecConstantString("keyid")
/// An imported item's trust object (not made on Linux: there is no `SecTrust`).
nonisolated(unsafe) public let kSecImportItemTrust: CFString = SecConstantString("trust")
/// An imported item's certificate chain, its own certificate first.
nonisolated(unsafe) public let kSecImportItemCertChain: CFString = SecConstantString("chain")
/// An imported item's identity.
nonisolated(unsafe) public let kSecImportItemIdentity: CFString = SecConstantString("identity")

/// Returns the identities and certificates in a PKCS #12-formatted blob.
///
/// - Parameters:
///   - pkcs12_data: The PKCS #12 data.
///   - options: `kSecImportExportPassphrase`, the file's password.
///   - items: On return, one dictionary per private key that has its certificate in the file:
///     `kSecImportItemIdentity`, `kSecImportItemCertChain` (its certificate, then the file's
///     other certificates) and `kSecImportItemTrust` (a trust of that chain under the basic
///     X.509 policy). As on iOS, no label or key ID (macOS adds them), and certificates
///     without a key are not returned.
/// - Returns: `errSecSuccess`; `errSecAuthFailed` for a wrong password; `errSecDecode` for data
///   that is not PKCS #12; `errSecUnimplemented` for an encryption this platform does not read.
/// - Note: As on iOS, nothing is added to the keychain: add the identity with `SecItemAdd`. On
///   Linux, files encrypted with AES (PBES2, what OpenSSL 3 writes) are read; the older 3DES and
///   RC2 schemes, which Apple reads, are not (`errSecUnimplemented`).
@discardableResult
public func SecPKCS12Import(
    _ pkcs12_data: CFData,
    _ options: CFDictionary,
    _ items: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    let password = (options as? [String: Any])?[kSecImportExportPassphrase as String] as? String ?? ""
    let file: PKCS12
    do throws(PKCS12.Failure) {
        file = try PKCS12(pkcs12_data as Data, password: password)
    } catch {
        switch error {
        case .malformed: return errSecDecode
        case .wrongPassword: return errSecAuthFailed
        case .unsupportedEncryption: return errSecUnimplemented
        }
    }
    let certificates = file.certificates.compactMap { bag in
        SecCertificateCreateWithData(nil, bag.value as NSData).map { (bag, $0) }
    }
    var results: [[String: Any]] = []
    for bag in file.keys {
        let material: KeyMaterial
        if let key = try? ECPrivateKey(derRepresentation: bag.value.pkcs8) {
            material = .ecPrivate(key)
        } else if let key = try? RSAPrivateKey(derRepresentation: bag.value.pkcs8) {
            material = .rsaPrivate(key)
        } else {
            return errSecUnimplemented
        }
        let privateKey = SecKey(material)
        // The key's certificate: the one with its local key ID, else its friendly name (Apple's
        // order), else the one of its public key.
        let match =
            certificates.first { bag.localKeyID != nil && $0.0.localKeyID == bag.localKeyID }
            ?? certificates.first { bag.friendlyName != nil && $0.0.friendlyName == bag.friendlyName }
            ?? certificates.first { SecIdentityCreate(nil, $0.1, privateKey) != nil }
        guard let (_, certificate) = match, let identity = SecIdentityCreate(nil, certificate, privateKey) else {
            continue
        }
        let chain = [certificate] + certificates.map(\.1).filter { $0 != certificate }
        var result: [String: Any] = [
            kSecImportItemIdentity as String: identity, kSecImportItemCertChain as String: chain,
        ]
        // As iOS's: a trust of the identity's certificate and the file's others, basic policy.
        var trust: SecTrust?
        if SecTrustCreateWithCertificates(chain as NSArray, SecPolicyCreateBasicX509(), &trust) == errSecSuccess {
            result[kSecImportItemTrust as String] = trust
        }
        results.append(result)
    }
    items.pointee = results as NSArray
    return errSecSuccess
}
#endif
