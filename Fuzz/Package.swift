// swift-tools-version:6.1
// libFuzzer targets for cdlog (issue 8). NOT part of the main package: libFuzzer brings its own `main`,
// so these executables are built only by `scripts/fuzz.sh`, in their own scratch folder, with
// `-sanitize=fuzzer,address -parse-as-library`. See README.md, "Robustness".
import PackageDescription

// The main package is the folder above; SwiftPM names a path dependency after its folder, which differs
// between checkouts (main, a worktree, CI), so the identity is computed rather than spelled out.
let rootIdentity = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "cdlog"

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: rootIdentity) },
        path: "Sources/\(name)",
        // libFuzzer provides `main`; the module defines only LLVMFuzzerTestOneInput.
        swiftSettings: [.unsafeFlags(["-parse-as-library"])],
        // Only the fuzz executables link libFuzzer. Every module (these and the main package's) is
        // compiled by scripts/fuzz.sh with `-sanitize=address -sanitize-coverage=…`, the compile half of
        // `-sanitize=fuzzer`; passing `-sanitize=fuzzer` globally would also link libFuzzer's `main`
        // into the build-time RuleEmbedder tool, which then fails to link.
        linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
    )
}

let package = Package(
    name: "cdlog-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzSupport", path: "Sources/FuzzSupport"),
        // Format detection + line/JSON entry splitting (+ classification), chunk-size invariance.
        fuzzTarget("FuzzLogs", ["CDLogKit"]),
        // Rule files: YAML structure and PCRE2 pattern compile errors.
        fuzzTarget("FuzzRules", ["CDLogKit"]),
        // Crash reports: .ips, legacy .crash, Xcode translated reports, MetricKit JSON.
        fuzzTarget("FuzzCrash", ["CDLogKit", "CrashReports"]),
        // walcheck's parsers: database header, WAL header + frame scan, wal-index, bplist, full inspection.
        fuzzTarget("FuzzStore", ["StoreInspection"]),
    ]
)
