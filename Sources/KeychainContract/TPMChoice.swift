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

/// Which TPM 2.0 a new keychain is bound to, as `KEYCHAIN_TPM` says: a TCTI configuration
/// (`device:/dev/tpmrm0`, `swtpm:path=/run/swtpm/sock`), `none` for the files, or — unset — the
/// system's resource manager when this process may use it.
///
/// It is read from the environment of the process that runs the engine (the daemon's own, never
/// a client's). A keychain already bound to a TPM keeps it; one made with the files keeps those.
package enum TPMChoice: Sendable, Hashable {
    /// No TPM: the device secret in a file.
    case none
    /// `/dev/tpmrm0` when this process can open it, else the files.
    case system
    /// This TCTI configuration.
    case tcti(String)

    /// The kernel's resource manager.
    package static let systemDevice = "/dev/tpmrm0"

    /// The choice `KEYCHAIN_TPM` names.
    package static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> TPMChoice {
        switch environment["KEYCHAIN_TPM"] {
        case nil, "": .system
        case "none": .none
        case let value?: .tcti(value)
        }
    }

    /// The TCTI to use, or why there is none.
    package var configuration: Result<String, Unavailable> {
        switch self {
        case .none:
            return .failure(Unavailable(reason: "KEYCHAIN_TPM=none"))
        case .tcti(let configuration):
            return .success(configuration)
        case .system:
            guard FileManager.default.fileExists(atPath: Self.systemDevice) else {
                return .failure(Unavailable(reason: "no \(Self.systemDevice)"))
            }
            guard access(Self.systemDevice, R_OK | W_OK) == 0 else {
                return .failure(Unavailable(reason: "no permission to use \(Self.systemDevice) (group tss)"))
            }
            return .success("device:\(Self.systemDevice)")
        }
    }

    /// Why no TPM is used.
    package struct Unavailable: Error, Sendable, Hashable {
        package let reason: String
    }
}
