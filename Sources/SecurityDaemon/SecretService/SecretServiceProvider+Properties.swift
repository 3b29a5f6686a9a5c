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
import KeychainBus
import KeychainContract

/// `org.freedesktop.DBus.Properties` of the provider's objects, and their introspection.
extension SecretServiceProvider {

    func properties(_ call: BusCall, path: SecretPath, caller: SecretCaller) throws(BusError) -> [BusValue] {
        switch call.member {
        case "Get":
            let arguments = try arguments(call, "ss")
            let all = try propertyValues(of: path, interface: arguments[0].string ?? "", caller: caller)
            guard let value = all[arguments[1].string ?? ""] else {
                throw BusError.unknownProperty("no property \(arguments[1].string ?? "") on \(call.path)")
            }
            return [.variant(value)]
        case "GetAll":
            let arguments = try arguments(call, "s")
            return [.properties(try propertyValues(of: path, interface: arguments[0].string ?? "", caller: caller))]
        case "Set":
            let arguments = try arguments(call, "ssv")
            try setProperty(arguments[1].string ?? "", to: arguments[2].unwrapped, of: path, caller: caller)
            return []
        default:
            throw BusError.unknownMethod("\(Self.propertiesInterface) has no method \(call.member)")
        }
    }

    private func propertyValues(
        of path: SecretPath,
        interface: String,
        caller: SecretCaller
    ) throws(BusError) -> [String: BusValue] {
        switch path {
        case .service where interface.isEmpty || interface == Self.serviceInterface:
            return ["Collections": .paths(try collections(of: caller).map { SecretPath.collection($0.id).path })]
        case .collection where interface.isEmpty || interface == Self.collectionInterface,
            .alias where interface.isEmpty || interface == Self.collectionInterface:
            let id = try collectionID(path, caller: caller)
            let collection = try collections(of: caller).first { $0.id == id }
            let items = try search([:], in: id, caller: caller)
            return [
                "Items": .paths(items.unlocked + items.locked),
                "Label": .string(collection?.label ?? id),
                "Locked": .boolean(id != Self.memoryCollection && isLocked),
                "Created": Self.seconds(collection?.created ?? Date(timeIntervalSince1970: 0)),
                "Modified": Self.seconds(collection?.modified ?? Date(timeIntervalSince1970: 0)),
            ]
        case .item(let collection, _) where interface.isEmpty || interface == Self.itemInterface:
            if collection != Self.memoryCollection, isLocked {
                // A locked item shows only that it is locked.
                return [
                    "Locked": .boolean(true), "Label": .string(""), "Attributes": .dictionary([:], valueSignature: "s"),
                    "Created": .uint64(0), "Modified": .uint64(0),
                ]
            }
            let (item, _) = try item(at: path, caller: caller, withSecret: false)
            return [
                "Locked": .boolean(false),
                "Label": .string(item.label),
                "Attributes": .dictionary(item.attributes.mapValues { .string($0) }, valueSignature: "s"),
                "Created": Self.seconds(item.created),
                "Modified": Self.seconds(item.modified),
            ]
        default:
            return [:]
        }
    }

    private func setProperty(
        _ name: String,
        to value: BusValue,
        of path: SecretPath,
        caller: SecretCaller
    ) throws(BusError) {
        guard let group = caller.group else { throw BusError.accessDenied("no group") }
        switch (path, name) {
        case (.collection, "Label"), (.alias, "Label"):
            let label = try Self.label(value)
            let id = try collectionID(path, caller: caller)
            guard id != Self.memoryCollection else {
                throw BusError.accessDenied("the session collection keeps its label")
            }
            if isLocked { throw SecretError.isLocked("the keychain is locked") }
            do { try store.saveCollection(id, label: label, group: group) } catch { throw busError(error) }
            announceCollection("CollectionChanged", id, changed: ["Label": .string(label)], to: group)
        case (.item, "Label"):
            let label = try Self.label(value)
            var (item, _) = try item(at: path, caller: caller, withSecret: false)
            item.label = label
            try save(item, secret: nil, group: group)
        case (.item, "Attributes"):
            let attributes = try attributeMap(value)
            var (item, _) = try item(at: path, caller: caller, withSecret: false)
            item.attributes = attributes
            try save(item, secret: nil, group: group)
        default:
            throw BusError("org.freedesktop.DBus.Error.PropertyReadOnly", "\(name) of \(path.path) cannot be set")
        }
    }

    /// A `Label` property's new value, within the provider's limit.
    private static func label(_ value: BusValue) throws(BusError) -> String {
        guard let label = value.string, label.utf8.count <= labelLimit else {
            throw BusError.invalidArguments("Label is a string of at most \(labelLimit) bytes")
        }
        return label
    }

    // MARK: Introspection

    func introspection(of rawPath: String) throws(BusError) -> String {
        let interfaces: String
        var children: [String] = []
        switch SecretPath(rawPath) {
        case .service?:
            interfaces = Self.serviceXML
            children = ["collection", "aliases", "session", "prompt"]
        case .collection?, .alias?:
            interfaces = Self.collectionXML
        case .item?:
            interfaces = Self.itemXML
        case .session?:
            interfaces = "<interface name=\"org.freedesktop.Secret.Session\"><method name=\"Close\"/></interface>"
        case .prompt?:
            interfaces = Self.promptXML
        case .folder?:
            interfaces = ""
        case nil where rawPath == Self.portalPath:
            interfaces = Self.portalXML
        case nil:
            // The parents of the two trees: `/`, `/org`, `/org/freedesktop`, …
            let prefix = rawPath == "/" ? "/" : rawPath + "/"
            let below = [SecretPath.root, Self.portalPath].filter { $0.hasPrefix(prefix) }
            children = Set(below.compactMap { $0.dropFirst(prefix.count).split(separator: "/").first.map(String.init) })
                .sorted()
            guard !children.isEmpty else { throw SecretError.noSuchObject("no object at \(rawPath)") }
            interfaces = ""
        }
        let nodes = children.map { "<node name=\"\($0)\"/>" }.joined()
        return """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" \
            "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>\(Self.standardXML)\(interfaces)\(nodes)</node>
            """
    }

    private static let standardXML = """
        <interface name="org.freedesktop.DBus.Introspectable"><method name="Introspect">\
        <arg name="xml" type="s" direction="out"/></method></interface>\
        <interface name="org.freedesktop.DBus.Properties">\
        <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>\
        <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>\
        <method name="Set"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/></method>\
        <signal name="PropertiesChanged"><arg type="s"/><arg type="a{sv}"/><arg type="as"/></signal></interface>
        """

    private static let serviceXML = """
        <interface name="org.freedesktop.Secret.Service">\
        <method name="OpenSession"><arg name="algorithm" type="s" direction="in"/><arg name="input" type="v" direction="in"/>\
        <arg name="output" type="v" direction="out"/><arg name="result" type="o" direction="out"/></method>\
        <method name="CreateCollection"><arg name="properties" type="a{sv}" direction="in"/><arg name="alias" type="s" direction="in"/>\
        <arg name="collection" type="o" direction="out"/><arg name="prompt" type="o" direction="out"/></method>\
        <method name="SearchItems"><arg name="attributes" type="a{ss}" direction="in"/>\
        <arg name="unlocked" type="ao" direction="out"/><arg name="locked" type="ao" direction="out"/></method>\
        <method name="Unlock"><arg name="objects" type="ao" direction="in"/>\
        <arg name="unlocked" type="ao" direction="out"/><arg name="prompt" type="o" direction="out"/></method>\
        <method name="Lock"><arg name="objects" type="ao" direction="in"/>\
        <arg name="locked" type="ao" direction="out"/><arg name="Prompt" type="o" direction="out"/></method>\
        <method name="GetSecrets"><arg name="items" type="ao" direction="in"/><arg name="session" type="o" direction="in"/>\
        <arg name="secrets" type="a{o(oayays)}" direction="out"/></method>\
        <method name="ReadAlias"><arg name="name" type="s" direction="in"/><arg name="collection" type="o" direction="out"/></method>\
        <method name="SetAlias"><arg name="name" type="s" direction="in"/><arg name="collection" type="o" direction="in"/></method>\
        <signal name="CollectionCreated"><arg name="collection" type="o"/></signal>\
        <signal name="CollectionDeleted"><arg name="collection" type="o"/></signal>\
        <signal name="CollectionChanged"><arg name="collection" type="o"/></signal>\
        <property name="Collections" type="ao" access="read"/></interface>
        """

    private static let collectionXML = """
        <interface name="org.freedesktop.Secret.Collection">\
        <method name="Delete"><arg name="prompt" type="o" direction="out"/></method>\
        <method name="SearchItems"><arg name="attributes" type="a{ss}" direction="in"/>\
        <arg name="results" type="ao" direction="out"/></method>\
        <method name="CreateItem"><arg name="properties" type="a{sv}" direction="in"/>\
        <arg name="secret" type="(oayays)" direction="in"/><arg name="replace" type="b" direction="in"/>\
        <arg name="item" type="o" direction="out"/><arg name="prompt" type="o" direction="out"/></method>\
        <signal name="ItemCreated"><arg name="item" type="o"/></signal>\
        <signal name="ItemDeleted"><arg name="item" type="o"/></signal>\
        <signal name="ItemChanged"><arg name="item" type="o"/></signal>\
        <property name="Items" type="ao" access="read"/><property name="Label" type="s" access="readwrite"/>\
        <property name="Locked" type="b" access="read"/><property name="Created" type="t" access="read"/>\
        <property name="Modified" type="t" access="read"/></interface>
        """

    private static let itemXML = """
        <interface name="org.freedesktop.Secret.Item">\
        <method name="Delete"><arg name="Prompt" type="o" direction="out"/></method>\
        <method name="GetSecret"><arg name="session" type="o" direction="in"/>\
        <arg name="secret" type="(oayays)" direction="out"/></method>\
        <method name="SetSecret"><arg name="secret" type="(oayays)" direction="in"/></method>\
        <property name="Locked" type="b" access="read"/><property name="Attributes" type="a{ss}" access="readwrite"/>\
        <property name="Label" type="s" access="readwrite"/><property name="Created" type="t" access="read"/>\
        <property name="Modified" type="t" access="read"/></interface>
        """

    private static let portalXML = """
        <interface name="org.freedesktop.impl.portal.Secret">\
        <method name="RetrieveSecret"><arg name="handle" type="o" direction="in"/><arg name="app_id" type="s" direction="in"/>\
        <arg name="fd" type="h" direction="in"/><arg name="options" type="a{sv}" direction="in"/>\
        <arg name="response" type="u" direction="out"/><arg name="results" type="a{sv}" direction="out"/></method>\
        <property name="version" type="u" access="read"/></interface>
        """

    private static let promptXML = """
        <interface name="org.freedesktop.Secret.Prompt">\
        <method name="Prompt"><arg name="window-id" type="s" direction="in"/></method><method name="Dismiss"/>\
        <signal name="Completed"><arg name="dismissed" type="b"/><arg name="result" type="v"/></signal></interface>
        """
}
