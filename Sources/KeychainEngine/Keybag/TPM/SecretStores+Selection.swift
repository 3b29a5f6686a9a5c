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

package import Foundation
package import KeychainContract
package import KeychainCore
import KeychainTPM
package import Logging

extension SecretStores {
    /// The stores of the keychain home `directory`, in the order to try them: the TPM's for a home bound to one
    /// (`device.tpm`), the files for a home made with them (`device.key`), and for a new home the
    /// TPM `choice` names when it answers, else the files (the reason is logged and shown by
    /// `security status`).
    ///
    /// A home holding both a TPM binding and a file secret is one whose move between the two was
    /// interrupted: both are returned; the one that opens the keybag is the keychain's, and the
    /// other is erased (``Keychain``).
    package static func candidates(in directory: URL, tpm choice: TPMChoice, logger: Logger) -> [SecretStores] {
        let directory = directory.standardizedFileURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let configuration = choice.configuration
        if names.contains(TPMHome.fileName) || names.contains(where: TPMHome.isStagedName) {
            // Bound to a TPM: that TPM or nothing (an unreachable one fails each operation clearly).
            let tcti = (try? configuration.get()) ?? "device:\(TPMChoice.systemDevice)"
            let bound = tpmStores(TPMHome(directory: directory, configuration: tcti))
            guard names.contains(where: { $0.hasPrefix(FileDeviceSecretStore.fileName) }) else { return [bound] }
            // An installed binding is tried first; a staged one (a move into the TPM that may not
            // have committed) after the files, so that a TPM that does not answer never keeps a
            // keychain still in its files from opening.
            return names.contains(TPMHome.fileName) ? [bound, .files(in: directory)] : [.files(in: directory), bound]
        }
        return choose(in: directory, names: names, configuration: configuration, logger: logger)
    }

    /// The stores of a home not bound to a TPM: the TPM's (then the files, should it fail to make
    /// the keychain's keys) for a new keychain when the TPM answers, else the files.
    private static func choose(
        in directory: URL,
        names: [String],
        configuration: Result<String, TPMChoice.Unavailable>,
        logger: Logger
    ) -> [SecretStores] {
        let reason: String
        switch configuration {
        case .failure(let unavailable):
            reason = unavailable.reason
        case .success(let tcti) where names.contains(FileDeviceSecretStore.fileName):
            reason = "this keychain was made before the TPM was used (\(tcti))"
        case .success(let tcti):
            do {
                _ = try TPMConnection.using(tcti) { tpm throws(TPMError) in try tpm.identity() }
                return [
                    tpmStores(TPMHome(directory: directory, configuration: tcti)),
                    // A TPM that answers but cannot hold the keychain (its NV full): the files,
                    // until an unlock moves the keychain in.
                    SecretStores(
                        device: FileDeviceSecretStore(directory: directory, reason: "the TPM could not make its keys"),
                        keybag: FileKeybagSecretStore(directory: directory)
                    ),
                ]
            } catch {
                reason = error.description
                logger.warning("no TPM for the keychain, the device secret stays in a file: \(reason)")
            }
        }
        return [
            SecretStores(
                device: FileDeviceSecretStore(directory: directory, reason: reason),
                keybag: FileKeybagSecretStore(directory: directory)
            )
        ]
    }

    /// The stores of the TPM `choice` names for the home `directory`, if that TPM answers.
    /// - Throws: ``KeychainError/Code/notAvailable`` with the reason there is none.
    package static func reachableTPM(for directory: URL, tpm choice: TPMChoice) throws(KeychainError) -> SecretStores {
        let tcti: String
        switch choice.configuration {
        case .failure(let unavailable):
            throw KeychainError(.notAvailable, "no TPM: \(unavailable.reason)")
        case .success(let configuration):
            tcti = configuration
        }
        do {
            _ = try TPMConnection.using(tcti) { tpm throws(TPMError) in try tpm.identity() }
        } catch {
            throw KeychainError(.notAvailable, "no TPM: \(error)")
        }
        return tpmStores(TPMHome(directory: directory.standardizedFileURL, configuration: tcti))
    }

    /// What a new keychain's secrets would be kept in, as the daemon's log says at its start:
    /// "TPM 2.0 (maker, firmware …) through TCTI" or "files (no TPM: reason)".
    package static func describeNewKeychains(tpm choice: TPMChoice) -> String {
        switch choice.configuration {
        case .failure(let unavailable):
            return "files (no TPM: \(unavailable.reason))"
        case .success(let tcti):
            do {
                let identity = try TPMConnection.using(tcti) { tpm throws(TPMError) in try tpm.identity() }
                return "TPM 2.0 (\(identity)) through \(tcti)"
            } catch {
                return "files (no TPM: \(error))"
            }
        }
    }

    /// The TPM's stores for `home`.
    package static func tpmStores(_ home: TPMHome) -> SecretStores {
        SecretStores(device: TPMDeviceSecretStore(home: home), keybag: TPMKeybagSecretStore(home: home))
    }
}
