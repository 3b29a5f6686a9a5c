// swift-tools-version:6.1
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

import PackageDescription

// The benchmark: a separate package so that the library's users never build it. `run.sh` builds
// it in release and writes BENCHMARKS.md; see the README there.
let package = Package(
    name: "swift-keychain-benchmarks",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "keychain-bench", targets: ["KeychainBenchmark"])],
    dependencies: [
        // Named, because a path dependency's identity is otherwise its directory's name.
        .package(name: "swift-keychain", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "KeychainBenchmark",
            dependencies: [
                .product(name: "KeychainServices", package: "swift-keychain"),
                .product(name: "LocalAuth", package: "swift-keychain"),
                .product(name: "SoftwareEnclave", package: "swift-keychain"),
                .product(name: "KeychainDevice", package: "swift-keychain"),
                .product(name: "KeychainTesting", package: "swift-keychain"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
            ]
        )
    ]
)
