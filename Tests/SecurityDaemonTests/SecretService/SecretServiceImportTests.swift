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
import KeychainTestSupport
import Testing

/// Moving from gnome-keyring: `security secret-service import` copies the items of the real
/// gnome-keyring serving the test's bus, then `securityd --secret-service --replace` takes the
/// name from it, and every item reads back through the new provider.
@Suite(
    .serialized,
    .enabled(
        if: SecretServiceClients.areInstalled
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-keyring-daemon")
    )
)
struct SecretServiceImportTests {
    static let gnomeKeyring = "/usr/bin/gnome-keyring-daemon"

    /// Starts `arguments` in the background on `bus` with `extra` variables, `input` on its standard input.
    static func start(
        _ arguments: [String],
        on bus: PrivateSessionBus,
        _ extra: [String: String],
        input: String = ""
    )
        throws -> Process
    {
        let process = Process()
        // With the signals this process blocks unblocked, as a login session starts programs:
        // gnome-keyring must end on the SIGTERM that replaces it.
        process.executableURL = URL(fileURLWithPath: SecretServiceTests.python)
        process.arguments =
            [
                "-c",
                "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            ] + arguments
        process.environment = bus.environment.merging(extra) { $1 }
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        return process
    }

    /// The program that owns `org.freedesktop.secrets`, by its `comm`, once one does.
    static func owner(on bus: PrivateSessionBus) throws -> String {
        let program = """
            import dbus, time
            bus = dbus.SessionBus()
            for _ in range(600):
                if bus.name_has_owner('org.freedesktop.secrets'):
                    pid = bus.call_blocking('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                        'GetConnectionUnixProcessID', 's', ['org.freedesktop.secrets'])
                    print(open('/proc/%d/comm' % pid).read().strip())
                    break
                time.sleep(0.1)
            """
        return try bus.run([SecretServiceTests.python, "-c", program]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines
        )
    }

    @Test func importThenReplaceKeepsEveryItemOfGnomeKeyring() throws {
        let bus = try PrivateSessionBus()
        let home = bus.directory.appendingPathComponent("home")
        let runtime = bus.directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        chmod(runtime.path, 0o700)
        let desktop = [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_RUNTIME_DIR": runtime.path,
        ]
        // gnome-keyring with a login keyring unlocked by the password on its standard input.
        let gnome = try Self.start(
            [Self.gnomeKeyring, "--unlock", "--foreground", "--components=secrets"],
            on: bus,
            desktop,
            input: "gk-password"
        )
        defer {
            kill(gnome.processIdentifier, SIGKILL)
            gnome.waitUntilExit()
        }
        #expect(try Self.owner(on: bus) == "gnome-keyring-d")
        let secretTool = { (arguments: [String], input: String?) throws -> ProgramOutput in
            try bus.run([SecretServiceTests.secretTool] + arguments, input: input, environment: desktop)
        }
        #expect(try secretTool(["store", "--label=Mail", "service", "imap", "user", "pat"], "mail-secret").status == 0)
        #expect(try secretTool(["store", "--label=Chat", "service", "chat"], "chat-secret").status == 0)
        let made = try bus.run(
            [
                SecretServiceTests.python, "-c",
                """
                import secretstorage
                connection = secretstorage.dbus_init()
                # (A new collection asks gnome-keyring for its password, which nobody can give here.)
                login = secretstorage.get_default_collection(connection)
                login.create_item('VPN', {'service': 'vpn', 'xdg:schema': 'org.example.Vpn'}, b'\\x00vpn\\xff', content_type='application/octet-stream')
                [mail] = login.search_items({'service': 'imap'})
                [vpn] = login.search_items({'service': 'vpn'})
                # (gnome-keyring keeps no content type: it answers text/plain.)
                print(mail.get_created(), vpn.get_secret_content_type())
                """,
            ],
            environment: desktop
        )
        let madeLine = made.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(madeLine.count == 2, "\(made.stderr)")
        let (created, contentType) = (madeLine.first ?? "", madeLine.last ?? "")

        // Import, twice: the second run adds nothing.
        let keychain = bus.directory.appendingPathComponent("keychain")
        let tool = [
            "KEYCHAIN_HOME": keychain.path, "KEYCHAIN_ENGINE": "embedded", "KEYCHAIN_PROMPT": "none",
        ].merging(desktop) { $1 }
        let first = try bus.run([SecurityToolRunner.executable.path, "secret-service", "import"], environment: tool)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("imported 3 items from 1 collection\n"), "\(first.stdout)")
        #expect(first.stdout.contains("skipped /org/freedesktop/secrets/collection/session"))
        let second = try bus.run([SecurityToolRunner.executable.path, "secret-service", "import"], environment: tool)
        #expect(second.stdout.hasPrefix("imported 0 items from 1 collection; 3 already in the keychain\n"))

        // securityd takes the name over, and serves every item.
        let settings = bus.directory.appendingPathComponent("securityd.conf")
        try PrivateDaemon.writeSettings([:], to: settings)
        let daemon = try Self.start(
            [
                PrivateDaemon.executable.path, "--keychain", keychain.path, "--socket",
                bus.directory.appendingPathComponent("socket").path, "--config", settings.path, "--secret-service",
                "--replace",
            ],
            on: bus,
            desktop
        )
        defer {
            kill(daemon.processIdentifier, SIGTERM)
            daemon.waitUntilExit()
        }
        gnome.waitUntilExit()  // asked to stop, as gnome-keyring-daemon --replace asks its predecessor
        #expect(try Self.owner(on: bus) == "securityd")
        #expect(try secretTool(["lookup", "service", "imap", "user", "pat"], nil).stdout == "mail-secret")
        #expect(try secretTool(["lookup", "service", "chat"], nil).stdout == "chat-secret")
        let read = try bus.run(
            [
                SecretServiceTests.python, "-c",
                """
                import secretstorage
                connection = secretstorage.dbus_init()
                login = secretstorage.get_default_collection(connection)
                [vpn] = login.search_items({'xdg:schema': 'org.example.Vpn'})
                print(vpn.get_label(), vpn.get_secret(), vpn.get_secret_content_type())
                [mail] = login.search_items({'service': 'imap'})
                print(mail.get_created(), mail.get_label())
                """,
            ],
            environment: desktop
        )
        #expect(read.stdout == "VPN b'\\x00vpn\\xff' \(contentType)\n\(created) Mail\n", "\(read.stderr)")
    }
}
