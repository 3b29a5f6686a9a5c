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
import KeychainCore
import Testing

@testable import KeychainServices

/// The `OSStatus` vocabulary: one row per code in `SecBase+Status.swift` (doc comment = message,
/// name, number), the message table generated from those rows, and the engine's errors mapped to
/// named codes.
@Suite struct StatusTableTests {
    /// A row of `SecBase+Status.swift`.
    struct Row {
        var doc: String
        var name: String
        var code: OSStatus
    }

    static func rows() throws -> [Row] {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/KeychainServices/Constants/SecBase+Status.swift")
        let lines = try String(contentsOf: source, encoding: .utf8).split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        var rows: [Row] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("public var ") {
            let declaration = line.dropFirst("public var ".count)
            let name = String(declaration.prefix { $0 != ":" })
            let number = declaration.split(separator: "{").last?.split(separator: "}").first?.trimmingCharacters(
                in: .whitespaces
            )
            var docIndex = index - 1
            if lines[docIndex].hasPrefix("@available") { docIndex -= 1 }
            let doc = lines[docIndex]
            #expect(doc.hasPrefix("/// "), "\(name) has no doc comment")
            rows.append(
                Row(doc: String(doc.dropFirst(4)), name: name, code: try #require(number.flatMap { OSStatus($0) }))
            )
        }
        return rows
    }

    @Test func everyCodesMessageIsItsFirstConstantsDocComment() throws {
        let rows = try Self.rows()
        #expect(rows.count > 380)
        var first: [OSStatus: Row] = [:]
        for row in rows {
            if let earlier = first[row.code] {
                #expect(row.doc.hasPrefix("Another name for ``\(earlier.name)``"), "\(row.name) repeats \(row.code)")
                continue
            }
            first[row.code] = row
            let message = SecCopyErrorMessageString(row.code, nil) as String?
            if row.doc.hasSuffix("(Apple gives no message for this code.)") {
                #expect(message == "OSStatus \(row.code)")
                #expect(SecStatusMessages.table[row.code] == nil)
            } else {
                #expect(message == row.doc, "the message of \(row.name) is not its doc comment")
            }
        }
        // Nothing in the table that no row names.
        #expect(Set(SecStatusMessages.table.keys).isSubset(of: Set(first.keys)))
    }

    @Test func namedCodesHaveApplesNumbers() {
        // From Apple's SecBase.h and SecBasePriv.h.
        let expected: [(OSStatus, OSStatus)] = [
            (errSecSuccess, 0), (errSecUnimplemented, -4), (errSecIO, -36), (errSecParam, -50),
            (errSecAllocate, -108), (errSecUserCanceled, -128), (errSecBadReq, -909),
            (errSecInternalComponent, -2070), (errSecNotAvailable, -25291), (errSecAuthFailed, -25293),
            (errSecDuplicateItem, -25299), (errSecItemNotFound, -25300), (errSecInteractionNotAllowed, -25308),
            (errSecDecode, -26275), (errSecMissingEntitlement, -34018), (errSecAuthNeeded, -25330),
        ]
        for (named, number) in expected {
            #expect(named == number)
        }
    }

    @Test func everyEngineErrorBecomesANamedCode() throws {
        let named = Set(try Self.rows().map(\.code))
        for kind in KeychainError.Code.Kind.allCases {
            let status = KeychainError(KeychainError.Code(kind), "test").osStatus
            #expect(status != errSecSuccess && named.contains(status), "\(kind) maps to \(status)")
        }
        #expect(KeychainError(.invalidParameter, "test").osStatus == errSecParam)
        #expect(KeychainError(.itemNotFound, "test").osStatus == errSecItemNotFound)
        #expect(KeychainError(.passcodeBackoff, "test").osStatus == errSecAuthFailed)
        #expect(KeychainError(.authenticationNeeded, "test").osStatus == errSecAuthNeeded)
    }
}
