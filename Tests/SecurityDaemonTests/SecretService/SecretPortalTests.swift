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

/// The Secret portal: a Flatpak app asks xdg-desktop-portal (the real one, on the test's bus)
/// for its secret, and the portal asks securityd, its backend; nobody else may ask the backend.
@Suite(.serialized, .enabled(if: SecretServiceClients.areInstalled && DaemonTests.canSandbox))
struct SecretPortalTests {
    static let desktopPortal = "/usr/libexec/xdg-desktop-portal"

    /// Asks the Secret portal for the app's secret (`RetrieveSecret`, then the request's
    /// `Response`), and prints the response code and the secret in hexadecimal.
    static let client = """
        import dbus, os
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib
        DBusGMainLoop(set_as_default=True)
        bus = dbus.SessionBus()
        portal = bus.get_object('org.freedesktop.portal.Desktop', '/org/freedesktop/portal/desktop')
        r, w = os.pipe()
        token = 'kc%d' % os.getpid()
        path = '/org/freedesktop/portal/desktop/request/%s/%s' % (bus.get_unique_name()[1:].replace('.', '_'), token)
        loop = GLib.MainLoop()
        result = {}
        def on_response(response, results):
            result['response'] = int(response)
            loop.quit()
        bus.add_signal_receiver(on_response, 'Response', 'org.freedesktop.portal.Request', path=path)
        portal.RetrieveSecret(dbus.types.UnixFd(w), {'handle_token': token}, dbus_interface='org.freedesktop.portal.Secret')
        os.close(w)
        GLib.timeout_add_seconds(60, loop.quit)
        loop.run()
        print(result.get('response'), os.read(r, 1000).hex())
        """

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: desktopPortal)))
    func eachFlatpakAppGetsASecretOfItsOwnThroughTheRealPortal() throws {
        let fixture = try SecretServiceTests.Fixture()
        let portals = fixture.bus.directory.appendingPathComponent("portals")
        try FileManager.default.createDirectory(at: portals, withIntermediateDirectories: true)
        let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Support/xdg-desktop-portal/swift-keychain.portal")
        try FileManager.default.copyItem(at: shipped, to: portals.appendingPathComponent("swift-keychain.portal"))
        let portal = Process()
        portal.executableURL = URL(fileURLWithPath: Self.desktopPortal)
        portal.environment = fixture.bus.environment.merging([
            "XDG_DESKTOP_PORTAL_DIR": portals.path, "XDG_CURRENT_DESKTOP": "gnome",
        ]) { $1 }
        portal.standardOutput = FileHandle.nullDevice
        portal.standardError = FileHandle.nullDevice
        try portal.run()
        defer {
            kill(portal.processIdentifier, SIGKILL)
            portal.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(60)
        while try fixture.python(
            "import dbus; print(dbus.SessionBus().name_has_owner('org.freedesktop.portal.Desktop'))"
        ).stdout != "True\n" {
            guard portal.isRunning, Date() < deadline else { throw PortalError.didNotStart }
            Thread.sleep(forTimeInterval: 0.1)
        }

        let notes = try SecretServiceSandboxTests.python(Self.client, as: "org.example.Notes", fixture)
        let parts = notes.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(parts.first == "0", "\(notes.stdout) \(notes.stderr)")
        let secret = try #require(parts.last)
        #expect(secret.count == 128)  // 64 bytes
        // The same app gets the same secret; another app another; a program outside any sandbox none.
        let again = try SecretServiceSandboxTests.python(Self.client, as: "org.example.Notes", fixture)
        #expect(again.stdout == notes.stdout)
        let other = try SecretServiceSandboxTests.python(Self.client, as: "org.example.Other", fixture)
        #expect(other.stdout.hasPrefix("0 ") && other.stdout != notes.stdout)
        let host = try fixture.python(Self.client)
        #expect(host.stdout == "2 \n", "\(host.stderr)")
        // The secret is an item of the app's own: on disk only encrypted, and never over the
        // Secret Service, to the app or anyone.
        let bytes = Data(
            stride(from: 0, to: secret.count, by: 2).compactMap {
                UInt8(secret.dropFirst($0).prefix(2), radix: 16)
            }
        )
        #expect(!fixture.homeFiles().contains { $0.range(of: bytes) != nil })
        let listed = try SecretServiceSandboxTests.python(
            SecretServiceSandboxTests.listLabels,
            as: "org.example.Notes",
            fixture
        )
        #expect(listed.stdout == "[]\n", "\(listed.stderr)")
    }

    @Test func aProgramThatIsNotTheDesktopPortalIsRefused() throws {
        let fixture = try SecretServiceTests.Fixture()
        let run = try fixture.python(
            """
            import dbus, os
            bus = dbus.SessionBus()
            backend = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/portal/desktop')
            r, w = os.pipe()
            try:
                backend.RetrieveSecret('/org/freedesktop/portal/desktop/request/1_1/t', 'org.example.Notes',
                    dbus.types.UnixFd(w), {}, dbus_interface='org.freedesktop.impl.portal.Secret')
                print('answered')
            except dbus.exceptions.DBusException as e:
                print(e.get_dbus_name())
            os.close(w)
            print(len(os.read(r, 100)))
            """
        )
        #expect(run.stdout == "org.freedesktop.DBus.Error.AccessDenied\n0\n", "\(run.stderr)")
    }

    enum PortalError: Error {
        case didNotStart
    }
}
