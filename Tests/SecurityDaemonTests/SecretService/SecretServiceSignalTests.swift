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
import Synchronization
import Testing

/// The provider's signals, heard by dbus-python clients: `PropertiesChanged` with the signals of
/// the specification, and each group's changes told to that group's connections alone.
@Suite(.serialized, .enabled(if: SecretServiceClients.areInstalled && DaemonTests.canSandbox))
struct SecretServiceSignalTests {
    /// A python program that opens a session (so that the provider knows it), prints every signal
    /// from the provider's objects, one line each, runs `then`, and listens until a second after it
    /// hears a collection lock (the last of each test's signals), or `seconds` at most.
    static func listener(then actions: String, seconds: Double = 60) -> String {
        """
        import dbus, dbus.mainloop.glib, secretstorage
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.SessionBus()
        bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets').OpenSession(
            'plain', dbus.String('', variant_level=1), dbus_interface='org.freedesktop.Secret.Service')
        def show(value):
            if isinstance(value, dbus.Boolean): return 'true' if value else 'false'
            if isinstance(value, (dbus.String, dbus.ObjectPath)): return str(value)
            return type(value).__name__
        def note(*arguments, **keywords):
            if not keywords['path'].startswith('/org/freedesktop/secrets'): return
            if keywords['member'] == 'PropertiesChanged':
                changed = ' '.join(sorted(k + '=' + show(v) for k, v in arguments[1].items()))
                invalidated = ','.join(sorted(str(name) for name in arguments[2]))
                print('PropertiesChanged', keywords['path'], arguments[0], changed, 'invalidated=' + invalidated, flush=True)
                if arguments[1].get('Locked') == True: GLib.timeout_add(1000, loop.quit)
            else:
                print(keywords['member'], keywords['path'], *[show(a) for a in arguments], flush=True)
        loop = GLib.MainLoop()
        bus.add_signal_receiver(note, member_keyword='member', path_keyword='path')
        \(actions)
        GLib.timeout_add(int(\(seconds) * 1000), loop.quit)
        loop.run()
        """
    }

    @Test func changesAreSignalledWithTheirPropertiesToTheGroupWhoseObjectsChanged() throws {
        let fixture = try SecretServiceTests.Fixture()
        #expect(try fixture.daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        let ready = URL(fileURLWithPath: "/tmp/kc-signals-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: ready) }

        // A Flatpak app listens (and stores an item of its own) while the user's program works.
        let app = Mutex<Result<ProgramOutput, any Error>?>(nil)
        let appThread = Thread {
            let output = Result {
                try SecretServiceSandboxTests.python(
                    Self.listener(
                        then: """
                            own = secretstorage.get_default_collection(secretstorage.dbus_init()).create_item(
                                'App', {'who': 'app'}, b'a')
                            print('OWN', own.item_path, flush=True)
                            open('\(ready.path)', 'w').close()
                            """
                    ),
                    as: "org.example.Listener",
                    fixture
                )
            }
            app.withLock { $0 = output }
        }
        appThread.start()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: ready.path), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(FileManager.default.fileExists(atPath: ready.path), "the app's listener did not start")

        let user = try fixture.python(
            Self.listener(
                then: """
                    login = secretstorage.get_default_collection(secretstorage.dbus_init())
                    item = login.create_item('Signalled', {'who': 'user'}, b's')
                    print('ITEM', item.item_path, flush=True)
                    item.set_label('Renamed')
                    item.delete()
                    login.lock()
                    """
            )
        )
        let login = "/org/freedesktop/secrets/collection/login"
        let item = user.stdout.split(separator: "\n").first { $0.hasPrefix("ITEM ") }.map { String($0.dropFirst(5)) }
        let userItem = try #require(item, "\(user.stdout) \(user.stderr)")
        let heard = Set(user.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: userItem, with: "ITEM") })
        for line in [
            "ItemCreated \(login) ITEM",
            "PropertiesChanged \(login) org.freedesktop.Secret.Collection  invalidated=Items",
            "ItemChanged \(login) ITEM",
            "PropertiesChanged ITEM org.freedesktop.Secret.Item Attributes=Dictionary Label=Renamed Modified=UInt64 invalidated=",
            "ItemDeleted \(login) ITEM",
            "CollectionChanged /org/freedesktop/secrets \(login)",
            "PropertiesChanged \(login) org.freedesktop.Secret.Collection Locked=true invalidated=",
        ] {
            #expect(heard.contains(line), "not heard: \(line)\n\(user.stdout)\n\(user.stderr)")
        }

        // The app's listener ends by itself (after the lock, at most a minute).
        let appDeadline = Date().addingTimeInterval(120)
        while app.withLock({ $0 == nil }), Date() < appDeadline { Thread.sleep(forTimeInterval: 0.1) }
        let appOutput = try #require(try app.withLock { try $0?.get() })
        let ownItem = appOutput.stdout.split(separator: "\n").first { $0.hasPrefix("OWN ") }.map {
            String($0.dropFirst(4))
        }
        let appItem = try #require(ownItem, "\(appOutput.stdout) \(appOutput.stderr)")
        // The app hears of its own item and of the lock (its collections locked too), and of
        // nothing the user's program stored, renamed or deleted.
        #expect(appOutput.stdout.contains("ItemCreated \(login) \(appItem)"), "\(appOutput.stdout)")
        #expect(appOutput.stdout.contains("Locked=true"), "\(appOutput.stdout)")
        #expect(!appOutput.stdout.contains(userItem), "\(appOutput.stdout)")
        #expect(!appOutput.stdout.contains("Renamed"), "\(appOutput.stdout)")
        #expect(!appOutput.stdout.contains("ItemDeleted"), "\(appOutput.stdout)")
    }
}
