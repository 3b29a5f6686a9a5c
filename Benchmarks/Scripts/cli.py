#!/usr/bin/env python3
# This source file is part of the swift-keychain open source project
# Copyright (c) 2026 the swift-keychain project authors
# Licensed under Apache License v2.0; see LICENSE.txt. SPDX-License-Identifier: Apache-2.0
"""One `security` process per operation, timed from Python's subprocess.run as ../shared/peers
times `secret-tool`: store, look-up (-w, checked), update (-U) and delete over N items.

--engine daemon runs the same through a securityd (started here, beside the security binary, and
stopped at the end): each process then only connects to the daemon instead of opening the database."""
import argparse
import json
import os
import secrets
import shutil
import subprocess
import tempfile
import time


def percentile(ordered, p):
    if not ordered:
        return float("nan")
    rank = (len(ordered) - 1) * p / 100.0
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def record(subject, phase, latencies, wall, errors):
    ordered = sorted(latencies)
    return {
        "peer": subject,
        "phase": phase,
        "n": len(latencies),
        "errors": errors,
        "wall_s": wall / 1e9,
        "ops_per_s": len(latencies) / (wall / 1e9),
        "lat_ms": {name: percentile(ordered, p) / 1e6 for name, p in
                   (("p10", 10), ("p50", 50), ("p90", 90), ("p99", 99))},
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--security", required=True)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--out", required=True)
    parser.add_argument("--engine", choices=("embedded", "daemon"), default="embedded")
    args = parser.parse_args()

    home = tempfile.mkdtemp(prefix="keychain-bench-cli-")
    env = dict(os.environ, KEYCHAIN_HOME=home, KEYCHAIN_PROMPT="none", KEYCHAIN_ENGINE=args.engine)
    first = [secrets.token_hex(32) for _ in range(args.n)]
    second = [secrets.token_hex(32) for _ in range(args.n)]
    subject = "swift-keychain security CLI (proc/op)"
    daemon = None
    if args.engine == "daemon":
        subject = "swift-keychain security CLI via securityd (proc/op)"
        socket = os.path.join(home, "daemon.socket")
        securityd = os.path.join(os.path.dirname(os.path.abspath(args.security)), "securityd")
        # The daemon's settings come from a file of its own, never from its starter's environment.
        settings = os.path.join(home, "securityd.conf")
        with open(os.open(settings, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
            file.write("pinentry = none\n")
        daemon = subprocess.Popen([securityd, "--keychain", os.path.join(home, "keychain"), "--socket", socket,
                                   "--config", settings],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while not os.path.exists(socket):
            if daemon.poll() is not None or time.time() > deadline:
                raise SystemExit("securityd did not start")
            time.sleep(0.01)
        env["KEYCHAIN_SOCKET"] = socket
        env["KEYCHAIN_HOME"] = os.path.join(home, "keychain")

    def run(arguments):
        return subprocess.run([args.security] + arguments, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env)

    def key(i):
        return ["-s", f"kc-bench-svc-{i}", "-a", f"user{i}@example.invalid"]

    phases = [
        ("store", lambda i: run(["add-generic-password"] + key(i) + ["-w", first[i]]).returncode == 0),
        ("lookup", lambda i: run(["find-generic-password"] + key(i) + ["-w"]).stdout.strip() == first[i].encode()),
        ("update", lambda i: run(["add-generic-password", "-U"] + key(i) + ["-w", second[i]]).returncode == 0),
        ("delete", lambda i: run(["delete-generic-password"] + key(i)).returncode == 0),
    ]
    try:
        with open(args.out, "a") as out:
            for phase, operation in phases:
                latencies, errors = [], 0
                start = time.perf_counter_ns()
                for i in range(args.n):
                    before = time.perf_counter_ns()
                    ok = operation(i)
                    latencies.append(time.perf_counter_ns() - before)
                    errors += 0 if ok else 1
                result = record(subject, phase, latencies, time.perf_counter_ns() - start, errors)
                out.write(json.dumps(result, sort_keys=True) + "\n")
                print(f"  {subject:<40} {phase:<8} {result['ops_per_s']:10.1f} ops/s  "
                      f"p50={result['lat_ms']['p50']:.3f} ms" + (f"  ERRORS={errors}" if errors else ""), flush=True)
    finally:
        if daemon is not None:
            daemon.terminate()
            daemon.wait()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
