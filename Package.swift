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

// To develop the Linux implementation on an Apple platform, set this to true: the mirror modules
// then build their own API instead of re-exporting Security and LocalAuthentication.
let development = false

// On Apple platforms the mirror modules re-export the system frameworks (swift-crypto's guard).
// Everywhere else, and in development mode, they build the API themselves.
#if canImport(Darwin)
let buildsOwnAPI = development
#else
let buildsOwnAPI = true
#endif

var mirrorSettings: [SwiftSetting] = [.define("KEYCHAIN_IN_SWIFTPM")]
if buildsOwnAPI {
    mirrorSettings.append(.define("KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API"))
}

let package = Package(
    name: "swift-keychain",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "KeychainServices", targets: ["KeychainServices"]),
        .library(name: "LocalAuth", targets: ["LocalAuth"]),
        .library(name: "KeychainDevice", targets: ["KeychainDevice"]),
        .library(name: "KeychainTesting", targets: ["KeychainTesting"]),
        .executable(name: "security", targets: ["SecurityTool"]),
        .executable(name: "keychain-stress", targets: ["KeychainStress"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
    ],
    targets: [
        // System calls Swift cannot make itself (prctl is variadic): core dumps, locked memory.
        .target(name: "CKeychainSystem"),
        // The engine: schema, store, keybag, item crypto. No API promise.
        .target(
            name: "KeychainCore",
            dependencies: [
                "CKeychainSystem",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The Linux side of "Settings": where the keychain lives, passcode, lock state.
        .target(
            name: "KeychainDevice",
            dependencies: [
                "KeychainCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Mirror of Security's keychain API.
        .target(
            name: "KeychainServices",
            dependencies: ["KeychainCore", "KeychainDevice"],
            swiftSettings: mirrorSettings
        ),
        // Mirror of LocalAuthentication.
        .target(
            name: "LocalAuth",
            dependencies: ["KeychainCore", "KeychainDevice", "KeychainServices"],
            swiftSettings: mirrorSettings
        ),
        // Test kit: temporary keychains for any project's tests.
        .target(
            name: "KeychainTesting",
            dependencies: ["KeychainCore", "KeychainDevice", "KeychainServices"]
        ),
        .executableTarget(
            name: "SecurityTool",
            dependencies: [
                "KeychainServices",
                "KeychainDevice",
                "KeychainCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The reliability harnesses (RELIABILITY.md): crash, concurrency, fuzzing.
        .executableTarget(
            name: "KeychainStress",
            dependencies: [
                "KeychainServices",
                "KeychainDevice",
                "KeychainCore",
                "KeychainTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "KeychainServicesTests",
            dependencies: [
                "KeychainServices", "LocalAuth", "KeychainTesting",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Vectors")],
            swiftSettings: mirrorSettings
        ),
        .testTarget(
            name: "KeychainCoreTests",
            dependencies: [
                "KeychainCore", "KeychainDevice", "KeychainTesting", "KeychainServices",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SecurityToolTests",
            dependencies: ["SecurityTool", "KeychainTesting"]
        ),
        // Attacks on the files, the tool and the process, as the data-protection review made them.
        .target(name: "CAttackSupport", path: "Tests/CAttackSupport"),
        .testTarget(
            name: "AttackTests",
            dependencies: [
                "CAttackSupport", "SecurityTool", "KeychainCore", "KeychainDevice", "KeychainServices", "LocalAuth", "KeychainTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["KeychainStress", "SecurityTool"]
        ),
    ]
)

// Linux-only drop-in products: unmodified `import Security` code builds against the mirror.
if buildsOwnAPI && !development {
    package.products.append(.library(name: "Security", targets: ["Security"]))
    package.products.append(.library(name: "LocalAuthentication", targets: ["LocalAuthentication"]))
    package.targets.append(.target(name: "Security", dependencies: ["KeychainServices"]))
    package.targets.append(.target(name: "LocalAuthentication", dependencies: ["LocalAuth"]))
    package.targets.append(
        .testTarget(name: "SecurityDropInTests", dependencies: ["Security", "LocalAuthentication", "KeychainTesting"])
    )
}

// Swift 6 language mode everywhere, plus the upcoming features the style guide asks for.
for target in package.targets where !target.name.hasPrefix("C") {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}
