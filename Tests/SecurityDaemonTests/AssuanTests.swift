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

import KeychainContract
import Testing

@testable import SecurityDaemon

/// The Assuan text rules the daemon's pinentry conversation relies on: nothing escaped can end a
/// line, and what pinentry sends back decodes to the bytes it meant.
@Suite struct AssuanTests {
    @Test func escapingLeavesNoLineBreakOrControlByte() {
        let hostile = "a%b\nGETPIN\r\u{0}\u{7F}\t€"
        let escaped = Assuan.escape(hostile)
        #expect(escaped == "a%25b%0AGETPIN%0D%00%7F%09€")
        #expect(!escaped.utf8.contains { $0 < 0x20 || $0 == 0x7F })
        #expect(Assuan.unescape(Array(escaped.utf8)) == Array(hostile.utf8))
    }

    @Test func malformedEscapesAreRefused() {
        for bad in ["%", "%4", "%G0", "ab%z1"] {
            #expect(Assuan.unescape(Array(bad.utf8)) == nil)
        }
        #expect(Assuan.unescape(Array("1234%25".utf8)) == Array("1234%".utf8))
    }

    @Test func longReasonsAreCutOnACharacterBoundary() {
        let reason = String(repeating: "é", count: 300)  // 600 bytes
        let cut = Assuan.truncated(reason, toBytes: 400)
        #expect(cut.utf8.count <= 400)
        #expect(cut.hasSuffix("…") && cut.dropLast().allSatisfy { $0 == "é" })
        #expect(Assuan.truncated("short", toBytes: 400) == "short")
    }

    @Test func cancellationIsRecognisedFromAnyComponent() {
        #expect(Assuan.isCancellation(83_886_179))  // pinentry: GPG_ERR_CANCELED
        #expect(Assuan.isCancellation(99))
        #expect(Assuan.isCancellation(83_886_142))  // GPG_ERR_TIMEOUT
        #expect(!Assuan.isCancellation(83_918_929))  // pinentry-curses: no such file (the tty)
    }
}
