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

/// Flatpak apps that call the Secret Service on the bus directly: each is identified from its
/// process, as socket clients are, and sees only its own items.
@Suite(.serialized, .enabled(if: SecretServiceClients.areInstalled && DaemonTests.canSandbox))
struct SecretServiceSandboxTests {
    /// Runs `program` with python inside a root that says it is Flatpak app `appID` (the fake
    /// sandbox of ``DaemonTests/sandboxedTool(in:appID:environment:user:)``), on the fixture's bus.
    static func python(
        _ program: String,
        as appID: String,
        _ fixture: SecretServiceTests.Fixture
    ) throws -> ProgramOutput {
        let root = fixture.bus.directory.appendingPathComponent("sandbox-" + appID)
        let folders = ["usr", "tmp", "proc", "etc", "dev"].filter { FileManager.default.fileExists(atPath: "/" + $0) }
        for folder in folders {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder),
                withIntermediateDirectories: true
            )
        }
        for link in ["bin", "lib", "lib64", "sbin"] {
            // Made once per root (a link to the bound /usr dangles until the root is entered).
            try? FileManager.default.createSymbolicLink(
                atPath: root.appendingPathComponent(link).path,
                withDestinationPath: "usr/" + link
            )
        }
        try Data("[Application]\nname=\(appID)\n".utf8).write(to: root.appendingPathComponent(".flatpak-info"))
        let script = URL(fileURLWithPath: "/tmp").appendingPathComponent("kc-app-\(UUID().uuidString.prefix(8)).py")
        try program.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let mounts = folders.map { "mount --rbind /\($0) \(root.path)/\($0)" }
        let command = (mounts + ["exec chroot \(root.path) /usr/bin/python3 \(script.path)"]).joined(separator: " && ")
        return try fixture.bus.run(["/usr/bin/unshare", "-m", "sh", "-c", command])
    }

    static let listLabels = """
        import secretstorage
        connection = secretstorage.dbus_init()
        print(sorted(i.get_label() for c in secretstorage.get_all_collections(connection) for i in c.get_all_items()))
        """

    @Test func aFlatpakAppSeesOnlyItsOwnItemsAndNoOneElseSeesThem() throws {
        let fixture = try SecretServiceTests.Fixture()
        #expect(try fixture.secretTool(["store", "--label=The user's", "who", "user"], input: "u").status == 0)
        let store = """
            import secretstorage
            connection = secretstorage.dbus_init()
            login = secretstorage.get_default_collection(connection)
            login.create_item('Notes token', {'who': 'notes'}, b'n0tes')
            print(sorted(i.get_label() for i in login.get_all_items()))
            assert [i.get_secret() for i in login.search_items({'who': 'notes'})] == [b'n0tes']
            assert list(login.search_items({'who': 'user'})) == []
            """
        let notes = try Self.python(store, as: "org.example.Notes", fixture)
        #expect(notes.stdout == "['Notes token']\n", "\(notes.stderr)")
        // Another app sees nothing of either; the user's programs do not see the app's item.
        let other = try Self.python(Self.listLabels, as: "org.example.Other", fixture)
        #expect(other.stdout == "[]\n", "\(other.stderr)")
        let user = try fixture.python(Self.listLabels)
        #expect(user.stdout == "[\"The user's\"]\n", "\(user.stderr)")
        // Nor can the app reach the user's item by its path.
        let userPath = try fixture.python(
            """
            import secretstorage
            connection = secretstorage.dbus_init()
            print(next(secretstorage.get_default_collection(connection).search_items({'who': 'user'})).item_path)
            """
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let byPath = try Self.python(
            """
            import dbus
            bus = dbus.SessionBus()
            try:
                bus.get_object('org.freedesktop.secrets', '\(userPath)').GetSecret('/', dbus_interface='org.freedesktop.Secret.Item')
            except dbus.exceptions.DBusException as e:
                print(e.get_dbus_name())
            """,
            as: "org.example.Other",
            fixture
        )
        #expect(byPath.stdout == "org.freedesktop.Secret.Error.NoSuchObject\n", "\(byPath.stderr)")
    }
}
