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
import Foundation
import KeychainDevice
import KeychainServices
import KeychainTesting

/// The process that `crash` kills: a stream of adds, updates, deletes and passcode changes on one
/// keychain, each journaled before and after.
struct CrashWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-worker",
        abstract: "Run operations until killed (started by `crash`).",
        shouldDisplay: false
    )

    @Option var home: String
    @Option var journal: String
    @Option var seed: UInt64
    @Option(help: "The index of the current passcode.") var passcodeIndex: Int
    @Option(help: "The first version number this worker gives a secret.") var firstVersion: UInt64
    @Option(help: "Distinct item keys.") var keys = 24
    @Flag(help: "Journal each operation as acknowledged before running it: a broken worker, for checking the harness.")
    var acknowledgeEarly = false
    @Option(help: "The socket of the securityd that serves the keychain (in this process when omitted).")
    var socket: String?

    func run() throws {
        let journal = try CrashJournal(appendingTo: URL(fileURLWithPath: journal))
        let device = try Device.stress(URL(fileURLWithPath: home), daemonSocket: socket)
        Device.setProcessDefault(device)
        var passcodeIndex = passcodeIndex
        try device.unlock(passcode: KeychainModel.passcode(passcodeIndex))
        let items = StressItems(service: "crash")
        guard case .items(var state) = items.list() else { throw StressError("the worker cannot list the items") }
        journal.ready()

        var generator = SplitMix64(seed: seed)
        var version = firstVersion
        while true {
            let key = Int(generator.next() % UInt64(keys))
            let operation: CrashJournal.Operation
            if generator.next() % 100 < 3 {
                operation = .changePasscode(to: passcodeIndex + 1)
            } else if let _ = state[key] {
                version += 1
                operation = generator.next() % 3 == 0 ? .delete(key: key) : .update(key: key, version: version)
            } else {
                version += 1
                operation = .add(key: key, version: version)
            }
            journal.begin(operation)
            if acknowledgeEarly { journal.acknowledge() }
            let status: OSStatus
            switch operation {
            case .add(let key, let version): status = items.add(key, version: version)
            case .update(let key, let version): status = items.update(key, version: version)
            case .delete(let key): status = items.delete(key)
            case .changePasscode(let index):
                do {
                    try device.changePasscode(
                        from: KeychainModel.passcode(passcodeIndex),
                        to: KeychainModel.passcode(index)
                    )
                    status = errSecSuccess
                } catch {
                    status = errSecAuthFailed
                }
            }
            guard status == errSecSuccess else {
                journal.fail(status)
                throw ExitCode(3)
            }
            if !acknowledgeEarly { journal.acknowledge() }
            let model = operation.apply(to: KeychainModel(items: state, passcodeIndex: passcodeIndex))
            state = model.items
            passcodeIndex = model.passcodeIndex
        }
    }
}
