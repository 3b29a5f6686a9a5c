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

import CAttackSupport
import Foundation
import KeychainContract
import KeychainCore
import KeychainEngine
import KeychainTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Findings 4, 5 and 8: the `security` process's memory while it holds a passcode, guesses made in
/// parallel, Ctrl-C at a prompt, names printed raw, passcodes too short.
@Suite struct ProcessAttackTests {
    static let passcode = "Zq7-unique-passcode-481516"

    /// `security passcode set` waiting for the second line, as a process of the same user would
    /// find it: not dumpable (its memory cannot be read, unlike a dumpable process of that user),
    /// no core files; and, read as root, the passcode typed so far is only in locked memory
    /// excluded from dumps.
    @Test func aWaitingPasscodePromptKeepsThePasscodeToItself() throws {
        let home = Attacker.newHome("memory")
        defer { Attacker.remove(home) }
        let prompt = try WaitingPrompt(tool: Tool(home: home), firstLine: Self.passcode)
        defer { prompt.finish(secondLine: Self.passcode) }
        let limits = try ProcessMemory.procFile("/proc/\(prompt.pid)/limits")
        #expect(
            limits.split(separator: "\n").contains {
                $0.hasPrefix("Max core file size") && $0.split(separator: " ").contains("0")
            }
        )

        let copies = try ProcessMemory(pid: prompt.pid).regions(containing: Data(Self.passcode.utf8))
        // Exactly one: the locked buffer holding the first line (which also shows the scan works).
        let state =
            (try? String(contentsOfFile: "/proc/\(prompt.pid)/status", encoding: .utf8))?.split(separator: "\n").prefix(
                3
            ).joined(separator: "; ") ?? "gone"
        #expect(copies.count == 1, "copies of the passcode: \(copies); process: \(state)")
        for region in copies {
            #expect(region.flags.contains("dd"), "a copy in memory that a core dump would include: \(region)")
        }
    }

    /// The same, as a throw-away user: another process of that user cannot read the prompt's
    /// memory or environment, though it can read those of its own dumpable processes.
    @Test func anotherProcessOfTheSameUserCannotReadTheMemory() throws {
        guard let user = ThrowawayUser.make("memory") else { return }
        let home = Attacker.newHome("memory-user")
        defer { Attacker.remove(home) }
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700]
        )
        user.own(home)
        let prompt = try WaitingPrompt(tool: Tool(home: home, user: user), firstLine: Self.passcode)
        defer { prompt.finish(secondLine: Self.passcode) }
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        sleeper.arguments = user.setprivArguments + ["/bin/sleep", "600"]
        try sleeper.run()
        // SIGKILL: a process started from a test's thread inherits its blocked signals, SIGTERM among them.
        defer {
            kill(sleeper.processIdentifier, SIGKILL)
            sleeper.waitUntilExit()
        }
        // Readable once setpriv has become that user (a moment, longer on a busy machine).
        let deadline = Date().addingTimeInterval(30)
        var dumpable = try user.run("/bin/cat", ["/proc/\(sleeper.processIdentifier)/environ"])
        while dumpable.status != 0, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            dumpable = try user.run("/bin/cat", ["/proc/\(sleeper.processIdentifier)/environ"])
        }
        #expect(dumpable.status == 0, "the control read failed: \(dumpable.output)")
        for file in ["environ", "mem"] {
            let attempt = try user.run("/bin/cat", ["/proc/\(prompt.pid)/\(file)"])
            #expect(attempt.status != 0)
            #expect(attempt.output.contains("Permission denied"), "\(file): \(attempt.output)")
        }
    }

    /// Thirty guesses at once after four wrong passcodes: one is evaluated, the others wait for it
    /// and are then refused by the back-off.
    @Test func parallelGuessesAllCount() throws {
        let home = Attacker.newHome("backoff")
        defer { Attacker.remove(home) }
        let tool = Tool(home: home)
        #expect(try tool.run(["passcode", "set"], input: "1234\n1234\n").status == 0)
        for _ in 0..<4 {
            #expect(try tool.run(["unlock"], input: "0000\n").status != 0)
        }
        let guesses = (0..<30).map { index -> (Process, Pipe) in
            let process = tool.process(["unlock"])
            let input = Pipe()
            let errors = Pipe()
            process.standardInput = input
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try? process.run()
            input.fileHandleForWriting.write(Data("\(1000 + index)\n".utf8))
            try? input.fileHandleForWriting.close()
            return (process, errors)
        }
        var refused = 0
        var evaluated = 0
        for (process, errors) in guesses {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)
            if message.contains("try again") { refused += 1 }
            if message.contains("not correct") { evaluated += 1 }
        }
        #expect(evaluated <= 1 && refused >= 29, "evaluated \(evaluated), refused \(refused)")
        let status = try tool.run(["status"])
        #expect(status.stdout.contains("failed passcode attempts: \(4 + evaluated)"), "\(status.stdout)")
    }

    /// Ctrl-C at a passcode prompt leaves the terminal echoing again.
    @Test func anInterruptAtAPromptRestoresEcho() throws {
        let home = Attacker.newHome("echo")
        defer { Attacker.remove(home) }
        let terminal = try PseudoTerminal()
        let pid = try terminal.spawn(Tool(home: home).process(["passcode", "set"]))
        #expect(terminal.read(until: "new passcode:", timeout: 60))
        #expect(!terminal.echoes, "echo was not turned off at the prompt")
        // Ctrl-Z: echo comes back while stopped, and goes off again with `fg`.
        kill(pid, SIGTSTP)
        var status: Int32 = 0
        waitpid(pid, &status, WUNTRACED)
        #expect(status & 0xFF == 0x7F, "the tool did not stop")
        #expect(terminal.echoes, "a stopped prompt left the terminal without echo")
        kill(pid, SIGCONT)
        let deadline = Date().addingTimeInterval(30)
        while terminal.echoes, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!terminal.echoes, "echo did not go off again after the stop")
        kill(pid, SIGINT)
        waitpid(pid, &status, 0)
        #expect(status & 0x7F == SIGINT, "the tool did not end by the interrupt (status \(status))")
        #expect(terminal.echoes, "the terminal was left without echo")
    }

    /// Names chosen by someone else are printed with their control characters escaped.
    @Test func enrolmentNamesArePrintedEscaped() throws {
        let home = Attacker.newHome("names")
        defer { Attacker.remove(home) }
        let tool = Tool(home: home)
        #expect(try tool.run(["passcode", "set"], input: "1234\n1234\n").status == 0)
        #expect(try tool.run(["biometry", "sensor", "touchid"]).status == 0)
        let name = "thumb\u{1B}]0;owned\u{07}\u{1B}[2J\r\u{202E}"
        let enrolled = try tool.run(["biometry", "enroll", name], input: "1234\n")
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        for output in [enrolled.stdout, try tool.run(["biometry", "status"]).stdout, try tool.run(["status"]).stdout] {
            #expect(
                !output.unicodeScalars.contains {
                    $0.value == 0x1B || $0.value == 0x07 || $0 == "\r" || $0.value == 0x202E
                }
            )
            #expect(output.contains("thumb\\x1b]0;owned"), "\(output)")
        }
    }

    /// A passcode shorter than Apple's shortest (four digits) is refused.
    @Test func aPasscodeShorterThanFourCharactersIsRefused() throws {
        let home = Attacker.newHome("short")
        defer { Attacker.remove(home) }
        let output = try Tool(home: home).run(["passcode", "set"], input: "123\n123\n")
        #expect(output.status != 0)
        #expect(output.stderr.contains("at least 4 characters"), "\(output.stderr)")
        #expect(try Tool(home: home).run(["status"]).stdout.contains("passcode: not set"))
    }
}

/// `security passcode set` started with its first line typed, waiting for the second.
final class WaitingPrompt {
    let process: Process
    private let input = Pipe()
    private let errors = Pipe()

    var pid: Int32 { process.processIdentifier }

    init(tool: Tool, firstLine: String) throws {
        process = tool.process(["passcode", "set"])
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((firstLine + "\n").utf8))
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("retype") {
            let more = errors.fileHandleForReading.availableData
            guard !more.isEmpty else {
                throw KeychainError(.io, "the prompt ended early: \(String(decoding: seen, as: UTF8.self))")
            }
            seen.append(more)
        }
        Thread.sleep(forTimeInterval: 0.2)
    }

    func finish(secondLine: String) {
        input.fileHandleForWriting.write(Data((secondLine + "\n").utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// Another process's memory, as root reads it through `/proc`.
struct ProcessMemory {
    struct Region: CustomStringConvertible {
        var range: String
        var name: String
        var flags: String
        var description: String { "\(range) \(name) [\(flags)]" }
    }

    let pid: Int32

    /// A `/proc` file read to its end (their size shows as zero, so it is read in chunks).
    static func procFile(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The readable regions holding `needle`, once per occurrence.
    func regions(containing needle: Data) throws -> [Region] {
        let maps = try Self.procFile("/proc/\(pid)/maps").split(separator: "\n")
        let smaps = try Self.procFile("/proc/\(pid)/smaps").split(separator: "\n")
        var flags: [String: String] = [:]
        var current = ""
        for line in smaps {
            if let first = line.split(separator: " ").first, first.contains("-"), !line.hasPrefix("VmFlags") {
                current = String(first)
            } else if line.hasPrefix("VmFlags:") {
                flags[current] = String(line.dropFirst("VmFlags:".count)).trimmingCharacters(in: .whitespaces)
            }
        }
        let memory = open("/proc/\(pid)/mem", O_RDONLY)
        guard memory >= 0 else { throw POSIXError(.EACCES) }
        defer { close(memory) }
        var found: [Region] = []
        for line in maps {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("r") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0], bounds[1] - bounds[0] < 1 << 30,
                bounds[0] < UInt64(Int64.max)
            else { continue }
            var bytes = [UInt8](repeating: 0, count: Int(bounds[1] - bounds[0]))
            let count = bytes.withUnsafeMutableBytes { pread(memory, $0.baseAddress, $0.count, off_t(bounds[0])) }
            guard count > 0 else { continue }
            let data = Data(bytes[0..<count])
            var start = data.startIndex
            while let range = data.range(of: needle, in: start..<data.endIndex) {
                found.append(
                    Region(
                        range: String(fields[0]),
                        name: fields.count > 5 ? String(fields[5]) : "",
                        flags: flags[String(fields[0])] ?? ""
                    )
                )
                start = range.upperBound
            }
        }
        return found
    }
}

/// A pseudo-terminal whose follower side a child uses as its terminal.
final class PseudoTerminal {
    let leader: Int32
    let follower: FileHandle
    private let followerDescriptor: Int32

    init() throws {
        var name = [CChar](repeating: 0, count: 128)
        leader = c_attack_open_pty(&name, name.count)
        guard leader >= 0 else { throw POSIXError(.ENOTTY) }
        followerDescriptor = open(
            String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            O_RDWR | O_NOCTTY
        )
        guard followerDescriptor >= 0 else { throw POSIXError(.ENOTTY) }
        follower = FileHandle(fileDescriptor: followerDescriptor, closeOnDealloc: true)
    }

    deinit {
        close(leader)
    }

    /// Starts `process`'s command on this terminal, as a shell would (nothing blocked).
    func spawn(_ process: Process) throws -> pid_t {
        let path = process.executableURL?.path ?? ""
        let arguments = [path] + (process.arguments ?? [])
        let environment = (process.environment ?? [:]).map { "\($0.key)=\($0.value)" }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        let pid = c_attack_spawn_on_terminal(path, &argv, &envp, followerDescriptor)
        guard pid > 0 else { throw POSIXError(.ECHILD) }
        return pid
    }

    /// Whether the terminal echoes input now.
    var echoes: Bool {
        var settings = termios()
        tcgetattr(followerDescriptor, &settings)
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    /// Reads what the child wrote until `text` appears; whether it did in time.
    func read(until text: String, timeout: TimeInterval) -> Bool {
        var seen = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 256)
        while Date() < deadline {
            var poller = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = Glibc.read(leader, &buffer, buffer.count)
            guard count > 0 else { return false }
            seen += buffer[0..<count]
            if String(decoding: seen, as: UTF8.self).contains(text) { return true }
        }
        return false
    }
}
