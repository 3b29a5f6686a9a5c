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

import ArgumentParser

/// `keychain-stress`: the reliability harnesses of RELIABILITY.md (crash, concurrency, fuzzing, load).
@main
struct KeychainStress: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain-stress",
        abstract: "Try hard to break a keychain: kill it mid-write, race it, feed it hostile input.",
        subcommands: [
            CrashRun.self, CrashWorker.self, ConcurrencyRun.self, ConcurrencyWorker.self, FuzzRun.self, LoadRun.self,
            LoadReader.self, LoadFlood.self,
        ]
    )
}
