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
import X509

/// The attributes of a certificate item, derived from its DER encoding as Apple's keychain does.
///
/// `ctyp` is the X.509 version plus one, `cenc` is 3 (DER), `subj` and `issr` are the contents of
/// the normalized names (PrintableString values upper-cased, blanks collapsed), `slnr` the serial
/// number's content bytes, `skid` the subject key identifier extension, `pkhh` the SHA-1 of the
/// public key bits, and `labl` the subject's common name. Attributes the caller gave win.
package enum CertificateAttributes {
    /// Derives the attributes; refuses data that is not a DER certificate with `errSecParam`.
    package static func attributes(ofDER der: Data) throws(KeychainCoreError) -> [String: AttributeValue] {
        let bytes = [UInt8](der)
        do {
            _ = try Certificate(derEncoded: bytes)
        } catch {
            throw KeychainCoreError(.invalidParameter, "kSecValueData is not a DER-encoded X.509 certificate")
        }
        guard let certificate = DERNode.parse(bytes[...]), certificate.tag == 0x30,
            let tbs = certificate.children?.first, let fields = tbs.children
        else {
            throw KeychainCoreError(.invalidParameter, "kSecValueData is not a DER-encoded X.509 certificate")
        }
        var index = 0
        var version: Int64 = 0
        if fields.first?.tag == 0xA0, let inner = fields.first?.children?.first {
            version = inner.content.reduce(0) { ($0 << 8) | Int64($1) }
            index = 1
        }
        guard fields.count >= index + 6 else {
            throw KeychainCoreError(.invalidParameter, "kSecValueData is not a DER-encoded X.509 certificate")
        }
        let serial = fields[index]
        let issuer = fields[index + 2]
        let subject = fields[index + 4]
        let publicKeyInfo = fields[index + 5]

        var attributes: [String: AttributeValue] = [
            "ctyp": .number(version + 1),
            "cenc": .number(3),
            "slnr": .data(Data(serial.content)),
            "issr": .data(Data(normalizedNameContent(issuer))),
            "subj": .data(Data(normalizedNameContent(subject))),
        ]
        if let bitString = publicKeyInfo.children?.last, bitString.tag == 0x03, !bitString.content.isEmpty {
            attributes["pkhh"] = .data(Data(Insecure.SHA1.hash(data: Array(bitString.content.dropFirst()))))
        }
        if let keyIdentifier = subjectKeyIdentifier(fields.dropFirst(index + 6)) {
            attributes["skid"] = .data(Data(keyIdentifier))
        }
        if let commonName = commonName(of: subject) {
            attributes["labl"] = .string(commonName)
        }
        return attributes
    }

    // MARK: Private

    private static let commonNameOID: [UInt8] = [0x55, 0x04, 0x03]
    private static let subjectKeyIdentifierOID: [UInt8] = [0x55, 0x1D, 0x0E]

    /// The content of a Name with every PrintableString upper-cased and its blanks collapsed and trimmed.
    private static func normalizedNameContent(_ name: DERNode) -> [UInt8] {
        var content: [UInt8] = []
        for rdn in name.children ?? [] {
            var rdnContent: [UInt8] = []
            for attribute in rdn.children ?? [] {
                var attributeContent: [UInt8] = []
                for (position, part) in (attribute.children ?? []).enumerated() {
                    if position == 1, part.tag == 0x13 {
                        attributeContent += DERNode.encode(tag: 0x13, content: normalizePrintable(part.content))
                    } else {
                        attributeContent += part.encoded
                    }
                }
                rdnContent += DERNode.encode(tag: attribute.tag, content: attributeContent)
            }
            content += DERNode.encode(tag: rdn.tag, content: rdnContent)
        }
        return content
    }

    private static func normalizePrintable(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var pendingBlank = false
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 {
                pendingBlank = !out.isEmpty
                continue
            }
            if pendingBlank {
                out.append(0x20)
                pendingBlank = false
            }
            out.append((0x61...0x7A).contains(byte) ? byte - 0x20 : byte)
        }
        return out
    }

    private static func commonName(of name: DERNode) -> String? {
        for rdn in name.children ?? [] {
            for attribute in rdn.children ?? [] {
                guard let parts = attribute.children, parts.count == 2, parts[0].tag == 0x06,
                    Array(parts[0].content) == commonNameOID
                else { continue }
                return String(bytes: parts[1].content, encoding: .utf8)
            }
        }
        return nil
    }

    private static func subjectKeyIdentifier(_ rest: ArraySlice<DERNode>) -> ArraySlice<UInt8>? {
        guard let explicit = rest.first(where: { $0.tag == 0xA3 }), let extensions = explicit.children?.first else {
            return nil
        }
        for candidate in extensions.children ?? [] {
            guard let parts = candidate.children, let oid = parts.first, oid.tag == 0x06,
                Array(oid.content) == subjectKeyIdentifierOID, let value = parts.last, value.tag == 0x04,
                let inner = DERNode.parse(value.content), inner.tag == 0x04
            else { continue }
            return inner.content
        }
        return nil
    }
}

/// A minimal DER reader: tag, content, and children for constructed values.
struct DERNode {
    var tag: UInt8
    var content: ArraySlice<UInt8>
    var encoded: ArraySlice<UInt8>

    /// The parsed children if the value is constructed, else `nil`.
    var children: [DERNode]? {
        guard tag & 0x20 != 0 else { return nil }
        var nodes: [DERNode] = []
        var rest = content
        while !rest.isEmpty {
            guard let node = DERNode.parse(rest, allowTrailing: true) else { return nil }
            nodes.append(node)
            rest = rest.dropFirst(node.encoded.count)
        }
        return nodes
    }

    /// Parses one TLV at the start of `bytes` (and nothing else, unless `allowTrailing`).
    static func parse(_ bytes: ArraySlice<UInt8>, allowTrailing: Bool = false) -> DERNode? {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { return nil }
        let tag = bytes[index]
        guard tag & 0x1F != 0x1F else { return nil }  // high tag numbers do not occur here
        index += 1
        guard index < bytes.endIndex else { return nil }
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count >= 1, count <= 4, bytes.endIndex - index >= count else { return nil }
            length = bytes[index..<index + count].reduce(0) { ($0 << 8) | Int($1) }
            index += count
        }
        guard length >= 0, bytes.endIndex - index >= length else { return nil }
        let end = index + length
        guard allowTrailing || end == bytes.endIndex else { return nil }
        return DERNode(tag: tag, content: bytes[index..<end], encoded: bytes[bytes.startIndex..<end])
    }

    /// Encodes a TLV with a definite, minimal length.
    static func encode(tag: UInt8, content: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = [tag]
        let count = content.count
        if count < 0x80 {
            out.append(UInt8(count))
        } else {
            var lengthBytes: [UInt8] = []
            var remaining = count
            while remaining > 0 {
                lengthBytes.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            out.append(0x80 | UInt8(lengthBytes.count))
            out += lengthBytes
        }
        out += content
        return out
    }
}
