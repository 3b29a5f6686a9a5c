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

/// An algorithm for a key operation: signing, encryption or key exchange.
///
/// Raw values are Apple's (`"algid:sign:ECDSA:message-X962:SHA256"`), so algorithms stored or
/// sent as strings mean the same on both platforms.
///
/// - Note: On Linux, the ECDSA, ECDH and ECIES algorithms work with elliptic-curve keys; the RSA
///   algorithms are declared so that code naming them compiles, and no key supports them yet.
public struct SecKeyAlgorithm: RawRepresentable, Hashable, @unchecked Sendable {
    // An immutable string.
    public let rawValue: CFString

    public init(rawValue: CFString) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: CFString) {
        self.rawValue = rawValue
    }

    private init(constant literal: StaticString) {
        rawValue = SecConstantString(literal)
    }
}

// Apple's algorithms, one per line (keychain/headers/SecKey.h; values from SecKeyAdaptors.m).
extension SecKeyAlgorithm {
    /// Raw RSA signing: the input, padded by the caller.
    public static let rsaSignatureRaw = SecKeyAlgorithm(constant: "algid:sign:RSA:raw")
    /// PKCS #1 v1.5 signing of a digest without a DigestInfo.
    public static let rsaSignatureDigestPKCS1v15Raw = SecKeyAlgorithm(constant: "algid:sign:RSA:digest-PKCS1v15")
    /// PKCS #1 v1.5 signing of a SHA1 digest.
    public static let rsaSignatureDigestPKCS1v15SHA1 = SecKeyAlgorithm(constant: "algid:sign:RSA:digest-PKCS1v15:SHA1")
    /// PKCS #1 v1.5 signing of a SHA224 digest.
    public static let rsaSignatureDigestPKCS1v15SHA224 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:digest-PKCS1v15:SHA224"
    )
    /// PKCS #1 v1.5 signing of a SHA256 digest.
    public static let rsaSignatureDigestPKCS1v15SHA256 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:digest-PKCS1v15:SHA256"
    )
    /// PKCS #1 v1.5 signing of a SHA384 digest.
    public static let rsaSignatureDigestPKCS1v15SHA384 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:digest-PKCS1v15:SHA384"
    )
    /// PKCS #1 v1.5 signing of a SHA512 digest.
    public static let rsaSignatureDigestPKCS1v15SHA512 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:digest-PKCS1v15:SHA512"
    )
    /// PKCS #1 v1.5 signing of a message hashed with SHA1.
    public static let rsaSignatureMessagePKCS1v15SHA1 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PKCS1v15:SHA1"
    )
    /// PKCS #1 v1.5 signing of a message hashed with SHA224.
    public static let rsaSignatureMessagePKCS1v15SHA224 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PKCS1v15:SHA224"
    )
    /// PKCS #1 v1.5 signing of a message hashed with SHA256.
    public static let rsaSignatureMessagePKCS1v15SHA256 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PKCS1v15:SHA256"
    )
    /// PKCS #1 v1.5 signing of a message hashed with SHA384.
    public static let rsaSignatureMessagePKCS1v15SHA384 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PKCS1v15:SHA384"
    )
    /// PKCS #1 v1.5 signing of a message hashed with SHA512.
    public static let rsaSignatureMessagePKCS1v15SHA512 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PKCS1v15:SHA512"
    )
    /// RSASSA-PSS signing of a SHA1 digest.
    public static let rsaSignatureDigestPSSSHA1 = SecKeyAlgorithm(constant: "algid:sign:RSA:digest-PSS:SHA1:SHA1:20")
    /// RSASSA-PSS signing of a SHA224 digest.
    public static let rsaSignatureDigestPSSSHA224 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:digest-PSS:SHA224:SHA224:24"
    )
    /// RSASSA-PSS signing of a SHA256 digest.
    public static let rsaSignatureDigestPSSSHA256 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:digest-PSS:SHA256:SHA256:32"
    )
    /// RSASSA-PSS signing of a SHA384 digest.
    public static let rsaSignatureDigestPSSSHA384 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:digest-PSS:SHA384:SHA384:48"
    )
    /// RSASSA-PSS signing of a SHA512 digest.
    public static let rsaSignatureDigestPSSSHA512 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:digest-PSS:SHA512:SHA512:64"
    )
    /// RSASSA-PSS signing of a message hashed with SHA1.
    public static let rsaSignatureMessagePSSSHA1 = SecKeyAlgorithm(constant: "algid:sign:RSA:message-PSS:SHA1:SHA1:20")
    /// RSASSA-PSS signing of a message hashed with SHA224.
    public static let rsaSignatureMessagePSSSHA224 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PSS:SHA224:SHA224:24"
    )
    /// RSASSA-PSS signing of a message hashed with SHA256.
    public static let rsaSignatureMessagePSSSHA256 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PSS:SHA256:SHA256:32"
    )
    /// RSASSA-PSS signing of a message hashed with SHA384.
    public static let rsaSignatureMessagePSSSHA384 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PSS:SHA384:SHA384:48"
    )
    /// RSASSA-PSS signing of a message hashed with SHA512.
    public static let rsaSignatureMessagePSSSHA512 = SecKeyAlgorithm(
        constant: "algid:sign:RSA:message-PSS:SHA512:SHA512:64"
    )
    /// Raw RSA encryption.
    public static let rsaEncryptionRaw = SecKeyAlgorithm(constant: "algid:encrypt:RSA:raw")
    /// RSA encryption with PKCS #1 v1.5 padding.
    public static let rsaEncryptionPKCS1 = SecKeyAlgorithm(constant: "algid:encrypt:RSA:PKCS1")
    /// RSA-OAEP encryption with SHA1.
    public static let rsaEncryptionOAEPSHA1 = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA1")
    /// RSA-OAEP encryption with SHA224.
    public static let rsaEncryptionOAEPSHA224 = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA224")
    /// RSA-OAEP encryption with SHA256.
    public static let rsaEncryptionOAEPSHA256 = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA256")
    /// RSA-OAEP encryption with SHA384.
    public static let rsaEncryptionOAEPSHA384 = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA384")
    /// RSA-OAEP encryption with SHA512.
    public static let rsaEncryptionOAEPSHA512 = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA512")
    /// RSA-OAEP with SHA1 wrapping an AES-GCM key.
    public static let rsaEncryptionOAEPSHA1AESGCM = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA1:AESGCM")
    /// RSA-OAEP with SHA224 wrapping an AES-GCM key.
    public static let rsaEncryptionOAEPSHA224AESGCM = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA224:AESGCM")
    /// RSA-OAEP with SHA256 wrapping an AES-GCM key.
    public static let rsaEncryptionOAEPSHA256AESGCM = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA256:AESGCM")
    /// RSA-OAEP with SHA384 wrapping an AES-GCM key.
    public static let rsaEncryptionOAEPSHA384AESGCM = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA384:AESGCM")
    /// RSA-OAEP with SHA512 wrapping an AES-GCM key.
    public static let rsaEncryptionOAEPSHA512AESGCM = SecKeyAlgorithm(constant: "algid:encrypt:RSA:OAEP:SHA512:AESGCM")
    /// ECDSA signing of a digest, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureRFC4754 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:RFC4754")
    /// ECDSA signing of a digest of any length, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:digest-RFC4754")
    /// ECDSA signing of a SHA1 digest, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA1 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:digest-RFC4754:SHA1"
    )
    /// ECDSA signing of a SHA224 digest, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA224 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:digest-RFC4754:SHA224"
    )
    /// ECDSA signing of a SHA256 digest, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA256 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:digest-RFC4754:SHA256"
    )
    /// ECDSA signing of a SHA384 digest, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA384 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:digest-RFC4754:SHA384"
    )
    /// ECDSA signing of a SHA512 digest, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureDigestRFC4754SHA512 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:digest-RFC4754:SHA512"
    )
    /// ECDSA signing of a message hashed with SHA1, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA1 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-RFC4754:SHA1"
    )
    /// ECDSA signing of a message hashed with SHA224, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA224 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-RFC4754:SHA224"
    )
    /// ECDSA signing of a message hashed with SHA256, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA256 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-RFC4754:SHA256"
    )
    /// ECDSA signing of a message hashed with SHA384, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA384 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-RFC4754:SHA384"
    )
    /// ECDSA signing of a message hashed with SHA512, giving `r ‖ s` (RFC 4754).
    public static let ecdsaSignatureMessageRFC4754SHA512 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-RFC4754:SHA512"
    )
    /// ECDSA signing of a digest of any length, giving DER (X9.62).
    public static let ecdsaSignatureDigestX962 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:digest-X962")
    /// ECDSA signing of a SHA1 digest, giving DER (X9.62).
    public static let ecdsaSignatureDigestX962SHA1 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:digest-X962:SHA1")
    /// ECDSA signing of a SHA224 digest, giving DER (X9.62).
    public static let ecdsaSignatureDigestX962SHA224 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:digest-X962:SHA224")
    /// ECDSA signing of a SHA256 digest, giving DER (X9.62).
    public static let ecdsaSignatureDigestX962SHA256 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:digest-X962:SHA256")
    /// ECDSA signing of a SHA384 digest, giving DER (X9.62).
    public static let ecdsaSignatureDigestX962SHA384 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:digest-X962:SHA384")
    /// ECDSA signing of a SHA512 digest, giving DER (X9.62).
    public static let ecdsaSignatureDigestX962SHA512 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:digest-X962:SHA512")
    /// ECDSA signing of a message hashed with SHA1, giving DER (X9.62).
    public static let ecdsaSignatureMessageX962SHA1 = SecKeyAlgorithm(constant: "algid:sign:ECDSA:message-X962:SHA1")
    /// ECDSA signing of a message hashed with SHA224, giving DER (X9.62).
    public static let ecdsaSignatureMessageX962SHA224 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-X962:SHA224"
    )
    /// ECDSA signing of a message hashed with SHA256, giving DER (X9.62).
    public static let ecdsaSignatureMessageX962SHA256 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-X962:SHA256"
    )
    /// ECDSA signing of a message hashed with SHA384, giving DER (X9.62).
    public static let ecdsaSignatureMessageX962SHA384 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-X962:SHA384"
    )
    /// ECDSA signing of a message hashed with SHA512, giving DER (X9.62).
    public static let ecdsaSignatureMessageX962SHA512 = SecKeyAlgorithm(
        constant: "algid:sign:ECDSA:message-X962:SHA512"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA1, AES-GCM with a zero IV.
    public static let eciesEncryptionStandardX963SHA1AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA1:AESGCM"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA224, AES-GCM with a zero IV.
    public static let eciesEncryptionStandardX963SHA224AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA256, AES-GCM with a zero IV.
    public static let eciesEncryptionStandardX963SHA256AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA384, AES-GCM with a zero IV.
    public static let eciesEncryptionStandardX963SHA384AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA512, AES-GCM with a zero IV.
    public static let eciesEncryptionStandardX963SHA512AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA1, AES-GCM with a zero IV.
    public static let eciesEncryptionCofactorX963SHA1AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA1:AESGCM"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA224, AES-GCM with a zero IV.
    public static let eciesEncryptionCofactorX963SHA224AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA256, AES-GCM with a zero IV.
    public static let eciesEncryptionCofactorX963SHA256AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA384, AES-GCM with a zero IV.
    public static let eciesEncryptionCofactorX963SHA384AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA512, AES-GCM with a zero IV.
    public static let eciesEncryptionCofactorX963SHA512AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA224, AES-GCM with a derived IV.
    public static let eciesEncryptionStandardVariableIVX963SHA224AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA224:AESGCM-KDFIV"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA256, AES-GCM with a derived IV.
    public static let eciesEncryptionStandardVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA256:AESGCM-KDFIV"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA384, AES-GCM with a derived IV.
    public static let eciesEncryptionStandardVariableIVX963SHA384AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA384:AESGCM-KDFIV"
    )
    /// ECIES: ECDH, the X9.63 derivation with SHA512, AES-GCM with a derived IV.
    public static let eciesEncryptionStandardVariableIVX963SHA512AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDH:KDFX963:SHA512:AESGCM-KDFIV"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA224, AES-GCM with a derived IV (Apple's recommendation).
    public static let eciesEncryptionCofactorVariableIVX963SHA224AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA224:AESGCM-KDFIV"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA256, AES-GCM with a derived IV (Apple's recommendation).
    public static let eciesEncryptionCofactorVariableIVX963SHA256AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA384, AES-GCM with a derived IV (Apple's recommendation).
    public static let eciesEncryptionCofactorVariableIVX963SHA384AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA384:AESGCM-KDFIV"
    )
    /// ECIES: cofactor ECDH, the X9.63 derivation with SHA512, AES-GCM with a derived IV (Apple's recommendation).
    public static let eciesEncryptionCofactorVariableIVX963SHA512AESGCM = SecKeyAlgorithm(
        constant: "algid:encrypt:ECIES:ECDHC:KDFX963:SHA512:AESGCM-KDFIV"
    )
    /// ECDH: the raw shared secret.
    public static let ecdhKeyExchangeStandard = SecKeyAlgorithm(constant: "algid:keyexchange:ECDH")
    /// ECDH, then the X9.63 derivation with SHA1.
    public static let ecdhKeyExchangeStandardX963SHA1 = SecKeyAlgorithm(constant: "algid:keyexchange:ECDH:KDFX963:SHA1")
    /// ECDH, then the X9.63 derivation with SHA224.
    public static let ecdhKeyExchangeStandardX963SHA224 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDH:KDFX963:SHA224"
    )
    /// ECDH, then the X9.63 derivation with SHA256.
    public static let ecdhKeyExchangeStandardX963SHA256 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDH:KDFX963:SHA256"
    )
    /// ECDH, then the X9.63 derivation with SHA384.
    public static let ecdhKeyExchangeStandardX963SHA384 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDH:KDFX963:SHA384"
    )
    /// ECDH, then the X9.63 derivation with SHA512.
    public static let ecdhKeyExchangeStandardX963SHA512 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDH:KDFX963:SHA512"
    )
    /// Cofactor ECDH: the raw shared secret.
    public static let ecdhKeyExchangeCofactor = SecKeyAlgorithm(constant: "algid:keyexchange:ECDHC")
    /// Cofactor ECDH, then the X9.63 derivation with SHA1.
    public static let ecdhKeyExchangeCofactorX963SHA1 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDHC:KDFX963:SHA1"
    )
    /// Cofactor ECDH, then the X9.63 derivation with SHA224.
    public static let ecdhKeyExchangeCofactorX963SHA224 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDHC:KDFX963:SHA224"
    )
    /// Cofactor ECDH, then the X9.63 derivation with SHA256.
    public static let ecdhKeyExchangeCofactorX963SHA256 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDHC:KDFX963:SHA256"
    )
    /// Cofactor ECDH, then the X9.63 derivation with SHA384.
    public static let ecdhKeyExchangeCofactorX963SHA384 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDHC:KDFX963:SHA384"
    )
    /// Cofactor ECDH, then the X9.63 derivation with SHA512.
    public static let ecdhKeyExchangeCofactorX963SHA512 = SecKeyAlgorithm(
        constant: "algid:keyexchange:ECDHC:KDFX963:SHA512"
    )
}

/// The kinds of operation a key can perform.
public enum SecKeyOperationType: Int, Sendable {
    /// Signing (private keys).
    case sign = 0
    /// Verifying a signature (public keys).
    case verify = 1
    /// Encrypting (public keys).
    case encrypt = 2
    /// Decrypting (private keys).
    case decrypt = 3
    /// Key exchange (private keys).
    case keyExchange = 4
}
#endif
