#!/usr/bin/env python3
"""Writes a deterministic, realistic console log of a given size for benchmarks.

About 5% of lines are Core Data / CloudKit entries in the real shapes (multi-line userInfo dumps,
partial failures, echo pairs), among ordinary app noise (UIKit, networking, analytics, non-ASCII text).

usage: generate-log.py SIZE_MB OUTPUT [--style xcode|ndjson] [--seed N]
"""
import json
import random
import sys

NOISE = [
    "[UIKitCore] Snapshotting a view (0x{h}, UIKeyboardImpl) that has not been rendered at least once requires afterScreenUpdates:YES.",
    "nw_connection_receive_internal_block_invoke [C{n}] Receive failed with error \"Operation timed out\"",
    "Analytics: sent event screen_view {{\"screen\":\"Settings\",\"session\":\"{u}\",\"ms\":{n}}}",
    "[Networking] GET https://api.example.com/v2/items?page={n} → 200 in {n}ms",
    "Task <{u}>.<{n}> finished with error [-1001] Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\"",
    "[ImageCache] decoded image {n}x{n} for key thumb-{h} in 3ms",
    "ユーザー設定を読み込みました: テーマ=ダーク, 言語=日本語 ({n})",
    "Ignoring user defaults key AppleLanguages (cache {h})",
    "[Firebase/Analytics][I-ACS023007] Analytics v.10.{n}.0 started",
    "CFNetwork SSLHandshake completed for host cdn.example.net:{n}",
    "SwiftUI: ForEach<Array<Item>, UUID, ItemRow>: the ID {u} occurs multiple times within the collection",
    "[Backgrounding] scene did enter background: {u}",
]

CORE = [
    ["CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _scheduleAutomatedExportWithLabel:activity:completionHandler:](2784): <NSCloudKitMirroringDelegate: 0x{h}> - Beginning automated export - ExportActivity:\n<CKSchedulerActivity: 0x{h}; containerIdentifier=iCloud.com.example.app, identifier=com.apple.coredata.cloudkit.activity.export.{u}, priority=2, xpcActivityCriteriaOverrides={{ Priority=Utility }}>"],
    ["CoreData: debug: CoreData+CloudKit: -[NSCloudKitMirroringDelegate finishedAutomatedRequestWithResult:](2972): Finished request '<NSCloudKitMirroringExportRequest: 0x{h}> {u}' with result: <NSCloudKitMirroringResult: 0x{h}> storeIdentifier: {u} success: 1 madeChanges: 0 error: (null)"],
    ["error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:](2200): <NSCloudKitMirroringDelegate: 0x{h}> - Never successfully initialized and cannot execute request '<NSCloudKitMirroringImportRequest: 0x{h}> {u}' due to error: Error Domain=CKErrorDomain Code=9 \"Not Authenticated\" UserInfo={{NSLocalizedDescription=Not Authenticated, CKErrorDescription=Not Authenticated}}",
     "CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate _requestAbortedNotInitialized:](2200): <NSCloudKitMirroringDelegate: 0x{h}> - Never successfully initialized and cannot execute request '<NSCloudKitMirroringImportRequest: 0x{h}> {u}' due to error: Error Domain=CKErrorDomain Code=9 \"Not Authenticated\" UserInfo={{NSLocalizedDescription=Not Authenticated, CKErrorDescription=Not Authenticated}}"],
    ["CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate recoverFromPartialError:forStore:inMonitor:]_block_invoke(2769): <NSCloudKitMirroringDelegate: 0x{h}>: Found unknown error as part of a partial failure: <CKError 0x{h}: \"Partial Failure\" (2/1011); \"Failed to modify some records\"; partial errors: {{\n\tCD_Item_{u}:(com.apple.coredata.cloudkit.zone:__defaultOwner__) = <CKError 0x{h}: \"Server Rejected Request\" (15/2000); server message = \"Cannot create or modify field 'CD_title' in record 'CD_Item' in production schema\"; op = {h}; uuid = {u}>\n}}>"],
    ["CoreData: error: -executeRequest: encountered exception = Error Domain=NSCocoaErrorDomain Code=133020 \"Could not merge changes.\" UserInfo={{conflictList=(\n    \"NSMergeConflict (0x{h}) for NSManagedObject (0x{h}) with objectID '0x{h} <x-coredata://{u}/Item/p{n}>' with oldVersion = {n} and newVersion = {n} and old object snapshot = {{\\n    title = \\\"A\\\";\\n}} and new cached row = {{\\n    title = \\\"B\\\";\\n}}\"\n)}} with userInfo = {{\n    conflictList = (\n    );\n}}"],
    ["CoreData: annotation: Connecting to sqlite database file at \"/var/mobile/Containers/Data/Application/{u}/Library/Application Support/Model.sqlite\""],
    ["CoreData: warning: CoreData+CloudKit: -[NSCloudKitMirroringDelegate finishedAutomatedRequestWithResult:](2972): Finished request '<NSCloudKitMirroringExportRequest: 0x{h}> {u}' with result: <NSCloudKitMirroringResult: 0x{h}> storeIdentifier: {u} success: 0 madeChanges: 0 error: <CKError 0x{h}: \"Request Rate Limited\" (7/2061); \"Operation throttled by previous server http 503 reply. Retry after 20.5 seconds. (Other operations may be allowed.)\"; Retry after 20.5 seconds>"],
    ["CoreData: debug: CoreData+CloudKit: -[PFCloudKitHistoryAnalyzer analyzeHistoryInStore:withManagedObjectContext:error:](55): Processing history after token: <NSPersistentHistoryToken - {{\n    \"{u}\" = {n};\n}}>"],
]


def main():
    size_mb = int(sys.argv[1])
    output = sys.argv[2]
    style = "xcode"
    seed = 42
    args = sys.argv[3:]
    while args:
        if args[0] == "--style":
            style = args[1]; args = args[2:]
        elif args[0] == "--seed":
            seed = int(args[1]); args = args[2:]
        else:
            sys.exit("unknown argument " + args[0])
    rng = random.Random(seed)
    target = size_mb * 1024 * 1024
    written = 0
    second = 0
    micro = 0

    def fill(template):
        return template.format(h="%x" % rng.getrandbits(40), n=rng.randint(1, 99999),
                               u="%08X-%04X-%04X-%04X-%012X" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(16), rng.getrandbits(48)))

    with open(output, "w", encoding="utf-8") as out:
        while written < target:
            micro += rng.randint(1, 40000)
            if micro >= 1000000:
                second += micro // 1000000
                micro %= 1000000
            stamp = "2024-03-01 %02d:%02d:%02d.%06d+0100" % ((10 + second // 3600) % 24, (second // 60) % 60, second % 60, micro)
            if rng.random() < 0.05:
                group = CORE[rng.randrange(len(CORE))]
                messages = [fill(m) for m in group]
                # Echo pairs need identical variable parts.
                if len(messages) == 2:
                    messages[1] = "CoreData: " + messages[0]
            else:
                messages = [fill(NOISE[rng.randrange(len(NOISE))])]
            for message in messages:
                if style == "ndjson":
                    line = json.dumps({"timestamp": stamp, "messageType": "Default", "eventType": "logEvent",
                                       "subsystem": "com.apple.coredata" if message.startswith(("CoreData", "error:")) else "com.example.app",
                                       "category": "cloudkit", "processImagePath": "/private/var/containers/Bundle/Application/X/MyApp.app/MyApp",
                                       "processID": 1234, "threadID": 567890, "eventMessage": message}, ensure_ascii=False) + "\n"
                else:
                    line = "%s MyApp[1234:567890] %s\n" % (stamp, message)
                out.write(line)
                written += len(line.encode("utf-8"))


if __name__ == "__main__":
    main()
