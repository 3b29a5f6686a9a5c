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
import KeychainTestSupport
import Testing

/// The short, seeded pass of the hostile-input fuzzer over the repository's corpus (RELIABILITY.md has the long one).
@Suite struct FuzzTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus").path

    @Test func hostileQueriesGetDocumentedStatuses() throws {
        let output = try StressRunner.run([
            "fuzz", "--executions", "4000", "--seed", "20261121", "--corpus", Self.corpus,
            // An execution starved beside the rest of the suite is not a hang.
            "--hang-seconds", "120",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("4000 executions"))
        #expect(output.stdout.contains("0 undocumented statuses"))
    }
}
