#!/usr/bin/env python3
# This source file is part of the swift-keychain open source project
# Copyright (c) 2026 the swift-keychain project authors
# Licensed under Apache License v2.0; see LICENSE.txt. SPDX-License-Identifier: Apache-2.0
"""The fingerprint round trip with libfprint's virtual reader, beside fprintd's own client: from
starting the process to its answer, `fprintd-verify` (claim, verify, release) and `security
find-generic-password -w` of a biometryAny item through securityd (the daemon asks fprintd), each
while the same scan is put on the reader as soon as it is opened.

It starts a private system bus, python-dbusmock's polkitd and fprintd with FP_VIRTUAL_DEVICE (as
../shared/recipes/fprint.sh does) and stops them by PID. It needs root, fprintd, dbus-daemon and
python3-dbusmock; without them it writes nothing and says so."""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time


def percentile(ordered, p):
    rank = (len(ordered) - 1) * p / 100.0
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def record(subject, latencies, errors):
    ordered = sorted(latencies) or [float("nan")]
    wall = sum(latencies) or 1
    return {"peer": subject, "phase": "verify round trip", "n": len(latencies), "errors": errors,
            "wall_s": wall / 1e9, "ops_per_s": len(latencies) / (wall / 1e9),
            "lat_ms": {name: percentile(ordered, p) / 1e6 for name, p in (("p10", 10), ("p50", 50), ("p90", 90), ("p99", 99))}}


def wait_for(condition, what, seconds=20):
    deadline = time.time() + seconds
    while not condition():
        if time.time() > deadline:
            raise SystemExit(f"fprint.py: {what} did not start")
        time.sleep(0.05)


def scan(path, finger, seconds=20):
    """Sends SCAN once the reader is open (its socket accepts), after the same short pause each time."""
    deadline = time.time() + seconds
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            break
        except OSError:
            s.close()
            if time.time() > deadline:
                return False
            time.sleep(0.01)
    time.sleep(0.1)
    try:
        s.sendall(f"SCAN {finger}".encode())
        s.shutdown(socket.SHUT_WR)
    except OSError:
        return False  # the reader closed meanwhile
    finally:
        s.close()
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--security", required=True)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    needed = ["/usr/libexec/fprintd", "/usr/bin/dbus-daemon", "/usr/bin/fprintd-verify", "/usr/bin/fprintd-enroll"]
    if os.geteuid() != 0 or not all(os.path.exists(p) for p in needed):
        print("fprint.py: needs root, fprintd and dbus-daemon; no fingerprint figures")
        return

    work = tempfile.mkdtemp(prefix="keychain-bench-fprint-")
    processes = []
    try:
        bus = os.path.join(work, "bus")
        address = f"unix:path={bus}"
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address)
        processes.append(subprocess.Popen(["dbus-daemon", "--session", f"--address={address}", "--nofork", "--nopidfile"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(lambda: os.path.exists(bus), "the bus")

        def owns(name):
            reply = subprocess.run(["dbus-send", "--system", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                                    "org.freedesktop.DBus.NameHasOwner", f"string:{name}"],
                                   env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            return "true" in reply.stdout

        processes.append(subprocess.Popen(["/usr/bin/python3", "-m", "dbusmock", "--system", "--template", "polkitd"],
                                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(lambda: owns("org.freedesktop.PolicyKit1"), "polkit's mock")
        subprocess.run(["dbus-send", "--system", "--print-reply", "--dest=org.freedesktop.PolicyKit1",
                        "/org/freedesktop/PolicyKit1/Authority", "org.freedesktop.DBus.Mock.AllowUnknown", "boolean:true"],
                       env=env, stdout=subprocess.DEVNULL, check=True)
        reader = os.path.join(work, "reader.sock")
        os.makedirs(os.path.join(work, "state"))
        processes.append(subprocess.Popen(["/usr/libexec/fprintd", "-t"],
                                          env=dict(env, FP_VIRTUAL_DEVICE=reader, STATE_DIRECTORY=os.path.join(work, "state")),
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(lambda: owns("net.reactivated.Fprint"), "fprintd")

        home = os.path.join(work, "keychain")
        daemon_socket = os.path.join(work, "securityd.socket")
        securityd = os.path.join(os.path.dirname(os.path.abspath(args.security)), "securityd")
        client = dict(env, KEYCHAIN_HOME=home, KEYCHAIN_ENGINE="daemon", KEYCHAIN_SOCKET=daemon_socket,
                      KEYCHAIN_PROMPT="none", KEYCHAIN_PASSCODE_COST="testing")
        # The daemon's settings, the bus where it trusts fprintd among them, come from a file of
        # its own, never from its starter's environment.
        settings = os.path.join(work, "securityd.conf")
        with open(os.open(settings, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
            file.write(f"pinentry = none\npasscode-cost = testing\nsystem-bus = {address}\n")
        processes.append(subprocess.Popen([securityd, "--keychain", home, "--socket", daemon_socket,
                                           "--config", settings],
                                          env=client, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_for(lambda: os.path.exists(daemon_socket), "securityd")

        def security(arguments, stdin=""):
            return subprocess.run([args.security] + arguments, input=stdin, env=client, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)

        for arguments, stdin in ((["passcode", "set"], "4826\n4826\n"), (["unlock"], "4826\n"),
                                 (["biometry", "sensor", "fprintd"], "")):
            if security(arguments, stdin).returncode != 0:
                raise SystemExit(f"fprint.py: security {' '.join(arguments)} failed")
        # One finger, enrolled through the keychain (fprintd-verify then verifies the same print).
        enrol = subprocess.Popen([args.security, "biometry", "enroll", "right-index-finger"], env=client,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        while enrol.poll() is None:
            # One scan per stage, a moment apart, as a finger is lifted and put back.
            scan(reader, "finger-A", seconds=2)
            time.sleep(0.3)
        if enrol.returncode != 0:
            raise SystemExit(f"fprint.py: enrolling failed: {enrol.stderr.read().strip()}")
        if security(["add-generic-password", "-s", "fprint-bench", "-a", "me", "-w", "benchmark secret",
                     "--access-control", "biometryAny"]).returncode != 0:
            raise SystemExit("fprint.py: adding the item failed")

        def timed(command, check):
            latencies, errors = [], 0
            for _ in range(args.n):
                start = time.perf_counter_ns()
                process = subprocess.Popen(command, env=client, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
                scanner = threading.Thread(target=scan, args=(reader, "finger-A"))
                scanner.start()
                output, _ = process.communicate(timeout=60)
                latencies.append(time.perf_counter_ns() - start)
                scanner.join()
                if process.returncode != 0 or not check(output):
                    errors += 1
            return latencies, errors

        results = [
            record("fprintd-verify", *timed(["fprintd-verify", "-f", "any"], lambda out: "verify-match" in out)),
            record("security find -w (fprintd, via securityd)",
                   *timed([args.security, "find-generic-password", "-s", "fprint-bench", "-a", "me", "-w"],
                          lambda out: out == "benchmark secret\n")),
        ]
        with open(args.out, "a") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
        for r in results:
            print(f"fprint.py: {r['peer']}: p50 {r['lat_ms']['p50']:.1f} ms, errors {r['errors']}")
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                process.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
