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

/// A PKCS #12 file (RFC 7292) opened with its password: the certificates and private keys it
/// holds, with their friendly names and local key IDs.
///
/// Read: the password-integrity MAC (the PKCS #12 key derivation with SHA-1 or SHA-2), data and
/// PBES2-encrypted contents (PBKDF2 with HMAC-SHA-1 or SHA-2, AES-CBC: what OpenSSL 3 writes),
/// key bags and shrouded key bags (PKCS #8: EC on P-256/384/521, RSA), X.509 certificate bags.
/// Not read: the older PKCS #12 PBE schemes (3DES, RC2: `unsupportedEncryption`) and public-key
/// integrity mode.
package struct PKCS12: Sendable {
    /// A private key or certificate of the file, with its bag attributes.
    package struct Bag<Value: Sendable>: Sendable {
        package var value: Value
        package var friendlyName: String?
        package var localKeyID: Data?
    }

    /// Why a file did not open.
    package enum Failure: Error, Sendable, Equatable {
        /// Not a PKCS #12 file, or damaged.
        case malformed
        /// The password does not open it (its MAC does not verify, or a content does not decrypt).
        case wrongPassword
        /// It uses an algorithm this reader does not have.
        case unsupportedEncryption
    }

    /// A private key as PKCS #8 DER.
    package struct PrivateKey: Sendable {
        package var pkcs8: Data
    }

    package private(set) var certificates: [Bag<Data>] = []
    package private(set) var keys: [Bag<PrivateKey>] = []

    // MARK: - Opening

    /// Opens `data` with `password`.
    package init(_ data: Data, password: String) throws(Failure) {
        let pfx = try Self.sequence(try Self.parse(data))
        guard pfx.count >= 2, Self.integer(pfx[0]) == 3 else { throw .malformed }
        let authenticatedSafe = try Self.dataContent(pfx[1])
        if pfx.count >= 3 {
            try Self.verifyMAC(pfx[2], content: authenticatedSafe, password: password)
        }
        for contentInfo in try Self.sequence(try Self.parse(authenticatedSafe)) {
            let parts = try Self.sequence(contentInfo)
            guard let type = parts.first.flatMap(Self.oid) else { throw .malformed }
            let safeContents: Data
            switch type {
            case OID.data: safeContents = try Self.dataContent(contentInfo)
            case OID.encryptedData: safeContents = try Self.decryptEncryptedData(parts, password: password)
            default: throw .unsupportedEncryption
            }
            try read(safeContents, password: password)
        }
    }

    private mutating func read(_ safeContents: Data, password: String) throws(Failure) {
        for bag in try Self.sequence(try Self.parse(safeContents)) {
            let parts = try Self.sequence(bag)
            guard parts.count >= 2, let type = Self.oid(parts[0]) else { throw .malformed }
            let value = try Self.explicitZero(parts[1])
            let (friendlyName, localKeyID) = Self.attributes(parts.count > 2 ? parts[2] : nil)
            switch type {
            case OID.keyBag:
                keys.append(
                    Bag(
                        value: PrivateKey(pkcs8: Data(DER.Serializer.bytes(of: value))),
                        friendlyName: friendlyName,
                        localKeyID: localKeyID
                    )
                )
            case OID.shroudedKeyBag:
                let shrouded = try Self.sequence(value)
                guard shrouded.count == 2, case .primitive(let encrypted) = shrouded[1].content else {
                    throw .malformed
                }
                let pkcs8 = try Self.decrypt(Data(encrypted), algorithm: shrouded[0], password: password)
                keys.append(Bag(value: PrivateKey(pkcs8: pkcs8), friendlyName: friendlyName, localKeyID: localKeyID))
            case OID.certBag:
                let certBag = try Self.sequence(value)
                guard certBag.count == 2, Self.oid(certBag[0]) == OID.x509Certificate,
                    case .primitive(let der) = try Self.explicitZero(certBag[1]).content
                else { continue }
                certificates.append(Bag(value: Data(der), friendlyName: friendlyName, localKeyID: localKeyID))
            default:
                continue  // CRL and secret bags, nested safe contents: not what an import returns
            }
        }
    }

    // MARK: - Integrity

    private static func verifyMAC(_ macData: ASN1Node, content: Data, password: String) throws(Failure) {
        let parts = try sequence(macData)
        guard parts.count >= 2 else { throw .malformed }
        let digestInfo = try sequence(parts[0])
        guard digestInfo.count == 2, let algorithm = try sequence(digestInfo[0]).first.flatMap(oid),
            case .primitive(let expected) = digestInfo[1].content, case .primitive(let salt) = parts[1].content
        else { throw .malformed }
        let iterations = parts.count > 2 ? integer(parts[2]) ?? 0 : 1
        guard (1...10_000_000).contains(iterations) else { throw .malformed }
        guard let digest = DigestKind(oid: algorithm) else { throw .unsupportedEncryption }
        let key = PKCS12KDF.derive(
            password: password,
            salt: Data(salt),
            id: 3,
            iterations: iterations,
            byteCount: digest.byteCount,
            digest: digest
        )
        guard HMACDigest.authenticationCode(content, key: key, digest: digest) == Data(expected) else {
            throw .wrongPassword
        }
    }

    // MARK: - Decryption

    private static func decryptEncryptedData(_ contentInfo: [ASN1Node], password: String) throws(Failure) -> Data {
        guard contentInfo.count == 2 else { throw .malformed }
        let encryptedData = try sequence(try explicitZero(contentInfo[1]))
        guard encryptedData.count >= 2 else { throw .malformed }
        let info = try sequence(encryptedData[1])
        guard info.count == 3, case .primitive(let ciphertext) = info[2].content else { throw .malformed }
        return try decrypt(Data(ciphertext), algorithm: info[1], password: password)
    }

    /// Decrypts with a PBES2 (PBKDF2, AES-CBC) algorithm identifier.
    private static func decrypt(_ ciphertext: Data, algorithm: ASN1Node, password: String) throws(Failure) -> Data {
        let parts = try sequence(algorithm)
        guard let type = parts.first.flatMap(oid) else { throw .malformed }
        guard type == OID.pbes2, parts.count == 2 else { throw .unsupportedEncryption }
        let parameters = try sequence(parts[1])
        guard parameters.count == 2 else { throw .malformed }
        let derivation = try sequence(parameters[0])
        let scheme = try sequence(parameters[1])
        guard derivation.count == 2, oid(derivation[0]) == OID.pbkdf2, scheme.count == 2, let cipher = oid(scheme[0]),
            case .primitive(let iv) = scheme[1].content
        else { throw .unsupportedEncryption }
        let pbkdf2 = try sequence(derivation[1])
        guard pbkdf2.count >= 2, case .primitive(let salt) = pbkdf2[0].content, let rounds = integer(pbkdf2[1]),
            (1...10_000_000).contains(rounds)
        else { throw .malformed }
        var prf = DigestKind.sha1
        for optional in pbkdf2.dropFirst(2) where optional.identifier == .sequence {
            guard let identifier = try sequence(optional).first.flatMap(oid), let kind = DigestKind(hmacOID: identifier)
            else {
                throw .unsupportedEncryption
            }
            prf = kind
        }
        let keyLength: Int
        switch cipher {
        case OID.aes128CBC: keyLength = 16
        case OID.aes192CBC: keyLength = 24
        case OID.aes256CBC: keyLength = 32
        default: throw .unsupportedEncryption
        }
        guard let function = prf.pbkdf2Function else { throw .unsupportedEncryption }
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: Array(password.utf8),
                salt: salt,
                using: function,
                outputByteCount: keyLength,
                unsafeUncheckedRounds: rounds
            )
            return try AES._CBC.decrypt(ciphertext, using: key, iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            // A wrong password gives a padding error, nearly always.
            throw .wrongPassword
        }
    }

    // MARK: - DER helpers

    private static func parse(_ data: Data) throws(Failure) -> ASN1Node {
        do {
            return try BER.parse(Array(data))
        } catch {
            throw .malformed
        }
    }

    private static func sequence(_ node: ASN1Node) throws(Failure) -> [ASN1Node] {
        guard node.identifier == .sequence, case .constructed(let children) = node.content else { throw .malformed }
        return Array(children)
    }

    private static func explicitZero(_ node: ASN1Node) throws(Failure) -> ASN1Node {
        guard node.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
            case .constructed(let children) = node.content,
            let first = children.first(where: { _ in true })
        else { throw .malformed }
        return first
    }

    /// The OCTET STRING content of a `data` ContentInfo (constructed, BER, strings joined).
    private static func dataContent(_ contentInfo: ASN1Node) throws(Failure) -> Data {
        let parts = try sequence(contentInfo)
        guard parts.count == 2, oid(parts[0]) == OID.data else { throw .malformed }
        return try octets(try explicitZero(parts[1]))
    }

    private static func octets(_ node: ASN1Node) throws(Failure) -> Data {
        guard node.identifier == .octetString else { throw .malformed }
        switch node.content {
        case .primitive(let bytes): return Data(bytes)
        case .constructed(let children):
            var joined = Data()
            for child in children { joined.append(try octets(child)) }
            return joined
        }
    }

    private static func oid(_ node: ASN1Node) -> [UInt8]? {
        guard node.identifier == .objectIdentifier, case .primitive(let bytes) = node.content else { return nil }
        return Array(bytes)
    }

    private static func integer(_ node: ASN1Node) -> Int? {
        guard node.identifier == .integer, case .primitive(let bytes) = node.content, (1...4).contains(bytes.count),
            bytes.first.map({ $0 < 0x80 }) == true
        else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    private static func attributes(_ node: ASN1Node?) -> (String?, Data?) {
        guard let node, case .constructed(let attributes) = node.content else { return (nil, nil) }
        var friendlyName: String?
        var localKeyID: Data?
        for attribute in attributes {
            guard let parts = try? sequence(attribute), parts.count == 2, let type = oid(parts[0]),
                case .constructed(let values) = parts[1].content, let value = values.first(where: { _ in true }),
                case .primitive(let bytes) = value.content
            else { continue }
            switch type {
            case OID.friendlyName where value.identifier == .bmpString:
                var units: [UInt16] = []
                var index = bytes.startIndex
                while index + 1 < bytes.endIndex {
                    units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                    index += 2
                }
                friendlyName = String(validating: units, as: UTF16.self)
            case OID.localKeyID:
                localKeyID = Data(bytes)
            default:
                continue
            }
        }
        return (friendlyName, localKeyID)
    }

    private enum OID {
        static let data: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        static let encryptedData: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x06]
        static let keyBag: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x0A, 0x01, 0x01]
        static let shroudedKeyBag: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x0A, 0x01, 0x02]
        static let certBag: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x0C, 0x0A, 0x01, 0x03]
        static let x509Certificate: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x16, 0x01]
        static let friendlyName: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x14]
        static let localKeyID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x15]
        static let pbes2: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0D]
        static let pbkdf2: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x05, 0x0C]
        static let aes128CBC: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x02]
        static let aes192CBC: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x16]
        static let aes256CBC: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2A]
    }
}

extension DER.Serializer {
    /// The DER bytes of one node.
    static func bytes(of node: ASN1Node) -> [UInt8] {
        var serializer = DER.Serializer()
        serializer.serialize(node)
        return serializer.serializedBytes
    }
}
