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

// Item attribute keys. Raw values match Apple's Security framework. Note that some keys
// share a raw value on purpose: kSecAttrType and kSecAttrKeyType are both "type", and the
// two spellings of the persistent reference key are both "persistref".

// MARK: - Protection and sharing

/// A key whose value says when the item's data can be read.
nonisolated(unsafe) public let kSecAttrAccessible: CFString = SecConstantString("pdmn")

/// A key whose value is the item's legacy access object (macOS file-based keychains).
nonisolated(unsafe) public let kSecAttrAccess: CFString = SecConstantString("acls")

/// A key whose value is the item's access control object.
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = SecConstantString("accc")

/// A key whose value names the access group the item belongs to.
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = SecConstantString("agrp")

/// A key whose boolean value says whether the item syncs to the user's other devices.
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = SecConstantString("sync")

/// A value for the synchronizable key that matches both synced and local items.
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = SecConstantString("syna")

// MARK: - Common attributes

/// A read-only key whose value is the date the item was created.
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = SecConstantString("cdat")

/// A read-only key whose value is the date the item was last changed.
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = SecConstantString("mdat")

/// A key whose value is a user-visible string naming the kind of item.
nonisolated(unsafe) public let kSecAttrDescription: CFString = SecConstantString("desc")

/// A key whose value is the item's user-editable comment.
nonisolated(unsafe) public let kSecAttrComment: CFString = SecConstantString("icmt")

/// A key whose value is the item's creator, a four-character code as a number.
nonisolated(unsafe) public let kSecAttrCreator: CFString = SecConstantString("crtr")

/// A key whose value is the item's type, a four-character code as a number.
nonisolated(unsafe) public let kSecAttrType: CFString = SecConstantString("type")

/// A key whose value is the item's user-visible label.
nonisolated(unsafe) public let kSecAttrLabel: CFString = SecConstantString("labl")

/// A key whose boolean value says whether the item is hidden from display.
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = SecConstantString("invi")

/// A key whose boolean value marks an item that deliberately holds no password.
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = SecConstantString("nega")

// MARK: - Password attributes

/// A key whose value is the item's account name.
nonisolated(unsafe) public let kSecAttrAccount: CFString = SecConstantString("acct")

/// A key whose value is the service a generic password belongs to.
nonisolated(unsafe) public let kSecAttrService: CFString = SecConstantString("svce")

/// A key whose value is caller-defined data stored with a generic password.
nonisolated(unsafe) public let kSecAttrGeneric: CFString = SecConstantString("gena")

/// A key whose value is an internet password's security domain.
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = SecConstantString("sdmn")

/// A key whose value is an internet password's server name or address.
nonisolated(unsafe) public let kSecAttrServer: CFString = SecConstantString("srvr")

/// A key whose value is an internet password's protocol.
nonisolated(unsafe) public let kSecAttrProtocol: CFString = SecConstantString("ptcl")

/// A key whose value is an internet password's authentication scheme.
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = SecConstantString("atyp")

/// A key whose value is an internet password's port number.
nonisolated(unsafe) public let kSecAttrPort: CFString = SecConstantString("port")

/// A key whose value is an internet password's path, usually a URL's path.
nonisolated(unsafe) public let kSecAttrPath: CFString = SecConstantString("path")

// MARK: - Certificate attributes

/// A read-only key whose value is a certificate's encoded subject name.
nonisolated(unsafe) public let kSecAttrSubject: CFString = SecConstantString("subj")

/// A read-only key whose value is a certificate's encoded issuer name.
nonisolated(unsafe) public let kSecAttrIssuer: CFString = SecConstantString("issr")

/// A read-only key whose value is a certificate's serial number.
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = SecConstantString("slnr")

/// A read-only key whose value is a certificate's subject key identifier.
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = SecConstantString("skid")

/// A read-only key whose value is the hash of a certificate's public key.
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = SecConstantString("pkhh")

/// A read-only key whose value is a certificate's type as a number.
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = SecConstantString("ctyp")

/// A read-only key whose value is a certificate's encoding as a number.
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = SecConstantString("cenc")

// MARK: - Key attributes

/// A key whose value says whether a key is public, private, or symmetric.
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = SecConstantString("kcls")

/// A key whose value is a key's lookup label, for asymmetric keys the public key hash.
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = SecConstantString("klbl")

/// A key whose boolean value says whether a new key is stored in the keychain.
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = SecConstantString("perm")

/// A key whose boolean value says whether a key may only be exported wrapped.
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = SecConstantString("sens")

/// A key whose boolean value says whether a key may be exported at all.
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = SecConstantString("extr")

/// A key whose value is caller-defined tag data stored with a key.
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = SecConstantString("atag")

/// A key whose value is a key's algorithm.
nonisolated(unsafe) public let kSecAttrKeyType: CFString = SecConstantString("type")

/// A key whose value is the pseudorandom function used to derive a key from a password.
nonisolated(unsafe) public let kSecAttrPRF: CFString = SecConstantString("prf")

/// A key whose value is the salt used to derive a key from a password.
nonisolated(unsafe) public let kSecAttrSalt: CFString = SecConstantString("salt")

/// A key whose value is the number of rounds used to derive a key from a password.
nonisolated(unsafe) public let kSecAttrRounds: CFString = SecConstantString("rounds")

/// A key whose value is a key's size in bits.
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = SecConstantString("bsiz")

/// A key whose value is the number of bits of a key that actually carry strength.
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = SecConstantString("esiz")

/// A key whose boolean value says whether a key may encrypt.
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = SecConstantString("encr")

/// A key whose boolean value says whether a key may decrypt.
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = SecConstantString("decr")

/// A key whose boolean value says whether a key may derive other keys.
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = SecConstantString("drve")

/// A key whose boolean value says whether a key may sign.
nonisolated(unsafe) public let kSecAttrCanSign: CFString = SecConstantString("sign")

/// A key whose boolean value says whether a key may verify signatures.
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = SecConstantString("vrfy")

/// A key whose boolean value says whether a key may wrap other keys.
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = SecConstantString("wrap")

/// A key whose boolean value says whether a key may unwrap other keys.
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = SecConstantString("unwp")

// MARK: - Sync views, tokens, and references

/// A key whose value is a hint naming the sync view an item belongs to.
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = SecConstantString("vwht")

/// A key whose value names the token that holds the item, such as the Secure Enclave.
nonisolated(unsafe) public let kSecAttrTokenID: CFString = SecConstantString("tkid")

/// The original, misspelled name of the persistent reference key.
nonisolated(unsafe) public let kSecAttrPersistantReference: CFString = SecConstantString("persistref")

/// A key whose value is a persistent reference to the item.
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = SecConstantString("persistref")

#endif
