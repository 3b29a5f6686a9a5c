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

/// Whether the Secret Service's clients are installed (CI installs them).
enum SecretServiceClients {
    static var areInstalled: Bool {
        PrivateSessionBus.isAvailable && FileManager.default.isExecutableFile(atPath: SecretServiceTests.secretTool)
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/secretstorage")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/keyring")
    }
}

/// `securityd --secret-service` driven by the real clients of the Secret Service on a private
/// session bus: libsecret's `secret-tool`, python's `secretstorage` and `keyring`, and raw D-Bus
/// calls for what the clients never send.
@Suite(.serialized, .enabled(if: SecretServiceClients.areInstalled))
struct SecretServiceTests {
    static let python = "/usr/bin/python3"
    static let secretTool = "/usr/bin/secret-tool"

    /// A bus, and a daemon serving the Secret Service on it, whose pinentry answers with the
    /// contents of `answerFile` (cancels while there is none), confirms as `consentFile` says
    /// (`once`: the first button, Allow; `always`: the second; denies while there is none) and logs
    /// what it was told.
    ///
    /// Set once, in `init`; a test may use it from a second thread (a listener beside a client).
    final class Fixture: @unchecked Sendable {
        let bus: PrivateSessionBus
        let daemon: PrivateDaemon
        let folder: URL
        let answerFile: URL
        let consentFile: URL
        let pinentryLog: URL

        /// With `settings` and `environment` added to the daemon's.
        init(settings: [String: String] = [:], environment: [String: String] = [:]) throws {
            bus = try PrivateSessionBus()
            folder = bus.directory.appendingPathComponent("pinentry")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            answerFile = folder.appendingPathComponent("answer")
            consentFile = folder.appendingPathComponent("consent")
            pinentryLog = folder.appendingPathComponent("log")
            let pinentry = folder.appendingPathComponent("pinentry")
            let script = """
                #!/usr/bin/python3
                import os, sys
                log = open('\(pinentryLog.path)', 'a')
                print('OK Pleased to meet you', flush=True)
                for line in sys.stdin:
                    log.write(line); log.flush()
                    command = line.split(' ', 1)[0].strip()
                    if command == 'GETPIN':
                        if os.path.exists('\(answerFile.path)'):
                            print('D ' + open('\(answerFile.path)').read().strip(), flush=True); print('OK', flush=True)
                        else:
                            print('ERR 83886179 Operation cancelled <Pinentry>', flush=True)
                    elif command == 'CONFIRM':
                        consent = open('\(consentFile.path)').read().strip() if os.path.exists('\(consentFile.path)') else ''
                        if consent == 'once':
                            print('OK', flush=True)
                        elif consent == 'always':
                            print('ERR 83886194 Not confirmed <Pinentry>', flush=True)
                        else:
                            print('ERR 83886179 Operation cancelled <Pinentry>', flush=True)
                    elif command == 'BYE':
                        print('OK closing connection', flush=True); break
                    else:
                        print('OK', flush=True)

                """
            try script.write(to: pinentry, atomically: true, encoding: .utf8)
            chmod(pinentry.path, 0o755)
            daemon = try PrivateDaemon(
                settings: settings.merging(["pinentry": pinentry.path]) { $1 },
                environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address, "DISPLAY": ":99"]) { $1 },
                arguments: ["--secret-service"]
            )
        }

        deinit {
            daemon.stop()
        }

        /// Runs a python program on the bus; what it printed.
        func python(_ program: String) throws -> ProgramOutput {
            try bus.run([SecretServiceTests.python, "-c", program])
        }

        func secretTool(_ arguments: [String], input: String? = nil) throws -> ProgramOutput {
            try bus.run([SecretServiceTests.secretTool] + arguments, input: input)
        }

        /// Every file of the keychain's home, as bytes.
        func homeFiles() -> [Data] {
            let files =
                FileManager.default.enumerator(at: daemon.home, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []
            return files.compactMap { try? Data(contentsOf: $0) }
        }
    }

    @Test func secretToolStoresLooksUpSearchesAndClears() throws {
        let fixture = try Fixture()
        let store = try fixture.secretTool(
            ["store", "--label=Mail of Pat", "service", "mail.example-host.test", "user", "pat-the-user"],
            input: "correct horse battery"
        )
        #expect(store.status == 0, "\(store.stderr)")
        let lookup = try fixture.secretTool(["lookup", "service", "mail.example-host.test", "user", "pat-the-user"])
        #expect(lookup.status == 0)
        #expect(lookup.stdout == "correct horse battery")
        let search = try fixture.secretTool(["search", "--all", "service", "mail.example-host.test"])
        #expect(search.stdout.contains("label = Mail of Pat"))
        #expect(search.stdout.contains("secret = correct horse battery"))
        #expect(search.stderr.contains("attribute.user = pat-the-user"))
        #expect(try fixture.secretTool(["lookup", "service", "other"]).status != 0)

        // Nothing stored over D-Bus is in any file of the keychain in the clear.
        for needle in ["correct horse battery", "mail.example-host.test", "pat-the-user", "Mail of Pat"] {
            #expect(!fixture.homeFiles().contains { $0.range(of: Data(needle.utf8)) != nil }, "\(needle) on disk")
        }

        #expect(try fixture.secretTool(["clear", "service", "mail.example-host.test"]).status == 0)
        #expect(try fixture.secretTool(["lookup", "service", "mail.example-host.test"]).status != 0)
    }

    @Test func pythonClientsUseDiffieHellmanSessionsCollectionsAliasesAndReplace() throws {
        let fixture = try Fixture()
        let run = try fixture.python(
            """
            import secretstorage
            from secretstorage.dhcrypto import Session
            connection = secretstorage.dbus_init()
            login = secretstorage.get_default_collection(connection)
            # The default alias stands for the login collection.
            assert login.get_label() == 'Login'
            assert not login.is_locked()
            first = login.create_item('Token', {'app': 'py', 'user': 'u1'}, b'first\\x00bytes', replace=True)
            # secretstorage negotiates dh-ietf1024-sha256_128 and decrypts with the agreed key.
            [found] = login.search_items({'app': 'py'})
            assert found.get_secret() == b'first\\x00bytes'
            assert found.get_attributes() == {'app': 'py', 'user': 'u1'}
            found.set_label('Renamed')
            assert found.get_label() == 'Renamed'
            again = login.create_item('Token', {'app': 'py', 'user': 'u1'}, b'second', replace=True)
            assert again.item_path == first.item_path
            assert [i.get_secret() for i in login.search_items({'app': 'py'})] == [b'second']
            kept = login.create_item('Token', {'app': 'py', 'user': 'u1'}, b'third', replace=False)
            assert kept.item_path != first.item_path
            assert len(list(login.search_items({'app': 'py'}))) == 2

            work = secretstorage.create_collection(connection, 'Work Things', alias='work')
            assert secretstorage.get_collection_by_alias(connection, 'work').collection_path == work.collection_path
            assert work.get_label() == 'Work Things'
            work.create_item('VPN', {'app': 'vpn'}, b'v')
            assert [i.get_label() for i in work.search_items({'app': 'vpn'})] == ['VPN']
            assert list(login.search_items({'app': 'vpn'})) == []
            paths = [c.collection_path for c in secretstorage.get_all_collections(connection)]
            assert work.collection_path in paths and '/org/freedesktop/secrets/collection/session' in paths
            work.delete()
            assert work.collection_path not in [c.collection_path for c in secretstorage.get_all_collections(connection)]

            memory = secretstorage.Collection(connection, '/org/freedesktop/secrets/collection/session')
            memory.create_item('Temporary', {'app': 'tmp'}, b'in memory')
            assert [i.get_secret() for i in memory.search_items({'app': 'tmp'})] == [b'in memory']
            for item in login.search_items({'app': 'py'}):
                item.delete()
            assert list(login.search_items({'app': 'py'})) == []
            print('OK')
            """
        )
        #expect(run.stdout == "OK\n", "\(run.stderr)")
        // The session collection is memory only: nothing of it is on disk.
        #expect(!fixture.homeFiles().contains { $0.range(of: Data("in memory".utf8)) != nil })
    }

    @Test func pythonKeyringKeepsPasswordsInTheKeychain() throws {
        let fixture = try Fixture()
        let run = try fixture.python(
            """
            import keyring, keyring.backends.SecretService
            keyring.set_keyring(keyring.backends.SecretService.Keyring())
            keyring.set_password('build-server', 'ci', 'k3y')
            assert keyring.get_password('build-server', 'ci') == 'k3y'
            keyring.delete_password('build-server', 'ci')
            assert keyring.get_password('build-server', 'ci') is None
            print('OK')
            """
        )
        #expect(run.stdout == "OK\n", "\(run.stderr)")
    }

    @Test func aLockedKeychainUnlocksThroughTheDaemonsPinentryAndADismissalUnlocksNothing() throws {
        let fixture = try Fixture()
        #expect(try fixture.daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(try fixture.secretTool(["store", "--label=L", "k", "v"], input: "guarded").status == 0)
        #expect(try fixture.daemon.tool(["lock"]).status == 0)

        // Locked: the item is found as locked, its secret is refused, and the person declines.
        let declined = try fixture.python(
            """
            import secretstorage
            connection = secretstorage.dbus_init()
            login = secretstorage.get_default_collection(connection)
            assert login.is_locked()
            [item] = login.search_items({'k': 'v'})
            assert item.is_locked()
            try:
                item.get_secret()
                raise SystemExit('read while locked')
            except secretstorage.exceptions.LockedException:
                pass
            assert login.unlock() is True   # dismissed: pinentry was cancelled
            assert login.is_locked()
            print('OK')
            """
        )
        #expect(declined.stdout == "OK\n", "\(declined.stderr)")

        // The person enters the passcode: libsecret's own prompt handling unlocks and reads.
        try Data("2468".utf8).write(to: fixture.answerFile)
        let lookup = try fixture.secretTool(["lookup", "k", "v"])
        #expect(lookup.stdout == "guarded", "\(lookup.stderr)")
        let told = (try? String(contentsOf: fixture.pinentryLog, encoding: .utf8)) ?? ""
        #expect(told.contains("SETDESC “secret-tool” wants your passcode"))
        #expect(told.contains("OPTION display=:99"))
    }

    @Test func badInputGetsTheSpecificationsErrorsAndTheProviderKeepsServing() throws {
        let fixture = try Fixture()
        let run = try fixture.python(
            """
            import dbus
            bus = dbus.SessionBus()
            other = dbus.bus.BusConnection(bus._bus_address if hasattr(bus, '_bus_address') else __import__('os').environ['DBUS_SESSION_BUS_ADDRESS'])
            service = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets')
            def error(call):
                try:
                    call()
                except dbus.exceptions.DBusException as e:
                    return e.get_dbus_name()
                return None
            S = 'org.freedesktop.Secret.Service'
            assert error(lambda: service.SearchItems('not a map', dbus_interface=S, signature='s')) == 'org.freedesktop.DBus.Error.InvalidArgs'
            assert error(lambda: service.OpenSession('rot13', '', dbus_interface=S)) == 'org.freedesktop.DBus.Error.NotSupported'
            assert error(lambda: service.OpenSession('dh-ietf1024-sha256_128', dbus.ByteArray(b'\\x01'), dbus_interface=S)) == 'org.freedesktop.DBus.Error.InvalidArgs'
            missing = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets/collection/login/0123456789abcdef')
            assert error(lambda: missing.GetSecret('/', dbus_interface='org.freedesktop.Secret.Item')) == 'org.freedesktop.Secret.Error.NoSuchObject'
            nowhere = bus.get_object('org.freedesktop.secrets', '/elsewhere')
            assert error(lambda: nowhere.Introspect(dbus_interface='org.freedesktop.DBus.Introspectable')) == 'org.freedesktop.Secret.Error.NoSuchObject'

            # A session is its connection's: another connection cannot use it.
            output, session = service.OpenSession('plain', dbus.String('', variant_level=1), dbus_interface=S)
            login = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets/collection/login')
            C = 'org.freedesktop.Secret.Collection'
            props = {'org.freedesktop.Secret.Item.Label': 'x', 'org.freedesktop.Secret.Item.Attributes': dbus.Dictionary({'a': 'b'}, signature='ss')}
            item, prompt = login.CreateItem(props, (session, dbus.ByteArray(b''), dbus.ByteArray(b'plain secret'), 'text/plain'), False, dbus_interface=C)
            stranger = other.get_object('org.freedesktop.secrets', item)
            assert error(lambda: stranger.GetSecret(session, dbus_interface='org.freedesktop.Secret.Item')) == 'org.freedesktop.Secret.Error.NoSession'

            # Too much: attributes beyond the limit, a label beyond the limit.
            huge = dbus.Dictionary({str(i): 'v' for i in range(10000)}, signature='ss')
            assert error(lambda: service.SearchItems(huge, dbus_interface=S)) == 'org.freedesktop.DBus.Error.InvalidArgs'
            long_label = dict(props, **{'org.freedesktop.Secret.Item.Label': 'x' * 100000})
            assert error(lambda: login.CreateItem(long_label, (session, dbus.ByteArray(b''), dbus.ByteArray(b's'), 'text/plain'), False, dbus_interface=C)) == 'org.freedesktop.DBus.Error.InvalidArgs'
            # A plain session's secret with parameters is not one the session could have sent.
            assert error(lambda: login.CreateItem(props, (session, dbus.ByteArray(b'0123456789abcdef'), dbus.ByteArray(b's'), 'text/plain'), False, dbus_interface=C)) == 'org.freedesktop.DBus.Error.InvalidArgs'

            # Still serving, and the item reads back through the session it was stored with.
            secret = bus.get_object('org.freedesktop.secrets', item).GetSecret(session, dbus_interface='org.freedesktop.Secret.Item')
            assert bytes(secret[2]) == b'plain secret'
            unlocked, locked = service.SearchItems({'a': 'b'}, dbus_interface=S)
            assert list(unlocked) == [item] and list(locked) == []
            print('OK')
            """
        )
        #expect(run.stdout == "OK\n", "\(run.stderr)")
    }

    @Test func theSessionCollectionAndContentTypesHaveLimits() throws {
        let fixture = try Fixture()
        let run = try fixture.python(
            """
            import dbus
            bus = dbus.SessionBus()
            service = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets')
            output, session = service.OpenSession('plain', dbus.String('', variant_level=1), dbus_interface='org.freedesktop.Secret.Service')
            memory = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets/collection/session')
            C = 'org.freedesktop.Secret.Collection'
            def create(n, content_type='text/plain'):
                props = {'org.freedesktop.Secret.Item.Label': 'm', 'org.freedesktop.Secret.Item.Attributes': dbus.Dictionary({'n': str(n)}, signature='ss')}
                try:
                    memory.CreateItem(props, (session, dbus.ByteArray(b''), dbus.ByteArray(b'x' * 1024), content_type), False, dbus_interface=C)
                    return None
                except dbus.exceptions.DBusException as e:
                    return e.get_dbus_name()
            assert create(0, 'x' * 1000) == 'org.freedesktop.DBus.Error.InvalidArgs'
            results = [create(n) for n in range(1100)]
            assert results[:1024] == [None] * 1024, results[:3]
            assert set(results[1024:]) == {'org.freedesktop.DBus.Error.LimitsExceeded'}
            print('OK')
            """
        )
        #expect(run.stdout == "OK\n", "\(run.stderr)")
    }

    @Test func aDiffieHellmanSecretWithTheWrongKeyOrPaddingIsRefused() throws {
        let fixture = try Fixture()
        let run = try fixture.python(
            """
            import dbus, os
            from secretstorage.dhcrypto import Session
            from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
            bus = dbus.SessionBus()
            service = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets')
            S = 'org.freedesktop.Secret.Service'
            mine = Session()
            output, path = service.OpenSession('dh-ietf1024-sha256_128', dbus.ByteArray(mine.my_public_key.to_bytes(128, 'big')), dbus_interface=S)
            mine.set_server_public_key(int.from_bytes(bytes(output), 'big'))
            login = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets/collection/login')
            C = 'org.freedesktop.Secret.Collection'
            props = {'org.freedesktop.Secret.Item.Label': 'dh', 'org.freedesktop.Secret.Item.Attributes': dbus.Dictionary({'dh': '1'}, signature='ss')}
            def seal(key, data, pad=True):
                iv = os.urandom(16)
                if pad:
                    n = 16 - len(data) % 16
                    data = data + bytes([n]) * n
                encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
                return iv, encryptor.update(data) + encryptor.finalize()
            def create(iv, value):
                try:
                    login.CreateItem(props, (path, dbus.ByteArray(iv), dbus.ByteArray(value), 'text/plain'), True, dbus_interface=C)
                    return None
                except dbus.exceptions.DBusException as e:
                    return e.get_dbus_name()
            assert create(*seal(os.urandom(16), b'wrong key')) == 'org.freedesktop.DBus.Error.InvalidArgs'
            assert create(*seal(mine.aes_key, b'sixteen bytes!!!', pad=False)) == 'org.freedesktop.DBus.Error.InvalidArgs'
            assert create(*seal(mine.aes_key, b'right key')) is None
            [item] = service.SearchItems({'dh': '1'}, dbus_interface=S)[0]
            secret = bus.get_object('org.freedesktop.secrets', item).GetSecret(path, dbus_interface='org.freedesktop.Secret.Item')
            decryptor = Cipher(algorithms.AES(mine.aes_key), modes.CBC(bytes(secret[1]))).decryptor()
            plain = decryptor.update(bytes(secret[2])) + decryptor.finalize()
            assert plain[:-plain[-1]] == b'right key'
            print('OK')
            """
        )
        #expect(run.stdout == "OK\n", "\(run.stderr)")
    }

    @Test func itemsOfSecItemNeverAppearOverDBus() throws {
        let fixture = try Fixture()
        #expect(
            try fixture.daemon.tool(["add-generic-password", "-a", "app-account", "-s", "AppOnly", "-w", "x"]).status
                == 0
        )
        #expect(try fixture.secretTool(["store", "--label=Bus", "from", "bus"], input: "y").status == 0)
        let run = try fixture.python(
            """
            import secretstorage
            connection = secretstorage.dbus_init()
            labels = sorted(i.get_label() for c in secretstorage.get_all_collections(connection) for i in c.get_all_items())
            assert labels == ['Bus'], labels
            print('OK')
            """
        )
        #expect(run.stdout == "OK\n", "\(run.stderr)")
    }

    @Test func aSecondProviderNamesTheOwnerOfTheName() throws {
        let fixture = try Fixture()
        let other = fixture.bus.directory.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let settings = other.appendingPathComponent("securityd.conf")
        try PrivateDaemon.writeSettings([:], to: settings)
        let second = try fixture.bus.run(
            [
                PrivateDaemon.executable.path, "--keychain", other.appendingPathComponent("home").path,
                "--socket", other.appendingPathComponent("socket").path, "--config", settings.path, "--secret-service",
            ],
            seconds: 60
        )
        #expect(second.status != 0)
        #expect(second.stderr.contains("org.freedesktop.secrets is owned by securityd"), "\(second.stderr)")
        #expect(second.stderr.contains("--replace"))
        // The first still serves.
        #expect(try fixture.secretTool(["store", "--label=L", "still", "here"], input: "z").status == 0)
    }
}
