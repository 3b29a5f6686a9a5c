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

import Foundation
import KeychainServices

/// Prints items in macOS's `security` format.
///
/// Each attribute line is `    <tag><format>=<value>`, values printed as macOS's `print_buffer`
/// does: printable ASCII in quotes, other bytes as octal escapes, and a `0x…` hex prefix whenever
/// any byte is not printable.
enum ItemPrinter {
    /// The attribute lines macOS prints, in its order: tag, format, attribute code (nil: always `<NULL>`).
    private static let genericLayout: [(String, String, String?)] = [
        ("0x00000007 ", "blob", "labl"), ("0x00000008 ", "blob", nil), ("\"acct\"", "blob", "acct"),
        ("\"cdat\"", "timedate", "cdat"), ("\"crtr\"", "uint32", "crtr"), ("\"cusi\"", "sint32", nil),
        ("\"desc\"", "blob", "desc"), ("\"gena\"", "blob", "gena"), ("\"icmt\"", "blob", "icmt"),
        ("\"invi\"", "sint32", "invi"), ("\"mdat\"", "timedate", "mdat"), ("\"nega\"", "sint32", "nega"),
        ("\"prot\"", "blob", nil), ("\"scrp\"", "sint32", nil), ("\"svce\"", "blob", "svce"),
        ("\"type\"", "uint32", "type"),
    ]

    private static let internetLayout: [(String, String, String?)] = [
        ("0x00000007 ", "blob", "labl"), ("0x00000008 ", "blob", nil), ("\"acct\"", "blob", "acct"),
        ("\"atyp\"", "blob", "atyp"), ("\"cdat\"", "timedate", "cdat"), ("\"crtr\"", "uint32", "crtr"),
        ("\"cusi\"", "sint32", nil), ("\"desc\"", "blob", "desc"), ("\"icmt\"", "blob", "icmt"),
        ("\"invi\"", "sint32", "invi"), ("\"mdat\"", "timedate", "mdat"), ("\"nega\"", "sint32", "nega"),
        ("\"path\"", "blob", "path"), ("\"port\"", "uint32", "port"), ("\"prot\"", "blob", nil),
        ("\"ptcl\"", "uint32", "ptcl"), ("\"scrp\"", "sint32", nil), ("\"sdmn\"", "blob", "sdmn"),
        ("\"srvr\"", "blob", "srvr"), ("\"type\"", "uint32", "type"),
    ]

    /// A certificate's attributes as macOS's file keychain names them (its record type is printed
    /// as a number), from the data-protection attributes that hold them.
    private static let certificateLayout: [(String, String, String?)] = [
        ("\"alis\"", "blob", "alis"), ("\"cenc\"", "uint32", "cenc"), ("\"ctyp\"", "uint32", "ctyp"),
        ("\"hpky\"", "blob", "pkhh"), ("\"issu\"", "blob", "issr"), ("\"labl\"", "blob", "labl"),
        ("\"skid\"", "blob", "skid"), ("\"snbr\"", "blob", "slnr"), ("\"subj\"", "blob", "subj"),
    ]

    /// A key's attributes as macOS's file keychain numbers them (`KeySchema`, tags 0 to 26), from the
    /// attributes that hold them.
    private static let keyLayout: [(String, String, String?)] = [
        ("uint32", "kcls"), ("blob", "labl"), ("blob", nil), ("uint32", "perm"), ("uint32", "priv"), ("uint32", "modi"),
        ("blob", "klbl"), ("blob", "atag"), ("blob", nil), ("uint32", "type"), ("uint32", "bsiz"), ("uint32", "esiz"),
        ("blob", nil), ("blob", nil), ("uint32", "sens"), ("uint32", "asen"), ("uint32", "extr"), ("uint32", "next"),
        ("uint32", "encr"), ("uint32", "decr"), ("uint32", "drve"), ("uint32", "sign"), ("uint32", "vrfy"),
        ("uint32", "snrc"), ("uint32", "vyrc"), ("uint32", "wrap"), ("uint32", "unwp"),
    ].enumerated().map { index, entry in (String(format: "0x%08X ", index), entry.0, entry.1) }

    /// The block `find-key` prints for one key: its CSSM record type (public 0x0F, private 0x10, symmetric
    /// 0x11), then the 27 attributes of macOS's key schema by number.
    static func keyBlock(attributes: [String: Any], keychainPath: String) -> String {
        var shown = attributes
        let keyClass = Int(attributes["kcls"].flatMap { "\($0)" }.flatMap(Int.init) ?? 0)
        let recordType = UInt32(0x0F + keyClass)
        shown["kcls"] = NSNumber(value: recordType)
        shown["priv"] = attributes["priv"] ?? NSNumber(value: keyClass == 1 ? 1 : 0)
        shown["modi"] = attributes["modi"] ?? NSNumber(value: 1)
        // What the data-protection keychain does not record, the file keychain derives or leaves off.
        let flag = { (code: String) -> Bool in
            (attributes[code] as? Bool) ?? ((attributes[code] as? NSNumber)?.boolValue ?? false)
        }
        shown["asen"] = attributes["asen"] ?? NSNumber(value: flag("sens") ? 1 : 0)
        shown["next"] = attributes["next"] ?? NSNumber(value: attributes["extr"] == nil || flag("extr") ? 0 : 1)
        shown["snrc"] = attributes["snrc"] ?? NSNumber(value: 0)
        shown["vyrc"] = attributes["vyrc"] ?? NSNumber(value: 0)
        let classLine = "class: \(render(withUnsafeBytes(of: recordType.bigEndian) { Array($0) }))"
        return block(classLine: classLine, layout: keyLayout, attributes: shown, keychainPath: keychainPath)
    }

    /// The block `find-*-password` and `dump-keychain` print for one item.
    static func block(itemClass: String, attributes: [String: Any], keychainPath: String) -> String {
        // macOS prints a certificate's record type, CSSM_DL_DB_RECORD_X509_CERTIFICATE, as a number.
        let classLine = itemClass == "cert" ? "class: 0x80001000 " : "class: \"\(itemClass)\""
        let layout: [(String, String, String?)]
        switch itemClass {
        case "genp": layout = genericLayout
        case "inet": layout = internetLayout
        case "cert": layout = certificateLayout
        default:
            layout = attributes.keys.sorted().filter { $0.count == 4 }.map { ("\"\($0)\"", "blob", $0) }
        }
        return block(classLine: classLine, layout: layout, attributes: attributes, keychainPath: keychainPath)
    }

    /// The header, then one line per attribute of `layout` (tag, format, attribute code; `nil`: always `<NULL>`).
    private static func block(
        classLine: String,
        layout: [(String, String, String?)],
        attributes: [String: Any],
        keychainPath: String
    ) -> String {
        var lines = ["keychain: \"\(keychainPath)\"", "version: 512", classLine, "attributes:"]
        for (tag, format, code) in layout {
            let value = code.flatMap { attributes[$0] }.flatMap { bytes(of: $0, format: format) }
            // An empty value is a zero-length attribute, which macOS prints as <NULL> too.
            lines.append("    \(tag)<\(format)>=\(value.flatMap { $0.isEmpty ? nil : render($0) } ?? "<NULL>")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value's bytes as macOS stores them for the given format.
    static func bytes(of value: Any, format: String) -> [UInt8]? {
        switch value {
        case let string as String:
            return Array(string.utf8)
        case let data as Data:
            return Array(data)
        case let date as Date:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMddHHmmss'Z'"
            return Array(formatter.string(from: date).utf8) + [0]
        case let flag as Bool where format == "uint32":
            return [0, 0, 0, flag ? 1 : 0]
        case let number as NSNumber:
            let integer = UInt32(truncatingIfNeeded: number.int64Value)
            return withUnsafeBytes(of: integer.bigEndian) { Array($0) }
        default:
            return nil
        }
    }

    /// macOS's `print_buffer`: hex if any byte is not printable ASCII, quoted text if any byte is.
    static func render(_ bytes: [UInt8]) -> String {
        func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "\\") }
        let needsHex = bytes.contains { !isPrintable($0) }
        let hasText = bytes.contains(where: isPrintable)
        var out = ""
        if needsHex {
            out += "0x" + bytes.map { String(format: "%02X", $0) }.joined()
            out += hasText ? "  " : " "
        }
        if hasText {
            out += "\""
            for byte in bytes {
                out += isPrintable(byte) ? String(UnicodeScalar(byte)) : String(format: "\\%03o", byte)
            }
            out += "\""
        }
        return out
    }

    /// The item as JSON: its class, attributes (text where possible, base64 for other bytes), and the password if shown.
    static func json(itemClass: String, attributes: [String: Any], password: Data?) -> [String: Any] {
        var object: [String: Any] = ["class": itemClass]
        var attributeObject: [String: Any] = [:]
        for (code, value) in attributes {
            switch value {
            case let string as String: attributeObject[code] = string
            case let data as Data:
                attributeObject[code] = String(data: data, encoding: .utf8) ?? data.base64EncodedString()
            case let date as Date: attributeObject[code] = ISO8601DateFormatter().string(from: date)
            case let number as NSNumber: attributeObject[code] = number.int64Value
            default: continue
            }
        }
        object["attributes"] = attributeObject
        if let password {
            object["password"] = String(data: password, encoding: .utf8) ?? password.base64EncodedString()
        }
        return object
    }

    static func printJSON(_ object: Any) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        else { return }
        print(String(decoding: data, as: UTF8.self))
    }
}
