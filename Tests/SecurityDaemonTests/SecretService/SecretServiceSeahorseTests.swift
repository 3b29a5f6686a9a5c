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

/// Seahorse, the desktop's keychain window, on the provider.
///
/// Run under Xvfb on the private session bus, it lists the `login` collection and reads the
/// properties of the item stored there, as a bus monitor sees. With `KEYCHAIN_SEAHORSE_SCREENSHOT=FILE.png` the test also saves what the
/// window shows (the README's picture).
@Suite(.serialized, .enabled(if: SecretServiceClients.areInstalled && SeahorseTests.areInstalled))
struct SecretServiceSeahorseTests {
    @Test func seahorseListsTheItemsOfTheKeychain() throws {
        let fixture = try SecretServiceTests.Fixture()
        let stored = try fixture.secretTool(
            ["store", "--label=Mail account (imap.example.org)", "service", "imap", "user", "pat"],
            input: "s3cret"
        )
        #expect(stored.status == 0)
        let itemPath = try fixture.python(
            """
            import secretstorage
            connection = secretstorage.dbus_init()
            print(next(secretstorage.get_default_collection(connection).search_items({'user': 'pat'})).item_path)
            """
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(itemPath.hasPrefix("/org/freedesktop/secrets/collection/login/"))

        let display = ":\(Int.random(in: 150..<250))"
        let folder = fixture.bus.directory
        let monitorLog = folder.appendingPathComponent("monitor.log")
        let xvfb = try fixture.bus.start(["/usr/bin/Xvfb", display, "-screen", "0", "1024x700x24", "-nolisten", "tcp"])
        defer { ProgramRun.end(xvfb) }
        let monitor = try fixture.bus.start(
            [
                "/usr/bin/dbus-monitor", "--address", fixture.bus.address,
                "type='method_call',destination='org.freedesktop.secrets'",
            ],
            output: monitorLog
        )
        defer { ProgramRun.end(monitor) }
        try SeahorseTests.waitFor(display: display)
        let seahorse = try fixture.bus.start(
            ["/usr/bin/seahorse"],
            environment: [
                // Cairo, not GL: llvmpipe's threads would take the machine from the rest of the suite.
                "DISPLAY": display, "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
                "GSK_RENDERER": "cairo",
                "HOME": folder.path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
            ],
            output: folder.appendingPathComponent("seahorse.log")
        )
        defer { ProgramRun.end(seahorse) }

        // Seahorse reads the item's properties (its label, for the list) once it has listed the collection.
        let deadline = Date().addingTimeInterval(60)
        var seen = ""
        while Date() < deadline {
            seen = (try? String(contentsOf: monitorLog, encoding: .utf8)) ?? ""
            if seen.contains("path=\(itemPath);") { break }
            Thread.sleep(forTimeInterval: 0.25)
        }
        let log = (try? String(contentsOf: folder.appendingPathComponent("seahorse.log"), encoding: .utf8)) ?? ""
        #expect(seahorse.isRunning, "seahorse ended: \(log)")
        #expect(seen.contains("path=/org/freedesktop/secrets; interface=org.freedesktop.DBus.Properties"), "\(seen)")
        #expect(seen.contains("path=\(itemPath);"), "seahorse never asked about the item: \(seen)\n\(log)")
        if let picture = ProcessInfo.processInfo.environment["KEYCHAIN_SEAHORSE_SCREENSHOT"] {
            Thread.sleep(forTimeInterval: 2)
            try SeahorseTests.screenshot(display: display, to: picture, on: fixture.bus)
        }
    }
}

/// What running Seahorse under Xvfb takes.
enum SeahorseTests {
    static var areInstalled: Bool {
        ["/usr/bin/seahorse", "/usr/bin/Xvfb", "/usr/bin/dbus-monitor", "/usr/bin/xdpyinfo"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Waits until the X server of `display` answers.
    static func waitFor(display: String) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let probe = try ProgramRun.run(
                URL(fileURLWithPath: "/usr/bin/xdpyinfo"),
                ["-display", display],
                environment: ProcessInfo.processInfo.environment,
                input: nil
            )
            if probe.status == 0 { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("Xvfb did not start on \(display)")
    }

    /// Saves the windows on the screen of `display` as a PNG, the empty screen around them cut
    /// away (xwd, then ImageMagick's convert: Debian's imagemagick).
    static func screenshot(display: String, to path: String, on bus: PrivateSessionBus) throws {
        let dump = bus.directory.appendingPathComponent("screen.xwd").path
        let photographed = try bus.run(["/usr/bin/xwd", "-root", "-silent", "-display", display, "-out", dump])
        #expect(photographed.status == 0, "\(photographed.stderr)")
        let converted = try bus.run(["/usr/bin/convert", "xwd:" + dump, "-trim", "+repage", path])
        #expect(converted.status == 0, "\(converted.stderr)")
    }
}
