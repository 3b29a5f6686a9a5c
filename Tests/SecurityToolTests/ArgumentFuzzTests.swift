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
import KeychainTesting
import Testing

@testable import SecurityTool

/// The `security` argument parser against random command lines built from its own vocabulary:
/// it returns a command or an error whose exit status is documented (0 help, 1 failure or an
/// unknown command, 2 usage), and never crashes or hangs.
///
/// `KEYCHAIN_FUZZ_EXECUTIONS` sets the number of command lines (300 by default: a parse that fails costs milliseconds; the
/// RELIABILITY.md run uses 1,000,000) and `KEYCHAIN_FUZZ_SEED` the seed.
@Suite struct ArgumentFuzzTests {
    static let commands = [
        "add-generic-password", "find-generic-password", "delete-generic-password", "add-internet-password",
        "find-internet-password", "delete-internet-password", "dump-keychain", "passcode", "set", "change", "remove",
        "lock", "unlock", "status", "biometry", "install", "enroll", "unenroll", "match", "demo", "help",
        "list-keychains", "unlock-keychain", "lock-keychain", "show-keychain-info", "find-g", "add", "d", "",
        "find-certificate", "find-identity", "add-certificates", "delete-certificate", "delete-identity", "import",
        "export",
        "enclave", "create", "sign", "verify", "encrypt", "decrypt", "public-key", "find-c", "e", "find-key", "find-k",
    ]
    static let options = [
        "--access-control", "--accessible", "--json", "--keychain", "--prompt-for-password", "-A", "-C", "-D", "-G",
        "-P",
        "-T", "-U", "-X", "-a", "-c", "-d", "-g", "-j", "-l", "-p", "-r", "-s", "-t", "-w", "-h", "--help", "--", "-",
        "--version", "-w-", "--s", "-sa", "-aw", "-Uw", "-gw", "-wsecret", "-P", "-p", "-u", "-sLegacy",
        "-Z", "-m", "-e", "-k", "-f", "-o", "-v", "--tag", "--format", "--input", "--output", "-az", "-Zp", "-tprivate",
        "-tsymmetric", "-sv",
    ]
    static let values = [
        "", "x", "account", "service", "http", "htps", "443", "-1", "99999999999999999999", "0x41", "abcd", "zz",
        "whenUnlocked", "afterFirstUnlock", "whenPasscodeSetThisDeviceOnly", "userPresence",
        "biometryAny,or,devicePasscode",
        "applicationPassword", "ff00", "g", "\u{0}", "é😀", String(repeating: "a", count: 5_000), "-", "--",
    ]

    @Test func randomCommandLinesParseOrFailWithADocumentedStatus() {
        let environment = ProcessInfo.processInfo.environment
        let executions = environment["KEYCHAIN_FUZZ_EXECUTIONS"].flatMap(Int.init) ?? 300
        var generator = SplitMix64(seed: environment["KEYCHAIN_FUZZ_SEED"].flatMap(UInt64.init) ?? 20_261_121)
        var statuses: [Int32: Int] = [:]
        var parsed = 0
        for _ in 0..<executions {
            let arguments = Self.commandLine(&generator)
            do {
                _ = try CommandLineSession.parse(arguments)
                parsed += 1
            } catch {
                let status = CommandLineSession.exitStatus(for: error)
                statuses[status, default: 0] += 1
                #expect([0, 1, 2, 64].contains(status), "\(arguments.prefix(8)) → exit \(status)")
            }
        }
        #expect(
            parsed > 0 && statuses.values.reduce(0, +) > 0,
            "argument fuzz: \(executions) command lines, \(parsed) parsed, failures by exit status \(statuses)"
        )
    }

    static func commandLine(_ generator: inout SplitMix64) -> [String] {
        func pick(_ options: [String]) -> String { options[Int(generator.next() % UInt64(options.count))] }
        var arguments: [String] = []
        if generator.next() % 10 != 0 { arguments.append(pick(commands)) }
        for _ in 0..<Int(generator.next() % 8) {
            switch generator.next() % 5 {
            case 0, 1: arguments += [pick(options), pick(values)]
            case 2: arguments.append(pick(options))
            case 3: arguments.append(pick(commands))
            default: arguments.append(pick(values))
            }
        }
        return arguments
    }
}
