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

#ifndef C_KEYCHAIN_TRUST_LOADER_H
#define C_KEYCHAIN_TRUST_LOADER_H

void swift_keychain_register_trust_evaluator(void);

#endif
