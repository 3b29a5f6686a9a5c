#!/usr/bin/env python3
# This source file is part of the swift-keychain open source project
# Copyright (c) 2026 the swift-keychain project authors
# Licensed under Apache License v2.0; see LICENSE.txt. SPDX-License-Identifier: Apache-2.0
"""The Secret Service of `securityd --secret-service` beside gnome-keyring's, in one run, each on a
private session bus of its own (started and stopped here by PID):

- look-ups per second over one D-Bus connection (python secretstorage: a search by two
  attributes, then the secret), as ../shared/peers measures gnome-keyring;
- `secret-tool lookup`, one process per look-up;
- a search by two attributes with --small items stored, and with --big.

It prints each measure and the ratio swift-keychain / gnome-keyring, and writes JSON lines to
--out. It needs dbus-daemon, gnome-keyring, libsecret-tools and python3-secretstorage."""
import argparse
import json
import os
import random
import shutil
import subprocess
import tempfile
import time


def wait_for_name(env, name="org.freedesktop.secrets", seconds=20):
    deadline = time.time() + seconds
    probe = ("import dbus,sys; sys.exit(0 if dbus.SessionBus().name_has_owner('%s') else 1)" % name)
    while time.time() < deadline:
        if subprocess.run(["/usr/bin/python3", "-c", probe], env=env).returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError("nothing owns %s" % name)


def start_provider(kind, folder, securityd):
    """A session bus in `folder` and `kind`'s provider on it; the processes and the environment."""
    bus = os.path.join(folder, "bus")
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="unix:path=" + bus, HOME=os.path.join(folder, "home"),
               XDG_DATA_HOME=os.path.join(folder, "home/.local/share"), XDG_RUNTIME_DIR=os.path.join(folder, "run"))
    os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
    os.makedirs(env["HOME"])
    daemon = subprocess.Popen(["dbus-daemon", "--session", "--address=" + env["DBUS_SESSION_BUS_ADDRESS"], "--nofork",
                               "--nopidfile"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not os.path.exists(bus):
        time.sleep(0.02)
    if kind == "gnome-keyring":
        provider = subprocess.Popen(["gnome-keyring-daemon", "--unlock", "--foreground", "--components=secrets"],
                                    stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        provider.stdin.write(b"benchmark")
        provider.stdin.close()
    else:
        config = os.path.join(folder, "securityd.conf")
        with open(config, "w") as file:
            file.write("pinentry = none\n")
        provider = subprocess.Popen([securityd, "--keychain", os.path.join(folder, "keychain"), "--socket",
                                     os.path.join(folder, "socket"), "--config", config, "--secret-service"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wait_for_name(env)
    return [provider, daemon], env


def measure(env, args):
    """Runs the measures in a python of its own on `env`'s bus; a dict of results."""
    program = r'''
import json, random, sys, time, secretstorage
small, big, n, searches = [int(x) for x in sys.argv[1:5]]
connection = secretstorage.dbus_init()
collection = secretstorage.get_default_collection(connection)
def store(i):
    collection.create_item("bench %d" % i, {"service": "s%d" % i, "account": "a%d" % i}, b"secret-%d" % i)
def find(i):
    [item] = collection.search_items({"service": "s%d" % i, "account": "a%d" % i})
    return item
for i in range(small):
    store(i)
rng = random.Random(7)
picks = [rng.randrange(small) for _ in range(n)]
start = time.perf_counter()
for i in picks:
    assert find(i).get_secret() == b"secret-%d" % i
lookups = n / (time.perf_counter() - start)
def search_time():
    start = time.perf_counter()
    for _ in range(searches):
        find(rng.randrange(small))
    return (time.perf_counter() - start) / searches
at_small = search_time()
for i in range(small, big):
    store(i)
at_big = search_time()
print(json.dumps({"lookups_per_second": lookups, "search_seconds_small": at_small, "search_seconds_big": at_big}))
'''
    run = subprocess.run(["/usr/bin/python3", "-c", program, str(args.small), str(args.big), str(args.n),
                          str(args.searches)], env=env, capture_output=True, text=True, check=True)
    result = json.loads(run.stdout)
    times = []
    for i in range(args.processes):
        start = time.perf_counter()
        out = subprocess.run(["secret-tool", "lookup", "service", "s%d" % (i % args.small), "account",
                              "a%d" % (i % args.small)], env=env, capture_output=True, check=True).stdout
        times.append(time.perf_counter() - start)
        assert out == b"secret-%d" % (i % args.small)
    result["secret_tool_seconds"] = sum(times) / len(times)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--securityd", required=True)
    parser.add_argument("--n", type=int, default=1000, help="look-ups over one connection")
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--big", type=int, default=10000)
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--processes", type=int, default=20, help="secret-tool look-ups, one process each")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    missing = [p for p in ("dbus-daemon", "gnome-keyring-daemon", "secret-tool") if not shutil.which(p)]
    if missing:
        print("secret_service.py: skipped, missing " + ", ".join(missing))
        return
    results = {}
    for kind in ("gnome-keyring", "swift-keychain"):
        folder = tempfile.mkdtemp(prefix="kc-ss-bench-")
        processes, env = start_provider(kind, folder, args.securityd)
        try:
            results[kind] = measure(env, args)
        finally:
            for process in processes:
                process.kill()
                process.wait()
            shutil.rmtree(folder, ignore_errors=True)
    ours, theirs = results["swift-keychain"], results["gnome-keyring"]
    lines = []
    for key in ("lookups_per_second", "secret_tool_seconds", "search_seconds_small", "search_seconds_big"):
        ratio = ours[key] / theirs[key]
        lines.append({"measure": key, "swift-keychain": ours[key], "gnome-keyring": theirs[key], "ratio": ratio})
        print("%-22s swift-keychain %12.5f  gnome-keyring %12.5f  ratio %6.2f" % (key, ours[key], theirs[key], ratio))
    growth = ours["search_seconds_big"] / ours["search_seconds_small"]
    print("search at %d items / at %d items (swift-keychain): %.2f" % (args.big, args.small, growth))
    lines.append({"measure": "search_growth", "swift-keychain": growth, "small": args.small, "big": args.big})
    if args.out:
        with open(args.out, "a") as file:
            for line in lines:
                file.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
