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

/// A collection the user protected: its secrets reach a program only after the user
/// authenticates, once per program for the reuse time, and the items' access controls enforce it
/// for every other way in.
@Suite(.serialized, .enabled(if: SecretServiceClients.areInstalled))
struct SecretServiceProtectionTests {
    static let readAll = """
        import secretstorage
        connection = secretstorage.dbus_init()
        login = secretstorage.get_default_collection(connection)
        items = sorted(login.search_items({'kind': 'web'}), key=lambda i: i.get_label())
        try:
            print([i.get_secret() for i in items])
        except secretstorage.exceptions.SecretServiceNotAvailableException as e:
            print('refused')
        except Exception as e:
            print('refused', type(e).__name__)
        """

    @Test func aProtectedCollectionReleasesNothingWithoutThePasscodeAndAsksOncePerProgram() throws {
        let fixture = try SecretServiceTests.Fixture()
        #expect(try fixture.daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        for site in ["a", "b", "c"] {
            let stored = try fixture.secretTool(
                ["store", "--label=\(site)", "kind", "web", "site", site],
                input: "pw-\(site)"
            )
            #expect(stored.status == 0)
        }
        let protect = try fixture.daemon.tool(["secret-service", "protect", "login", "devicePasscode"])
        #expect(protect.stdout == "login: protected with devicePasscode\n", "\(protect.stderr)")

        // The person declines: nothing is released, to libsecret or python.
        #expect(try fixture.secretTool(["lookup", "site", "a"]).stdout == "")
        #expect(try fixture.python(Self.readAll).stdout.hasPrefix("refused"))
        // Nor through SecItem, without the passcode: neither the item nor its protected secret.
        for service in ["login", "@secret:login"] {
            let bypass = try fixture.daemon.tool(["find-generic-password", "-s", service, "-w"])
            #expect(!bypass.stdout.contains("pw-"), "\(service)")
        }

        // The person enters the passcode once: one program reads all three.
        let asked = {
            (try? String(contentsOf: fixture.pinentryLog, encoding: .utf8))?.components(separatedBy: "GETPIN").count
                ?? 0
        }
        let before = asked()
        try Data("2468".utf8).write(to: fixture.answerFile)
        let read = try fixture.python(Self.readAll)
        #expect(read.stdout == "[b'pw-a', b'pw-b', b'pw-c']\n", "\(read.stderr)")
        #expect(asked() - before == 1)
        let told = (try? String(contentsOf: fixture.pinentryLog, encoding: .utf8)) ?? ""
        #expect(told.contains("from a protected collection"))

        // An item added later is protected as the others; lifting the protection asks again.
        #expect(try fixture.secretTool(["store", "--label=d", "kind", "web", "site", "d"], input: "pw-d").status == 0)
        try FileManager.default.removeItem(at: fixture.answerFile)
        #expect(try fixture.secretTool(["lookup", "site", "d"]).stdout == "")
        try Data("2468".utf8).write(to: fixture.answerFile)
        #expect(try fixture.secretTool(["lookup", "site", "d"]).stdout == "pw-d")

        // Lifting the protection asks for it (here through pinentry, for the tool); then no prompt.
        let lift = try fixture.daemon.tool(
            ["secret-service", "protect", "login", "none"],
            environment: ["DISPLAY": ":99", "KEYCHAIN_PROMPT": "terminal"]
        )
        #expect(lift.stdout == "login: not protected\n", "\(lift.stderr)")
        try FileManager.default.removeItem(at: fixture.answerFile)
        let free = try fixture.python(Self.readAll)
        #expect(free.stdout == "[b'pw-a', b'pw-b', b'pw-c', b'pw-d']\n", "\(free.stderr)")
    }
}

/// A collection protected with `biometryAny`, read over D-Bus with libfprint's virtual reader behind
/// fprintd on a private system bus: the enrolled finger releases the secrets, another finger nothing.
@Suite(
    .serialized,
    .enabled(if: SecretServiceClients.areInstalled && VirtualFingerprintReader.isAvailable)
)
struct SecretServiceFingerprintTests {
    /// Runs `body` on another thread while `act` plays the person at the reader; what `body` returned.
    static func whileScanning<Output: Sendable>(
        _ body: @escaping @Sendable () throws -> Output,
        _ act: () throws -> Void
    ) throws -> Output {
        let result = Mutex<Result<Output, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let output = Result { try body() }
            result.withLock { $0 = output }
            done.signal()
        }
        let acted = Result { try act() }
        done.wait()
        let output = try #require(result.withLock { $0 }).get()
        if case .failure(let error) = acted { Issue.record("\(error): \(output)") }
        return output
    }

    @Test func aFingerprintProtectedCollectionReleasesItsSecretsToTheEnrolledFingerOnly() throws {
        let reader = try VirtualFingerprintReader()
        defer { reader.stop() }
        let fixture = try SecretServiceTests.Fixture(
            settings: ["system-bus": reader.address],
            environment: ["KEYCHAIN_FPRINTD_TIMEOUT": "120"]
        )
        let daemon = fixture.daemon
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(try daemon.tool(["unlock"], input: "2468\n").status == 0)
        #expect(try daemon.tool(["biometry", "sensor", "fprintd"]).status == 0)
        let home = daemon.home
        let environment = daemon.clientEnvironment()
        let enrolled = try Self.whileScanning(
            {
                try SecurityToolRunner(home: home).run(
                    ["biometry", "enroll", "right-index-finger"],
                    input: "",
                    environment: environment
                )
            },
            { for _ in 0..<5 { try reader.scan("finger-A") } }
        )
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        for site in ["a", "b"] {
            let stored = try fixture.secretTool(
                ["store", "--label=\(site)", "kind", "web", "site", site],
                input: "pw-\(site)"
            )
            #expect(stored.status == 0)
        }
        let protect = try daemon.tool(["secret-service", "protect", "login", "biometryAny"])
        #expect(protect.stdout == "login: protected with biometryAny\n", "\(protect.stderr)")

        // Another finger: nothing.
        let wrong = try Self.whileScanning(
            { try fixture.secretTool(["lookup", "site", "a"]) },
            { try reader.scan("finger-B") }
        )
        #expect(wrong.stdout == "", "\(wrong.status) \(wrong.stderr)")
        // The next scan once fprintd has let the reader go: sent before, it would go to the ended match.
        try reader.waitUntilClosed()
        // The enrolled finger, once: one program reads both items.
        let read = try Self.whileScanning(
            { try fixture.python(SecretServiceProtectionTests.readAll) },
            { try reader.scan("finger-A") }
        )
        #expect(read.stdout == "[b'pw-a', b'pw-b']\n", "\(read.status) \(read.stderr)")
    }
}

/// macOS's keychain access dialog over D-Bus (`security secret-service confirm on`): a program reads
/// another program's secret only after the person allows it, always or once.
@Suite(.serialized, .enabled(if: SecretServiceClients.areInstalled))
struct SecretServiceConsentTests {
    @Test func anotherProgramReadsAnItemOnlyAfterThePersonAllowsIt() throws {
        let fixture = try SecretServiceTests.Fixture()
        #expect(try fixture.daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(
            try fixture.secretTool(["store", "--label=Mail", "kind", "web", "site", "a"], input: "pw-a").status == 0
        )
        let on = try fixture.daemon.tool(["secret-service", "confirm", "on"])
        #expect(on.stdout == "confirm: on (programs ask before reading another program's secrets)\n", "\(on.stderr)")
        let confirmations = {
            (try? String(contentsOf: fixture.pinentryLog, encoding: .utf8))?.components(separatedBy: "\nCONFIRM").count
                ?? 1
        }
        let read = """
            import secretstorage
            connection = secretstorage.dbus_init()
            [item] = secretstorage.get_default_collection(connection).search_items({'site': 'a'})
            for _ in range(2):
                try:
                    print(item.get_secret())
                except Exception as e:
                    print('refused')
            """

        // The program that stored it reads it without a question.
        #expect(try fixture.secretTool(["lookup", "site", "a"]).stdout == "pw-a")
        #expect(confirmations() == 1)

        // python is another program: denied, nothing; allowed once, it reads for the rest of its
        // connection (one question for two reads), and is asked again next time.
        #expect(try fixture.python(read).stdout == "refused\nrefused\n")
        #expect(confirmations() == 3)
        let told = (try? String(contentsOf: fixture.pinentryLog, encoding: .utf8)) ?? ""
        #expect(told.contains("wants to read the secret “Mail”, stored by “secret-tool”,"), "\(told)")
        #expect(told.contains("/usr/bin/python3"), "\(told)")
        // Enter (the default, OK) allows once; always is a button of its own.
        #expect(
            told.contains("SETOK Allow") && told.contains("SETNOTOK Always Allow") && told.contains("SETCANCEL Deny")
        )
        try Data("once".utf8).write(to: fixture.consentFile)
        #expect(try fixture.python(read).stdout == "b'pw-a'\nb'pw-a'\n")
        #expect(confirmations() == 4)
        #expect(try fixture.python(read).stdout == "b'pw-a'\nb'pw-a'\n")
        #expect(confirmations() == 5)

        // Allowed always: python reads without a question from then on.
        try Data("always".utf8).write(to: fixture.consentFile)
        #expect(try fixture.python(read).stdout == "b'pw-a'\nb'pw-a'\n")
        try FileManager.default.removeItem(at: fixture.consentFile)
        #expect(try fixture.python(read).stdout == "b'pw-a'\nb'pw-a'\n")
        #expect(confirmations() == 6)

        // GetSecrets: the item python is not trusted with is asked about once, however often the
        // list names it, and left out when denied.
        #expect(
            try fixture.secretTool(["store", "--label=Chat", "kind", "web", "site", "b"], input: "pw-b").status == 0
        )
        let both = """
            import secretstorage
            from jeepney import new_method_call, DBusAddress
            connection = secretstorage.dbus_init()
            items = secretstorage.get_default_collection(connection).search_items({})
            paths = [i.item_path for i in items]
            service = DBusAddress('/org/freedesktop/secrets', bus_name='org.freedesktop.secrets',
                                  interface='org.freedesktop.Secret.Service')
            session = connection.send_and_get_reply(new_method_call(service, 'OpenSession', 'sv', ('plain', ('s', '')))).body[1]
            reply = connection.send_and_get_reply(new_method_call(service, 'GetSecrets', 'aoo', (paths * 20, session)))
            print(sorted(bytes(value[2]) for value in reply.body[0].values()))
            """
        let beforeBoth = confirmations()
        let mixed = try fixture.python(both)
        #expect(mixed.stdout == "[b'pw-a']\n", "\(mixed.stderr)")
        #expect(confirmations() == beforeBoth + 1)

        // A program cannot make the trusted one write into an item it is trusted with: python
        // stores first, secret-tool replaces the secret, and python is asked again.
        let plant = """
            import secretstorage
            connection = secretstorage.dbus_init()
            collection = secretstorage.get_default_collection(connection)
            # The attributes secret-tool will store (its schema's name among them).
            [mail] = collection.search_items({'site': 'a'})
            attributes = {k: v for k, v in mail.get_attributes().items() if k.startswith('xdg:')}
            attributes['site'] = 'bank'
            collection.create_item('Bank', attributes, b'planted', replace=True)
            """
        #expect(try fixture.python(plant).stderr == "")
        #expect(try fixture.secretTool(["store", "--label=Bank", "site", "bank"], input: "pw-bank").status == 0)
        let planted = """
            import secretstorage
            connection = secretstorage.dbus_init()
            [item] = secretstorage.get_default_collection(connection).search_items({'site': 'bank'})
            try:
                print(item.get_secret())
            except Exception:
                print('refused')
            """
        let beforePlant = confirmations()
        #expect(try fixture.python(planted).stdout == "refused\n")
        #expect(confirmations() == beforePlant + 1)
        #expect(try fixture.secretTool(["lookup", "site", "bank"]).stdout == "pw-bank")

        // A program may not turn the question off: that takes the passcode.
        let refused = try fixture.daemon.tool(["secret-service", "confirm", "off"])
        #expect(refused.status != 0)
        #expect(try fixture.daemon.tool(["secret-service", "confirm", "status"]).stdout.hasPrefix("confirm: on"))
        try Data("2468".utf8).write(to: fixture.answerFile)
        let off = try fixture.daemon.tool(
            ["secret-service", "confirm", "off"],
            environment: ["DISPLAY": ":99", "KEYCHAIN_PROMPT": "terminal"]
        )
        #expect(off.stdout == "confirm: off\n", "\(off.stderr)")
    }
}
