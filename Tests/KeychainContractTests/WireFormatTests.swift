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
import Testing

@testable import KeychainContract
@testable import KeychainCore

/// The engine's binary format: every message shape survives the round trip, and bytes from an
/// attacker end in an error, never in a crash or a runaway allocation.
@Suite struct WireFormatTests {
    static func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
        try WireDecoder().decode(Value.self, from: WireEncoder().encode(value))
    }

    @Test func scalarsKeepTheirValuesAtTheEdges() throws {
        for value in [Int64.min, -1, 0, 1, 127, 128, Int64.max] { #expect(try Self.roundTrip(value) == value) }
        for value in [UInt64.min, 127, 128, 300, UInt64.max] { #expect(try Self.roundTrip(value) == value) }
        for value in [0.0, -0.0, 1.5, Double.infinity, -Double.greatestFiniteMagnitude] {
            #expect(try Self.roundTrip(value).bitPattern == value.bitPattern)
        }
        #expect(try Self.roundTrip(Double.nan).isNaN)
        #expect(try Self.roundTrip("") == "")
        #expect(try Self.roundTrip("é\u{0}\n漢") == "é\u{0}\n漢")
        #expect(try Self.roundTrip(Data()) == Data())
        #expect(try Self.roundTrip(Data([0, 255, 7])) == Data([0, 255, 7]))
        #expect(try Self.roundTrip([UInt8]([1, 2])) == [1, 2])
        let date = Date(timeIntervalSinceReferenceDate: 123_456.789)
        #expect(try Self.roundTrip(date) == date)
    }

    @Test func optionalsCollectionsAndEnumsKeepTheirShape() throws {
        let nested: [String: [Int?]] = ["a": [1, nil, 3], "": []]
        #expect(try Self.roundTrip(nested) == nested)
        let byNumber: [Int: String] = [1: "one", -2: "minus two"]
        #expect(try Self.roundTrip(byNumber) == byNumber)
        let optionals: [Data?] = [nil, Data([1])]
        #expect(try Self.roundTrip(optionals) == optionals)
        #expect(try Self.roundTrip(Set(["x", "y"])) == Set(["x", "y"]))
        let state = BiometryState(
            kind: nil,
            enrolled: ["thumb"],
            enrolmentIdentity: nil,
            failedMatches: 2,
            isLockedOut: false,
            queuedOutcomes: [.match, .nonMatch]
        )
        #expect(try Self.roundTrip(state) == state)
        let identified = BiometryState(
            kind: .faceID,
            enrolled: [],
            enrolmentIdentity: Data([9]),
            failedMatches: 0,
            isLockedOut: true,
            queuedOutcomes: []
        )
        #expect(try Self.roundTrip(identified) == identified)
        for change in [
            SimulatedSensorChange.install(nil), .install(.touchID), .enroll("x"), .queue([.cancel]), .clearQueue,
        ] {
            #expect(try Self.roundTrip(change) == change)
        }
    }

    @Test func aNumberOutOfItsTypesRangeIsAnError() throws {
        let bytes = try WireEncoder().encode(Int64(300))
        #expect(throws: DecodingError.self) { try WireDecoder().decode(UInt8.self, from: bytes) }
        #expect(throws: DecodingError.self) {
            try WireDecoder().decode(UInt64.self, from: WireEncoder().encode(Int64(-1)))
        }
        #expect(throws: DecodingError.self) { try WireDecoder().decode(String.self, from: bytes) }
    }

    @Test func hostileBytesEndInAnError() throws {
        let cases: [[UInt8]] = [
            [],
            [0xff],  // no such tag
            [6, 5, 0x61],  // a string longer than what is left
            [8, 0xff, 0xff, 0xff, 0xff, 0x0f],  // an array claiming four billion elements
            [9, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02],  // a varint past 64 bits
            [6, 2, 0xc3, 0x28],  // not UTF-8
            [0, 0],  // bytes after the value
            [5, 1, 2, 3],  // a double cut short
            Array(repeating: 8, count: 10_000) + [0],  // arrays nested ten thousand deep
        ]
        for bytes in cases {
            #expect(throws: (any Error).self, "\(bytes.prefix(12))") {
                try WireDecoder().decode([String: Int].self, from: bytes)
            }
            #expect(throws: KeychainError.self) {
                try EngineWire.decode(
                    EngineRequest.self,
                    from: [EngineWire.version, CompactForm.Kind.general.rawValue] + bytes
                )
            }
        }
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        var generator = SystemRandomNumberGenerator()
        let seed = try! WireEncoder().encode(EngineRequest.unlock(passcode: "1234", endsBiometricLockout: true))
        for round in 0..<20_000 {
            var bytes = seed
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
            }
            _ = try? EngineWire.decode(
                EngineRequest.self,
                from: [EngineWire.version, CompactForm.Kind.general.rawValue] + bytes
            )
        }
    }
}
