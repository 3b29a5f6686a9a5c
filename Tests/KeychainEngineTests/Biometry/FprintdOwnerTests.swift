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
import Testing

@testable import KeychainEngine

/// Whom the engine believes when it asks fprintd: the decision lives in Swift (the C module only
/// reports who owns the name and as which user), so it is tested here without a bus.
@Suite struct FprintdOwnerTests {
    @Test func onlyRootMayAnswerAsFprintd() {
        #expect(FprintdDevice.mayAnswer(asFprintdRunningAs: 0))
    }

    @Test(arguments: [UInt32(1), 1000, 65534, UInt32.max])
    func anyOtherUserOrAnUnknownOneMayNot(_ userID: UInt32) {
        #expect(!FprintdDevice.mayAnswer(asFprintdRunningAs: userID))
    }
}
