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
import KeychainCore
import SwiftASN1

/// Reads the names in a certificate as Apple's `SecCertificate` functions do
/// (`SecCertificate.c`: `parseX501NameContent`, `copyDERThingDescription`).
enum CertificateNames {
    /// One attribute of a name: its type and its value.
    struct Attribute {
        var type: [UInt8]
        var value: ASN1Node
    }

    static let commonName: [UInt8] = [0x55, 0x04, 0x03]
    static let organization: [UInt8] = [0x55, 0x04, 0x0A]
    static let organizationalUnit: [UInt8] = [0x55, 0x04, 0x0B]
    static let description: [UInt8] = [0x55, 0x04, 0x0D]
    static let emailAddress: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x01]

    /// The attributes of a `Name` in encoding order, RDN by RDN; `nil` when it is malformed (an
    /// RDN that is not a non-empty SET of `{ type, value }` sequences, an empty type).
    static func attributes(of name: ASN1Node) -> [Attribute]? {
        guard let rdns = name.children(tagged: .sequence) else { return nil }
        var attributes: [Attribute] = []
        for rdn in rdns {
            guard let members = rdn.children(tagged: .set), !members.isEmpty else { return nil }
            for member in members {
                guard let parts = member.children(tagged: .sequence), parts.count == 2,
                    let type = parts[0].primitive(tagged: .objectIdentifier), !type.isEmpty
                else { return nil }
                attributes.append(Attribute(type: Array(type), value: parts[1]))
            }
        }
        return attributes
    }

    /// An attribute value as text: ASCII and Teletex-like strings as Latin-1, UTF-8 strings as
    /// UTF-8, BMP strings as UTF-16 (big-endian unless a byte-order mark says otherwise); one
    /// trailing NUL dropped; bytes that do not decode as an upper-case hex dump.
    static func string(of value: ASN1Node) -> String {
        guard value.identifier.tagClass == .universal, case .primitive(let content) = value.content else {
            return "not displayed (tag = \(value.identifier.tagNumber))"
        }
        let tag = value.identifier.tagNumber
        var bytes = Array(content)
        if tag != 30, bytes.last == 0 { bytes.removeLast() }
        let decoded: String?
        switch tag {
        case 19, 22, 20, 21, 26:  // Printable, IA5, Teletex, Videotex, Visible
            decoded = String(bytes.map { Character(Unicode.Scalar($0)) })
        case 12, 27, 28:  // UTF8, General, Universal (Apple decodes all three as UTF-8)
            decoded = String(validating: bytes, as: UTF8.self)
        case 30:  // BMP
            decoded = bmpString(bytes)
        default:
            return "not displayed (tag = \(tag); length \(content.count))"
        }
        return decoded ?? bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
    }

    private static func bmpString(_ bytes: [UInt8]) -> String? {
        var bigEndian = true
        var units = bytes[...]
        if units.count >= 2 {
            if units.prefix(2) == [0xFE, 0xFF] {
                units = units.dropFirst(2)
            } else if units.prefix(2) == [0xFF, 0xFE] {
                bigEndian = false
                units = units.dropFirst(2)
            }
        }
        var codeUnits: [UInt16] = []
        var index = units.startIndex
        while index + 1 < units.endIndex {
            let (high, low) = (UInt16(units[index]), UInt16(units[index + 1]))
            codeUnits.append(bigEndian ? high << 8 | low : low << 8 | high)
            index += 2
        }
        return String(validating: codeUnits, as: UTF16.self)
    }

    /// The values of the attributes of `type`, as text, in encoding order.
    static func values(_ type: [UInt8], in name: ASN1Node) -> [String]? {
        attributes(of: name)?.filter { $0.type == type }.map { string(of: $0.value) }
    }

    /// The RFC 822 names: the subject alternative names' first, then the subject's `emailAddress`
    /// attributes, as Apple lists them (no duplicates removed).
    static func emailAddresses(of certificate: CertificateDER) -> [String]? {
        var addresses = alternativeNames(tagged: 1, in: certificate)
        guard let subjectAddresses = values(emailAddress, in: certificate.subject) else { return nil }
        addresses.append(contentsOf: subjectAddresses)
        return addresses
    }

    /// The subject alternative names of one `GeneralName` kind (1: rfc822Name, 2: dNSName).
    static func alternativeNames(tagged tag: UInt, in certificate: CertificateDER) -> [String] {
        let identifier = ASN1Identifier(tagWithNumber: tag, tagClass: .contextSpecific)
        return (certificate.subjectAlternativeNames ?? []).compactMap { name in
            name.primitive(tagged: identifier).map { String(Array($0).map { Character(Unicode.Scalar($0)) }) }
        }
    }

    /// Whether `name` is a DNS name (letters, digits and hyphens in labels of at most 63; a
    /// leading `*` label allowed; the last label not all digits), as `SecFrameworkIsDNSName` asks.
    static func isDNSName(_ name: String) -> Bool {
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        let labels = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 255, let last = labels.last, last.contains(where: \.isLetter)
        else {
            return false
        }
        for (index, label) in labels.enumerated() {
            if index == 0, label == "*" { continue }
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-",
                label.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
                })
            else { return false }
        }
        return true
    }
}
#endif
