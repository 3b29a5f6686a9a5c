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
import SwiftASN1

/// Returns a human-readable summary of a certificate's subject.
///
/// The subject's common names (the most specific first, followed by its description in
/// parentheses when it has one); without a common name, its email address or DNS name, else its
/// organizational units or organizations.
///
/// - Returns: The summary, or `nil` when the subject names nothing.
@discardableResult
public func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString? {
    guard let parsed = certificate.parsed, let attributes = CertificateNames.attributes(of: parsed.subject) else {
        return nil
    }
    func rank(_ type: [UInt8]) -> Int {
        switch type {
        case CertificateNames.commonName: 4
        case CertificateNames.organizationalUnit: 3
        case CertificateNames.organization: 2
        default: 1
        }
    }
    var best = 0
    var summary: String?
    var descriptions: [String] = []
    for attribute in attributes {
        let text = CertificateNames.string(of: attribute.value)
        if attribute.type == CertificateNames.description { descriptions.insert(text, at: 0) }
        let attributeRank = rank(attribute.type)
        if attributeRank == best, let earlier = summary {
            summary = "\(text), \(earlier)"
        } else if attributeRank > best {
            (best, summary) = (attributeRank, text)
        }
    }
    if best == 4 {
        guard let names = summary else { return nil }
        return (descriptions.isEmpty ? names : "\(names) (\(descriptions.joined(separator: ", ")))") as NSString
    }
    if let email = CertificateNames.emailAddresses(of: parsed)?.first {
        return email as NSString
    }
    if let dnsName = CertificateNames.alternativeNames(tagged: 2, in: parsed).first(where: CertificateNames.isDNSName) {
        return dnsName as NSString
    }
    return summary.map { $0 as NSString }
}

/// Retrieves the common name of a certificate's subject: the last one, when it has several.
///
/// - Returns: `errSecSuccess`, or `errSecInternal` when the subject has no common name (and
///   `commonName` is left as it was).
@discardableResult
public func SecCertificateCopyCommonName(
    _ certificate: SecCertificate,
    _ commonName: UnsafeMutablePointer<CFString?>
) -> OSStatus {
    guard let parsed = certificate.parsed,
        let names = CertificateNames.values(CertificateNames.commonName, in: parsed.subject),
        let last = names.last
    else { return errSecInternal }
    commonName.pointee = last as NSString
    return errSecSuccess
}

/// Retrieves the email addresses of a certificate: its subject alternative names' RFC 822 names,
/// then its subject's `emailAddress` attributes.
///
/// - Returns: `errSecSuccess`; the array is empty when the certificate has none.
@discardableResult
public func SecCertificateCopyEmailAddresses(
    _ certificate: SecCertificate,
    _ emailAddresses: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    let addresses = certificate.parsed.flatMap(CertificateNames.emailAddresses(of:)) ?? []
    emailAddresses.pointee = addresses as NSArray
    return errSecSuccess
}

/// Returns the serial number of a certificate: the content of its DER integer, leading zero included.
@discardableResult
public func SecCertificateCopySerialNumberData(
    _ certificate: SecCertificate,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    guard let parsed = certificate.parsed else {
        SecKeyError(errSecDecode, "SecCertificateCopySerialNumberData: not a certificate").report(to: error)
        return nil
    }
    return Data(parsed.serialNumber) as NSData
}

/// Returns the certificate's issuer as a DER-encoded, normalized distinguished name: PrintableString
/// values upper-cased, their blanks trimmed and collapsed (what the keychain matches issuers by).
@discardableResult
public func SecCertificateCopyNormalizedIssuerSequence(_ certificate: SecCertificate) -> CFData? {
    certificate.normalizedNameSequence("issr")
}

/// Returns the certificate's subject as a DER-encoded, normalized distinguished name.
@discardableResult
public func SecCertificateCopyNormalizedSubjectSequence(_ certificate: SecCertificate) -> CFData? {
    certificate.normalizedNameSequence("subj")
}

/// Returns the public key of a certificate.
///
/// - Returns: The key, or `nil` when it is of a kind this platform does not support.
/// - Note: On Linux, RSA keys of 1,024 bits or more and elliptic-curve keys on P-256, P-384 and
///   P-521 are supported (Apple also reads smaller RSA keys, P-192 and P-224, Ed25519 and Ed448).
@discardableResult
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? {
    guard let parsed = certificate.parsed, let parts = parsed.publicKeyAlgorithm.children(tagged: .sequence),
        !parts.isEmpty,
        let algorithm = parts[0].primitive(tagged: .objectIdentifier).map(Array.init)
    else { return nil }
    let keyBits = Data(parsed.publicKeyBits)
    switch algorithm {
    case SecCertificate.rsaEncryptionOID:
        return (try? RSAPublicKey(derRepresentation: keyBits)).map { SecKey(.rsaPublic($0)) }
    case SecCertificate.ecPublicKeyOID:
        guard parts.count == 2, let oid = parts[1].primitive(tagged: .objectIdentifier).map(Array.init),
            let curve = SecCertificate.namedCurves[oid], let key = try? ECPublicKey(x963Representation: keyBits),
            key.curve == curve
        else { return nil }
        return SecKey(.ecPublic(key))
    default:
        return nil
    }
}

/// Returns the public key of a certificate (the older name of ``SecCertificateCopyKey(_:)``).
@available(*, deprecated, renamed: "SecCertificateCopyKey")
@discardableResult
public func SecCertificateCopyPublicKey(_ certificate: SecCertificate) -> SecKey? {
    SecCertificateCopyKey(certificate)
}

extension SecCertificate {
    /// rsaEncryption, 1.2.840.113549.1.1.1.
    static let rsaEncryptionOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    /// id-ecPublicKey, 1.2.840.10045.2.1.
    static let ecPublicKeyOID: [UInt8] = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// prime256v1, secp384r1, secp521r1, by OID.
    static let namedCurves: [[UInt8]: ECCurve] = [
        [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]: .p256,
        [0x2B, 0x81, 0x04, 0x00, 0x22]: .p384,
        [0x2B, 0x81, 0x04, 0x00, 0x23]: .p521,
    ]

    /// The certificate's fields.
    var parsed: CertificateDER? {
        CertificateDER(derEncoded: [UInt8](der))
    }

    /// A normalized name attribute of the certificate item, wrapped in its SEQUENCE header.
    func normalizedNameSequence(_ code: String) -> CFData? {
        guard case .data(let content)? = try? CertificateAttributes.attributes(ofDER: der)[code] else { return nil }
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .sequence) { $0.serializeRawBytes(content) }
        return Data(serializer.serializedBytes) as NSData
    }
}
#endif
