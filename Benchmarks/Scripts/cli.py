#!/usr/bin/env python3
# This source file is part of the swift-keychain open source project
# Copyright (c) 2026 the swift-keychain project authors
# Licensed under Apache License v2.0; see LICENSE.txt. SPDX-License-Identifier: Apache-2.0
"""One `security` process per operation, timed from Python's subprocess.run as ../shared/peers
times `secret-tool`: store, look-up (-w, checked), update (-U) and delete over N items."""
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
    args = parser.parse_args()

    home = tempfile.mkdtemp(prefix="keychain-bench-cli-")
    env = dict(os.environ, KEYCHAIN_HOME=home, KEYCHAIN_PROMPT="none")
    first = [secrets.token_hex(32) for _ in range(args.n)]
    second = [secrets.token_hex(32) for _ in range(args.n)]
    subject = "swift-keychain security CLI (proc/op)"

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
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
