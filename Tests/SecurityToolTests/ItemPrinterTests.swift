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
import Testing

@testable import SecurityTool

/// Rows as macOS's `security dump-keychain` prints them (`print_keychain_item_attributes` in
/// `SecurityTool/macOS/keychain_utilities.c`).
@Suite struct ItemPrinterTests {
    @Test func certificateRowsHaveMacOSsLayout() {
        let attributes: [String: Any] = [
            "labl": "Example CA", "ctyp": NSNumber(value: 1), "cenc": NSNumber(value: 3),
            "issr": Data([0x30, 0x01]), "slnr": Data([0x02]), "subj": Data("s".utf8), "pkhh": Data([0xAB]),
        ]
        let block = ItemPrinter.block(itemClass: "cert", attributes: attributes, keychainPath: "/k/keychain.db")
        #expect(
            block == """
                keychain: "/k/keychain.db"
                version: 512
                class: 0x80001000 
                attributes:
                    "alis"<blob>=<NULL>
                    "cenc"<uint32>=0x00000003 
                    "ctyp"<uint32>=0x00000001 
                    "hpky"<blob>=0xAB\u{20}
                    "issu"<blob>=0x3001  "0\\001"
                    "labl"<blob>="Example CA"
                    "skid"<blob>=<NULL>
                    "snbr"<blob>=0x02\u{20}
                    "subj"<blob>="s"

                """
        )
        // (Bytes with no printable character print in hexadecimal alone, then a space.)
    }
}
