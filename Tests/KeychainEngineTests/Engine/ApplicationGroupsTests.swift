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
import KeychainServices
import KeychainTestSupport
import KeychainTesting
import Testing

@testable import KeychainCore
@testable import KeychainDevice
@testable import KeychainEngine

/// Sandboxed apps' groups at the engine's far side, as the daemon runs it: each app keeps to its
/// own group and the groups the user granted it; the user's unsandboxed programs read an app's
/// secrets only after the passcode, asked by the responder, never on the program's word.
@Suite struct ApplicationGroupsTests {
    let keychain: TemporaryKeychain
    let engine: any Engine
    let responder: EngineResponder
    let registry: ApplicationRegistry

    init() throws {
        keychain = try TemporaryKeychain()
        engine = try #require(keychain.device.embedded)
        registry = ApplicationRegistry(engine: engine)
        var responder = EngineResponder(engine: engine)
        responder.applications = registry
        self.responder = responder
    }

    /// A conversation of `client` whose relayed prompt answers `passcode` (or nobody answers).
    static func conversation(_ client: ClientIdentity, answering passcode: String? = nil) -> EngineConversation {
        EngineConversation(
            program: "test",
            client: client,
            report: { _ in },
            ask: { _ in passcode.flatMap { try? EngineWire.encode(EngineRequest.answer(.entered($0))) } }
        )
    }

    static let notes = ClientIdentity.flatpak(appID: "org.example.Notes")
    static let mail = ClientIdentity.flatpak(appID: "org.example.Mail")

    static func query(_ values: [String: Any], for operation: KeychainOperation) throws -> ItemQuery {
        var query = try QueryParser.parse(
            values.merging([kSecClass as String: kSecClassGenericPassword]) { $1 },
            for: operation
        )
        // As a client configured with no groups sends it.
        query.accessGroups = AccessGroups(["default", "*"])
        return query
    }

    func add(_ service: String, as client: ClientIdentity) throws -> EngineResponse {
        let query = try Self.query(
            [kSecAttrService as String: service, kSecValueData as String: Data("\(service) secret".utf8)],
            for: .add
        )
        return responder.run(.add(query), conversation: Self.conversation(client))
    }

    func read(
        _ service: String,
        as client: ClientIdentity,
        context: ContextReference? = nil,
        ui: AuthenticationUI = .allow
    ) throws -> EngineResponse {
        var query = try Self.query(
            [kSecAttrService as String: service, kSecReturnData as String: true],
            for: .copyMatching
        )
        query.credentialReference = context
        query.authenticationUI = ui
        return responder.run(.search(query), conversation: Self.conversation(client))
    }

    static func code(_ response: EngineResponse) -> KeychainError.Code? {
        if case .keychainError(let error) = response { return error.code }
        return nil
    }

    static func data(_ response: EngineResponse) -> String? {
        guard case .items(let items) = response, let data = items.first?.data else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The simulated sensor's question, asked where the client says, needs no secret to answer: a
    /// sandboxed app is never asked it (it would answer itself), the user's programs are.
    @Test func aSandboxedAppIsNotAskedTheSimulatedSensorsQuestion() throws {
        try engine.setPasscode("2468", current: nil, progress: nil)
        try engine.changeSimulatedSensor(.install(.touchID))
        try engine.changeSimulatedSensor(.enroll("thumb"))
        // A prompter that answers every question in words with "yes", as a terminal the client holds would.
        var responder = EngineResponder(
            engine: engine,
            prompts: PromptRouting { _, _, relay in
                var prompt = relay
                prompt.askWord = { _ in "y" }
                return prompt
            }
        )
        responder.applications = registry
        for (client, answered) in [(Self.notes, false), (ClientIdentity.unverifiable, false), (.unsandboxed, true)] {
            let context = try engine.makeContext()
            let evaluation = EngineRequest.evaluatePolicy(
                .biometrics,
                context: context,
                reason: "test",
                interactionAllowed: true,
                target: PromptTarget(kind: .terminal)
            )
            let response = responder.run(evaluation, conversation: Self.conversation(client))
            if answered {
                guard case .done = response else {
                    Issue.record("the user's program was not asked")
                    continue
                }
            } else {
                guard case .authenticationFailure(let failure) = response, failure.code == .notInteractive else {
                    Issue.record("\(client) answered the simulated sensor")
                    continue
                }
            }
        }
    }

    @Test func anAppKeepsToItsOwnGroupUntilTheUserGrantsAnother() throws {
        #expect(Self.code(try add("Notes", as: Self.notes)) == nil)
        #expect(Self.code(try add("Mail", as: Self.mail)) == nil)
        // Neither sees the other's item, asking for every group or naming it.
        #expect(Self.code(try read("Notes", as: Self.mail)) == .itemNotFound)
        let named = try Self.query(
            [kSecAttrService as String: "Notes", kSecAttrAccessGroup as String: "flatpak:org.example.Notes"],
            for: .copyMatching
        )
        #expect(
            Self.code(responder.run(.search(named), conversation: Self.conversation(Self.mail))) == .missingEntitlement
        )
        #expect(Self.data(try read("Notes", as: Self.notes)) == "Notes secret")

        // The user grants Mail the Notes group (no passcode set: nothing to ask).
        let grant = EngineRequest.grantAccessGroups(
            ["flatpak:org.example.Notes"],
            application: "org.example.Mail",
            target: PromptTarget(kind: .custom)
        )
        #expect(Self.code(responder.run(grant, conversation: Self.conversation(.unsandboxed))) == nil)
        #expect(Self.data(try read("Notes", as: Self.mail)) == "Notes secret")
        #expect(
            registry.applications() == ["org.example.Mail": ["flatpak:org.example.Notes"], "org.example.Notes": []]
        )

        // Taken back: unseen again.
        let revoke = EngineRequest.revokeAccessGroups(["flatpak:org.example.Notes"], application: "org.example.Mail")
        #expect(Self.code(responder.run(revoke, conversation: Self.conversation(.unsandboxed))) == nil)
        #expect(Self.code(try read("Notes", as: Self.mail)) == .itemNotFound)
    }

    @Test func noAppCanClaimAGroupOfTheUsersNorFindItemsPlantedInItsOwn() throws {
        // The user's programs use a group named like an app; the app's own group is another.
        var shared = try Self.query(
            [kSecAttrService as String: "Shared", kSecAttrAccessGroup as String: "org.example.Notes"],
            for: .add
        )
        shared.valueData = Data("user's".utf8)
        #expect(Self.code(responder.run(.add(shared), conversation: Self.conversation(.unsandboxed))) == nil)
        #expect(Self.code(try read("Shared", as: Self.notes)) == .itemNotFound)
        // A program cannot plant an item in an app's group, even before the app first connects.
        var planted = try Self.query(
            [kSecAttrService as String: "Planted", kSecAttrAccessGroup as String: "flatpak:org.example.Notes"],
            for: .add
        )
        planted.valueData = Data("planted".utf8)
        try engine.setPasscode("2468", current: nil, progress: nil)
        #expect(
            Self.code(responder.run(.add(planted), conversation: Self.conversation(.unsandboxed)))
                == .authenticationNeeded
        )
        #expect(Self.code(try read("Planted", as: Self.notes)) == .itemNotFound)
        // What the app adds lands in its own group.
        _ = try add("Notes", as: Self.notes)
        var attributes = try Self.query(
            [kSecAttrService as String: "Notes", kSecReturnAttributes as String: true],
            for: .copyMatching
        )
        attributes.accessGroups = AccessGroups(["default"])
        guard case .items(let items) = responder.run(.search(attributes), conversation: Self.conversation(Self.notes))
        else {
            Issue.record("the app did not find its own item")
            return
        }
        #expect(items.first?.attributes[QueryKey.accessGroup] == .string("flatpak:org.example.Notes"))
    }

    @Test func anAppCannotGrantItselfGroupsNorReachTheRegistry() throws {
        _ = try add("Notes", as: Self.notes)
        let grant = EngineRequest.grantAccessGroups(
            ["default"],
            application: "org.example.Notes",
            target: PromptTarget(kind: .custom)
        )
        #expect(Self.code(responder.run(grant, conversation: Self.conversation(Self.notes))) == .missingEntitlement)
        #expect(
            Self.code(responder.run(.applications, conversation: Self.conversation(Self.notes))) == .missingEntitlement
        )
        // The registry's own items are closed to every client, the user's programs included.
        var records = try Self.query(
            [
                kSecAttrAccessGroup as String: ApplicationRegistry.recordsGroup,
                kSecMatchLimit as String: kSecMatchLimitAll,
            ],
            for: .copyMatching
        )
        records.accessGroups = AccessGroups(["*"])
        #expect(
            Self.code(responder.run(.search(records), conversation: Self.conversation(.unsandboxed)))
                == .missingEntitlement
        )
        var every = try Self.query(
            [kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true],
            for: .copyMatching
        )
        every.accessGroups = AccessGroups(["*"])
        guard case .items(let items) = responder.run(.search(every), conversation: Self.conversation(.unsandboxed))
        else {
            Issue.record("the user's program could not list the items")
            return
        }
        #expect(items.allSatisfy { $0.attributes[QueryKey.accessGroup] != .string(ApplicationRegistry.recordsGroup) })
        #expect(items.count == 1)
        // An unverifiable client gets nothing at all.
        #expect(Self.code(try read("Notes", as: .unverifiable)) == .missingEntitlement)
    }

    @Test func theUsersProgramsReadAnAppsSecretOnlyAfterThePasscode() throws {
        try engine.setPasscode("2468", current: nil, progress: nil)
        _ = try add("Notes", as: Self.notes)
        #expect(Self.code(try add("Mine", as: .unsandboxed)) == nil)
        // The user's own items need nothing; the app's names are visible, its secret is not.
        #expect(Self.data(try read("Mine", as: .unsandboxed)) == "Mine secret")
        let needed = try read("Notes", as: .unsandboxed)
        guard case .keychainError(let error) = needed, error.code == .authenticationNeeded,
            let request = error.authenticationRequest
        else {
            Issue.record("an app's secret was released without the user's presence")
            return
        }
        #expect(request.accessControl == PresenceLedger.check && request.operation == .confirmPresence)
        #expect(Self.code(try read("Notes", as: .unsandboxed, ui: .skip)) == .itemNotFound)

        // Claiming to have nothing missing, or sending another access control, skips nothing: the
        // responder asks for the passcode, and with nobody to answer there is no presence.
        let context = try engine.makeContext()
        for (accessControl, missing) in [
            (PresenceLedger.check, [Set<AccessPolicy.Constraint>()]),
            (AccessControl(protection: .whenUnlocked), nil),
        ] {
            let evaluation = EngineRequest.evaluateAccessControl(
                accessControl,
                operation: .confirmPresence,
                missing: missing,
                context: context,
                reason: "read",
                interactionAllowed: true,
                target: PromptTarget(kind: .custom)
            )
            guard case .authenticationFailure = responder.run(evaluation, conversation: Self.conversation(.unsandboxed))
            else {
                Issue.record("the presence check passed with nobody present")
                continue
            }
        }
        // Evaluating the same access control as an item's (the passcode alone) proves nothing
        // either, even answered: it is not the check, whose words the user did not see.
        for operation in [AccessOperation.createItem, .useItem] {
            let evaluation = EngineRequest.evaluateAccessControl(
                PresenceLedger.check,
                operation: operation,
                missing: nil,
                context: context,
                reason: "read",
                interactionAllowed: true,
                target: PromptTarget(kind: .custom)
            )
            _ = responder.run(evaluation, conversation: Self.conversation(.unsandboxed, answering: "2468"))
            #expect(Self.code(try read("Notes", as: .unsandboxed, context: context)) == .authenticationNeeded)
        }
        // Nor does the context that evaluation satisfied pass the check without asking: presence
        // proven for an item's own reason is not presence for apps' items (issue 34, finding 6).
        let presence = EngineRequest.evaluateAccessControl(
            PresenceLedger.check,
            operation: .confirmPresence,
            missing: nil,
            context: context,
            reason: "read",
            interactionAllowed: true,
            target: PromptTarget(kind: .custom)
        )
        guard case .authenticationFailure = responder.run(presence, conversation: Self.conversation(.unsandboxed))
        else {
            Issue.record("the passcode given for an item's own reason passed the check for apps' items")
            return
        }
        #expect(Self.code(try read("Notes", as: .unsandboxed, context: context)) == .authenticationNeeded)
        // Deleting or changing the app's item asks too.
        var delete = try Self.query([kSecAttrService as String: "Notes"], for: .delete)
        delete.credentialReference = context
        #expect(
            Self.code(responder.run(.delete(delete), conversation: Self.conversation(.unsandboxed)))
                == .authenticationNeeded
        )

        // The passcode, answered to the responder's prompt, proves presence for that context.
        let evaluation = EngineRequest.evaluateAccessControl(
            PresenceLedger.check,
            operation: .confirmPresence,
            missing: nil,
            context: context,
            reason: "read",
            interactionAllowed: true,
            target: PromptTarget(kind: .custom)
        )
        guard case .done = responder.run(evaluation, conversation: Self.conversation(.unsandboxed, answering: "2468"))
        else {
            Issue.record("the passcode did not prove presence")
            return
        }
        #expect(Self.data(try read("Notes", as: .unsandboxed, context: context)) == "Notes secret")
        // Not another context, and not once this one is released.
        #expect(
            Self.code(try read("Notes", as: .unsandboxed, context: try engine.makeContext())) == .authenticationNeeded
        )
        _ = responder.run(.releaseContext(context), conversation: Self.conversation(.unsandboxed))
        #expect(Self.code(try read("Notes", as: .unsandboxed, context: context)) != nil)
    }

    /// An app's Secure Enclave key signs for another program only after the user's presence, however
    /// the program words the request (a key operation's output is the key's secret's work), and a
    /// key operation that does not ask for data is refused outright.
    @Test func anAppsEnclaveKeyWorksForTheUsersProgramsOnlyAfterThePasscode() throws {
        try engine.setPasscode("2468", current: nil, progress: nil)
        var generate = try QueryParser.parse(
            [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("notes key".utf8),
                kSecReturnData as String: true,
            ],
            for: .add
        )
        generate.accessGroups = AccessGroups(["default", "*"])
        generate.keyOperation = .generate
        guard case .item(let created) = responder.run(.add(generate), conversation: Self.conversation(Self.notes))
        else {
            Issue.record("the app could not make its key")
            return
        }
        #expect(created.data?.count == 65)
        let digest = Data(repeating: 7, count: 32)
        for returnTypes in [ReturnTypes.data, .attributes, []] {
            var sign = try QueryParser.parse(
                [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("notes key".utf8)],
                for: .copyMatching
            )
            sign.accessGroups = AccessGroups(["default", "*"])
            sign.returnTypes = returnTypes
            sign.keyOperation = .sign(digest: digest)
            let code = Self.code(responder.run(.search(sign), conversation: Self.conversation(.unsandboxed)))
            #expect(code == (returnTypes == .data ? .authenticationNeeded : .invalidParameter), "\(returnTypes)")
            // The app itself signs with its own key.
            let own = responder.run(.search(sign), conversation: Self.conversation(Self.notes))
            if returnTypes == .data {
                guard case .items(let items) = own, let signature = items.first?.data else {
                    Issue.record("the app could not sign with its own key")
                    continue
                }
                #expect(signature.count > 64)
            } else {
                #expect(Self.code(own) == .invalidParameter)
            }
        }
    }

    @Test func aScriptedFingerIsNoPresenceAndALockEndsIt() throws {
        try engine.setPasscode("2468", current: nil, progress: nil)
        _ = try add("Notes", as: Self.notes)
        // The user's programs script the simulated sensor: a match it was told to give proves nothing.
        for change in [SimulatedSensorChange.install(.touchID), .enroll("thumb"), .queue([.match, .match])] {
            guard
                case .done = responder.run(
                    .changeSimulatedSensor(change),
                    conversation: Self.conversation(.unsandboxed)
                )
            else {
                Issue.record("the sensor could not be set up")
                return
            }
        }
        let context = try engine.makeContext()
        let evaluation = EngineRequest.evaluateAccessControl(
            PresenceLedger.check,
            operation: .confirmPresence,
            missing: [[.biometryAny]],
            context: context,
            reason: "read",
            interactionAllowed: true,
            target: PromptTarget(kind: .custom)
        )
        guard case .authenticationFailure = responder.run(evaluation, conversation: Self.conversation(.unsandboxed))
        else {
            Issue.record("a scripted match proved presence")
            return
        }
        #expect(Self.code(try read("Notes", as: .unsandboxed, context: context)) == .authenticationNeeded)

        // The passcode does; locking the keychain forgets it.
        guard case .done = responder.run(evaluation, conversation: Self.conversation(.unsandboxed, answering: "2468"))
        else {
            Issue.record("the passcode did not prove presence")
            return
        }
        #expect(Self.data(try read("Notes", as: .unsandboxed, context: context)) == "Notes secret")
        _ = responder.run(.lock, conversation: Self.conversation(.unsandboxed))
        #expect(registry.presence.isPresent(context) == false)
    }

    @Test func aSandboxedAppCannotLockUnlockOrSetUpTheKeychain() throws {
        let requests: [EngineRequest] = [
            .lock, .unlock(passcode: "0000", endsBiometricLockout: true),
            .setPasscode(passcode: "0000", current: nil, reportsProgress: false), .removePasscode(current: "0000"),
            .changeSimulatedSensor(.install(.touchID)), .applications,
        ]
        for request in requests {
            #expect(
                Self.code(responder.run(request, conversation: Self.conversation(Self.notes))) == .missingEntitlement,
                "\(request)"
            )
            #expect(
                Self.code(responder.run(request, conversation: Self.conversation(.unverifiable)))
                    == .missingEntitlement,
                "\(request)"
            )
        }
        #expect(try engine.lockState().hasPasscode == false)
        // What it may ask: its items, the lock state.
        #expect(Self.code(try add("Notes", as: Self.notes)) == nil)
        guard case .lockState = responder.run(.lockState, conversation: Self.conversation(Self.notes)) else {
            Issue.record("an app could not read the lock state")
            return
        }
    }

    @Test func anAccessGroupThatIsNotAStringIsRefused() throws {
        _ = try add("Mine", as: .unsandboxed)
        var query = try Self.query([kSecAttrService as String: "Mine"], for: .update)
        query.accessGroups = AccessGroups(["default", "*"])
        var changes = ItemUpdate()
        changes.attributes[QueryKey.accessGroup] = .data(Data("flatpak:org.example.Notes".utf8))
        #expect(
            Self.code(responder.run(.update(query, changes), conversation: Self.conversation(.unsandboxed)))
                == .invalidParameter
        )
        var search = try Self.query([kSecAttrService as String: "Mine"], for: .copyMatching)
        search.attributes[QueryKey.accessGroup] = .data(Data("default".utf8))
        #expect(
            Self.code(responder.run(.search(search), conversation: Self.conversation(.unsandboxed)))
                == .invalidParameter
        )
    }

    @Test func grantingNeedsThePasscodeWhenOneIsSet() throws {
        try engine.setPasscode("2468", current: nil, progress: nil)
        let grant = EngineRequest.grantAccessGroups(
            ["default"],
            application: "org.example.Notes",
            target: PromptTarget(kind: .custom)
        )
        guard
            case .authenticationFailure = responder.run(
                grant,
                conversation: Self.conversation(.unsandboxed, answering: "1357")
            )
        else {
            Issue.record("a wrong passcode granted a group")
            return
        }
        #expect(registry.applications()["org.example.Notes"] ?? [] == [])
        guard case .done = responder.run(grant, conversation: Self.conversation(.unsandboxed, answering: "2468")) else {
            Issue.record("the passcode did not grant the group")
            return
        }
        // The grant outlives the responder: it is an item of the keychain, sealed like the user's.
        let reopened = ApplicationRegistry(engine: engine)
        #expect(reopened.applications()["org.example.Notes"] == ["default"])
        #expect(
            reopened.grant(for: Self.notes, present: false).groups.groups == ["flatpak:org.example.Notes", "default"]
        )
    }
}
