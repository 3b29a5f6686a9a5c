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

extension Keychain {
    /// What SQLite's integrity check reports about the database (empty when it is sound): for the
    /// crash and concurrency harnesses, which check every keychain they leave behind.
    package func integrityProblems() throws(KeychainCoreError) -> [String] {
        try store.integrityProblems()
    }
}
