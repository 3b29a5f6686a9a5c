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

// The compact form of the login's events and outcomes, which the PAM module writes and reads in C
// (`Sources/PAMModule/login_message.c`): a byte naming the event, the user's uid, then the event's
// fields; an outcome is one byte.
//
//     0 sessionOpened    uid  password (string)  setsFirstPasscode (bool)
//     1 passwordChanged  uid  old (string)  new (string)
//     2 sessionLocked    uid  reopensWithinSeconds (unsigned)
//     3 sessionUnlocked  uid

extension CompactWriter {
    mutating func loginEvent(_ event: LoginEvent, userID: UInt32) {
        switch event {
        case .sessionOpened(let password, let setsFirstPasscode):
            byte(0)
            unsigned(UInt64(userID))
            string(password)
            bool(setsFirstPasscode)
        case .passwordChanged(let old, let new):
            byte(1)
            unsigned(UInt64(userID))
            string(old)
            string(new)
        case .sessionLocked(let seconds):
            byte(2)
            unsigned(UInt64(userID))
            unsigned(UInt64(max(0, seconds)))
        case .sessionUnlocked:
            byte(3)
            unsigned(UInt64(userID))
        }
    }
}

extension CompactReader {
    mutating func login() throws(WireValue.Malformed) -> EngineRequest {
        let kind = try byte()
        guard let userID = UInt32(exactly: try unsigned()) else { throw WireValue.Malformed() }
        let event: LoginEvent
        switch kind {
        case 0: event = .sessionOpened(password: try string(), setsFirstPasscode: try bool())
        case 1: event = .passwordChanged(old: try string(), new: try string())
        case 2:
            guard let seconds = Int(exactly: try unsigned()) else { throw WireValue.Malformed() }
            event = .sessionLocked(reopensWithinSeconds: seconds)
        case 3: event = .sessionUnlocked
        default: throw WireValue.Malformed()
        }
        return .login(event, userID: userID)
    }

    mutating func loginOutcome() throws(WireValue.Malformed) -> LoginOutcome {
        guard let outcome = LoginOutcome(rawValue: try byte()) else { throw WireValue.Malformed() }
        return outcome
    }
}
