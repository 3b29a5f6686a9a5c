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

package import KeychainCore

/// The daemon's records of sandboxed apps, for the `security access-group` commands.
extension WireEngine {
    /// The sandboxed apps the daemon has seen, with the groups granted to each.
    package func applications() throws(KeychainError) -> [String: [String]] {
        let response = try send(.applications)
        guard case .applications(let applications) = response else { throw Self.unexpected(response) }
        return applications
    }

    /// Grants sandboxed app `application` the `groups`; the daemon asks for the passcode through
    /// `prompt` (this engine's own when `nil`) where it cannot show its own.
    package func grantAccessGroups(
        _ groups: [String],
        to application: String,
        prompt: PasscodePrompt? = nil
    ) throws(KeychainError) {
        let target = PromptTarget.current(for: prompt ?? self.prompt)
        let response = try send(.grantAccessGroups(groups, application: application, target: target), prompt: prompt)
        switch response {
        case .done: return
        case .authenticationFailure(let failure): throw failure.keychainError
        default: throw Self.unexpected(response)
        }
    }

    /// Takes `groups` back from sandboxed app `application`.
    package func revokeAccessGroups(_ groups: [String], from application: String) throws(KeychainError) {
        try expectDone(.revokeAccessGroups(groups, application: application))
    }

    /// Runs a `security sync` command in the daemon; the daemon asks for the passcode through
    /// `prompt` (this engine's own when `nil`) where the command needs it.
    package func sync(_ command: SyncCommand, prompt: PasscodePrompt? = nil) throws(KeychainError) -> SyncReport {
        let target = PromptTarget.current(for: prompt ?? self.prompt)
        let response = try send(.sync(command, target: target), prompt: prompt)
        switch response {
        case .sync(let report): return report
        case .authenticationFailure(let failure): throw failure.keychainError
        default: throw Self.unexpected(response)
        }
    }
}
