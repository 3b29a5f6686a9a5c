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

package import KeychainDevice

extension DeviceConfiguration {
    /// The `security` tool's configuration from `environment`: it may see every access group
    /// (`"*"`), as macOS's tool sees every item, and new items go to the first configured group;
    /// `KEYCHAIN_ACCESS_GROUPS` overrides both.
    ///
    /// The full tool and `security-lookup` start from it.
    package static func securityTool(environment: [String: String]) -> DeviceConfiguration {
        fromEnvironment(environment, defaultGroups: ["default", "*"])
    }
}
