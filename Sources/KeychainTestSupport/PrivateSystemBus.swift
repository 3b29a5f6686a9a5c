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

package import Foundation

/// A throw-away D-Bus "system bus" with python-dbusmock's systemd-logind on it, for one test:
/// `dbus-daemon` on a private socket (`DBUS_SYSTEM_BUS_ADDRESS` points there) and the mock owning
/// `org.freedesktop.login1`.
///
/// Every process it starts is stopped by PID.
package final class PrivateSystemBus {
    package let directory: URL
    package let address: String
    private var processes: [Process] = []

    package static let python = "/usr/bin/python3"

    /// Whether `dbus-daemon` and Debian's python-dbusmock are installed (`.ci/run` installs them).
    package static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock/templates/logind.py")
    }

    package init() throws {
        directory = URL(fileURLWithPath: "/tmp/kc-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        address = "unix:path=\(directory.appendingPathComponent("bus").path)"
        // In the foreground, as a child of the test: a forked daemon would hold the output pipe open.
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--address=\(address)", "--nofork", "--nopidfile"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        processes.append(daemon)
        let socketDeadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("bus").path) {
            guard daemon.isRunning, Date() < socketDeadline else { throw BusError.didNotStart }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let mock = Process()
        mock.executableURL = URL(fileURLWithPath: Self.python)
        mock.arguments = ["-m", "dbusmock", "--system", "--template", "logind"]
        mock.environment = environment
        mock.standardOutput = FileHandle.nullDevice
        mock.standardError = FileHandle.nullDevice
        try mock.run()
        processes.append(mock)
        let deadline = Date().addingTimeInterval(60)
        while try call("import dbus; print(dbus.SystemBus().name_has_owner('org.freedesktop.login1'))") != "True" {
            guard mock.isRunning, Date() < deadline else { throw BusError.didNotStart }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// The variables that put a process on this bus.
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        return environment
    }

    /// Adds a login session of `userID` to the mock logind; its object path.
    package func addSession(_ id: String, userID: UInt32) throws -> String {
        try call(
            """
            import dbus
            logind = dbus.SystemBus().get_object('org.freedesktop.login1', '/org/freedesktop/login1')
            print(logind.AddSession('\(id)', 'seat0', dbus.UInt32(\(userID)), 'user\(userID)', True, dbus_interface='org.freedesktop.DBus.Mock'))
            """
        )
    }

    /// logind asks the session at `path` to lock (what `loginctl lock-session` makes it do).
    package func lockSession(_ path: String) throws {
        _ = try call(
            """
            import dbus
            dbus.SystemBus().get_object('org.freedesktop.login1', '\(path)').Lock(dbus_interface='org.freedesktop.login1.Session')
            """
        )
    }

    /// The session at `path` reports its `LockedHint` (what a screen locker sets when it locks).
    package func setLockedHint(_ path: String, _ locked: Bool) throws {
        _ = try call(
            """
            import dbus
            session = dbus.SystemBus().get_object('org.freedesktop.login1', '\(path)')
            session.SetLockedHint(dbus.Boolean(\(locked ? "True" : "False")), dbus_interface='org.freedesktop.login1.Session')
            """
        )
    }

    /// logind announces sleep (`true`) or the wake-up (`false`).
    package func prepareForSleep(_ sleeping: Bool) throws {
        _ = try call(
            """
            import dbus
            logind = dbus.SystemBus().get_object('org.freedesktop.login1', '/org/freedesktop/login1')
            logind.EmitSignal('org.freedesktop.login1.Manager', 'PrepareForSleep', 'b', [dbus.Boolean(\(sleeping ? "True" : "False"))], dbus_interface='org.freedesktop.DBus.Mock')
            """
        )
    }

    /// logind asks the session at `path` to unlock (what `loginctl unlock-session` makes it do).
    package func unlockSession(_ path: String) throws {
        _ = try call(
            """
            import dbus
            dbus.SystemBus().get_object('org.freedesktop.login1', '\(path)').Unlock(dbus_interface='org.freedesktop.login1.Session')
            """
        )
    }

    /// A `Lock` signal for the session at `path` from a connection that is not logind.
    package func forgeLock(_ path: String) throws {
        try forge(member: "Lock", path)
    }

    /// A session signal `member` (`Lock`, `Unlock`) for the session at `path` from a connection
    /// that is not logind.
    package func forge(member: String, _ path: String) throws {
        _ = try call(
            """
            import dbus
            bus = dbus.SystemBus()
            bus.send_message(dbus.lowlevel.SignalMessage('\(path)', 'org.freedesktop.login1.Session', '\(member)'))
            bus.flush()
            """
        )
    }

    /// Sends `Lock` for the session at `path`, or with `path` `nil` `PrepareForSleep(true)`, from a
    /// program that is not logind, addressed to the connection of process `processID` alone: a
    /// signal that reaches it whatever its match rules say.
    package func forge(lock path: String?, toProcess processID: Int32) throws {
        let message =
            path.map { "dbus.lowlevel.SignalMessage('\($0)', 'org.freedesktop.login1.Session', 'Lock')" }
            ?? "dbus.lowlevel.SignalMessage('/org/freedesktop/login1', 'org.freedesktop.login1.Manager', 'PrepareForSleep')"
        _ = try call(
            """
            import dbus, time
            bus = dbus.SystemBus()
            driver = dbus.Interface(bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus'), 'org.freedesktop.DBus')
            def pid(name):
                try:
                    return driver.GetConnectionUnixProcessID(name)
                except dbus.exceptions.DBusException:
                    return None
            deadline = time.time() + 10
            targets = []
            while not targets and time.time() < deadline:
                targets = [n for n in driver.ListNames() if n.startswith(':') and pid(n) == \(processID)]
                time.sleep(0.1)
            assert targets, 'the process is not on the bus'
            for target in targets:
                message = \(message)
                if \(path == nil ? "True" : "False"):
                    message.append(True, signature='b')
                message.set_destination(target)
                bus.send_message(message)
            bus.flush()
            """
        )
    }

    package func stop() {
        // The mock first, then the bus (child processes of the test runner ignore SIGTERM).
        for process in processes.reversed() where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    package enum BusError: Error {
        case didNotStart
        case failed(String)
    }

    /// Runs a Python snippet on this bus; what it printed.
    @discardableResult
    private func call(_ script: String) throws -> String {
        let output = try SecurityToolRunner.runProgram(Self.python, ["-c", script], environment: environment)
        guard output.status == 0 else { throw BusError.failed(output.stderr) }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
