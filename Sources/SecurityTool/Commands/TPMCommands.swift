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

import ArgumentParser
import Foundation
import KeychainDevice

/// `security tpm`: moves the keychain's secrets into the TPM, or back to files.
struct TPMCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tpm",
        abstract: "Move the keychain's secrets into the TPM 2.0, or back to files.",
        discussion: """
            The TPM is the one KEYCHAIN_TPM names (a TCTI: device:/dev/tpmrm0, swtpm:path=…),             else /dev/tpmrm0 when this user may open it (group tss). A keychain in files moves             into the TPM by itself at its next unlock once there is one; `security status`             names the store in use. Moving either way asks for the passcode and seals the             passcode-protected items again; nothing is lost.
            """,
        subcommands: [Enroll.self, Remove.self]
    )

    struct Enroll: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enroll",
            abstract: "Move the keychain's device secret, keybag secret and passcode check into the TPM."
        )
        @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

        func run() throws {
            try TPMCommands.move(toTPM: true, home: keychain)
            print("the keychain is in the TPM")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Move the keychain's secrets out of the TPM, back to files in the keychain home.",
            discussion: """
                Afterwards a copy of the home's files is enough to guess the passcode on another                 machine, as before the TPM; do this before clearing or replacing the TPM.
                """
        )
        @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

        func run() throws {
            try TPMCommands.move(toTPM: false, home: keychain)
            print("the keychain's secrets are in files")
        }
    }

    /// Asks for the passcode (when one is set) and moves, showing the items sealed again.
    static func move(toTPM: Bool, home: String?) throws {
        let context = toTPM ? "tpm enroll" : "tpm remove"
        guard let device = try Session.openExisting(home: home) else {
            Terminal.printError("security: \(context): there is no keychain yet")
            throw ExitCode(1)
        }
        let passcode = (try? device.hasPasscode()) == true ? try Passcode.readCurrent() : nil
        do {
            try device.moveSecrets(toTPM: toTPM, passcode: passcode, progress: progress)
        } catch let error as KeychainDeviceError where error.code == .wrongPasscode || error.code == .backoff {
            Terminal.printError("security: \(context): \(Session.describe(error))")
            throw Session.StatusFailure(status: -25293)  // errSecAuthFailed
        } catch {
            Terminal.printError("security: \(context): \(Session.describe(error))")
            throw ExitCode(1)
        }
    }

    /// Reports, on standard error, every tenth of the items sealed again.
    static let progress: @Sendable (Int, Int) -> Void = { completed, total in
        guard total > 0, completed == total || completed % max(1, total / 10) < 1000 else { return }
        Terminal.printError("moving: \(completed) of \(total) items sealed again")
    }
}
