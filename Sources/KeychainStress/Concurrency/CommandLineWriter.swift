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
import KeychainTesting

/// A script using the `security` tool: one process per operation on its own items, each status
/// predicted from what the previous ones returned (macOS's exit statuses: 0, 44 not found, 45 duplicate).
struct CommandLineWriter {
    let name: String
    let tool: URL
    let home: String
    let passcode: String
    /// More environment for the tool (the daemon to use).
    let environment: [String: String]
    var generator: SplitMix64
    private(set) var model: [Int: UInt64] = [:]
    private(set) var failures: [String] = []
    private(set) var operations = 0

    init(name: String, tool: URL, home: String, passcode: String, environment: [String: String] = [:], seed: UInt64) {
        self.name = name
        self.tool = tool
        self.home = home
        self.passcode = passcode
        self.environment = environment
        generator = SplitMix64(seed: seed)
    }

    var service: String { "\(Writer.service)-\(name)" }

    mutating func run(operations count: Int, keys: Int = 6) {
        for step in 0..<count {
            operations += 1
            let key = Int(generator.next() % UInt64(keys))
            let version = UInt64(step + 1)
            let item = ["-s", service, "-a", "item-\(key)"]
            // Through a daemon, the lock thread locks every process, between a tool's own unlock and
            // its retry too: the tool's items are then after-first-unlock ones, as the library writers' are.
            let protection = environment.isEmpty ? [] : ["--accessible", "AfterFirstUnlock"]
            let secret =
                ["-l", StressItems.label(version: version), "-X", Self.hex(StressItems.secret(key, version: version))]
                + protection
            switch generator.next() % 4 {
            case 0:
                expect(run(["add-generic-password"] + item + secret), model[key] == nil ? 0 : 45, "add \(key)")
                if model[key] == nil { model[key] = version }
            case 1:
                expect(run(["find-generic-password"] + item), model[key] == nil ? 44 : 0, "find \(key)")
            case 2:
                expect(run(["add-generic-password", "-U"] + item + secret), 0, "add -U \(key)")
                model[key] = version
            default:
                expect(run(["delete-generic-password"] + item), model[key] == nil ? 44 : 0, "delete \(key)")
                model[key] = nil
            }
        }
    }

    var outcome: Writer.Outcome {
        Writer.Outcome(
            name: name,
            model: Dictionary(uniqueKeysWithValues: model.map { (String($0.key), $0.value) }),
            sharedAttribute: nil,
            lastSharedStep: nil,
            failures: failures,
            operations: operations
        )
    }

    private mutating func expect(_ status: Int32, _ wanted: Int32, _ operation: String) {
        if status != wanted { failures.append("\(name): security \(operation) exited \(status), expected \(wanted)") }
    }

    /// Runs `security arguments…` with the passcode on standard input (for its unlock prompt).
    private func run(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment
            .merging(
                ["KEYCHAIN_HOME": home, "KEYCHAIN_PROMPT": "stdin", "KEYCHAIN_PASSCODE_COST": "testing"].merging(
                    environment
                ) { $1 }
            ) { _, new in new }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        try? input.fileHandleForWriting.write(contentsOf: Data((passcode + "\n").utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func hex(_ data: Data) -> String {
        HexText.encode(data)
    }
}
