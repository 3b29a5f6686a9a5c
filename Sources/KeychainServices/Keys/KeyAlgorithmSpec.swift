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
import Foundation
import KeychainCrypto

/// What an algorithm's raw value asks for, read from Apple's `algid:` grammar; `nil` for the
/// algorithms no key here supports (raw RSA, RSA with SHA-224 or OAEP-AES-GCM, and any string
/// that is not one of Apple's).
enum KeyAlgorithmSpec: Equatable {
    /// The encoding of an ECDSA signature.
    enum SignatureFormat: Equatable {
        /// DER `SEQUENCE { r, s }` (X9.62).
        case x962
        /// `r ‖ s`, each the curve's size (RFC 4754).
        case rfc4754
    }

    /// What is signed: a message hashed here, or a digest the caller made (of any length when
    /// the algorithm names no hash).
    enum SignatureInput: Equatable {
        case message(DigestKind)
        case digest(DigestKind?)
    }

    case ecdsa(SignatureFormat, SignatureInput)
    case rsaSignature(RSASignaturePadding, SignatureInput)
    /// RSA encryption (PKCS #1 v1.5 or OAEP).
    case rsa(RSAEncryptionPadding)
    /// ECDH, raw or followed by the X9.63 derivation with a hash.
    case ecdh(kdf: DigestKind?)
    case ecies(ECIES)

    init?(_ algorithm: SecKeyAlgorithm) {
        let parts = (algorithm.rawValue as String).split(separator: ":", omittingEmptySubsequences: false).map(
            String.init
        )
        guard parts.count >= 3, parts[0] == "algid" else { return nil }
        switch (parts[1], parts[2]) {
        case ("sign", "ECDSA"):
            guard let spec = Self.signature(Array(parts.dropFirst(3))) else { return nil }
            self = spec
        case ("sign", "RSA"):
            guard let spec = Self.rsaSignature(Array(parts.dropFirst(3))) else { return nil }
            self = spec
        case ("encrypt", "RSA"):
            switch Array(parts.dropFirst(3)) {
            case ["PKCS1"]: self = .rsa(.pkcs1)
            case ["OAEP", "SHA1"]: self = .rsa(.oaep(.sha1))
            case ["OAEP", "SHA256"]: self = .rsa(.oaep(.sha256))  // swift-crypto's RSA has OAEP with these two only
            default: return nil
            }
        case ("keyexchange", "ECDH"), ("keyexchange", "ECDHC"):
            switch parts.count {
            case 3: self = .ecdh(kdf: nil)
            case 5 where parts[3] == "KDFX963":
                guard let digest = Self.digestKinds[parts[4]] else { return nil }
                self = .ecdh(kdf: digest)
            default: return nil
            }
        case ("encrypt", "ECIES"):
            guard parts.count == 7, parts[3] == "ECDH" || parts[3] == "ECDHC", parts[4] == "KDFX963",
                let digest = Self.digestKinds[parts[5]]
            else { return nil }
            switch parts[6] {
            case "AESGCM": self = .ecies(ECIES(digest: digest, derivesIV: false))
            case "AESGCM-KDFIV" where digest != .sha1: self = .ecies(ECIES(digest: digest, derivesIV: true))
            default: return nil
            }
        default:
            return nil
        }
    }

    private static let digestKinds: [String: DigestKind] = [
        "SHA1": .sha1, "SHA224": .sha224, "SHA256": .sha256, "SHA384": .sha384, "SHA512": .sha512,
    ]

    /// `digest-PKCS1v15:SHAn`, `message-PKCS1v15:SHAn`, `digest-PSS:SHAn:SHAn:len`, `message-PSS:…`.
    private static func rsaSignature(_ parts: [String]) -> KeyAlgorithmSpec? {
        // swift-crypto's RSA signs SHA-1 and SHA-2 digests but SHA-224.
        guard parts.count >= 2, let digest = digestKinds[parts[1]], digest != .sha224 else { return nil }
        let input: SignatureInput
        switch parts[0] {
        case "digest-PKCS1v15", "digest-PSS": input = .digest(digest)
        case "message-PKCS1v15", "message-PSS": input = .message(digest)
        default: return nil
        }
        if parts[0].hasSuffix("PKCS1v15") {
            return parts.count == 2 ? .rsaSignature(.pkcs1v15, input) : nil
        }
        guard parts.count == 4, parts[2] == parts[1], parts[3] == String(digest.byteCount) else { return nil }
        return .rsaSignature(.pss, input)
    }

    /// `RFC4754`, `digest-X962[:SHAn]`, `message-RFC4754:SHAn` and the like.
    private static func signature(_ parts: [String]) -> KeyAlgorithmSpec? {
        if parts == ["RFC4754"] { return .ecdsa(.rfc4754, .digest(nil)) }
        guard let kind = parts.first else { return nil }
        let format: SignatureFormat
        let isMessage: Bool
        switch kind {
        case "digest-X962": (format, isMessage) = (.x962, false)
        case "digest-RFC4754": (format, isMessage) = (.rfc4754, false)
        case "message-X962": (format, isMessage) = (.x962, true)
        case "message-RFC4754": (format, isMessage) = (.rfc4754, true)
        default: return nil
        }
        switch parts.count {
        case 1 where !isMessage:
            return .ecdsa(format, .digest(nil))
        case 2:
            guard let digest = digestKinds[parts[1]] else { return nil }
            return .ecdsa(format, isMessage ? .message(digest) : .digest(digest))
        default:
            return nil
        }
    }
}

extension KeyAlgorithmSpec.SignatureInput {
    /// The hash the algorithm names, if any.
    var digestKind: DigestKind? {
        switch self {
        case .message(let kind): kind
        case .digest(let kind): kind
        }
    }

    /// The digest to sign, and its hash: `data` hashed, or `data` itself after checking its length.
    func digest(of data: Data, algorithm: SecKeyAlgorithm, operation: String) throws(SecKeyError) -> (Data, DigestKind?)
    {
        switch self {
        case .message(let kind):
            return (kind.hash(data), kind)
        case .digest(let kind?):
            guard data.count == kind.byteCount else {
                throw SecKeyError(errSecParam, "bad digest size for signing with algorithm \(algorithm.rawValue)")
            }
            return (data, kind)
        case .digest(nil):
            return (data, nil)
        }
    }
}

extension SecKeyError {
    /// Apple's error for a key that cannot do what was asked with that algorithm.
    static func unsupported(_ algorithm: SecKeyAlgorithm, by key: SecKey, operation: String) -> SecKeyError {
        SecKeyError(errSecParam, "\(algorithm.rawValue): algorithm not supported by the key \(key)")
    }
}
#endif
