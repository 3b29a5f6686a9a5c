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

/// The padding of the legacy raw key operations.
///
/// For elliptic-curve keys, `sigRaw` asks for an `r ‖ s` signature and every other value for
/// X9.62's DER; for RSA keys, `PKCS1SHA256` and its siblings sign a digest of that hash with
/// PKCS #1 v1.5.
public struct SecPadding: OptionSet, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static let none = SecPadding([])
    public static let PKCS1 = SecPadding(rawValue: 1)
    public static let OAEP = SecPadding(rawValue: 2)
    public static let sigRaw = SecPadding(rawValue: 0x4000)
    public static let PKCS1MD2 = SecPadding(rawValue: 0x8000)
    public static let PKCS1MD5 = SecPadding(rawValue: 0x8001)
    public static let PKCS1SHA1 = SecPadding(rawValue: 0x8002)
    public static let PKCS1SHA224 = SecPadding(rawValue: 0x8003)
    public static let PKCS1SHA256 = SecPadding(rawValue: 0x8004)
    public static let PKCS1SHA384 = SecPadding(rawValue: 0x8005)
    public static let PKCS1SHA512 = SecPadding(rawValue: 0x8006)
}

/// The algorithm a legacy padding means for `key`: for RSA keys the PKCS #1 v1.5 digest
/// signature with the hash it names (raw RSA without one), for EC keys ECDSA over the digest in
/// DER, or `r ‖ s` with `.sigRaw`.
private func legacySignatureAlgorithm(for key: SecKey, padding: SecPadding) -> SecKeyAlgorithm {
    guard key.material.keyType == 42 else {
        return padding == .sigRaw ? .ecdsaSignatureDigestRFC4754 : .ecdsaSignatureDigestX962
    }
    switch padding {
    case .PKCS1SHA1: return .rsaSignatureDigestPKCS1v15SHA1
    case .PKCS1SHA224: return .rsaSignatureDigestPKCS1v15SHA224
    case .PKCS1SHA256: return .rsaSignatureDigestPKCS1v15SHA256
    case .PKCS1SHA384: return .rsaSignatureDigestPKCS1v15SHA384
    case .PKCS1SHA512: return .rsaSignatureDigestPKCS1v15SHA512
    case .PKCS1: return .rsaSignatureDigestPKCS1v15Raw
    default: return .rsaSignatureRaw
    }
}

/// Creates an asymmetric key pair (the older form of ``SecKeyCreateRandomKey(_:_:)``).
///
/// - Parameters:
///   - parameters: As for `SecKeyCreateRandomKey`.
///   - publicKey: On return, the public key.
///   - privateKey: On return, the private key.
/// - Returns: `errSecSuccess`, or the status `SecKeyCreateRandomKey` reports.
@discardableResult
public func SecKeyGeneratePair(
    _ parameters: CFDictionary,
    _ publicKey: UnsafeMutablePointer<SecKey?>?,
    _ privateKey: UnsafeMutablePointer<SecKey?>?
) -> OSStatus {
    var error: Unmanaged<CFError>?
    guard let key = SecKeyCreateRandomKey(parameters, &error) else {
        return OSStatus(truncatingIfNeeded: error?.takeRetainedValue().code ?? Int(errSecParam))
    }
    publicKey?.pointee = SecKeyCopyPublicKey(key)
    privateKey?.pointee = key
    return errSecSuccess
}

/// Signs a digest with a private key (the older form of ``SecKeyCreateSignature(_:_:_:_:)``).
///
/// - Parameters:
///   - key: The private key.
///   - padding: `.sigRaw` for an `r ‖ s` signature; otherwise DER.
///   - dataToSign: The digest.
///   - dataToSignLen: Its length.
///   - sig: A buffer for the signature.
///   - sigLen: On entry the buffer's size; on return the signature's length.
/// - Returns: `errSecSuccess`, or `errSecParam` when the key cannot sign or the buffer is too small.
@discardableResult
public func SecKeyRawSign(
    _ key: SecKey,
    _ padding: SecPadding,
    _ dataToSign: UnsafePointer<UInt8>,
    _ dataToSignLen: Int,
    _ sig: UnsafeMutablePointer<UInt8>,
    _ sigLen: UnsafeMutablePointer<Int>
) -> OSStatus {
    guard dataToSignLen >= 0 else { return errSecParam }
    let digest = Data(bytes: dataToSign, count: dataToSignLen)
    let algorithm = legacySignatureAlgorithm(for: key, padding: padding)
    var error: Unmanaged<CFError>?
    guard let signature = SecKeyCreateSignature(key, algorithm, digest as CFData, &error) as Data? else {
        return OSStatus(truncatingIfNeeded: error?.takeRetainedValue().code ?? Int(errSecParam))
    }
    guard signature.count <= sigLen.pointee else { return errSecParam }
    signature.copyBytes(to: sig, count: signature.count)
    sigLen.pointee = signature.count
    return errSecSuccess
}

/// Verifies a signature of a digest with a public key (the older form of
/// ``SecKeyVerifySignature(_:_:_:_:_:)``).
///
/// - Returns: `errSecSuccess` when the signature is valid, `errSecVerifyFailed` when it is not.
@discardableResult
public func SecKeyRawVerify(
    _ key: SecKey,
    _ padding: SecPadding,
    _ signedData: UnsafePointer<UInt8>,
    _ signedDataLen: Int,
    _ sig: UnsafePointer<UInt8>,
    _ sigLen: Int
) -> OSStatus {
    guard signedDataLen >= 0, sigLen >= 0 else { return errSecParam }
    let digest = Data(bytes: signedData, count: signedDataLen)
    let signature = Data(bytes: sig, count: sigLen)
    let algorithm = legacySignatureAlgorithm(for: key, padding: padding)
    var error: Unmanaged<CFError>?
    guard SecKeyVerifySignature(key, algorithm, digest as CFData, signature as CFData, &error) else {
        return OSStatus(truncatingIfNeeded: error?.takeRetainedValue().code ?? Int(errSecVerifyFailed))
    }
    return errSecSuccess
}
#endif
