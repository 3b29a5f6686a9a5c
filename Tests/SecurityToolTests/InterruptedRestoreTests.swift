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
import KeychainServices
import KeychainTestSupport
import KeychainTesting
import Testing

/// Issue 37: a restore killed with SIGKILL midway, then run again, leaves what one clean restore
/// leaves.
@Suite struct InterruptedRestoreTests {
    static let count = 6_000
    static let password = "interrupted restore password"

    @Test func aKilledRestoreFinishedAgainEqualsACleanOne() async throws {
        let source = try TemporaryKeychain()
        source.run {
            for index in 0..<Self.count {
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "svc-\(index % 7)",
                    kSecAttrAccount as String: "account-\(index)",
                    kSecValueData as String: Data("secret-\(index)".utf8),
                ]
                #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("restore-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("keychain.backup")
        #expect(try await source.device.backup(to: file, password: Self.password).written == Self.count)

        // Each `security` process holds the engine itself: killing it kills the writer.
        let interrupted = SecurityToolRunner(perProcess: true)
        let clean = SecurityToolRunner(perProcess: true)
        defer {
            interrupted.remove()
            clean.remove()
        }
        let log = folder.appendingPathComponent("restore.log")
        let killed = try Self.restoreKilledMidway(file.path, home: interrupted.home, log: log)
        #expect(
            killed,
            "the restore ended before it could be killed: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")"
        )

        let finished = try interrupted.run(["restore", file.path], input: "\(Self.password)\n")
        #expect(finished.status == 0, "\(finished.stderr)")
        // Some batches were written before the kill, and are found as new as the file's.
        let kept = Self.number(before: " kept", in: finished.stdout)
        let added = Self.number(before: " added", in: finished.stdout)
        #expect(kept > 0 && added > 0 && kept + added == Self.count, "\(finished.stdout)")

        #expect(try clean.run(["restore", file.path], input: "\(Self.password)\n").status == 0)
        let dumped = try interrupted.run(["dump-keychain", "-d"]).stdout
        let expected = try clean.run(["dump-keychain", "-d"]).stdout
        #expect(Self.items(dumped).count == Self.count)
        #expect(Self.items(dumped) == Self.items(expected))
    }

    /// Starts `security restore`, and sends it SIGKILL once it reports a third of the items
    /// written; whether it was still running then.
    private static func restoreKilledMidway(_ file: String, home: URL, log: URL) throws -> Bool {
        let process = Process()
        process.executableURL = SecurityToolRunner.executable
        process.arguments = ["restore", file]
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_HOME"] = home.path
        environment["KEYCHAIN_ENGINE"] = "embedded"
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { return false }
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        input.fileHandleForWriting.write(Data("\(password)\n".utf8))
        try input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            let percents = text.split(separator: "\n").compactMap { line -> Int? in
                guard let mark = line.range(of: "restore: "), let sign = line.firstIndex(of: "%") else { return nil }
                return Int(line[mark.upperBound..<sign])
            }
            if percents.contains(where: { $0 >= 30 }) {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return process.terminationReason == .uncaughtSignal
            }
            usleep(2_000)
        }
        ProgramRun.end(process)
        return false
    }

    /// The number printed right before `label` ("12 added").
    private static func number(before label: String, in text: String) -> Int {
        guard let range = text.range(of: label) else { return -1 }
        let digits = text[..<range.lowerBound].reversed().prefix { $0.isNumber }
        return Int(String(digits.reversed())) ?? -1
    }

    /// The dump's items, each its lines without the keychain's path.
    private static func items(_ dump: String) -> [String] {
        dump.components(separatedBy: "keychain: ").dropFirst().map { item in
            item.split(separator: "\n").dropFirst().joined(separator: "\n")
        }
    }
}
