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
import KeychainCore
import KeychainDevice
import KeychainServices
import KeychainTestSupport
import Testing

/// The daemon asks for the passcode itself, through pinentry on the client's terminal or display:
/// the passcode goes from the person to the daemon, never through the requesting program; the
/// prompt names that program; nothing an application says can add a command to the conversation.
@Suite(.serialized)
struct DaemonPromptTests {
    /// A stand-in pinentry that records every command it receives and answers `GETPIN` with
    /// `answer` (or cancels when it is `nil`).
    final class FakePinentry {
        let folder: URL
        let log: URL
        let executable: URL

        init(answer: String?) throws {
            folder = URL(fileURLWithPath: "/tmp/kc-pinentry-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            log = folder.appendingPathComponent("commands")
            executable = folder.appendingPathComponent("pinentry")
            let reply =
                answer.map { "print('D \($0)'); print('OK')" } ?? "print('ERR 83886179 Operation cancelled <Pinentry>')"
            let script = """
                #!/usr/bin/python3
                import os, sys, functools
                print = functools.partial(print, flush=True)
                log = open('\(log.path)', 'a')
                log.write('ENV %s\\n' % sorted(k for k in os.environ if k not in ('PWD', 'SHLVL', '_', 'LC_CTYPE')))
                print('OK Pleased to meet you')
                for line in sys.stdin:
                    log.write(line)
                    log.flush()
                    command = line.split(' ', 1)[0].strip()
                    if command == 'GETPIN':
                        \(reply)
                    elif command == 'BYE':
                        print('OK closing connection')
                        break
                    else:
                        print('OK')

                """
            try script.write(to: executable, atomically: true, encoding: .utf8)
            chmod(executable.path, 0o755)
        }

        /// The command lines received, in order.
        var commands: [String] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        deinit {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// A daemon showing `pinentry`, a passcode, and an item that needs it for every read.
    static func protectedItem(pinentry: String) throws -> PrivateDaemon {
        let daemon = try PrivateDaemon(settings: ["pinentry": pinentry])
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        let add = [
            "add-generic-password", "-a", "me", "-s", "Guarded", "-w", "s3cret", "--access-control", "devicePasscode",
        ]
        #expect(try daemon.tool(add).status == 0)
        return daemon
    }

    @Test func theDaemonAsksThroughPinentryNamingTheProgram() throws {
        let pinentry = try FakePinentry(answer: "2468")
        let daemon = try Self.protectedItem(pinentry: pinentry.executable.path)
        defer { daemon.stop() }

        // A client with a display and no terminal, whose prompt is the terminal one: pinentry is
        // shown on the display, the read succeeds.
        let read = try daemon.tool(
            ["find-generic-password", "-s", "Guarded", "-w"],
            environment: ["DISPLAY": ":99", "LD_PRELOAD": "/nowhere.so", "KEYCHAIN_PROMPT": "terminal"]
        )
        #expect(read.stdout == "s3cret\n")
        let commands = pinentry.commands
        #expect(commands.contains("OPTION display=:99"))
        #expect(commands.contains { $0.hasPrefix("SETDESC “security” wants your passcode") })
        // The item's own purpose, not the words of the daemon's check for apps' items (an item
        // protected by the passcode alone has the same access control as that check).
        let description = try #require(commands.first { $0.hasPrefix("SETDESC ") })
        #expect(description.hasSuffix("security wants to use an item in your keychain"))
        #expect(!description.contains("sandboxed apps"))
        #expect(commands.filter { $0 == "GETPIN" }.count == 1)
        // Only the display variables of the client reach the program the daemon runs.
        let environment = try #require(commands.first { $0.hasPrefix("ENV ") })
        #expect(environment.contains("'DISPLAY'"))
        #expect(!environment.contains("LD_PRELOAD") && !environment.contains("KEYCHAIN"))
    }

    /// With nothing queued, the simulated sensor asks through the daemon's prompter on the
    /// program's display, as it asks at the terminal in process; where nobody can be asked, the
    /// failure says how to answer it.
    @Test func theSimulatedSensorAsksThroughPinentryWhenNothingIsQueued() throws {
        let pinentry = try FakePinentry(answer: "y")
        let daemon = try PrivateDaemon(settings: ["pinentry": pinentry.executable.path])
        defer { daemon.stop() }
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(try daemon.tool(["biometry", "sensor", "touchid"]).status == 0)
        #expect(try daemon.tool(["biometry", "enroll", "thumb"], input: "2468\n").status == 0)
        let add = ["add-generic-password", "-a", "me", "-s", "Touch", "-w", "t0uch", "--access-control", "biometryAny"]
        #expect(try daemon.tool(add).status == 0)

        let read = try daemon.tool(
            ["find-generic-password", "-s", "Touch", "-w"],
            environment: ["DISPLAY": ":99", "KEYCHAIN_PROMPT": "terminal"]
        )
        #expect(read.status == 0 && read.stdout == "t0uch\n")
        let description = try #require(pinentry.commands.first { $0.hasPrefix("SETDESC ") })
        #expect(description.hasPrefix("SETDESC “security” asks the simulated biometric sensor."))
        #expect(description.contains("match? [y]es, [n]o, [c]ancel, [f]allback"))
        #expect(pinentry.commands.contains("SETPROMPT Answer:"))

        // Nobody to ask: the macOS message first, then what to do.
        let refused = try daemon.tool(
            ["find-generic-password", "-s", "Touch", "-w"],
            environment: ["KEYCHAIN_PROMPT": "terminal"]
        )
        #expect(refused.status == 36)
        #expect(refused.stderr.hasPrefix("security: SecKeychainSearchCopyNext: User interaction is not allowed.\n"))
        #expect(refused.stderr.contains("queue one with `security biometry next match`"))
    }

    @Test func aCancelledPinentryIsACancelAndNoPromptIsNotInteractive() throws {
        let pinentry = try FakePinentry(answer: nil)
        let daemon = try Self.protectedItem(pinentry: pinentry.executable.path)
        defer { daemon.stop() }

        var read = try daemon.tool(
            ["find-generic-password", "-s", "Guarded", "-w"],
            environment: ["DISPLAY": ":99", "KEYCHAIN_PROMPT": "terminal"]
        )
        // the tool exits with the status's low byte
        #expect(read.status == Int32(UInt8(truncatingIfNeeded: errSecUserCanceled)))
        #expect(read.stdout.isEmpty)
        #expect(pinentry.commands.contains("GETPIN"))

        // Neither a terminal nor a display: pinentry is not started, and the client's own
        // terminal prompt (a pipe here) cannot ask either.
        let before = pinentry.commands.count
        read = try daemon.tool(
            ["find-generic-password", "-s", "Guarded", "-w"],
            environment: ["KEYCHAIN_PROMPT": "terminal"]
        )
        #expect(read.status != 0 && read.stdout.isEmpty)
        // A client that allows no prompt is never asked, wherever it runs.
        read = try daemon.tool(
            ["find-generic-password", "-s", "Guarded", "-w"],
            environment: ["DISPLAY": ":99", "KEYCHAIN_PROMPT": "none"]
        )
        #expect(read.status != 0 && read.stdout.isEmpty)
        #expect(pinentry.commands.count == before)

        // The tool reading answers from standard input (its prompt in a script) answers the
        // relayed question itself: the weaker path, taken only for a prompt of the client's own.
        read = try daemon.tool(
            ["find-generic-password", "-s", "Guarded", "-w"],
            input: "2468\n",
            environment: ["DISPLAY": ":99"]
        )
        #expect(read.stdout == "s3cret\n")
        #expect(pinentry.commands.count == before)
    }

    @Test func aReasonCannotAddCommandsToThePinentryConversation() throws {
        let pinentry = try FakePinentry(answer: "0000")
        let daemon = try PrivateDaemon(settings: ["pinentry": pinentry.executable.path])
        defer { daemon.stop() }
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)

        // A client's own request, with a reason that tries to end the line and send more.
        let connection = try RawClient.connect(daemon.endpoint.socketPath)
        defer { close(connection) }
        guard case .context(let context) = try RawClient.exchange(.makeContext, on: connection) else {
            Issue.record("no context")
            return
        }
        let reason = "Pay 1 €\nGETPIN\r\nSETDESC pwned %0A\u{0}BYE"
        let target = PromptTarget(kind: .terminal, display: ["DISPLAY": ":99", "LD_PRELOAD": "/nowhere.so"])
        let reply = try RawClient.exchange(
            .evaluatePolicy(.deviceOwner, context: context, reason: reason, interactionAllowed: true, target: target),
            on: connection
        )
        guard case .authenticationFailure(let failure) = reply else {
            Issue.record("a wrong passcode from pinentry was accepted")
            return
        }
        #expect(failure.code == .authenticationFailed)
        let commands = pinentry.commands
        #expect(commands.filter { $0.hasPrefix("GETPIN") }.count == 1)
        #expect(!commands.contains { $0.hasPrefix("SETDESC pwned") || $0.hasPrefix("BYE") && $0 != "BYE" })
        let description = try #require(commands.first { $0.hasPrefix("SETDESC ") })
        #expect(description.contains("Pay 1 €%0AGETPIN%0D%0ASETDESC pwned %250A%00BYE"))
        #expect(!(commands.first { $0.hasPrefix("ENV ") } ?? "").contains("LD_PRELOAD"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pinentry-tty")))
    func theRealPinentryAsksOnTheClientsTerminal() throws {
        let daemon = try Self.protectedItem(pinentry: "/usr/bin/pinentry-tty")
        defer { daemon.stop() }
        // `security` on a terminal of its own; the person types the passcode into pinentry there.
        let transcript = try TerminalSession.run(
            [SecurityToolRunner.executable.path, "find-generic-password", "-s", "Guarded", "-w"],
            environment: daemon.clientEnvironment(),
            answering: ["Passcode:": "2468"]
        )
        #expect(transcript.output.contains("“security” wants your passcode to use the keychain."))
        #expect(transcript.output.contains("s3cret"))
        #expect(transcript.status == 0)
    }
}
