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

import Crypto
package import Foundation
import SwiftASN1
import _CryptoExtras

extension PKCS12 {
    /// One private key and its certificate, for a file.
    package struct Identity: Sendable {
        package var certificate: Data
        package var privateKeyPKCS8: Data
        package var friendlyName: String?

        package init(certificate: Data, privateKeyPKCS8: Data, friendlyName: String?) {
            self.certificate = certificate
            self.privateKeyPKCS8 = privateKeyPKCS8
            self.friendlyName = friendlyName
        }
    }

    /// A PKCS #12 file as OpenSSL 3 writes one: the certificates in a PBES2-encrypted content,
    /// each key in a PBES2-shrouded key bag (PBKDF2 with HMAC-SHA-256, AES-256-CBC), a key and its
    /// certificate sharing a local key ID (the certificate's SHA-1), and a SHA-256 MAC.
    package static func file(
        identities: [Identity],
        certificates: [Data],
        password: String,
        iterations: Int = 2048
    ) throws(Failure) -> Data {
        var certificateBags: [[UInt8]] = []
        var keyBags: [[UInt8]] = []
        for identity in identities {
            let keyID = Data(Insecure.SHA1.hash(data: identity.certificate))
            let attributes = bagAttributes(friendlyName: identity.friendlyName, localKeyID: keyID)
            certificateBags.append(try certificateBag(identity.certificate, attributes: attributes))
            let encrypted = try encrypt(identity.privateKeyPKCS8, password: password, iterations: iterations)
            keyBags.append(try bag(OIDs.shroudedKeyBag, value: encrypted, attributes: attributes))
        }
        for certificate in certificates where !identities.contains(where: { $0.certificate == certificate }) {
            certificateBags.append(try certificateBag(certificate, attributes: nil))
        }
        let certificateContents = try encrypt(
            Data(sequence(certificateBags)),
            password: password,
            iterations: iterations
        )
        let encryptedData = try serialize { serializer in
            try serializer.appendConstructedNode(identifier: .sequence) { info in
                try info.serialize(0)  // EncryptedData version
                info.serializeRawBytes(try encryptedContentInfo(certificateContents))
            }
        }
        let authenticatedSafe = sequence([
            try contentInfo(OIDs.encryptedData, explicit: encryptedData),
            try dataContentInfo(Data(sequence(keyBags))),
        ])
        let salt = randomBytes(8)
        let macKey = PKCS12KDF.derive(
            password: password,
            salt: salt,
            id: 3,
            iterations: iterations,
            byteCount: 32,
            digest: .sha256
        )
        let mac = Data(HMAC<SHA256>.authenticationCode(for: authenticatedSafe, using: macKey))
        return Data(
            try serialize { serializer in
                try serializer.appendConstructedNode(identifier: .sequence) { pfx in
                    try pfx.serialize(3)
                    pfx.serializeRawBytes(try dataContentInfo(Data(authenticatedSafe)))
                    try pfx.appendConstructedNode(identifier: .sequence) { macData in
                        try macData.appendConstructedNode(identifier: .sequence) { digestInfo in
                            try digestInfo.appendConstructedNode(identifier: .sequence) { algorithm in
                                try algorithm.serialize([2, 16, 840, 1, 101, 3, 4, 2, 1] as ASN1ObjectIdentifier)
                                try algorithm.serialize(ASN1Null())
                            }
                            try digestInfo.serialize(ASN1OctetString(contentBytes: ArraySlice(mac)))
                        }
                        try macData.serialize(ASN1OctetString(contentBytes: ArraySlice(salt)))
                        try macData.serialize(iterations)
                    }
                }
            }
        )
    }

    // MARK: - Pieces

    private enum OIDs {
        static let data: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
        static let encryptedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 6]
        static let shroudedKeyBag: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 12, 10, 1, 2]
        static let certBag: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 12, 10, 1, 3]
        static let x509Certificate: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 22, 1]
        static let friendlyName: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 20]
        static let localKeyID: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 21]
        static let pbes2: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 5, 13]
        static let pbkdf2: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 5, 12]
        static let hmacWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 113549, 2, 9]
        static let aes256CBC: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 1, 42]
    }

    private static func serialize(_ body: (inout DER.Serializer) throws -> Void) throws(Failure) -> [UInt8] {
        var serializer = DER.Serializer()
        do {
            try body(&serializer)
        } catch {
            throw .malformed
        }
        return serializer.serializedBytes
    }

    /// `SEQUENCE` of already-serialized elements.
    private static func sequence(_ elements: [[UInt8]]) -> [UInt8] {
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .sequence) { inner in
            for element in elements { inner.serializeRawBytes(element) }
        }
        return serializer.serializedBytes
    }

    private static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The PBES2 algorithm identifier and ciphertext of `plaintext`: (algorithm DER, ciphertext).
    private static func encrypt(
        _ plaintext: Data,
        password: String,
        iterations: Int
    ) throws(Failure) -> (algorithm: [UInt8], ciphertext: Data) {
        let salt = randomBytes(8)
        let iv = randomBytes(16)
        let ciphertext: Data
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: Array(password.utf8),
                salt: salt,
                using: .sha256,
                outputByteCount: 32,
                unsafeUncheckedRounds: iterations
            )
            ciphertext = try AES._CBC.encrypt(plaintext, using: key, iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            throw .unsupportedEncryption
        }
        let algorithm = try serialize { serializer in
            try serializer.appendConstructedNode(identifier: .sequence) { identifier in
                try identifier.serialize(OIDs.pbes2)
                try identifier.appendConstructedNode(identifier: .sequence) { parameters in
                    try parameters.appendConstructedNode(identifier: .sequence) { derivation in
                        try derivation.serialize(OIDs.pbkdf2)
                        try derivation.appendConstructedNode(identifier: .sequence) { pbkdf2 in
                            try pbkdf2.serialize(ASN1OctetString(contentBytes: ArraySlice(salt)))
                            try pbkdf2.serialize(iterations)
                            try pbkdf2.appendConstructedNode(identifier: .sequence) { prf in
                                try prf.serialize(OIDs.hmacWithSHA256)
                                try prf.serialize(ASN1Null())
                            }
                        }
                    }
                    try parameters.appendConstructedNode(identifier: .sequence) { scheme in
                        try scheme.serialize(OIDs.aes256CBC)
                        try scheme.serialize(ASN1OctetString(contentBytes: ArraySlice(iv)))
                    }
                }
            }
        }
        return (algorithm, ciphertext)
    }

    /// An `EncryptedPrivateKeyInfo` from `encrypt`'s output.
    private static func bag(
        _ type: ASN1ObjectIdentifier,
        value encrypted: (algorithm: [UInt8], ciphertext: Data),
        attributes: [UInt8]?
    ) throws(Failure) -> [UInt8] {
        let info = try serialize { serializer in
            try serializer.appendConstructedNode(identifier: .sequence) { inner in
                inner.serializeRawBytes(encrypted.algorithm)
                try inner.serialize(ASN1OctetString(contentBytes: ArraySlice(encrypted.ciphertext)))
            }
        }
        return try safeBag(type, value: info, attributes: attributes)
    }

    private static func certificateBag(_ certificate: Data, attributes: [UInt8]?) throws(Failure) -> [UInt8] {
        let value = try serialize { serializer in
            try serializer.appendConstructedNode(identifier: .sequence) { certBag in
                try certBag.serialize(OIDs.x509Certificate)
                try certBag.appendConstructedNode(
                    identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
                ) { explicit in
                    try explicit.serialize(ASN1OctetString(contentBytes: ArraySlice(certificate)))
                }
            }
        }
        return try safeBag(OIDs.certBag, value: value, attributes: attributes)
    }

    private static func safeBag(
        _ type: ASN1ObjectIdentifier,
        value: [UInt8],
        attributes: [UInt8]?
    ) throws(Failure) -> [UInt8] {
        try serialize { serializer in
            try serializer.appendConstructedNode(identifier: .sequence) { bag in
                try bag.serialize(type)
                bag.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) {
                    explicit in
                    explicit.serializeRawBytes(value)
                }
                if let attributes { bag.serializeRawBytes(attributes) }
            }
        }
    }

    private static func bagAttributes(friendlyName: String?, localKeyID: Data) -> [UInt8] {
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .set) { set in
            if let friendlyName {
                set.appendConstructedNode(identifier: .sequence) { attribute in
                    try? attribute.serialize(OIDs.friendlyName)
                    attribute.appendConstructedNode(identifier: .set) { values in
                        values.appendPrimitiveNode(identifier: .bmpString) { bytes in
                            for unit in friendlyName.utf16 {
                                bytes += [UInt8(unit >> 8), UInt8(truncatingIfNeeded: unit)]
                            }
                        }
                    }
                }
            }
            set.appendConstructedNode(identifier: .sequence) { attribute in
                try? attribute.serialize(OIDs.localKeyID)
                attribute.appendConstructedNode(identifier: .set) { values in
                    try? values.serialize(ASN1OctetString(contentBytes: ArraySlice(localKeyID)))
                }
            }
        }
        return serializer.serializedBytes
    }

    private static func contentInfo(_ type: ASN1ObjectIdentifier, explicit content: [UInt8]) throws(Failure) -> [UInt8]
    {
        try serialize { serializer in
            try serializer.appendConstructedNode(identifier: .sequence) { info in
                try info.serialize(type)
                info.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) {
                    explicit in
                    explicit.serializeRawBytes(content)
                }
            }
        }
    }

    private static func dataContentInfo(_ data: Data) throws(Failure) -> [UInt8] {
        let octets = try serialize { serializer in
            try serializer.serialize(ASN1OctetString(contentBytes: ArraySlice(data)))
        }
        return try contentInfo(OIDs.data, explicit: octets)
    }

    private static func encryptedContentInfo(
        _ encrypted: (algorithm: [UInt8], ciphertext: Data)
    ) throws(Failure) -> [UInt8] {
        try serialize { serializer in
            try serializer.appendConstructedNode(identifier: .sequence) { info in
                try info.serialize(OIDs.data)
                info.serializeRawBytes(encrypted.algorithm)
                info.appendPrimitiveNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)) {
                    bytes in
                    bytes += encrypted.ciphertext
                }
            }
        }
    }
}
