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

package import SwiftASN1

/// A DER-encoded X.509 certificate (RFC 5280), checked for shape and split into the fields the
/// keychain reads; swift-asn1 does the parsing.
///
/// Apple's `SecCertificateCreateWithData` refuses bytes that are not a certificate, and so does
/// `SecItemAdd` for a certificate item; both use this one reader.
package struct CertificateDER: Sendable {
    /// The X.509 version field: 0 for v1 (absent), 1 for v2, 2 for v3.
    package var version: Int64
    /// The serial number's content bytes.
    package var serialNumber: ArraySlice<UInt8>
    /// The issuer and subject `Name`s.
    package var issuer: ASN1Node
    package var subject: ASN1Node
    /// The subject public key, without the BIT STRING's unused-bits byte.
    package var publicKeyBits: ArraySlice<UInt8>
    /// The subject key identifier extension's value, when there is one.
    package var subjectKeyIdentifier: ArraySlice<UInt8>?
    /// The subject public key's `AlgorithmIdentifier`.
    package var publicKeyAlgorithm: ASN1Node
    /// The validity period's two times (UTCTime or GeneralizedTime): not before, not after.
    package var validity: [ASN1Node]
    /// The subject alternative names (`GeneralName`s), when the extension is there and parses.
    package var subjectAlternativeNames: [ASN1Node]?

    /// Parses `bytes`; `nil` when they are not one DER certificate and nothing else.
    package init?(derEncoded bytes: [UInt8]) {
        guard let certificate = try? DER.parse(bytes),
            let parts = certificate.children(tagged: .sequence), parts.count == 3,
            parts[1].identifier == .sequence, parts[2].identifier == .bitString,
            let fields = parts[0].children(tagged: .sequence)
        else { return nil }

        var index = 0
        version = 0
        if let explicit = fields.first, explicit.identifier == Self.versionTag {
            guard let inner = explicit.children(tagged: Self.versionTag), inner.count == 1,
                let value = inner[0].primitive(tagged: .integer), value.count == 1,
                (0...2).contains(value[value.startIndex])
            else { return nil }  // RFC 5280: v1(0), v2(1), v3(2), in DER one content byte
            version = Int64(value[value.startIndex])
            index = 1
        }
        guard fields.count >= index + 6,
            let serial = fields[index].primitive(tagged: .integer), !serial.isEmpty,
            fields[index + 1].identifier == .sequence,
            fields[index + 2].children(tagged: .sequence) != nil,
            let validity = fields[index + 3].children(tagged: .sequence), validity.count == 2,
            validity.allSatisfy({ $0.identifier == .utcTime || $0.identifier == .generalizedTime }),
            fields[index + 4].children(tagged: .sequence) != nil,
            let keyInfo = fields[index + 5].children(tagged: .sequence), keyInfo.count == 2,
            keyInfo[0].identifier == .sequence,
            let keyBits = keyInfo[1].primitive(tagged: .bitString), !keyBits.isEmpty
        else { return nil }
        serialNumber = serial
        issuer = fields[index + 2]
        subject = fields[index + 4]
        publicKeyBits = keyBits.dropFirst()
        publicKeyAlgorithm = keyInfo[0]
        self.validity = validity

        subjectKeyIdentifier = nil
        subjectAlternativeNames = nil
        for optional in fields.dropFirst(index + 6) where optional.identifier == Self.extensionsTag {
            guard let wrapped = optional.children(tagged: Self.extensionsTag), wrapped.count == 1,
                let extensions = wrapped[0].children(tagged: .sequence)
            else { return nil }
            subjectKeyIdentifier = Self.extensionValue(Self.subjectKeyIdentifierOID, in: extensions)?.primitive(
                tagged: .octetString
            )
            subjectAlternativeNames = Self.extensionValue(Self.subjectAlternativeNameOID, in: extensions)?.children(
                tagged: .sequence
            )
        }
    }

    /// The length of the DER element at the start of `bytes` (tag, length and content), or `nil`
    /// when they do not start with a whole element.
    ///
    /// Apple's `SecCertificateCreateWithData` reads the certificate there and ignores what follows.
    package static func lengthOfFirstElement(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        let first = Int(bytes[1])
        var header = 2
        var length = first
        if first & 0x80 != 0 {
            let count = first & 0x7F
            guard (1...4).contains(count), bytes.count >= 2 + count else { return nil }
            length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
            header += count
        }
        let total = header + length
        return total <= bytes.count ? total : nil
    }

    // MARK: Private

    private static let versionTag = ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
    private static let extensionsTag = ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific)
    /// id-ce-subjectKeyIdentifier, 2.5.29.14.
    private static let subjectKeyIdentifierOID: [UInt8] = [0x55, 0x1D, 0x0E]
    /// id-ce-subjectAltName, 2.5.29.17.
    private static let subjectAlternativeNameOID: [UInt8] = [0x55, 0x1D, 0x11]

    /// The parsed value of the extension `oid` (the last one, if it is there twice, as Apple reads it).
    private static func extensionValue(_ oid: [UInt8], in extensions: [ASN1Node]) -> ASN1Node? {
        var found: ASN1Node?
        for candidate in extensions {
            guard let parts = candidate.children(tagged: .sequence),
                let type = parts.first?.primitive(tagged: .objectIdentifier),
                Array(type) == oid, let value = parts.last?.primitive(tagged: .octetString)
            else { continue }
            found = try? DER.parse(value)
        }
        return found
    }
}

extension ASN1Node {
    /// The children of a constructed node with the identifier, else `nil`.
    package func children(tagged expected: ASN1Identifier) -> [ASN1Node]? {
        guard identifier == expected, case .constructed(let nodes) = content else { return nil }
        return Array(nodes)
    }

    /// The content of a primitive node with the identifier, else `nil`.
    package func primitive(tagged expected: ASN1Identifier) -> ArraySlice<UInt8>? {
        guard identifier == expected, case .primitive(let bytes) = content else { return nil }
        return bytes
    }
}
