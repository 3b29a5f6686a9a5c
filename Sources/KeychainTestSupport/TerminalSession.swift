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

/// Runs a program on a terminal of its own (a pseudo-terminal, through Python's `pty`), types
/// answers when given prompts appear, and returns everything the terminal showed.
package enum TerminalSession {
    package struct Transcript {
        package var output: String
        package var status: Int32
    }

    /// Runs `command` with `environment`; each time the terminal shows a key of `answering`
    /// (once each), that answer and a carriage return are typed.
    ///
    /// Gives up after 30 seconds.
    package static func run(
        _ command: [String],
        environment: [String: String],
        answering: [String: String]
    ) throws -> Transcript {
        let driver = """
            import json, os, pty, select, sys, time
            command, answers = json.loads(sys.argv[1]), json.loads(sys.argv[2])
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(command[0], command)
            shown, answered, deadline = b'', set(), time.time() + 30
            while time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    try:
                        chunk = os.read(fd, 4096)
                    except OSError:
                        break
                    if not chunk:
                        break
                    shown += chunk
                for prompt, answer in answers.items():
                    if prompt not in answered and prompt.encode() in shown:
                        answered.add(prompt)
                        os.write(fd, answer.encode() + b'\\r')
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(shown)
            sys.exit(os.waitstatus_to_exitcode(status) & 0xFF)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let encode = { (value: Any) throws -> String in
            String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
        }
        process.arguments = ["-c", driver, try encode(command), try encode(answering)]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let shown = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Transcript(output: String(decoding: shown, as: UTF8.self), status: process.terminationStatus)
    }
}
