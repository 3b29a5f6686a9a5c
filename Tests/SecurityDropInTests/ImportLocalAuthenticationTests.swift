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
import KeychainTesting
import Security
import Testing

#if canImport(LocalAuthentication)
import LocalAuthentication

/// Code written for Apple platforms, `import LocalAuthentication` and `#if canImport(LocalAuthentication)`
/// unchanged, builds and runs on Linux (compat-surface.md §1: EllipticCurveKeyPair, Valet, the Apple sample).
@Suite struct ImportLocalAuthenticationTests {
    @Test func errorsBridgeAsOnApplePlatforms() {
        do {
            throw LAError(.userCancel)
        } catch LAError.userCancel {
            // `catch LAError.code` matches.
        } catch {
            Issue.record("catch LAError.userCancel did not match")
        }
        let thrown: any Error = NSError(domain: LAErrorDomain, code: LAError.biometryLockout.rawValue)
        #expect((thrown as? LAError)?.code == .biometryLockout)
        #expect(LAError.authenticationFailed.rawValue == -1)
        #expect(LAError.Code.notInteractive.rawValue == -1004)
        let bridged = LAError(.biometryNotEnrolled) as NSError
        #expect(bridged.domain == "com.apple.LocalAuthentication" && bridged.code == -7)
        #expect((NSError(domain: "other", code: -2) as any Error as? LAError) == nil)
        #expect(Set([LAError(.userCancel), LAError(.userCancel)]).count == 1)
    }

    @Test func contextsAreHashableAndTheirPropertiesFollowApple() {
        let context = LAContext()
        let valetQuery: [String: AnyHashable] = [kSecUseAuthenticationContext as String: context]
        #expect(valetQuery[kSecUseAuthenticationContext as String] as? LAContext === context)
        #expect(context.biometryType == .none)
        context.touchIDAuthenticationAllowableReuseDuration = 3600
        #expect(
            context.touchIDAuthenticationAllowableReuseDuration == LATouchIDAuthenticationMaximumAllowableReuseDuration
        )
        context.touchIDAuthenticationAllowableReuseDuration = -5
        #expect(context.touchIDAuthenticationAllowableReuseDuration == 0)
        #expect(!context.isCredentialSet(.applicationPassword))
        #expect(context.setCredential(Data("pw".utf8), type: .applicationPassword))
        #expect(context.isCredentialSet(.applicationPassword))
        #expect(context.setCredential(nil, type: .applicationPassword))
        #expect(!context.isCredentialSet(.applicationPassword))
        #expect(LAPolicy.deviceOwnerAuthenticationWithBiometrics.rawValue == 1)
        #expect(LAAccessControlOperation.useItem.rawValue == 1 && LACredentialType.applicationPassword.rawValue == 0)
        #expect(LABiometryType.opticID.rawValue == 4)
    }

    /// canEvaluatePolicy for each policy on devices of three kinds.
    @Test func preflightReportsWhatIsMissing() throws {
        func failure(_ policy: LAPolicy) -> LAError.Code? {
            var error: NSError?
            let context = LAContext()
            if context.canEvaluatePolicy(policy, error: &error) { return nil }
            return (error as? LAError)?.code
        }
        try TemporaryKeychain().run {
            #expect(failure(.deviceOwnerAuthenticationWithBiometrics) == .biometryNotAvailable)
            #expect(failure(.deviceOwnerAuthentication) == .passcodeNotSet)
            #expect(failure(.deviceOwnerAuthenticationWithCompanion) == .companionNotAvailable)
        }
        let enrolled = try TemporaryKeychain(passcode: "1234", biometry: .faceID, enrolled: ["face"])
        try enrolled.run {
            #expect(failure(.deviceOwnerAuthenticationWithBiometrics) == nil)
            #expect(failure(.deviceOwnerAuthentication) == nil)
            #expect(failure(.deviceOwnerAuthenticationWithBiometricsOrCompanion) == nil)
            let context = LAContext()
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil))
            #expect(context.biometryType == .faceID)
            let state = try #require(context.evaluatedPolicyDomainState)
            #expect(context.domainState.biometry.stateHash == state)
            try enrolled.sensor.enroll("alternate")
            #expect(LAContext().domainState.biometry.stateHash != state)
        }
    }

    @Test func evaluationAsyncAndWithReply() async throws {
        let keychain = try TemporaryKeychain(passcode: "1234", biometry: .touchID, enrolled: ["thumb"])
        try await keychain.run {
            let context = LAContext()
            try keychain.queueBiometricOutcomes([.match])
            #expect(
                try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
            )
            try keychain.queueBiometricOutcomes([.fallback])
            await #expect(throws: LAError.self) {
                try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
            }
            // An empty reason is refused (Apple raises); interaction not allowed fails as not interactive.
            await #expect(throws: (any Error).self) {
                try await LAContext().evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "")
            }
            let quiet = LAContext()
            quiet.interactionNotAllowed = true
            do {
                _ = try await quiet.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Unlock")
                Issue.record("a non-interactive context evaluated")
            } catch let error as LAError {
                #expect(error.code == .notInteractive)
            }
            // After invalidate(), every evaluation fails with invalidContext.
            context.invalidate()
            context.invalidate()
            do {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock")
                Issue.record("an invalidated context evaluated")
            } catch LAError.invalidContext {
            }
        }
    }
}
#else
@Suite struct ImportLocalAuthenticationTests {
    @Test func localAuthenticationIsImportable() {
        Issue.record("#if canImport(LocalAuthentication) is false")
    }
}
#endif
