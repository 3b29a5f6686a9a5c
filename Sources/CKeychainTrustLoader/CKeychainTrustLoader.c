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

// The trust evaluator stands on swift-certificates' X509, which imports `Security` when it can:
// the mirror modules cannot import it without a cycle. They link it all the same, and this
// constructor introduces it to KeychainCore's `LinkedTrustEvaluator` before `main` runs.

#include "CKeychainTrustLoader.h"

__attribute__((constructor)) static void c_keychain_load_trust_evaluator(void) {
    swift_keychain_register_trust_evaluator();
}
