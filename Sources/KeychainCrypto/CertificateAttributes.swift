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
package import KeychainCore
import SwiftASN1

/// The attributes of a certificate item, derived from its DER encoding as Apple's keychain does.
///
/// `ctyp` is the X.509 version plus one, `cenc` is 3 (DER), `subj` and `issr` are the contents of
/// the normalized names (PrintableString values upper-cased, blanks collapsed), `slnr` the serial
/// number's content bytes, `skid` the subject key identifier extension, `pkhh` the SHA-1 of the
/// public key bits, and `labl` the subject's common name. Attributes the caller gave win.
package enum CertificateAttributes {
    /// Derives the attributes; refuses data that is not a DER certificate with `errSecParam`.
    package static func attributes(ofDER der: Data) throws(KeychainError) -> [String: AttributeValue] {
        guard let certificate = CertificateDER(derEncoded: [UInt8](der)) else {
            throw KeychainError(.invalidParameter, "kSecValueData is not a DER-encoded X.509 certificate")
        }
        var attributes: [String: AttributeValue] = [
            "ctyp": .number(certificate.version + 1),
            "cenc": .number(3),
            "slnr": .data(Data(certificate.serialNumber)),
            "issr": .data(Data(normalizedNameContent(certificate.issuer))),
            "subj": .data(Data(normalizedNameContent(certificate.subject))),
            "pkhh": .data(Data(Insecure.SHA1.hash(data: Array(certificate.publicKeyBits)))),
        ]
        if let keyIdentifier = certificate.subjectKeyIdentifier {
            attributes["skid"] = .data(Data(keyIdentifier))
        }
        if let commonName = commonName(of: certificate.subject) {
            attributes["labl"] = .string(commonName)
        }
        return attributes
    }

    /// The normalized content of a DER-encoded Name (a SEQUENCE), as the `issr` and `subj`
    /// attributes hold it; `nil` when `der` is not a Name (Apple's
    /// `SecDistinguishedNameCopyNormalizedContent`).
    package static func normalizedNameContent(ofDER der: Data) -> Data? {
        guard let node = try? DER.parse([UInt8](der)), node.identifier == .sequence,
            case .constructed = node.content
        else { return nil }
        return Data(normalizedNameContent(node))
    }

    // MARK: Private

    /// id-at-commonName, 2.5.4.3.
    private static let commonNameOID: [UInt8] = [0x55, 0x04, 0x03]

    /// The content of a Name with every PrintableString upper-cased and its blanks collapsed and
    /// trimmed, re-encoded in DER.
    private static func normalizedNameContent(_ name: ASN1Node) -> [UInt8] {
        var serializer = DER.Serializer()
        for rdn in name.children(tagged: .sequence) ?? [] {
            serializer.appendConstructedNode(identifier: rdn.identifier) { rdnContent in
                guard case .constructed(let attributes) = rdn.content else { return }
                for attribute in attributes {
                    guard case .constructed(let parts) = attribute.content else {
                        rdnContent.serialize(attribute)
                        continue
                    }
                    rdnContent.appendConstructedNode(identifier: attribute.identifier) { attributeContent in
                        for (position, part) in parts.enumerated() {
                            if position == 1, let printable = part.primitive(tagged: .printableString) {
                                attributeContent.appendPrimitiveNode(identifier: .printableString) {
                                    $0.append(contentsOf: normalizePrintable(printable))
                                }
                            } else {
                                attributeContent.serialize(part)
                            }
                        }
                    }
                }
            }
        }
        return serializer.serializedBytes
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

    private static func commonName(of name: ASN1Node) -> String? {
        for rdn in name.children(tagged: .sequence) ?? [] {
            guard case .constructed(let attributes) = rdn.content else { continue }
            for attribute in attributes {
                guard let parts = attribute.children(tagged: .sequence), parts.count == 2,
                    let oid = parts[0].primitive(tagged: .objectIdentifier), Array(oid) == commonNameOID,
                    case .primitive(let value) = parts[1].content
                else { continue }
                return String(bytes: value, encoding: .utf8)
            }
        }
        return nil
    }
}
