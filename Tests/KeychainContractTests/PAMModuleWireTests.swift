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
import Testing

/// The PAM module writes and reads the login's messages in C (`Sources/PAMModule`): its wire
/// version and the outcomes it names are the engine's.
struct PAMModuleWireTests {
    static let module = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/PAMModule")

    @Test func theModuleSpeaksThisBuildsWireVersion() throws {
        let header = try String(contentsOf: Self.module.appendingPathComponent("pam_swift_keychain.h"), encoding: .utf8)
        #expect(header.contains("#define SWKC_WIRE_VERSION \(EngineWire.version)\n"))
    }

    @Test func theModuleLogsEveryOutcomeAsTheEngineNamesIt() throws {
        let source = try String(contentsOf: Self.module.appendingPathComponent("login_message.c"), encoding: .utf8)
        // The outcomes a login can have (the session's events are the daemon's own).
        let handedOver: [LoginOutcome] = [
            .unlocked, .alreadyUnlocked, .noPasscode, .passcodeDiffers, .passcodeSet, .passcodeChanged, .passcodeKept,
        ]
        for outcome in handedOver {
            #expect(source.contains("case \(outcome.rawValue): return \"\(outcome.summary)\";"), "\(outcome)")
        }
    }
}
