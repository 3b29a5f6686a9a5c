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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import Security
#else
public import Foundation
import KeychainCore
import KeychainDevice
import KeychainCrypto

/// Whose trust settings (Apple's `SecTrustSettingsDomain`).
public enum SecTrustSettingsDomain: UInt32, Sendable {
    /// The user's own: kept in the user's keychain.
    case user = 0
    /// The administrator's: not available on Linux.
    case admin = 1
    /// The system's: the distribution's certificate bundle, read-only.
    case system = 2
}

/// The outcome a trust setting gives (Apple's `SecTrustSettingsResult`).
public enum SecTrustSettingsResult: UInt32, Sendable {
    case invalid = 0
    /// Trust this self-signed root.
    case trustRoot = 1
    /// Trust this certificate as if it were a root.
    case trustAsRoot = 2
    /// Distrust it: not available on Linux.
    case deny = 3
    /// No opinion: the certificate is not an anchor.
    case unspecified = 4
}

/// The policy a usage constraint applies to.
nonisolated(unsafe) public let kSecTrustSettingsPolicy: CFString = SecConstantString("kSecTrustSettingsPolicy")
/// The application a usage constraint applies to (ignored on Linux).
nonisolated(unsafe) public let kSecTrustSettingsApplication: CFString = SecConstantString(
    "kSecTrustSettingsApplication"
)
/// The policy string (host name, e-mail address) a usage constraint applies to.
nonisolated(unsafe) public let kSecTrustSettingsPolicyString: CFString = SecConstantString(
    "kSecTrustSettingsPolicyString"
)
/// The key usage a usage constraint applies to (ignored on Linux).
nonisolated(unsafe) public let kSecTrustSettingsKeyUsage: CFString = SecConstantString("kSecTrustSettingsKeyUsage")
/// An error a usage constraint allows (ignored on Linux).
nonisolated(unsafe) public let kSecTrustSettingsAllowedError: CFString = SecConstantString(
    "kSecTrustSettingsAllowedError"
)
/// The `SecTrustSettingsResult` of a usage constraint.
nonisolated(unsafe) public let kSecTrustSettingsResult: CFString = SecConstantString("kSecTrustSettingsResult")

/// The user's trust settings, as items of the user's keychain.
///
/// Each trusted certificate is a generic password item of service ``service`` in the caller's
/// first access group, named by the certificate's SHA-1, holding the certificate and the policy
/// identifiers it is trusted for (none: all). A program sees the settings stored in the access
/// groups it may use — as any other item, and so may also change them (see the README): with the
/// default configuration, every program of the user shares the `default` group and its settings.
enum UserTrustSettings {
    static let service = "swift-keychain trust settings"

    /// A trusted certificate and the policy identifiers it is trusted for (empty: every policy).
    struct Setting {
        var certificate: Data
        var policies: [String]
    }

    /// Records `certificate` as trusted for `policies` (replacing an earlier setting).
    static func store(_ certificate: SecCertificate, policies: [String]) -> OSStatus {
        let record: [String: Any] = ["certificate": certificate.der, "policies": policies]
        guard let data = try? PropertyListSerialization.data(fromPropertyList: record, format: .binary, options: 0)
        else {
            return errSecParam
        }
        let item = query(for: certificate)
        let status = SecItemUpdate(item as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        guard status == errSecItemNotFound else { return status }
        var attributes = item
        attributes[kSecValueData as String] = data
        attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        attributes[kSecAttrLabel as String] = SecCertificateCopySubjectSummary(certificate) ?? "certificate"
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    /// Removes the setting of `certificate`.
    static func remove(_ certificate: SecCertificate) -> OSStatus {
        SecItemDelete(query(for: certificate) as CFDictionary)
    }

    /// Every setting the caller may read; none when the keychain cannot be searched.
    static func all() -> [Setting] {
        guard Device.hasKeychainWithoutCreating else { return [] }
        let search: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
            // A setting that would need a prompt is left out, not the others with it.
            kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip,
        ]
        var found: CFTypeRef?
        guard SecItemCopyMatching(search as CFDictionary, &found) == errSecSuccess else { return [] }
        return ((found as? [[String: Any]]) ?? []).compactMap { item in
            guard let data = item[kSecValueData as String] as? Data,
                let record = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                let certificate = record["certificate"] as? Data,
                // The item is named by the certificate it holds: one that holds another is not a setting.
                item[kSecAttrAccount as String] as? String == account(of: certificate)
            else { return nil }
            return Setting(certificate: certificate, policies: record["policies"] as? [String] ?? [])
        }
    }

    /// The anchors the user trusts for every one of `policies`.
    static func anchors(for policies: [SecPolicy]) -> [Data] {
        all().filter { setting in
            setting.policies.isEmpty || policies.allSatisfy { setting.policies.contains($0.identifier) }
        }.map(\.certificate)
    }

    private static func query(for certificate: SecCertificate) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account(of: certificate.der),
        ]
    }

    /// The account a setting is stored under: the certificate's SHA-1, in hexadecimal.
    private static func account(of certificate: Data) -> String {
        HexText.encode(DigestKind.sha1.hash(certificate), uppercase: true)
    }
}

/// Trusts a certificate for the user, as `security add-trusted-cert` does.
///
/// - Parameters:
///   - certRef: The certificate.
///   - domain: ``SecTrustSettingsDomain/user``; the administrator's and the system's are not
///     available on Linux.
///   - trustSettingsDictOrArray: `nil` or an empty array to trust the certificate as a root for
///     every policy, or usage constraints: dictionaries with `kSecTrustSettingsPolicy` (the
///     policies it is trusted for) and `kSecTrustSettingsResult`.
/// - Returns: `errSecSuccess`; `errSecParam` for the system's domain, a constraint that is not a
///   dictionary or a result other than trust; `errSecUnimplemented` for the administrator's domain,
///   a deny result, or a constraint on a host name, application, key usage or allowed error (not
///   enforced on Linux); or the keychain's status.
@discardableResult
public func SecTrustSettingsSetTrustSettings(
    _ certRef: SecCertificate,
    _ domain: SecTrustSettingsDomain,
    _ trustSettingsDictOrArray: CFTypeRef?
) -> OSStatus {
    switch domain {
    case .user: break
    case .admin: return errSecUnimplemented
    case .system: return errSecParam
    }
    var constraints: [[String: Any]] = []
    switch trustSettingsDictOrArray {
    case nil: break
    case let dictionary as [String: Any]: constraints = [dictionary]
    case let array as [Any]:
        constraints = array.compactMap { $0 as? [String: Any] }
        guard constraints.count == array.count else { return errSecParam }
    default: return errSecParam
    }
    var policies: [String] = []
    // What a constraint may say besides its policy and result (a host name, an application, a key
    // usage, an allowed error) is not enforced on Linux: refused rather than silently widened.
    let enforced: Set<String> = [kSecTrustSettingsPolicy as String, kSecTrustSettingsResult as String]
    for constraint in constraints {
        guard Set(constraint.keys).isSubset(of: enforced) else { return errSecUnimplemented }
        let result =
            (constraint[kSecTrustSettingsResult as String] as? NSNumber)?.uint32Value
            ?? SecTrustSettingsResult.trustRoot.rawValue
        switch SecTrustSettingsResult(rawValue: result) {
        case .trustRoot?, .trustAsRoot?: break
        case .deny?: return errSecUnimplemented
        default: return errSecParam
        }
        if let policy = constraint[kSecTrustSettingsPolicy as String] {
            guard let policy = policy as? SecPolicy else { return errSecParam }
            policies.append(policy.identifier)
        }
    }
    return UserTrustSettings.store(certRef, policies: constraints.count == policies.count ? policies : [])
}

/// Removes the user's trust settings of a certificate.
///
/// - Parameters:
///   - certRef: The certificate.
///   - domain: ``SecTrustSettingsDomain/user``.
/// - Returns: `errSecSuccess`, `errSecItemNotFound` when the certificate has none, or
///   `errSecParam` for another domain.
@discardableResult
public func SecTrustSettingsRemoveTrustSettings(_ certRef: SecCertificate, _ domain: SecTrustSettingsDomain) -> OSStatus
{
    guard domain == .user else { return errSecParam }
    return UserTrustSettings.remove(certRef)
}

/// The certificates a domain has trust settings for.
///
/// - Parameters:
///   - domain: The domain: the user's settings, or the system's anchors.
///   - certArray: On return, the certificates.
/// - Returns: `errSecSuccess`, or `errSecNoTrustSettings` when there are none.
@discardableResult
public func SecTrustSettingsCopyCertificates(
    _ domain: SecTrustSettingsDomain,
    _ certArray: UnsafeMutablePointer<CFArray?>?
) -> OSStatus {
    let certificates: [SecCertificate]
    switch domain {
    case .user:
        certificates = UserTrustSettings.all().compactMap {
            SecCertificateCreateWithData(nil, $0.certificate as NSData)
        }
    case .admin: certificates = []
    case .system:
        certificates = (LinkedTrustEvaluator.evaluator?.systemAnchors() ?? []).compactMap {
            SecCertificateCreateWithData(nil, $0 as NSData)
        }
    }
    guard !certificates.isEmpty else { return errSecNoTrustSettings }
    certArray?.pointee = certificates as NSArray
    return errSecSuccess
}
#endif
