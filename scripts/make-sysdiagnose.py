#!/usr/bin/env python3
"""Builds a sysdiagnose-shaped folder and archive from the repository's sample crash reports, in the layout
an iOS sysdiagnose has (sysdiagnose_<date>_<time><zone>_<platform>_<device>_<build>/ with crashes_and_spins/,
logs/SystemVersion/SystemVersion.plist, system_logs.logarchive/ with Info.plist and tracev3 files,
sysdiagnose.log). For the tests and the benchmark of `cdlog report SYSDIAGNOSE` (issue 27); the tracev3
files are filler bytes (cdlog counts them and reads Info.plist; it never decodes tracev3).

usage: scripts/make-sysdiagnose.py OUTDIR [--filler-mb N] [--hostile KIND]
  writes OUTDIR/<name>/ (the extracted folder) and OUTDIR/<name>.tar.gz, and prints the archive's path.
  --filler-mb N   N MB of incompressible tracev3 filler (the benchmark's 200 MB archive: --filler-mb 200)
  --hostile KIND  traversal: a member named ../../escaped.ips; symlink: crashes_and_spins/link.ips -> /etc/passwd;
                  sparse: a 4 GiB sparse crashes_and_spins/huge.ips; truncated: the archive cut in half
The archive is deterministic: sorted members, fixed times and owners, gzip without a timestamp.
"""
import gzip
import os
import random
import shutil
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "sysdiagnose_2024.07.02_08-20-11+0800_iPhone-OS_iPhone_21F90"
CAPTURE = 1719879611  # 2024-07-02 08:20:11 +0800
# Sample reports and the names a sysdiagnose gives them. The jetsam event's header time is moved into the
# capture's day (the sample is from another story); nothing else in a report is changed.
REPORTS = [
    ("notingpro-launch-watchdog.ips", "crashes_and_spins/NotingPro-2024-07-02-081403.ips", None),
    ("jetsam-per-process-limit.ips", "crashes_and_spins/JetsamEvent-2024-07-02-081112.ips",
     ('"timestamp":"2026-03-02 10:11:12.00 +0100"', '"timestamp":"2024-07-02 08:11:12.00 +0800"')),
    ("disk-writes-resource.ips", "crashes_and_spins/Notes.diskwrites_resource-2026-03-02-091455.ips", None),
    ("wakeups-resource.ips", "crashes_and_spins/Notes.wakeups_resource-2026-04-09-180231.ips", None),
    ("stackshot-frozen-app.ips", "crashes_and_spins/stacks-2026-10-02-184107.ips", None),
]
SYSTEM_VERSION = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>BuildID</key>
\t<string>6A3F0C2E-1B7D-11EF-9C41-0D8E2F7A9B13</string>
\t<key>ProductBuildVersion</key>
\t<string>21F90</string>
\t<key>ProductCopyright</key>
\t<string>1983-2024 Apple Inc.</string>
\t<key>ProductName</key>
\t<string>iPhone OS</string>
\t<key>ProductVersion</key>
\t<string>17.5.1</string>
</dict>
</plist>
"""
INFO_PLIST = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>ArchiveIdentifier</key>
\t<string>267BEFE8-2AB5-4593-94C6-EA7FDEA0B53E</string>
\t<key>EndTimeRef</key>
\t<dict>
\t\t<key>ContinuousTime</key>
\t\t<integer>23596357608</integer>
\t\t<key>UUID</key>
\t\t<string>2D00B76C-D1DC-42B9-BF8B-6E5D920A8224</string>
\t\t<key>WallTime</key>
\t\t<integer>%d</integer>
\t</dict>
\t<key>OSArchiveVersion</key>
\t<integer>5</integer>
</dict>
</plist>
"""


def write(path, data, mtime):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    os.utime(path, (mtime, mtime))


def build_folder(out, filler_mb):
    top = os.path.join(out, NAME)
    if os.path.exists(top):
        shutil.rmtree(top)
    for sample, member, change in REPORTS:
        with open(os.path.join(ROOT, "Samples", "crash", sample), encoding="utf-8") as f:
            text = f.read()
        if change:
            assert change[0] in text, sample
            text = text.replace(change[0], change[1])
        write(os.path.join(top, member), text, CAPTURE - 300)
    write(os.path.join(top, "logs/SystemVersion/SystemVersion.plist"), SYSTEM_VERSION, CAPTURE - 86400 * 30)
    write(os.path.join(top, "sysdiagnose.log"), "sysdiagnose for %s\n" % NAME, CAPTURE)
    write(os.path.join(top, "ps.txt"), "USER  PID  COMMAND\nmobile  4711  /var/containers/Bundle/Application/NotingPro.app/NotingPro\n", CAPTURE)
    log = os.path.join(top, "system_logs.logarchive")
    write(os.path.join(log, "Info.plist"), INFO_PLIST % (CAPTURE * 10**9), CAPTURE)
    rng = random.Random(27)
    chunks = max(1, filler_mb)
    per = (filler_mb * 10**6 // chunks) if filler_mb else 64 * 1024
    for i in range(chunks):
        folder = "Persist" if i % 4 else "Special"
        # Oldest first: the log covers about two days before the capture.
        mtime = CAPTURE - 2 * 86400 + (2 * 86400 * i) // chunks
        write(os.path.join(log, folder, "%016x.tracev3" % (i + 1)), rng.randbytes(per), mtime)
    write(os.path.join(log, "logdata.LiveData.tracev3"), rng.randbytes(16 * 1024), CAPTURE)
    write(os.path.join(log, "timesync", "0000000000000001.timesync"), rng.randbytes(1024), CAPTURE)
    return top


def pack(out, top, hostile):
    archive = os.path.join(out, NAME + ".tar.gz")
    if hostile == "sparse":
        huge = os.path.join(top, "crashes_and_spins", "huge.ips")
        with open(huge, "wb") as f:
            f.write(b'{"bug_type":"309","app_name":"NotingPro","bundleID":"com.example.notingpro"}\n')
            f.truncate(4 << 30)
        os.utime(huge, (CAPTURE, CAPTURE))
        # GNU tar stores the holes as holes (--sparse): the archive stays small.
        subprocess.run(["tar", "--sparse", "--sort=name", "--mtime=@%d" % CAPTURE, "--owner=0", "--group=0", "--numeric-owner",
                        "-C", out, "-cf", archive[:-3], NAME], check=True)
        with open(archive[:-3], "rb") as f, open(archive, "wb") as g:
            g.write(gzip.compress(f.read(), mtime=0))
        os.remove(archive[:-3])
        return archive
    if hostile == "symlink":
        link = os.path.join(top, "crashes_and_spins", "link.ips")
        os.symlink("/etc/passwd", link)
    members = []
    for base, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(dirs + files):
            members.append(os.path.join(base, name))
    with open(archive, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
            with tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as tar:
                for path in sorted(set(members)):
                    info = tar.gettarinfo(path, arcname=os.path.relpath(path, out))
                    info.uid = info.gid = 0
                    info.uname = info.gname = ""
                    if info.isfile():
                        with open(path, "rb") as f:
                            tar.addfile(info, f)
                    else:
                        tar.addfile(info)
                if hostile == "traversal":
                    data = open(os.path.join(ROOT, "Samples", "crash", "notingpro-launch-watchdog.ips"), "rb").read()
                    info = tarfile.TarInfo("../../escaped.ips")
                    info.size, info.mtime = len(data), CAPTURE
                    import io
                    tar.addfile(info, io.BytesIO(data))
    if hostile == "truncated":
        size = os.path.getsize(archive)
        with open(archive, "r+b") as f:
            f.truncate(size // 2)
    return archive


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__.split("\n\n")[1])
    out = args[0]
    filler = int(args[args.index("--filler-mb") + 1]) if "--filler-mb" in args else 0
    hostile = args[args.index("--hostile") + 1] if "--hostile" in args else None
    if hostile not in (None, "traversal", "symlink", "sparse", "truncated"):
        sys.exit("unknown --hostile kind: " + hostile)
    os.makedirs(out, exist_ok=True)
    top = build_folder(out, filler)
    print(pack(out, top, hostile))


if __name__ == "__main__":
    main()
