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
import KeychainTPM
package import Logging

extension SecretStores {
    /// The stores of the keychain home `directory`: the TPM's for a home bound to one
    /// (`device.tpm`), the files for a home made with them (`device.key`), and for a new home the
    /// TPM `choice` names when it answers, else the files (the reason is logged and shown by
    /// `security status`).
    package static func choose(in directory: URL, tpm choice: TPMChoice, logger: Logger) -> SecretStores {
        let directory = directory.standardizedFileURL
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let configuration = choice.configuration
        if names.contains(TPMHome.fileName) || names.contains(where: TPMHome.isStagedName) {
            // Bound to a TPM: that TPM or nothing (an unreachable one fails each operation clearly).
            let tcti = (try? configuration.get()) ?? "device:\(TPMChoice.systemDevice)"
            return tpmStores(TPMHome(directory: directory, configuration: tcti))
        }
        let reason: String
        switch configuration {
        case .failure(let unavailable):
            reason = unavailable.reason
        case .success(let tcti) where names.contains(FileDeviceSecretStore.fileName):
            reason = "this keychain was made before the TPM was used (\(tcti))"
        case .success(let tcti):
            do {
                _ = try TPMConnection.using(tcti) { tpm throws(TPMError) in try tpm.identity() }
                return tpmStores(TPMHome(directory: directory, configuration: tcti))
            } catch {
                reason = error.description
                logger.warning("no TPM for the keychain, the device secret stays in a file: \(reason)")
            }
        }
        return SecretStores(
            device: FileDeviceSecretStore(directory: directory, reason: reason),
            keybag: FileKeybagSecretStore(directory: directory)
        )
    }

    /// The TPM's stores for `home`.
    package static func tpmStores(_ home: TPMHome) -> SecretStores {
        SecretStores(device: TPMDeviceSecretStore(home: home), keybag: TPMKeybagSecretStore(home: home))
    }
}
