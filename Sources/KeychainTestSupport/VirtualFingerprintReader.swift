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

/// fprintd with libfprint's virtual reader on a throw-away system bus, as `../shared/recipes/fprint.sh`
/// starts them: `dbus-daemon` on a private socket (any local user may connect and own names, so that a
/// fake fprintd can be tried), python-dbusmock's polkitd allowing fprintd's actions, and fprintd with
/// `FP_VIRTUAL_DEVICE`, whose socket takes `SCAN <finger>` lines.
///
/// Every process is stopped by PID.
package final class VirtualFingerprintReader: @unchecked Sendable {
    package let directory: URL
    package let address: String
    private var bus: Process?
    private var polkit: Process?
    private var fprintd: Process?
    private var fake: Process?

    package static let python = "/usr/bin/python3"
    package static let fprintdExecutable = "/usr/libexec/fprintd"

    /// Whether fprintd, dbus-daemon and python-dbusmock are installed (`.ci/run` installs them), and
    /// the tests run as root (fprintd must, to be believed; and the fake one is started as another user).
    package static var isAvailable: Bool {
        getuid() == 0
            && FileManager.default.isExecutableFile(atPath: fprintdExecutable)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock/templates/polkitd.py")
    }

    package var socketPath: String { directory.appendingPathComponent("virtual-reader.sock").path }

    /// Starts the bus and polkit's mock; with `fprintd`, fprintd too.
    package init(fprintd startsFprintd: Bool = true) throws {
        directory = URL(fileURLWithPath: "/tmp/kc-fprint-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755]
        )
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("state"),
            withIntermediateDirectories: true
        )
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        let configuration = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
          </policy>
        </busconfig>
        """.write(to: configuration, atomically: true, encoding: .utf8)
        bus = try Self.start(
            "/usr/bin/dbus-daemon",
            ["--config-file=\(configuration.path)", "--nofork", "--nopidfile"],
            environment: [:]
        )
        try wait("the bus") { FileManager.default.fileExists(atPath: socket) }
        chmod(socket, 0o777)
        polkit = try Self.start(
            Self.python,
            ["-m", "dbusmock", "--system", "--template", "polkitd"],
            environment: environment
        )
        try wait("polkit's mock") { try self.owns("org.freedesktop.PolicyKit1") }
        try python(
            """
            import dbus
            dbus.SystemBus().get_object('org.freedesktop.PolicyKit1', '/org/freedesktop/PolicyKit1/Authority').AllowUnknown(True, dbus_interface='org.freedesktop.DBus.Mock')
            """
        )
        if startsFprintd { try startFprintd() }
    }

    /// The variables that put a process on this bus.
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        return environment
    }

    // MARK: fprintd

    package func startFprintd() throws {
        var variables = environment
        variables["FP_VIRTUAL_DEVICE"] = socketPath
        variables["STATE_DIRECTORY"] = directory.appendingPathComponent("state").path
        fprintd = try Self.start(Self.fprintdExecutable, ["-t"], environment: variables)
        try wait("fprintd") { try self.owns("net.reactivated.Fprint") }
    }

    package func stopFprintd() {
        Self.stop(fprintd)
        fprintd = nil
        try? FileManager.default.removeItem(atPath: socketPath)
    }

    /// Puts `finger` on the reader: waits until fprintd has opened the reader (its socket answers), then
    /// sends `SCAN <finger>`.
    package func scan(_ finger: String, within seconds: Double = 20) throws {
        try waitForReader(sending: "SCAN \(finger)", within: seconds)
    }

    /// Waits until fprintd has opened the reader (someone is waiting for a finger).
    package func waitUntilOpened(within seconds: Double = 20) throws {
        try waitForReader(sending: nil, within: seconds)
    }

    /// Waits until fprintd has closed the reader (nobody waits for a finger any more): a scan sent
    /// before then goes to the verification that is ending, not to the next one.
    package func waitUntilClosed(within seconds: Double = 20) throws {
        try waitForReader(open: false, sending: nil, within: seconds)
    }

    /// Waits until the reader's socket answers (`open`) or no longer does, then sends `command`.
    private func waitForReader(open: Bool = true, sending command: String? = nil, within seconds: Double) throws {
        try python(
            """
            import socket, sys, time
            deadline = time.time() + \(seconds)
            while True:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    s.connect('\(socketPath)')
                    answered = True
                except OSError:
                    answered = False
                if answered == \(open ? "True" : "False"):
                    break
                s.close()
                if time.time() > deadline:
                    sys.exit('the virtual reader was not \(open ? "opened" : "closed")')
                time.sleep(0.05)
            if answered:
                time.sleep(0.3)
                command = \(command.map { "b'\($0)'" } ?? "None")
                if command:
                    s.sendall(command)
                    s.shutdown(socket.SHUT_WR)
            s.close()
            """
        )
    }

    /// A program of user `uid` (not root) that takes fprintd's name on this bus and reports every
    /// finger as a match: what a local attacker would try.
    package func startFakeFprintd(asUser uid: UInt32) throws {
        let script = directory.appendingPathComponent("fake.py")
        try """
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.SystemBus()
        name = dbus.service.BusName('net.reactivated.Fprint', bus)
        DEVICE = '/net/reactivated/Fprint/Device/0'
        class Manager(dbus.service.Object):
            @dbus.service.method('net.reactivated.Fprint.Manager', out_signature='o')
            def GetDefaultDevice(self): return dbus.ObjectPath(DEVICE)
            @dbus.service.method('net.reactivated.Fprint.Manager', out_signature='ao')
            def GetDevices(self): return [dbus.ObjectPath(DEVICE)]
        class Device(dbus.service.Object):
            @dbus.service.method('net.reactivated.Fprint.Device', in_signature='s')
            def Claim(self, user): pass
            @dbus.service.method('net.reactivated.Fprint.Device')
            def Release(self): pass
            @dbus.service.method('net.reactivated.Fprint.Device', in_signature='s', out_signature='as')
            def ListEnrolledFingers(self, user): return ['right-index-finger']
            @dbus.service.method('net.reactivated.Fprint.Device', in_signature='s')
            def VerifyStart(self, finger): GLib.timeout_add(100, lambda: self.VerifyStatus('verify-match', True) and False)
            @dbus.service.method('net.reactivated.Fprint.Device')
            def VerifyStop(self): pass
            @dbus.service.signal('net.reactivated.Fprint.Device', signature='sb')
            def VerifyStatus(self, result, done): pass
            @dbus.service.method('org.freedesktop.DBus.Properties', in_signature='ss', out_signature='v')
            def Get(self, interface, prop): return 'Fake reader' if prop == 'name' else 0
        Manager(bus, '/net/reactivated/Fprint/Manager')
        Device(bus, DEVICE)
        GLib.MainLoop().run()
        """.write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o644)
        fake = try Self.start(
            "/usr/bin/setpriv",
            ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Self.python, script.path],
            environment: environment
        )
        try wait("the fake fprintd") { try self.owns("net.reactivated.Fprint") }
    }

    /// A program of user `uid` (not root) that sends fprintd's `VerifyStatus("verify-match", done)` signal
    /// for the reader, as if fprintd had matched: what a local attacker would try during a real scan.
    package func forgeMatch(asUser uid: UInt32) throws {
        let output = try SecurityToolRunner.runProgram(
            "/usr/bin/setpriv",
            [
                "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Self.python, "-c",
                """
                import dbus, dbus.lowlevel
                bus = dbus.SystemBus()
                signal = dbus.lowlevel.SignalMessage('/net/reactivated/Fprint/Device/0', 'net.reactivated.Fprint.Device', 'VerifyStatus')
                signal.append('verify-match', True, signature='sb')
                bus.send_message(signal)
                bus.flush()
                """,
            ],
            environment: environment
        )
        guard output.status == 0 else { throw ReaderError.failed(output.stderr) }
    }

    package func stop() {
        for process in [fake, fprintd, polkit, bus] { Self.stop(process) }
        try? FileManager.default.removeItem(at: directory)
    }

    package enum ReaderError: Error {
        case didNotStart(String)
        case failed(String)
    }

    // MARK: Private

    private func owns(_ name: String) throws -> Bool {
        try python("import dbus; print(dbus.SystemBus().name_has_owner('\(name)'))") == "True"
    }

    private func wait(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while try !condition() {
            guard Date() < deadline else { throw ReaderError.didNotStart(what) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    @discardableResult
    private func python(_ script: String) throws -> String {
        let output = try SecurityToolRunner.runProgram(Self.python, ["-c", script], environment: environment)
        guard output.status == 0 else { throw ReaderError.failed(output.stderr) }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func start(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]
    ) throws -> Process {
        try ProgramRun.start(
            URL(fileURLWithPath: executable),
            arguments,
            environment: environment.isEmpty ? nil : environment
        )
    }

    private static func stop(_ process: Process?) {
        ProgramRun.end(process)
    }
}
