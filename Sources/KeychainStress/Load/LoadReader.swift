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

/// A user of a system-mode daemon going about their business while another floods it: adds an
/// item, reads it back, changes it, deletes every tenth; prints the latencies and failures as
/// JSON (started by `load`, as that user).
struct LoadReader: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-reader",
        abstract: "Read and write through a system-mode securityd, timing each call (started by `load`).",
        shouldDisplay: false
    )

    @Option var socket: String
    @Option var seconds: Double

    /// What one reader saw.
    struct Report: Codable {
        var operations = 0
        /// Calls that did not return the status expected, by status.
        var failures: [String: Int] = [:]
        /// Every call's latency, in microseconds.
        var latencies: [Double] = []
    }

    func run() throws {
        var configuration = DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        configuration.engine = .daemon
        configuration.daemonSocket = socket
        configuration.startsDaemon = false
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("kc-load-reader-\(getuid())")
        let device = try Device(home: KeychainHome(url: home), configuration: configuration)
        Device.setProcessDefault(device)
        var report = Report()
        let deadline = Date().addingTimeInterval(seconds)
        var index = 0
        func timed(_ expected: OSStatus, _ call: () -> OSStatus) {
            let start = ContinuousClock.now
            let status = call()
            let elapsed = ContinuousClock.now - start
            report.operations += 1
            report.latencies.append(
                Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
            )
            if status != expected { report.failures["\(status)", default: 0] += 1 }
        }
        while Date() < deadline {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "load",
                kSecAttrAccount as String: "account-\(index % 200)",
            ]
            _ = SecItemDelete(item as CFDictionary)
            timed(errSecSuccess) {
                SecItemAdd(
                    item.merging([kSecValueData as String: Data("secret \(index)".utf8)]) { $1 } as CFDictionary,
                    nil
                )
            }
            timed(errSecSuccess) {
                var result: CFTypeRef?
                let status = SecItemCopyMatching(
                    item.merging([kSecReturnData as String: true]) { $1 } as CFDictionary,
                    &result
                )
                return status == errSecSuccess && (result as? Data) != Data("secret \(index)".utf8)
                    ? errSecDecode : status
            }
            timed(errSecSuccess) {
                SecItemUpdate(item as CFDictionary, [kSecAttrLabel as String: "changed \(index)"] as CFDictionary)
            }
            if index % 10 == 0 { timed(errSecSuccess) { SecItemDelete(item as CFDictionary) } }
            index += 1
        }
        FileHandle.standardOutput.write(try JSONEncoder().encode(report))
    }
}
