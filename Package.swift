// swift-tools-version:6.2
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

// The platforms without Apple's frameworks, where the mirror modules build the API themselves
// (swift-crypto's pattern: a condition on the platform built for, not on the host).
let ownAPIPlatforms: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

var mirrorSettings: [SwiftSetting] = [.define("KEYCHAIN_IN_SWIFTPM")]
if development {
    mirrorSettings.append(.define("KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API"))
} else {
    mirrorSettings.append(.define("KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API", .when(platforms: ownAPIPlatforms)))
}

let package = Package(
    name: "swift-keychain",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "KeychainServices", targets: ["KeychainServices"]),
        .library(name: "LocalAuth", targets: ["LocalAuth"]),
        .library(name: "SoftwareEnclave", targets: ["SoftwareEnclave"]),
        .library(name: "KeychainDevice", targets: ["KeychainDevice", "KeychainEngine"]),
        .library(name: "KeychainTesting", targets: ["KeychainTesting"]),
        .executable(name: "security", targets: ["SecurityTool"]),
        .executable(name: "security-launcher", targets: ["SecurityLauncher"]),
        .executable(name: "security-lookup", targets: ["SecurityLookup"]),
        .executable(name: "keychain-stress", targets: ["KeychainStress"]),
        .executable(name: "securityd", targets: ["SecurityDaemon"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
    ],
    targets: [
        // System calls Swift cannot make itself (prctl is variadic): core dumps.
        .target(name: "CKeychainSystem"),
        // libsystemd's sd-bus, loaded at run time (no build-time dependency on libsystemd-dev):
        // the entry points only, for KeychainBus.
        .target(name: "CSDBus"),
        // tpm2-tss's TCTI loader, loaded at run time (no build-time dependency on libtss2-dev):
        // the transport to a TPM only, for KeychainTPM.
        .target(name: "CTPM"),
        // TPM 2.0 commands written and read in Swift over CTPM: the storage root, keys made and
        // loaded, HMAC, NV indices, the TPM's identity. No keychain policy: the engine's TPM
        // stores decide what lives there.
        .target(name: "KeychainTPM", dependencies: ["CTPM"]),
        // D-Bus in Swift over CSDBus, the one bus module: connections to the session and system
        // bus, names, objects served, calls, signals and peer credentials, with values read and
        // written generically. The Secret Service, the login watch and fprintd's sensor use it.
        .target(name: "KeychainBus", dependencies: ["CSDBus", "KeychainCore"]),
        // The shared vocabulary of clients and engine: queries, schema, errors. Foundation and
        // swift-asn1 only, so that whatever imports the mirrors needs nothing else.
        .target(
            name: "KeychainCore",
            dependencies: [.product(name: "SwiftASN1", package: "swift-asn1")]
        ),
        // What the mirror and the engine compute with swift-crypto alike: the key algorithms behind
        // SecKey (EC keys, ECDSA, ECDH, the X9.63 key derivation, Apple's ECIES) and the attributes
        // of a certificate item. No API promise.
        .target(
            name: "KeychainCrypto",
            dependencies: [
                "KeychainCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The engine contract, which both sides of the process boundary sit on: the `Engine`
        // protocol, its messages, wire format and transports, the responder that serves it with the
        // application policy, and what a keychain is opened with (home, configuration, prompts).
        // No C module, GRDB or swift-crypto: the mirror chain imports it.
        .target(
            name: "KeychainContract",
            dependencies: ["KeychainCore", .product(name: "Logging", package: "swift-log")]
        ),
        // The Linux side of "Settings", as a client: a `Device` opens a home in securityd or in the
        // process, and manages its passcode, lock state and simulated sensor. It does not import the engine.
        .target(
            name: "KeychainDevice",
            dependencies: ["KeychainCore", "KeychainContract", .product(name: "Logging", package: "swift-log")]
        ),
        // Registers the engine with the contract's `LinkedEngine` when the program loads.
        .target(name: "CKeychainEngineLoader"),
        // The engine: schema, store, keybag, item crypto, the authentication gate and the sensors.
        // Every product links it; only tests, the tool, the daemon and the harnesses import it.
        .target(
            name: "KeychainEngine",
            dependencies: [
                "KeychainCore",
                "KeychainContract",
                "KeychainCrypto",
                "KeychainBackup",
                "KeychainSync",
                "CKeychainEngineLoader",
                "CKeychainSystem",
                "KeychainBus",
                "KeychainTPM",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The encrypted backup file: a header, then records in chunks sealed under a key from a
        // password (scrypt) or a recipient's key (P-256), streamed in bounded memory.
        .target(
            name: "KeychainBackup",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Synchronisation's messages, with no network and no keychain: device identities and lists,
        // the circle's keys and their grants, sealed and signed item records, join codes, the
        // hybrid logical clock, and the relay a circle meets at as a protocol.
        .target(
            name: "KeychainSync",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // The relay on PostgreSQL (postgres-nio): the schema, pushes in transactions,
        // LISTEN/NOTIFY. Only securityd and the tests link it.
        .target(
            name: "KeychainSyncRelay",
            dependencies: [
                "KeychainSync",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Registers the trust evaluator with KeychainCore's `LinkedTrustEvaluator` when the program loads.
        .target(name: "CKeychainTrustLoader"),
        // The trust evaluator behind SecTrust and the certificate searches' policies: chains built
        // and checked by swift-certificates' `Verifier`. swift-certificates imports `Security` when
        // it can, so the mirror modules link this module without importing it.
        .target(
            name: "KeychainTrust",
            dependencies: [
                "KeychainCore", "CKeychainTrustLoader",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // Mirror of Security's keychain API.
        .target(
            name: "KeychainServices",
            dependencies: [
                "KeychainCore", "KeychainCrypto", "KeychainContract", "KeychainDevice", "KeychainEngine",
                "KeychainTrust",
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            swiftSettings: mirrorSettings
        ),
        // Mirror of LocalAuthentication.
        .target(
            name: "LocalAuth",
            dependencies: ["KeychainCore", "KeychainContract", "KeychainDevice", "KeychainServices"],
            swiftSettings: mirrorSettings
        ),
        // Test kit: temporary keychains for any project's tests.
        .target(
            name: "SoftwareEnclave",
            dependencies: [
                "KeychainContract", "KeychainDevice", "KeychainServices", "LocalAuth",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: mirrorSettings
        ),
        .target(
            name: "KeychainTesting",
            dependencies: [
                "KeychainCore", "KeychainContract", "KeychainDevice", "KeychainServices",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the `security` launcher and the full tool read alike: macOS's option letters, the
        // password look-up, the printed password. Nothing heavier than the wire format's modules.
        .target(
            name: "SecurityCommandLine",
            dependencies: ["KeychainCore", "KeychainContract", "KeychainDevice"]
        ),
        // The installed `security`, in C so that it starts at once: runs security-lookup for the
        // find-…-password commands and the full tool for the others. Built here for the tests;
        // `Scripts/install.sh` compiles the same file with the C compiler, without the Swift
        // runtime that SwiftPM links into every executable.
        .executableTarget(name: "SecurityLauncher"),
        // security-lookup: answers a password look-up through securityd itself, and runs the full
        // tool for every other command line. It links neither the engine nor ArgumentParser, so
        // that it starts in a fraction of the full tool's time.
        .executableTarget(
            name: "SecurityLookup",
            dependencies: [
                "CKeychainSystem", "KeychainCore", "KeychainContract", "KeychainDevice", "SecurityCommandLine",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "SecurityTool",
            dependencies: [
                "SecurityCommandLine",
                "KeychainBus",
                "KeychainServices",
                "KeychainCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                "KeychainContract",
                "KeychainDevice",
                "KeychainCore",
                "KeychainEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // securityd: the engine behind a Unix socket, one per keychain home and user session.
        .executableTarget(
            name: "SecurityDaemon",
            dependencies: [
                "CKeychainSystem",
                "KeychainBus",
                "KeychainContract",
                "KeychainDevice",
                "KeychainCore",
                "KeychainEngine",
                "KeychainSync",
                "KeychainSyncRelay",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // What this package's tests and harnesses share (as swift-argument-parser's
        // ArgumentParserTestHelpers): the built products, processes run and awaited, a private bus,
        // throw-away users, a seeded generator, and the engine behind a `Device`. Not a product.
        .target(
            name: "KeychainTestSupport",
            dependencies: [
                "KeychainCore", "KeychainContract", "KeychainDevice", "KeychainEngine", "KeychainTesting",
                "KeychainTPM",
            ]
        ),
        // The reliability harnesses (RELIABILITY.md): crash, concurrency, fuzzing.
        .executableTarget(
            name: "KeychainStress",
            dependencies: [
                "KeychainServices",
                "KeychainContract",
                "KeychainDevice",
                "KeychainCore",
                "KeychainEngine",
                "KeychainTesting",
                "KeychainTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "KeychainServicesTests",
            dependencies: [
                "KeychainServices", "LocalAuth", "SoftwareEnclave", "KeychainTesting", "KeychainTestSupport",
                "KeychainBackup",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            resources: [.copy("Vectors")],
            swiftSettings: mirrorSettings
        ),
        .testTarget(
            name: "KeychainBackupTests",
            dependencies: ["KeychainBackup", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "KeychainSyncTests",
            dependencies: [
                "KeychainSync", "KeychainSyncRelay", "KeychainTestSupport", "KeychainEngine", "KeychainCore",
                "KeychainContract",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "KeychainContractTests",
            dependencies: ["KeychainCore", "KeychainContract", "KeychainTesting"]
        ),
        .testTarget(
            name: "KeychainEngineTests",
            dependencies: [
                "KeychainCore", "KeychainContract", "KeychainDevice", "KeychainEngine", "KeychainTesting",
                "KeychainTestSupport",
                "KeychainServices", "SoftwareEnclave",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SecurityToolTests",
            dependencies: [
                "SecurityTool", "SecurityLauncher", "SecurityLookup", "SecurityCommandLine", "SecurityDaemon",
                "KeychainTesting", "KeychainTestSupport", "KeychainContract", "KeychainDevice", "KeychainCore",
                "KeychainServices",
            ]
        ),
        .testTarget(
            name: "SecurityDaemonTests",
            dependencies: [
                "SecurityDaemon", "SecurityTool", "KeychainTesting", "KeychainTestSupport", "KeychainContract",
                "KeychainDevice", "KeychainCore", "KeychainServices",
            ]
        ),
        // Attacks on the files, the tool and the process, as the data-protection review made them.
        .target(name: "CAttackSupport", path: "Tests/CAttackSupport"),
        .testTarget(
            name: "AttackTests",
            dependencies: [
                "CAttackSupport", "SecurityTool", "KeychainCore", "KeychainContract", "KeychainDevice",
                "KeychainEngine", "KeychainServices", "LocalAuth",
                "SoftwareEnclave", "KeychainTesting", "KeychainTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["KeychainStress", "KeychainTestSupport", "SecurityTool"]
        ),
    ]
)

// Drop-in products where Apple's frameworks do not exist: unmodified `import Security` code builds
// against the mirror. Products cannot depend on the platform built for, so this one condition is
// on the host: on an Apple host a module named Security would hide the system's.
#if !canImport(Darwin)
let offersDropIn = !development
#else
let offersDropIn = false
#endif
if offersDropIn {
    package.products.append(.library(name: "Security", targets: ["Security"]))
    package.products.append(.library(name: "LocalAuthentication", targets: ["LocalAuthentication"]))
    package.targets.append(.target(name: "Security", dependencies: ["KeychainServices"]))
    // As Apple's framework, whose headers import Security: `import LocalAuthentication` shows Security's API too.
    package.targets.append(.target(name: "LocalAuthentication", dependencies: ["LocalAuth", "Security"]))
    package.targets.append(
        .testTarget(name: "SecurityDropInTests", dependencies: ["Security", "LocalAuthentication", "KeychainTesting"])
    )
}

// CI builds with every warning of this package's own targets an error (`.ci/run` sets the
// variable); elsewhere a newer compiler's new warning must not break a user's build.
let treatsWarningsAsErrors = Context.environment["KEYCHAIN_WARNINGS_AS_ERRORS"] == "1"

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
if treatsWarningsAsErrors {
    for target in package.targets {
        target.swiftSettings = (target.swiftSettings ?? []) + [.treatAllWarnings(as: .error)]
        target.cSettings = (target.cSettings ?? []) + [.treatAllWarnings(as: .error)]
    }
}
