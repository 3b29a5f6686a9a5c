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

import KeychainCore

/// Introduces the evaluator to `LinkedTrustEvaluator`; the constructor in `CKeychainTrustLoader`
/// calls it when the program loads.
@_cdecl("swift_keychain_register_trust_evaluator")
public func registerTrustEvaluator() {
    LinkedTrustEvaluator.register(CertificateTrustEvaluator())
}
