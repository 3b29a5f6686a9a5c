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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import LocalAuthentication
#else
public import Foundation
import KeychainCore
package import KeychainDevice
public import KeychainServices

/// A mechanism for evaluating authentication policies and access controls.
///
/// A context evaluates a policy (biometry, the device passcode) or an item's access control,
/// prompting the user as needed. A context that evaluated successfully can be passed to keychain
/// calls under `kSecUseAuthenticationContext`, which then do not prompt again until the context
/// is invalidated.
///
/// - Note: On Linux the biometric sensor is the keychain's simulated sensor (scriptable from tests
///   and from `security biometry`), and the passcode is asked through the device's passcode prompt
///   (the terminal by default). `touchIDAuthenticationAllowableReuseDuration` is stored and clamped
///   but has no effect: there is no Lock Screen biometric unlock to reuse.
open class LAContext: NSObject, @unchecked Sendable {
    // Every mutable property lives in `storage`, behind a mutex.
    private struct Storage {
        var handle: ContextHandle?
        var isInvalidated = false
        var localizedReason = ""
        var localizedFallbackTitle: String?
        var localizedCancelTitle: String?
        var interactionNotAllowed = false
        var reuseDuration: TimeInterval = 0
        var biometryType: LABiometryType = .none
        var evaluatedPolicyDomainState: Data?
        /// The application password set before the context was bound to a keychain.
        var pendingCredential: Data?
        var isCredentialSet = false
    }

    private let storage = LockedState(Storage())

    // MARK: Initialization

    public override init() {
        super.init()
    }

    // MARK: Configuring the context

    /// The reason for authentication shown when a keychain call supplies none.
    open var localizedReason: String {
        get { storage.withLock { $0.localizedReason } }
        set { storage.withLock { $0.localizedReason = newValue } }
    }

    /// The title of the fallback button; `nil` means "Enter Password", an empty string hides it.
    open var localizedFallbackTitle: String? {
        get { storage.withLock { $0.localizedFallbackTitle } }
        set { storage.withLock { $0.localizedFallbackTitle = newValue } }
    }

    /// The title of the cancel button; `nil` or empty means "Cancel".
    open var localizedCancelTitle: String? {
        get { storage.withLock { $0.localizedCancelTitle } }
        set { storage.withLock { $0.localizedCancelTitle = newValue } }
    }

    /// Whether the context may show authentication UI.
    ///
    /// When `true`, evaluations that need the user fail with `LAError.notInteractive` and keychain
    /// calls with `errSecInteractionNotAllowed`.
    open var interactionNotAllowed: Bool {
        get { storage.withLock { $0.interactionNotAllowed } }
        set { storage.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// How long after a device unlock with biometry that unlock may satisfy a biometric evaluation.
    ///
    /// Values above ``LATouchIDAuthenticationMaximumAllowableReuseDuration`` (five minutes) are clamped.
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { storage.withLock { $0.reuseDuration } }
        set {
            let clamped =
                newValue.isNaN ? 0 : min(max(newValue, 0), LATouchIDAuthenticationMaximumAllowableReuseDuration)
            storage.withLock { $0.reuseDuration = clamped }
        }
    }

    // MARK: Biometry

    /// The kind of biometry the device supports; set by ``canEvaluatePolicy(_:error:)``.
    open var biometryType: LABiometryType {
        storage.withLock { $0.biometryType }
    }

    /// The state of the enrolled biometry when a biometric policy was last evaluated (or preflighted)
    /// successfully; it changes when fingers or faces are added or removed.
    open var evaluatedPolicyDomainState: Data? {
        storage.withLock { $0.evaluatedPolicyDomainState }
    }

    /// The current state of the authentication domains.
    open var domainState: LADomainState {
        let (kind, hash) = (try? deviceState()) ?? (LABiometryType.none, nil)
        return LADomainState(
            biometry: LADomainStateBiometry(biometryType: kind, stateHash: hash),
            companion: LADomainStateCompanion(availableCompanionTypes: [], stateHash: nil),
            stateHash: hash
        )
    }

    // MARK: Evaluating policies

    /// Assesses whether authentication can proceed for a policy.
    ///
    /// - Parameters:
    ///   - policy: The policy to evaluate.
    ///   - error: On failure, why (`LAError.biometryNotAvailable`, `.biometryNotEnrolled`,
    ///     `.biometryLockout`, `.passcodeNotSet`, …).
    /// - Returns: Whether the policy can be evaluated.
    @discardableResult
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        let handle: ContextHandle
        do {
            handle = try contextHandle()
        } catch let failure {
            error?.pointee = Self.nsError(failure)
            return false
        }
        let state = try? deviceState()
        storage.withLock { $0.biometryType = state?.0 ?? .none }
        if let failure = handle.engine.preflight(AuthenticationPolicy(policy), for: handle.reference) {
            error?.pointee = Self.nsError(failure)
            return false
        }
        if policy == .deviceOwnerAuthenticationWithBiometrics
            || policy == .deviceOwnerAuthenticationWithBiometricsOrCompanion
        {
            storage.withLock { $0.evaluatedPolicyDomainState = state?.1 }
        }
        return true
    }

    /// Evaluates a policy, prompting the user as needed; `reply` runs on a private queue.
    open func evaluatePolicy(
        _ policy: LAPolicy,
        localizedReason: String,
        reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        evaluate(localizedReason: localizedReason, reply: reply) {
            (handle, reason, interactive) throws(AuthenticationFailure) in
            try handle.engine.evaluate(
                AuthenticationPolicy(policy),
                for: handle.reference,
                reason: reason,
                interactionAllowed: interactive
            )
            if policy != .deviceOwnerAuthentication, let state = try? self.deviceState() {
                self.storage.withLock { $0.evaluatedPolicyDomainState = state.1 }
            }
        }
    }

    /// Evaluates a policy, prompting the user as needed.
    ///
    /// - Returns: `true` on success.
    /// - Throws: An `LAError`.
    @discardableResult
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            evaluatePolicy(policy, localizedReason: localizedReason) { success, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: success) }
            }
        }
    }

    /// Evaluates an access control for an operation, prompting the user as needed; afterwards the
    /// context can be used with keychain calls without prompting again.
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl,
        operation: LAAccessControlOperation,
        localizedReason: String,
        reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let engineAccessControl = accessControl.accessControl
        let engineOperation = AccessOperation(operation)
        evaluate(localizedReason: localizedReason, reply: reply) {
            (handle, reason, interactive) throws(AuthenticationFailure) in
            try handle.engine.evaluate(
                engineAccessControl,
                operation: engineOperation,
                missing: nil,
                for: handle.reference,
                reason: reason,
                interactionAllowed: interactive
            )
        }
    }

    /// Evaluates an access control for an operation, prompting the user as needed.
    @discardableResult
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl,
        operation: LAAccessControlOperation,
        localizedReason: String
    ) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            evaluateAccessControl(accessControl, operation: operation, localizedReason: localizedReason) {
                success,
                error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: success) }
            }
        }
    }

    /// Invalidates the context: an evaluation in progress fails with `LAError.appCancel`, later
    /// evaluations with `LAError.invalidContext`.
    ///
    /// Calling it again does nothing.
    open func invalidate() {
        let handle = storage.withLock { storage -> ContextHandle? in
            storage.isInvalidated = true
            storage.pendingCredential = nil
            storage.isCredentialSet = false
            return storage.handle
        }
        if let handle { handle.engine.invalidateContext(handle.reference) }
    }

    // MARK: Credentials

    /// Sets the application password (or, with `nil`, removes it) for items protected with
    /// `kSecAccessControlApplicationPassword`.
    ///
    /// - Returns: Whether the credential was set.
    @discardableResult
    open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
        guard type == .applicationPassword else { return false }
        let handle = storage.withLock { storage -> ContextHandle? in
            guard !storage.isInvalidated else { return nil }
            storage.isCredentialSet = credential != nil
            // Until the context is bound to a keychain it keeps the password; then only the engine does.
            storage.pendingCredential = storage.handle == nil ? credential : nil
            return storage.handle
        }
        if let handle {
            do {
                try handle.engine.setApplicationPassword(credential, for: handle.reference)
            } catch {
                return false
            }
        }
        return !isInvalidatedNow
    }

    /// Whether a credential of `type` is set.
    @discardableResult
    open func isCredentialSet(_ type: LACredentialType) -> Bool {
        guard type == .applicationPassword else { return false }
        return storage.withLock { $0.isCredentialSet }
    }

    // MARK: Private

    private var isInvalidatedNow: Bool { storage.withLock { $0.isInvalidated } }

    /// Runs an evaluation on a private queue and replies there.
    private func evaluate(
        localizedReason: String,
        reply: @escaping @Sendable (Bool, (any Error)?) -> Void,
        _ body: @escaping @Sendable (ContextHandle, String, Bool) throws(AuthenticationFailure) -> Void
    ) {
        // Resolve the keychain on the caller's task (it may be task-local), then evaluate off it.
        let handle: ContextHandle
        do {
            handle = try contextHandle()
        } catch {
            DispatchQueue.global().async { reply(false, Self.nsError(error)) }
            return
        }
        guard !localizedReason.isEmpty else {
            let error = NSError(
                domain: LAErrorDomain,
                code: AuthenticationFailure.Code.invalidParameter.rawValue,
                userInfo: [NSLocalizedDescriptionKey: "localizedReason must be a non-empty string"]
            )
            DispatchQueue.global().async { reply(false, error) }
            return
        }
        let interactive = !interactionNotAllowed
        DispatchQueue.global().async {
            do throws(AuthenticationFailure) {
                try body(handle, localizedReason, interactive)
                reply(true, nil)
            } catch {
                reply(false, Self.nsError(error))
            }
        }
    }

    /// The sensor kind and enrolment hash of the device this context evaluates on.
    private func deviceState() throws -> (LABiometryType, Data?) {
        let state = try contextHandle().engine.biometryState()
        let kind = state.kind.flatMap { LABiometryType(rawValue: $0.biometryTypeRawValue) } ?? .none
        return (kind, state.enrolmentIdentity)
    }

    private static func nsError(_ failure: AuthenticationFailure) -> NSError {
        NSError(
            domain: LAErrorDomain,
            code: failure.code.rawValue,
            userInfo: [NSLocalizedDescriptionKey: failure.message]
        )
    }
}

// MARK: - Keychain integration

extension LAContext: AuthenticationContextProviding {
    package var allowsInteraction: Bool { !interactionNotAllowed }
    package var defaultReason: String { localizedReason }

    /// The context's handle, created on first use in the keychain of the calling task; an
    /// application password set before then goes to the engine now.
    package func contextHandle() throws(AuthenticationFailure) -> ContextHandle {
        let existing = storage.withLock { storage -> (ContextHandle?, Bool) in (storage.handle, storage.isInvalidated) }
        if existing.1 { throw AuthenticationFailure(.invalidContext, "the context was invalidated") }
        if let handle = existing.0 { return handle }
        let created: ContextHandle
        do {
            created = try ContextHandle(engine: Device.current().engine)
        } catch {
            throw AuthenticationFailure(.biometryNotAvailable, "cannot open the keychain: \(error.message)")
        }
        let (handle, pending) = storage.withLock { storage -> (ContextHandle, Data?) in
            if let raced = storage.handle { return (raced, nil) }
            storage.handle = created
            defer { storage.pendingCredential = nil }
            return (created, storage.pendingCredential)
        }
        if let pending { try handle.engine.setApplicationPassword(pending, for: handle.reference) }
        return handle
    }
}

extension AuthenticationPolicy {
    init(_ policy: LAPolicy) {
        switch policy {
        case .deviceOwnerAuthenticationWithBiometrics: self = .biometrics
        case .deviceOwnerAuthentication: self = .deviceOwner
        case .deviceOwnerAuthenticationWithCompanion: self = .companion
        case .deviceOwnerAuthenticationWithBiometricsOrCompanion: self = .biometricsOrCompanion
        case .deviceOwnerAuthenticationWithWristDetection: self = .wristDetection
        }
    }
}

extension AccessOperation {
    init(_ operation: LAAccessControlOperation) {
        switch operation {
        case .createItem: self = .createItem
        case .useItem: self = .useItem
        case .createKey: self = .createKey
        case .useKeySign: self = .useKeySign
        case .useKeyDecrypt: self = .useKeyDecrypt
        case .useKeyKeyExchange: self = .useKeyKeyExchange
        }
    }
}
#endif
