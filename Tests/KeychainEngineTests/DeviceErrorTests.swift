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
import KeychainContract
import KeychainEngine
import KeychainTesting
import Testing

/// What a program using `KeychainDevice` can match on when the passcode is wrong or throttled.
@Suite struct DeviceErrorTests {
    static func failure(_ body: () throws -> Void) -> KeychainDeviceError? {
        do {
            try body()
            return nil
        } catch {
            return error as? KeychainDeviceError
        }
    }

    @Test func wrongPasscodesThenTheBackoffAreNamed() throws {
        let keychain = try TemporaryKeychain(passcode: "2580")
        let device = try keychain.reopened()
        for attempt in 1...5 {
            let error = Self.failure { try device.unlock(passcode: "0000") }
            #expect(error?.code == .wrongPasscode)
            // The fifth failure starts the first delay, and says until when.
            #expect((error?.nextAttempt != nil) == (attempt == 5))
        }
        let throttled = Self.failure { try device.unlock(passcode: "2580") }
        #expect(throttled?.code == .backoff)
        #expect(throttled?.nextAttempt.map { $0 > Date() } == true)
        #expect(!device.isUnlocked)
    }

    @Test func theDeviceSaysWhatItLacks() throws {
        let keychain = try TemporaryKeychain()
        #expect(Self.failure { try keychain.device.removePasscode(current: "1234") }?.code == .notAvailable)
        #expect(Self.failure { try keychain.device.setPasscode("12") }?.code == .invalidParameter)
        #expect(Self.failure { try keychain.sensor.enroll("thumb") }?.code == .notAvailable)
        try keychain.sensor.install(.touchID)
        #expect(Self.failure { try keychain.sensor.remove("thumb") }?.code == .notFound)
    }
}
