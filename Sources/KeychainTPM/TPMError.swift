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

/// A TPM command that failed: the TPM's response code (or the transport's), what it means for
/// the keychain, and where it happened.
package struct TPMError: Error, Sendable, CustomStringConvertible {
    /// What a failure means for the caller.
    package enum Kind: Sendable, Hashable {
        /// No TPM answers: the library is missing, the device or socket is gone, the TPM died mid-command.
        case unreachable
        /// The authorization value was wrong (a wrong passcode, or a secret of another keychain).
        case authorizationFailed
        /// The TPM is in dictionary-attack lockout.
        case lockout
        /// The TPM is busy (self test, NV rate limit, retry): try again later.
        case busy
        /// The handle names nothing (an NV index that is not defined).
        case missing
        /// An NV index that was defined but never written.
        case uninitialized
        /// An NV index already defined at that handle.
        case alreadyDefined
        /// The TPM has no room left (NV space or object slots).
        case full
        /// A blob the TPM refuses: from another TPM, altered, or of another parent.
        case rejected
        /// Any other response.
        case failed
    }

    package let kind: Kind
    /// The response code (0 for transport failures without one).
    package let code: UInt32
    /// The command or step, for messages.
    package let context: String

    package init(_ kind: Kind, code: UInt32 = 0, context: String) {
        self.kind = kind
        self.code = code
        self.context = context
    }

    /// The error for a TPM response code other than success.
    package init(responseCode code: UInt32, context: String) {
        self.init(Self.kind(of: code), code: code, context: context)
    }

    package var description: String {
        let reason =
            switch kind {
            case .unreachable: "the TPM cannot be reached"
            case .authorizationFailed: "the authorization was refused"
            case .lockout: "the TPM is in dictionary-attack lockout"
            case .busy: "the TPM is busy"
            case .missing: "the TPM does not hold it"
            case .uninitialized: "the NV index was never written"
            case .alreadyDefined: "the NV index is already defined"
            case .full: "the TPM has no room left"
            case .rejected: "the TPM refused the blob (another TPM's, or altered)"
            case .failed: "the TPM refused the command"
            }
        let hex = String(code, radix: 16)
        return code == 0 ? "\(context): \(reason)" : "\(context): \(reason) (0x\(hex))"
    }

    // MARK: Private

    /// Response codes as TPM 2.0 Part 2 §6.6 lays them out: format 1 (bit 7) carries an error
    /// number in bits 0–5 and the handle, session or parameter it concerns above; format 0 codes
    /// are whole (0x900 and up are warnings); the layer byte (bits 16–23) marks a TSS layer.
    private static func kind(of code: UInt32) -> Kind {
        if code >> 16 != 0 { return .unreachable }
        if code & 0x80 != 0 {
            switch 0x80 | (code & 0x3F) {
            case 0x08E, 0x0A2: return .authorizationFailed  // TPM_RC_AUTH_FAIL, TPM_RC_BAD_AUTH
            case 0x08B: return .missing  // TPM_RC_HANDLE
            case 0x09F, 0x098, 0x09A, 0x09C, 0x095, 0x084: return .rejected  // INTEGRITY, KEY, …
            default: return .failed
            }
        }
        switch code {
        case 0x921: return .lockout  // TPM_RC_LOCKOUT
        case 0x922, 0x908, 0x90A, 0x920, 0x923: return .busy  // RETRY, YIELDED, TESTING, NV_RATE, NV_UNAVAILABLE
        case 0x14A: return .uninitialized  // TPM_RC_NV_UNINITIALIZED
        case 0x14C: return .alreadyDefined  // TPM_RC_NV_DEFINED
        case 0x14B, 0x902, 0x903: return .full  // NV_SPACE, OBJECT_MEMORY, SESSION_MEMORY
        default: return .failed
        }
    }
}
