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

package import Foundation
import KeychainTPM

/// A throw-away TPM 2.0 for one test: swtpm on a Unix socket in a temporary directory, its state
/// kept there, so that it can be killed and started again (a machine's reboot, or its TPM
/// failing mid-operation) with its NV memory intact.
///
/// Each instance is another TPM, with seeds of its own: a keychain made with one is "another
/// machine" to the next.
package final class SoftwareTPM: @unchecked Sendable {
    /// Where its state and socket live.
    package let directory: URL
    private let lock = NSLock()
    private var process: Process?

    /// The swtpm program (Debian's `swtpm`, which `.ci/run` installs).
    package static let program = "/usr/bin/swtpm"

    /// The TCTI configuration that reaches it.
    package var tcti: String { "swtpm:path=\(socket)" }

    private var socket: String { directory.appendingPathComponent("sock").path }

    /// Starts a new TPM.
    /// - Throws: When swtpm is not installed or does not start.
    package init() throws {
        directory = URL(fileURLWithPath: "/tmp/kc-tpm-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("state"),
            withIntermediateDirectories: true
        )
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts swtpm (again) on its state; returns once its socket answers.
    package func start() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.program) else {
            throw SoftwareTPMError("swtpm is not installed (apt-get install swtpm swtpm-tools libtss2-tcti-swtpm0)")
        }
        try? FileManager.default.removeItem(atPath: socket)
        try? FileManager.default.removeItem(atPath: socket + ".ctrl")
        let swtpm = Process()
        swtpm.executableURL = URL(fileURLWithPath: Self.program)
        swtpm.arguments = [
            "socket", "--tpm2", "--tpmstate", "dir=\(directory.appendingPathComponent("state").path)",
            "--server", "type=unixio,path=\(socket)", "--ctrl", "type=unixio,path=\(socket).ctrl",
            "--flags", "not-need-init,startup-clear",
        ]
        swtpm.standardOutput = FileHandle.nullDevice
        swtpm.standardError = FileHandle.nullDevice
        try swtpm.run()
        lock.withLock { process = swtpm }
        // Its sockets exist before swtpm listens on them: it is ready when it answers a command.
        let deadline = Date().addingTimeInterval(60)
        while (try? TPMConnection.using(tcti) { tpm throws(TPMError) in try tpm.identity() }) == nil {
            guard swtpm.isRunning, Date() < deadline else { throw SoftwareTPMError("swtpm did not start") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Kills swtpm at once (SIGKILL: what a test thread's blocked SIGTERM would not do).
    package func stop() {
        guard
            let running = lock.withLock({ () -> Process? in
                defer { process = nil }
                return process
            })
        else { return }
        if running.isRunning { kill(running.processIdentifier, SIGKILL) }
        running.waitUntilExit()
    }
}

/// Why a software TPM did not start.
package struct SoftwareTPMError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
